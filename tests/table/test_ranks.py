"""A show known by ranks plus its flush/nobs answer scores exactly as the same hand with
its suits (the core's show scoring), for every hand, hand or crib; and every answer offered
is one some real hand gives."""

from hypothesis import given
from hypothesis import strategies as st

from cribcore.show import score_show
from cribcore.table.ranks import CODES, flags_of, score_ranks, stand_in, suit_choices

five_cards = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@given(five_cards, st.booleans())
def test_ranks_and_flags_score_as_the_cards(cards, crib):
    hand, starter = cards[:4], cards[4]
    ranks = [c >> 2 for c in hand]
    flags = flags_of(hand, starter, crib)
    assert flags in suit_choices(ranks, starter, crib)
    items, total = score_ranks(ranks, starter, crib, *flags)
    assert total == score_show(hand, starter, crib)
    assert all(c == starter or isinstance(c, str) for it in items for c in it.cards)


@given(five_cards, st.booleans())
def test_every_choice_offered_is_a_real_hand(cards, crib):
    ranks, starter = [c >> 2 for c in cards[:4]], cards[4]
    choices = suit_choices(ranks, starter, crib)
    assert choices and all(choice in CODES for choice in choices)
    for flush, nobs in choices:
        hand = stand_in(ranks, starter, crib, flush, nobs)
        assert sorted(c >> 2 for c in hand) == sorted(ranks) and starter not in hand
        assert flags_of(hand, starter, crib) == (flush, nobs)


def test_what_is_offered_for_some_hands():
    five_h = (3 << 2) | 2  # the starter 5♥ (suits C D H S)
    assert suit_choices([4, 5, 6, 7], five_h, False) == [(0, False), (4, False), (5, False)]
    assert suit_choices([4, 5, 6, 7], five_h, True) == [(0, False), (5, False)]
    assert suit_choices([4, 4, 6, 7], five_h, False) == [(0, False)]  # a pair: no flush
    assert suit_choices([10, 4, 6, 7], five_h, False) == [
        (0, False), (0, True), (4, False), (5, True)]  # with a jack, a flush of 5 is nobs
    assert suit_choices([3, 4, 6, 7], five_h, False) == [(0, False), (4, False)]


@given(st.lists(st.tuples(five_cards, st.booleans()), min_size=2, max_size=6))
def test_the_last_hand_kept_answers_as_a_fresh_search(shows):
    # ranks keeps the last hand's search (a show asks it once a choice): the choices and
    # stand-ins of hands asked in turn, again and again, are each hand's own, and a
    # stand-in changed by its caller changes nothing kept
    from cribcore.table import ranks as module

    def fresh(ranks, starter, crib):
        module._LAST = (None, None)
        return suit_choices(ranks, starter, crib)

    for cards, crib in shows + shows[::-1]:
        ranks, starter = [c >> 2 for c in cards[:4]], cards[4]
        expected = fresh(ranks, starter, crib)
        for _ in range(2):
            assert suit_choices(ranks, starter, crib) == expected
            hand = stand_in(ranks, starter, crib, *expected[0])
            assert flags_of(hand, starter, crib) == expected[0]
            hand.append(99)  # the caller's own list
        assert stand_in(ranks, starter, crib, *expected[0])[-1] != 99


def _every_hand(ranks, starter):
    """The whole search the shortcut must agree with: every suit for every card, the first
    card's suit changing fastest, each hand's flags (a dict per crib, first hand kept)."""
    import itertools

    found = ({}, {})
    for suits in itertools.product(range(4), repeat=len(ranks)):
        hand = [(r << 2) | s for r, s in zip(ranks, reversed(suits))]
        if starter in hand or len(set(hand)) < len(hand):
            continue
        for crib in (0, 1):
            found[crib].setdefault(flags_of(hand, starter, bool(crib)), hand)
    return found


@given(st.lists(st.integers(0, 12), min_size=4, max_size=4), st.integers(0, 51))
def test_the_search_for_stand_ins_finds_what_the_whole_search_finds(ranks, starter):
    """The first hand of each pair of flags, and the pairs there are, as every hand's: the
    search stops early (tests/table: the first hand decides the order of the items)."""
    import cribcore.table.ranks as module

    module._LAST = (None, None)
    assert module._stand_ins(ranks, starter) == _every_hand(ranks, starter)


def test_the_search_for_stand_ins_with_jacks_and_flushes():
    import cribcore.table.ranks as module

    for ranks in ([10, 10, 10, 10], [1, 2, 3, 10], [10, 1, 2, 3], [0, 4, 8, 12], [10, 10, 3, 3],
                  [4, 4, 4, 4], [9, 10, 11, 12]):
        for starter in range(52):
            module._LAST = (None, None)
            assert module._stand_ins(ranks, starter) == _every_hand(ranks, starter), \
                (ranks, starter)
