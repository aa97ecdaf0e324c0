"""crib.analysis.playsearch: each card's expected net pegging over the opponent's hands."""

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from crib.analysis.pegging import TABLE_POLICY, VALUE, play_out
from crib.analysis.playsearch import best_card, card_values, holdings


def test_with_the_opponent_out_the_run_out_is_exact():
    """At 25 (K Q 5) with A 2 3 and no cards left to the opponent, every order ends in a
    run of 3 and 31: 5 points, whatever is laid first."""
    values = card_values([0, 1, 2], [12, 11, 4], 25, list(range(13)) * 3, 0, False)
    assert values == {0: 5, 1: 5, 2: 5}


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(52)), st.integers(0, 3))
def test_one_card_left_is_averaged_over_every_unseen_card(deck, laid):
    """With the opponent's last card unknown, each value is the exact average over the
    unseen cards of the play out to the end."""
    hand = sorted(c >> 2 for c in deck[:4 - laid])
    pile = tuple(c >> 2 for c in deck[4:4 + laid])
    count = sum(VALUE[r] for r in pile)
    if count > 31:
        return
    unseen = [c >> 2 for c in deck[10:]]
    values = card_values(hand, pile, count, unseen, 1, False)
    for r, v in values.items():
        if len(values) == 1:
            assert v == 0  # nothing to choose: not searched
            continue
        outs = [play_out((hand, (u,)), 0, count, pile, first=r) for u in unseen]
        assert v == Fraction(sum(a - b for a, b in outs), len(unseen))


def test_the_play_outs_lay_greedy_unless_given_another_policy():
    """5 9 J on an ace led, the opponent's last card unknown: each value is the exact
    average of the play laid out by the policy given (greedy unless told: the pro level's;
    bench/policy.py measures the search laying its play-outs by the table's policy)."""
    hand, pile = [4, 8, 10], (0,)
    unseen = [r for r in range(13) for _ in range(4 - hand.count(r) - pile.count(r))]
    values = card_values(hand, pile, 1, unseen, 1, False)
    looked = card_values(hand, pile, 1, unseen, 1, False, policy=TABLE_POLICY)
    for got, policy in ((looked, TABLE_POLICY), (values, None)):
        for r, v in got.items():
            outs = [play_out((hand, (u,)), 0, 1, pile, first=r,
                             **({"policy": policy} if policy else {})) for u in unseen]
            assert v == Fraction(sum(a - b for a, b in outs), len(unseen))
    assert values[10] == Fraction(41, 24) and looked[10] == Fraction(11, 6)


def test_only_cards_that_fit_are_weighed_and_the_go_narrows_their_hand():
    values = card_values([9, 11, 2], [9, 9, 4], 25, list(range(13)) * 3, 2, False)
    assert set(values) == {2}  # only the 3 fits under 31
    # after their go at 28 they hold no ace, 2 or 3: only high cards are drawn
    hands = holdings([r for r in range(13) if VALUE[r] > 3], 2, 10, seed=1)
    assert all(VALUE[r] > 3 for h, _ in hands for r in h)


def test_holdings_enumerate_exactly_or_sample_by_seed():
    pool = [0, 0, 4, 9, 9, 9]
    assert sorted(holdings(pool, 1)) == [((0,), 2), ((4,), 1), ((9,), 3)]
    a = holdings(pool * 3, 3, 12, seed=5)
    assert a == holdings(pool * 3, 3, 12, seed=5) and len(a) == 12
    assert all(len(h) == 3 and w == 1 for h, w in a)
    assert holdings(pool, 0) == [((), 1)]


def test_the_search_pairs_to_win_and_avoids_giving_15():
    """Led a 10 with 5 Q 2 3: laying the Q pairs (2); laying the 5 makes 15 (2) but the
    search sees the opponent's ten-cards: it prefers the pair or a safe card, never a 5 on
    an empty count."""
    values = card_values([4, 11, 1, 2], [], 0, list(range(13)) * 3 + [4], 4, False)
    assert best_card(values) != 4  # never lead the 5


def test_the_search_beats_greedy_in_play_outs():
    """Over random deals the searched first card pegs at least as well, on average, as the
    greedy one against a greedy opponent (both then greedy): the search's own model."""
    rng = random.Random(7)
    gain = 0
    for _ in range(150):
        deck = list(range(52))
        rng.shuffle(deck)
        pone = sorted(c >> 2 for c in deck[:4])
        dealer = sorted(c >> 2 for c in deck[4:8])
        unseen = [c >> 2 for c in deck[4:]]
        r = best_card(card_values(pone, [], 0, unseen, 4, False))
        a, b = play_out((pone, dealer), 0, first=r)
        g, h = play_out((pone, dealer), 0)
        gain += (a - b) - (g - h)
    assert gain > 0
