"""Which card to lay: the expected net pegging of each card over the opponent's unseen cards.

For every rank the player can lay, `card_values` plays the rest of the play out to its
last card (crib.analysis.pegging.play_out: after this card both sides lay greedy) against
each hand the opponent may hold, and averages the points the player pegs less the points
the opponent pegs, from this card on. The opponent's hands are drawn from the cards the
player has not seen (not its own, not laid, not the starter, not its discard); after the
opponent's go in this series only cards that could not fit at the count are left to it.
With 1 card left to the opponent every card is enumerated, exactly weighted; with 2 to 4,
`samples` (32) hands are drawn (seeded by the position, so the same position always gets the
same answer), the same hands for every card weighed.

This is the pro level's play and the practice review's "best card" (docs/practice.md).
"""

import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from math import comb

from crib.analysis.pegging import VALUE, greedy, play_out

SAMPLES = 32  # opponent hands drawn when 2 to 4 of its cards are unseen
EXACT_UP_TO = 1  # opponent cards left up to which every hand is enumerated


def _multisets(counts: Sequence[int], k: int, lo: int = 0
               ) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every (ranks, ways) of k cards drawn from counts[r] cards of each rank >= lo."""
    if k == 0:
        yield (), 1
        return
    for r in range(lo, 13):
        for m in range(1, min(counts[r], k) + 1):
            w = comb(counts[r], m)
            for rest, ways in _multisets(counts, k - m, r + 1):
                yield (r,) * m + rest, w * ways


def holdings(pool: Sequence[int], k: int, samples: int = SAMPLES, seed: int = 0
             ) -> list[tuple[tuple[int, ...], int]]:
    """[(ranks, weight)]: the hands of k cards the opponent may hold from pool (the ranks of
    the cards it may hold, one entry a card): every hand, or `samples` drawn by seed."""
    if k <= 0:
        return [((), 1)]
    if k <= EXACT_UP_TO:
        counts = [0] * 13
        for r in pool:
            counts[r] += 1
        return list(_multisets(counts, k))
    rng = random.Random(seed)
    return [(tuple(rng.sample(pool, k)), 1) for _ in range(samples)]


def card_values(hand: Sequence[int], pile: Sequence[int], count: int, unseen: Sequence[int],
                opp_left: int, opp_gone: bool, samples: int = SAMPLES,
                policy: Callable = greedy) -> dict[int, Fraction]:
    """{rank: Fraction} for each rank of hand that fits at count: the expected points this
    player pegs less those the opponent pegs from laying it to the end of the play.

    hand: ranks held (the player is to lay); pile: ranks laid since the count was last 0;
    unseen: the ranks of the cards the player has not seen; opp_left: cards the opponent
    still holds; opp_gone: whether it said go in this series; policy: how both sides lay
    after the card (greedy, the pro level's; bench/policy.py measures others).
    """
    hand = tuple(sorted(hand))
    fits = sorted({r for r in hand if count + VALUE[r] <= 31})
    if len(fits) == 1:
        return {fits[0]: Fraction(0)}  # nothing to choose: not searched
    pool = sorted(unseen)
    if opp_gone:  # its go: none of its cards fitted then, so none fits now
        narrowed = [r for r in pool if count + VALUE[r] > 31]
        pool = narrowed if len(narrowed) >= opp_left else pool
    seed = hash((hand, tuple(pile), count, tuple(pool), opp_left, opp_gone))
    hands = holdings(pool, min(opp_left, len(pool)), samples, seed)
    total_weight = sum(w for _, w in hands)
    out = {}
    for r in fits:
        total = 0
        for opp, w in hands:
            a, b = play_out((hand, opp), 0, count, tuple(pile), (False, opp_gone), first=r,
                            policy=policy)
            total += w * (a - b)
        out[r] = Fraction(total, total_weight)
    return out


def best_card(values: dict[int, Fraction]) -> int:
    """The rank with the highest value (ties: the higher card value, then rank)."""
    return max(values, key=lambda r: (values[r], VALUE[r], r))
