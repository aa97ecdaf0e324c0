"""Host-only fast show scoring: rank tables built once from cribcore.show, then lookups.

cribcore.show stays the one source of truth (and the small path the Pico runs); this module
tabulates its rank points for every multiset of 5 ranks at import, so scoring a deal here
is a dict lookup plus a few suit tests. For the discard advisor, the solver and benches.
"""

from collections.abc import Sequence

from cribcore import show

# Per-rank weights in base 5 (a rank appears at most 4 times in 5 cards): the sum of the
# weights of 5 cards is a key that is the same for every order of the cards.
_WEIGHT = tuple(5 ** r for r in range(13))
_CARD_WEIGHT = tuple(_WEIGHT[c >> 2] for c in range(52))
_NOBS_FOR_STARTER = tuple((10 << 2) | (c & 3) for c in range(52))


def _multisets() -> list[tuple[int, ...]]:
    """Every sorted 5-tuple of ranks 0..12 with at most 4 of a rank."""
    out: list[tuple[int, ...]] = []
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    for e in range(d if a != d else d + 1, 13):  # never 5 of a rank
                        out.append((a, b, c, d, e))
    return out


def _tables() -> tuple[dict[tuple[int, ...], int], dict[int, int]]:
    """RANK_POINTS and the same points keyed by the sum of rank weights."""
    by_ranks: dict[tuple[int, ...], int] = {}
    by_key: dict[int, int] = {}
    for ranks in _multisets():
        pts = show.points_by_rank([r << 2 for r in ranks])
        by_ranks[ranks] = pts
        by_key[sum(_WEIGHT[r] for r in ranks)] = pts
    return by_ranks, by_key


RANK_POINTS, _BY_KEY = _tables()


def rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens + pairs + runs for a sorted tuple of 5 ranks 0..12 (KeyError otherwise)."""
    return RANK_POINTS[ranks]


def score_show_fast(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    """score_show(hand, starter, crib) without validation: inputs must be 4 + 1 distinct cards.

    Unlike cribcore.show.score_show this does not check the cards; bad input gives a wrong
    answer or a KeyError/IndexError rather than InvalidCardError.
    """
    a, b, c, d = hand
    w = _CARD_WEIGHT
    pts = _BY_KEY[w[a] + w[b] + w[c] + w[d] + w[starter]]
    if not ((a ^ b) | (a ^ c) | (a ^ d)) & 3:
        pts += 5 if not (a ^ starter) & 3 else (0 if crib else 4)
    if _NOBS_FOR_STARTER[starter] in hand:
        pts += 1
    return pts
