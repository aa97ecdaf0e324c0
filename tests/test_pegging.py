"""crib.analysis.pegging: the rank simulator against cribcore.play.Play, the greedy policy,
and the shipped pegging table recomputed exactly for a sample of hands."""

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from crib.analysis import pegging
from crib.analysis.pegging import (
    TABLE_HANDS,
    expected_pegging,
    greedy,
    hand_totals,
    multisets4,
    pile_points,
    play_out,
)
from cribcore.play import Play, score_play


def core_play(hands, choose):
    """Points of each player when both lay choose(fits ranks, pile ranks, count) through
    cribcore.play.Play (the reference): player 1 deals, player 0 leads."""
    p = Play(2, dealer=1, hands=[list(h) for h in hands])
    while not p.over:
        fits = p.playable()
        if not fits:
            p.go()
            continue
        r = choose(sorted({c >> 2 for c in fits}), tuple(c >> 2 for c in p.pile), p.count)
        p.lay(max(c for c in fits if c >> 2 == r))
    return list(p.points)


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)), st.integers(0, 2 ** 32))
def test_play_out_scores_like_the_core(deck, seed):
    hands = [sorted(deck[:4]), sorted(deck[4:8])]
    rng = random.Random(seed)
    picks = {}

    def choose(fits, pile, count):  # random, but the same in both runs for the same state
        return picks.setdefault((tuple(fits), pile, count), rng.choice(fits))
    want = core_play(hands, choose)
    ranks = [[c >> 2 for c in h] for h in hands]
    assert play_out(ranks, 0, policy=lambda f, p, c: choose(sorted(set(f)), p, c)) == want


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(52)))
def test_play_out_with_greedy_matches_the_core(deck):
    hands = [sorted(deck[:4]), sorted(deck[4:8])]
    ranks = [[c >> 2 for c in h] for h in hands]
    assert play_out(ranks, 0) == core_play(hands, greedy)


def test_pile_points_are_the_cores():
    assert pile_points((4, 4)) == 2  # a pair of 6s... ranks 4 are 5s: pair 2
    assert pile_points((6, 7)) == 2  # 7 + 8 = 15
    assert pile_points((2, 3, 4)) == score_play([2 << 2, 3 << 2, 4 << 2]) == 3


def test_greedy_takes_points_and_avoids_5_and_21():
    assert greedy([4, 8], (9,), 10) == 4  # the 5 makes 15, the 9 nothing
    assert greedy([4, 9], (9,), 10) == 9  # 15 or a pair, 2 each: the higher value
    assert greedy([1, 8], (), 0) == 8  # nothing either way: the higher value
    assert greedy([2, 4], (), 0) == 2  # a 5 would leave a count of 5
    assert greedy([4, 3], (9, 3), 14) == 3  # a 4 pairs for 2, a 5 makes 19: the pair


def test_the_first_card_is_forced():
    # pone holds 5 5 5 5 (ranks 4), dealer K K K K: pone must lead a 5, the dealer a ten-card.
    a, b = play_out(((4, 4, 4, 4), (12, 12, 12, 12)), 0, first=4)
    assert a + b > 0


def test_the_table_has_every_hand_and_sane_values():
    rows = pegging.table()
    assert set(rows) == set(multisets4()) and len(rows) == 1820
    for row in rows.values():
        assert all(0 <= v <= 31 * TABLE_HANDS for v in row)
    # the dealer pegs more than the pone on average over all hands
    pone = sum(r[0] for r in rows.values())
    dealer = sum(r[2] for r in rows.values())
    assert dealer > pone


def test_the_table_recomputes_exactly_for_a_sample():
    rng = random.Random(29)
    for ranks in rng.sample(multisets4(), 3) + [(4, 4, 4, 4)]:
        assert hand_totals(ranks) == pegging.table()[ranks]


def test_expected_pegging_reads_the_row():
    mine, theirs = expected_pegging([4, 4, 4, 4], dealer=False)
    row = pegging.table()[(4, 4, 4, 4)]
    assert (mine, theirs) == (Fraction(row[0], TABLE_HANDS), Fraction(row[1], TABLE_HANDS))
    assert expected_pegging((4, 4, 4, 4), True)[0] == Fraction(row[2], TABLE_HANDS)
