"""All 12,994,800 (hand, starter) deals, hand and crib rules, against published counts.

Clever enumeration: a deal's score is its rank points (fifteens, pairs, runs: ranks only)
plus flush and nobs, which depend on its suits only through one of a few suit cases. So we
go over every rank multiset of the 5 cards x the starter's rank x each suit case, count the
deals in that cell by combinatorics, and score one real deal of the cell with
cribcore.show.score_show (hand and crib rules). The test also proves the decomposition on
every cell: score_show minus the case's flush/nobs bonus is one number per rank multiset.
"""

import itertools
from math import comb

import pytest

from crib.analysis import fastshow
from cribcore import show
from cribcore.cards import card

DEALS = 12994800  # C(52, 4) hands x 48 starters
JACK = 10

# Steven S. Lumetta, "Amusing Cribbage Facts" (lumetta.web.engr.illinois.edu/humor/
# cribbage.html), repeated in Wikipedia's "Cribbage statistics": deals scoring 0..29.
PUBLISHED_HAND = (
    1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236, 361224,
    388740, 51680, 317340, 19656, 90100, 9168, 58248, 11196, 2708, 0,
    8068, 2496, 444, 356, 3680, 0, 0, 0, 76, 4,
)
# Wikipedia "Cribbage statistics": zero-point deals when scored as a crib. No full crib
# table is published; the rest of the crib distribution is derived here and checked below.
PUBLISHED_CRIB_ZERO = 1022208
# Deals with a 4-card hand flush whose starter is off suit: 4 suits x C(13, 4) hands x
# 39 starters. They are exactly the deals a crib scores 4 less than a hand.
FOUR_FLUSH_ONLY = 4 * comb(13, 4) * 39

# Suit cases: (flush points as a hand, flush points as a crib, nobs).
FLUSH5 = (5, 5)
FLUSH4 = (4, 0)
NO_FLUSH = (0, 0)


def _rank_multisets():
    """Sorted 5-tuples of ranks with at most 4 cards of a rank."""
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) <= 4:
            yield ranks


def _case_counts(ranks, s):
    """{(flush case, nobs): deals} for 5 cards of these ranks whose starter has rank s."""
    hand = list(ranks)
    hand.remove(s)
    n = [ranks.count(r) for r in range(13)]
    # Deals = starter suit (4) x the other cards of rank s from 3 suits x any suits for the
    # other ranks (jacks apart, for nobs).
    others = 1
    for r in range(13):
        if r != s and r != JACK:
            others *= comb(4, n[r])
    starters = 4 * comb(3, n[s] - 1)
    total = starters * others * (comb(4, n[JACK]) if s != JACK else 1)
    distinct = len(set(hand)) == 4
    f5 = 4 if distinct and s not in hand else 0   # all five in one of 4 suits
    f4 = 12 if distinct else 0                     # hand in one of 4 suits, starter in 3
    nobs = 0
    if JACK in hand and s != JACK:
        # The jack of the starter's suit is in the hand; the other jacks from 3 suits.
        nobs = starters * comb(3, n[JACK] - 1) * others
    f5_nobs = f5 if JACK in hand else 0
    counts = {
        (FLUSH5, True): f5_nobs,
        (FLUSH5, False): f5 - f5_nobs,
        (FLUSH4, False): f4,  # a hand jack has the flush suit, the starter another
        (NO_FLUSH, True): nobs - f5_nobs,
        (NO_FLUSH, False): total - f5 - f4 - (nobs - f5_nobs),
    }
    return {k: v for k, v in counts.items() if v}, total


def _representatives(ranks, s, wanted):
    """One real deal (hand, starter) per wanted suit case: the starter is of suit 0."""
    hand_ranks = list(ranks)
    hand_ranks.remove(s)
    starter = card(s, 0)
    found = {}
    for suits in itertools.product(range(4), repeat=4):
        hand = [card(r, u) for r, u in zip(hand_ranks, suits)]
        if len(set(hand + [starter])) < 5:
            continue
        if suits.count(suits[0]) == 4:
            flush = FLUSH5 if suits[0] == 0 else FLUSH4
        else:
            flush = NO_FLUSH
        case = (flush, card(JACK, 0) in hand)
        if case in wanted and case not in found:
            found[case] = (hand, starter)
            if len(found) == len(wanted):
                break
    assert set(found) == set(wanted), (ranks, s)
    return found


def _exhaustive():
    hand_dist = [0] * 30
    crib_dist = [0] * 30
    deals = 0
    cells = 0
    for ranks in _rank_multisets():
        base = set()
        for s in sorted(set(ranks)):
            counts, total = _case_counts(ranks, s)
            assert sum(counts.values()) == total
            deals += total
            for case, (hand, starter) in _representatives(ranks, s, counts).items():
                (flush, crib_flush), nobs = case
                pts = show.score_show(hand, starter)
                crib_pts = show.score_show(hand, starter, crib=True)
                # The decomposition: the same rank points in every suit case and starter.
                base.add(pts - flush - nobs)
                base.add(crib_pts - crib_flush - nobs)
                assert fastshow.score_show_fast(hand, starter) == pts
                assert fastshow.score_show_fast(hand, starter, True) == crib_pts
                hand_dist[pts] += counts[case]
                crib_dist[crib_pts] += counts[case]
                cells += 1
        assert base == {fastshow.rank_points(ranks)}, ranks
    return hand_dist, crib_dist, deals, cells


@pytest.fixture(scope="module")
def exhaustive():
    return _exhaustive()


@pytest.mark.slow
def test_every_deal_is_counted_once(exhaustive):
    _, _, deals, cells = exhaustive
    assert deals == DEALS == comb(52, 5) * 5
    assert cells > 6000


@pytest.mark.slow
def test_hand_distribution_matches_the_published_table(exhaustive):
    hand, _, _, _ = exhaustive
    assert tuple(hand) == PUBLISHED_HAND
    assert sum(PUBLISHED_HAND) == DEALS
    total = sum(k * n for k, n in enumerate(hand))
    assert 4.765 < total / DEALS < 4.775  # "about 4.77" (RULES.md)


@pytest.mark.slow
def test_crib_distribution_zero_count_and_flush_difference(exhaustive):
    hand, crib, _, _ = exhaustive
    assert sum(crib) == DEALS
    assert crib[0] == PUBLISHED_CRIB_ZERO
    hand_points = sum(k * n for k, n in enumerate(hand))
    crib_points = sum(k * n for k, n in enumerate(crib))
    assert hand_points - crib_points == 4 * FOUR_FLUSH_ONLY
    assert [crib[k] for k in (19, 25, 26, 27)] == [0, 0, 0, 0]
    assert crib[29] == 4 and crib[28] == hand[28]


@pytest.mark.slow
def test_crib_distribution_deal_by_deal(exhaustive):
    """The unpublished crib table again by a second, independent enumeration: all 12,994,800
    deals one by one on the fast path (the hand table is published, so crib rules only)."""
    _, crib, _, _ = exhaustive
    score = fastshow.score_show_fast
    dist = [0] * 30
    for five in itertools.combinations(range(52), 5):
        for i in range(5):
            dist[score(five[:i] + five[i + 1:], five[i], True)] += 1
    assert dist == crib
