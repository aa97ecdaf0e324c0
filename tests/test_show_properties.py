"""Properties of show scoring over random deals (hypothesis)."""

from math import comb

import pytest
from cribbage_scorer.cribbage_scorer import show_calc_score
from hypothesis import given
from hypothesis import strategies as st

from crib.analysis.fastshow import RANK_POINTS, rank_points, score_show_fast
from cribcore.cards import InvalidCardError
from cribcore.show import KINDS, score_show, show_breakdown

deals = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@given(deals, st.booleans(), st.randoms())
def test_card_order_never_matters(cards, crib, rnd):
    hand, starter = cards[:4], cards[4]
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert score_show(shuffled, starter, crib) == score_show(hand, starter, crib)
    assert show_breakdown(shuffled, starter, crib) == show_breakdown(hand, starter, crib)
    assert score_show_fast(shuffled, starter, crib) == score_show_fast(hand, starter, crib)


@given(deals, st.booleans())
def test_totals_are_possible_scores(cards, crib):
    total = score_show(cards[:4], cards[4], crib)
    assert 0 <= total <= 29
    assert total not in (19, 25, 26, 27)


@given(deals, st.booleans())
def test_breakdown_sums_to_the_total_in_counting_order(cards, crib):
    items = show_breakdown(cards[:4], cards[4], crib)
    assert sum(it.points for it in items) == score_show(cards[:4], cards[4], crib)
    order = [KINDS.index(it.kind) for it in items]
    assert order == sorted(order)
    for it in items:
        assert set(it.cards) <= set(cards)
        assert it.points > 0


@given(deals)
def test_crib_never_beats_the_hand(cards):
    hand, starter = cards[:4], cards[4]
    crib = score_show(hand, starter, crib=True)
    assert crib <= score_show(hand, starter)
    assert crib in (score_show(hand, starter), score_show(hand, starter) - 4)


@given(deals, st.booleans())
def test_fast_path_equals_plain_path(cards, crib):
    assert score_show_fast(cards[:4], cards[4], crib) == score_show(cards[:4], cards[4], crib)


@given(deals)
def test_rank_points_is_the_suit_free_part(cards):
    """Re-suited so no flush is possible, a deal scores its rank points (+ nobs)."""
    ranks = tuple(sorted(c >> 2 for c in cards))
    assert rank_points(ranks) == RANK_POINTS[ranks]
    # Card k of the sorted ranks gets suit k % 4: equal ranks (adjacent) differ in suit and
    # the hand (cards 1..4) holds all 4 suits, so never a flush; nobs only if card 4 is the
    # jack of the starter's suit.
    resuited = [(r << 2) | (k % 4) for k, r in enumerate(ranks)]
    hand, starter = resuited[1:], resuited[0]
    nobs = 1 if (10 << 2) | (starter & 3) in hand else 0
    assert score_show(hand, starter) == rank_points(ranks) + nobs


def test_rank_table_covers_every_multiset_of_five_ranks():
    assert len(RANK_POINTS) == comb(17, 5) - 13  # multisets of 5 from 13, less 5 of a kind
    for ranks in RANK_POINTS:
        assert list(ranks) == sorted(ranks) and max(ranks.count(r) for r in ranks) <= 4


def _peer(c):
    return ((c >> 2) + 1, "CDHS"[c & 3])


@given(deals, st.booleans())
def test_agrees_with_the_independent_peer_scorer(cards, crib):
    """cribbage-scorer (PyPI) is an independent implementation of the same rules."""
    theirs, _ = show_calc_score(_peer(cards[4]), [_peer(c) for c in cards[:4]], crib)
    assert score_show(cards[:4], cards[4], crib) == theirs


@given(st.lists(st.integers(0, 51), min_size=5, max_size=5).filter(lambda c: len(set(c)) < 5))
def test_repeated_cards_raise(cards):
    before = list(cards)
    for fn in (score_show, show_breakdown):
        with pytest.raises(InvalidCardError):
            fn(cards[:4], cards[4])
    assert cards == before
