"""cribcore.cards: plain asserts, so the same file runs under CPython and MicroPython."""

from checks import expecting

from cribcore.cards import (
    DECK,
    RANKS,
    SUITS,
    SYMBOLS,
    InvalidCardError,
    card,
    card_name,
    card_symbol,
    check_card,
    parse_card,
    parse_cards,
    rank,
    suit,
    value,
)

_raises = expecting(InvalidCardError)


def test_round_trip_every_card():
    for c in DECK:
        assert parse_card(card_name(c)) == c
        assert parse_card(card_name(c).lower()) == c
        assert parse_card(card_symbol(c)) == c
        assert card(rank(c), suit(c)) == c


def test_names_are_canonical():
    rows = [("5h", "5H"), (" 10d ", "TD"), ("TD", "TD"), ("jc", "JC"), ("As", "AS"),
            ("5\u2665", "5H"), ("k\u2660", "KS"), ("q\u2661", "QH")]
    for text, name in rows:
        assert card_name(parse_card(text)) == name


def test_each_name_and_symbol_is_its_rank_and_suit():
    # the names are literal tables (kept in flash when frozen): each must be its card's
    for c in DECK:
        r = RANKS[rank(c)]
        assert card_name(c) == r + SUITS[suit(c)]
        assert card_symbol(c) == ("10" if r == "T" else r) + SYMBOLS[suit(c)]
    assert _raises(card_symbol, -1) and _raises(card_name, -1)


def test_rank_suit_layout():
    assert rank(parse_card("AC")) == 0 and suit(parse_card("AC")) == 0
    assert rank(parse_card("KS")) == 12 and suit(parse_card("KS")) == 3
    assert parse_card("KS") == 51
    assert [value(parse_card(r + "C")) for r in RANKS] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                                           10, 10, 10]
    assert "".join([SUITS[suit(parse_card("2" + s))] for s in "cdhs"]) == "CDHS"


def test_sorting_ints_sorts_by_rank():
    cs = parse_cards("KS 2H AD TC 5S")
    assert [card_name(c)[0] for c in sorted(cs)] == ["A", "2", "5", "T", "K"]


def test_bad_cards_raise():
    for text in ["", " ", "5", "1H", "11H", "5X", "ZZ", "5HH", "HH", "0D", "\u2665"]:
        assert _raises(parse_card, text), text
    assert _raises(parse_card, 5)
    for c in [-1, 52, True, "5H", 3.0]:
        assert _raises(check_card, c), c
    assert _raises(card_name, 52)


def test_error_names_the_bad_text():
    try:
        parse_card("9Z")
    except InvalidCardError as e:
        assert "9Z" in str(e)
    else:
        assert False


def test_parse_cards_lists_and_duplicates():
    assert parse_cards("5h, 5c 10d") == [parse_card("5H"), parse_card("5C"), parse_card("TD")]
    assert parse_cards(["5h", "jc"]) == [parse_card("5H"), parse_card("JC")]
    assert parse_cards("") == []
    assert _raises(parse_cards, "5h 5H")
    assert _raises(parse_cards, "5h 5Q")
