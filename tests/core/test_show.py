"""Known show scores and breakdowns (plain asserts: runs under CPython and MicroPython)."""

from checks import expecting

from cribcore.cards import InvalidCardError, parse_card, parse_cards
from cribcore.show import (
    FIFTEEN,
    FLUSH,
    KINDS,
    NOBS,
    PAIR,
    RUN,
    points_by_rank,
    points_by_suit,
    score_show,
    show_breakdown,
)

# (hand, starter, hand score, crib score, what it shows). Totals worked out by hand.
TOTALS = (
    ("5C 5D 5H JS", "5S", 29, 29, "the 29: 8 fifteens 16 + pairs royal 12 + nobs"),
    ("5C 5D 5H 5S", "JD", 28, 28, "four fives and a starter jack (no nobs)"),
    ("5C 5D 5H KS", "5S", 28, 28, "four fives and a king"),
    ("2C 4D 6H 8S", "KC", 0, 0, "nineteen: even values never make 15"),
    ("3C 3D 4H 5S", "KC", 12, 12, "double run 6 + pair 2 + 5-K and 3-3-4-5 fifteens 4"),
    ("3C 3D 4H 4S", "5C", 20, 20, "double double run 12 + two pairs 4 + two fifteens 4"),
    ("3C 3D 3H 4S", "5C", 21, 21, "triple run 9 + pairs royal 6 + three fifteens 6"),
    ("3C 4D 5H 6S", "6C", 16, 16, "double run of 4 8 + pair 2 + three fifteens 6"),
    ("AC 2D 3H 4S", "5C", 7, 7, "run of 5 + one fifteen of all five"),
    ("JC QD KH 5S", "5C", 18, 18, "six face fifteens 12 + pair 2 + run 3 + nobs 1"),
    ("TH JC QD KS", "5H", 12, 12, "four face fifteens 8 + run of 4"),
    ("2H 4H 6H 8H", "KC", 4, 0, "4-card flush: hand 4, crib 0"),
    ("2H 4H 6H 8H", "KH", 5, 5, "5-card flush in hand and crib"),
    ("2H 4H 6H 8C", "KH", 0, 0, "the starter never makes a 4-flush with three hand cards"),
    ("JH 2H 4H 6H", "8H", 6, 6, "5-card flush + nobs"),
    ("JH 2C 4D 6S", "8H", 1, 1, "nobs: hand jack of the starter's suit"),
    ("JC 2C 4D 6S", "8H", 0, 0, "a jack of another suit is not nobs"),
    ("2C 4D 6S 8H", "JH", 0, 0, "a starter jack is never nobs"),
    ("AC AD AH AS", "KC", 12, 12, "four aces, nothing else"),
    ("5H 5D TC QS", "KH", 14, 14, "six fifteens 12 + pair 2; T-Q-K is no run"),
)


def _deal(hand, starter):
    return parse_cards(hand), parse_card(starter)


def _items(spec):
    """[(kind, 'card card', points)] -> sorted list of (kind, sorted card ints, points)."""
    out = [(k, tuple(sorted(parse_cards(c))), p) for k, c, p in spec]
    return sorted(out)


def _got(items):
    return sorted([(it.kind, tuple(sorted(it.cards)), it.points) for it in items])


def test_known_totals_hand_and_crib():
    for hand, starter, want, want_crib, why in TOTALS:
        h, s = _deal(hand, starter)
        assert score_show(h, s) == want, (hand, starter, why)
        assert score_show(h, s, crib=True) == want_crib, (hand, starter, why)


def test_breakdown_sums_to_total_on_known_hands():
    for hand, starter, _, _, _ in TOTALS:
        h, s = _deal(hand, starter)
        for crib in (False, True):
            items = show_breakdown(h, s, crib)
            assert sum([it.points for it in items]) == score_show(h, s, crib), (hand, starter)


def test_rank_and_suit_parts_add_up_to_the_total():
    for hand, starter, want, want_crib, _ in TOTALS:
        h, s = _deal(hand, starter)
        assert points_by_rank(h + [s]) + points_by_suit(h + [s]) == want, (hand, starter)
        assert points_by_rank(h + [s]) + points_by_suit(h + [s], True) == want_crib


def test_breakdown_of_the_29():
    h, s = _deal("5C 5D 5H JS", "5S")
    fives = ("5C", "5D", "5H", "5S")
    want = [(FIFTEEN, f + " JS", 2) for f in fives]
    for skip in fives:
        want.append((FIFTEEN, " ".join([f for f in fives if f != skip]), 2))
    for i in range(4):
        for j in range(i + 1, 4):
            want.append((PAIR, fives[i] + " " + fives[j], 2))
    want.append((NOBS, "JS", 1))
    assert _got(show_breakdown(h, s)) == _items(want)


def test_breakdown_of_the_double_double_run():
    h, s = _deal("3C 3D 4H 4S", "5C")
    want = [
        (FIFTEEN, "3C 3D 4H 5C", 2), (FIFTEEN, "3C 3D 4S 5C", 2),
        (PAIR, "3C 3D", 2), (PAIR, "4H 4S", 2),
        (RUN, "3C 4H 5C", 3), (RUN, "3C 4S 5C", 3), (RUN, "3D 4H 5C", 3), (RUN, "3D 4S 5C", 3),
    ]
    assert _got(show_breakdown(h, s)) == _items(want)


def test_breakdown_of_a_run_of_five():
    h, s = _deal("AC 2D 3H 4S", "5C")
    want = [(FIFTEEN, "AC 2D 3H 4S 5C", 2), (RUN, "AC 2D 3H 4S 5C", 5)]
    assert _got(show_breakdown(h, s)) == _items(want)


def test_breakdown_of_flushes_and_nobs():
    h, s = _deal("2H 4H 6H 8H", "KC")
    assert _got(show_breakdown(h, s)) == _items([(FLUSH, "2H 4H 6H 8H", 4)])
    assert show_breakdown(h, s, crib=True) == []
    h, s = _deal("JH 2H 4H 6H", "8H")
    want = [(FLUSH, "2H 4H 6H 8H JH", 5), (NOBS, "JH", 1)]
    assert _got(show_breakdown(h, s, crib=True)) == _items(want)


def test_breakdown_of_face_fifteens():
    h, s = _deal("JC QD KH 5S", "5C")
    want = [(FIFTEEN, f + " " + t, 2) for f in ("5S", "5C") for t in ("JC", "QD", "KH")]
    want += [(PAIR, "5C 5S", 2), (RUN, "JC QD KH", 3), (NOBS, "JC", 1)]
    assert _got(show_breakdown(h, s)) == _items(want)


def test_breakdown_is_in_counting_order_with_sorted_cards():
    for hand, starter, _, _, _ in TOTALS:
        h, s = _deal(hand, starter)
        items = show_breakdown(h, s)
        order = [KINDS.index(it.kind) for it in items]
        assert order == sorted(order), (hand, starter)
        for it in items:
            assert list(it.cards) == sorted(it.cards)


def test_breakdown_ignores_card_order():
    h, s = _deal("3C 3D 4H 4S", "5C")
    assert show_breakdown(h, s) == show_breakdown([h[3], h[1], h[0], h[2]], s)


_raises = expecting(InvalidCardError)


def test_bad_input_raises_invalid_card_error():
    h, s = _deal("5C 5D 5H JS", "5S")
    bad = (
        (h[:3], s),                      # 3 cards
        (h + [parse_card("2C")], s),     # 5 cards
        (h, h[0]),                       # starter repeats a hand card
        ([h[0], h[0], h[1], h[2]], s),   # a hand card twice
        (h[:3] + [52], s),               # out of range
        (h, -1),
        (h[:3] + [True], s),             # not an int card
        (h[:3] + ["5H"], s),             # a name, not a card int
    )
    for fn in (score_show, show_breakdown):
        for hand, starter in bad:
            before = list(hand)
            assert _raises(fn, hand, starter), (fn, hand, starter)
            assert list(hand) == before


def _reference_breakdown(hand, starter, crib):
    """The breakdown worked out the long way (every subset of the five cards tried), for
    show_breakdown to match item for item: its own order, its own cards."""
    cards = list(hand) + [starter]
    subsets = []
    for mask in range(1, 32):
        chosen = sorted(cards[i] for i in range(5) if mask >> i & 1)
        subsets.append(tuple(chosen))
    subsets.sort(key=lambda c: (len(c), c))
    items = []
    for c in subsets:
        if len(c) > 1 and sum(min(x // 4 + 1, 10) for x in c) == 15:
            items.append((FIFTEEN, c, 2))
    for c in subsets:
        if len(c) == 2 and c[0] // 4 == c[1] // 4:
            items.append((PAIR, c, 2))
    for size in (5, 4, 3):  # the longest run: every choice of it with distinct ranks
        runs = [c for c in subsets if len(c) == size
                and len(set(x // 4 for x in c)) == size
                and max(x // 4 for x in c) - min(x // 4 for x in c) == size - 1]
        if runs:
            items += [(RUN, c, size) for c in sorted(runs)]
            break
    suit = [x % 4 for x in cards]
    if suit[0] == suit[1] == suit[2] == suit[3]:
        if suit[4] == suit[0]:
            items.append((FLUSH, tuple(sorted(cards)), 5))
        elif not crib:
            items.append((FLUSH, tuple(sorted(cards[:4])), 4))
    nobs = (10 << 2) | starter % 4  # the jack (rank 10) of the starter's suit
    if nobs in hand:
        items.append((NOBS, (nobs,), 1))
    return items


def test_breakdown_matches_every_subset_tried_on_a_sweep_of_deals():
    # s8-core made show_breakdown from the cards sorted once (no item's list sorted or
    # keyed, the run's choices made whole): the same items in the same order as before
    x = 12345
    seen_runs = seen_fifteens = 0
    for n in range(1500):
        deal = []
        while len(deal) < 5:
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            c = (x >> 8) % (52 if n % 3 else 24)  # a third of them aces to sixes
            if c not in deal:
                deal.append(c)
        hand, starter = deal[:4], deal[4]
        for crib in (False, True):
            got = [(it.kind, it.cards, it.points) for it in show_breakdown(hand, starter, crib)]
            assert got == _reference_breakdown(hand, starter, crib), (hand, starter, crib)
            seen_runs += any(k == RUN for k, _, _ in got)
            seen_fifteens += sum(1 for k, _, _ in got if k == FIFTEEN) > 2
    assert seen_runs > 100 and seen_fifteens > 10  # the sweep holds runs and many fifteens
