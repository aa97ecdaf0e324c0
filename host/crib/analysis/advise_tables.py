"""Rank-multiset tables for the discard advisor, built once at first use from
crib.analysis.fastshow.

Fifteens, pairs and runs depend only on the multiset of the 5 ranks, so the advisor never
scores cards: it looks up points for (known ranks + unknown ranks) and weights each unknown
rank multiset by how many ways the unseen cards can supply it. The tables:

- ``quad_points[q]``: for a sorted 4-tuple of ranks q (a kept hand, or the unknown part of
  a 3-4 player crib), the rank points with each possible 13th rank added, 0 where that
  would make 5 of a rank (such a card cannot exist, its weight is always 0).
- ``crib_points[known]``: for the discarded ranks (a sorted 1- or 2-tuple), the rank points
  of the crib for every unknown multiset in ``unknown[len(known)]``, as a list aligned
  with it, ready for a dot product with the weights of a deal.
"""

import time
from collections.abc import Sequence
from math import comb

from crib.analysis.fastshow import RANK_POINTS

# Base-5 rank weights: the sum over cards is a key independent of order (a rank appears at
# most 4 times), so building the tables needs no sorting.
_POW5 = tuple(5 ** r for r in range(13))
# COMB[n][m]: ways to choose m of the n unseen cards of one rank.
COMB = tuple(tuple(comb(n, m) for m in range(5)) for n in range(5))


def multisets(size: int) -> list[tuple[int, ...]]:
    """Every sorted tuple of `size` ranks 0..12 with at most 4 of a rank."""
    out: list[tuple[int, ...]] = [()]
    for _ in range(size):
        out = [m + (r,) for m in out for r in range(m[-1] if m else 0, 13)]
    return [m for m in out if all(m.count(r) <= 4 for r in set(m))]


def groups(ranks: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """((rank, multiplicity), ...) of a sorted rank tuple."""
    return tuple((r, ranks.count(r)) for r in sorted(set(ranks)))


def _key(ranks: Sequence[int]) -> int:
    return sum(_POW5[r] for r in ranks)


class Tables:
    """The lookup tables and how long they took to build (seconds)."""

    def __init__(self) -> None:
        start = time.perf_counter()
        by_key = {_key(ranks): pts for ranks, pts in RANK_POINTS.items()}
        quads = multisets(4)
        self.quad_points: dict[tuple[int, ...], tuple[int, ...]] = {}
        for q in quads:
            k = _key(q)
            self.quad_points[q] = tuple(by_key.get(k + _POW5[r], 0) for r in range(13))
        # unknown[d]: rank multisets of the crib's unknown cards plus the starter when the
        # player discards d cards: 2 discarded leave 2 + 1 unknown, 1 leaves 3 + 1.
        self.unknown = {2: multisets(3), 1: quads}
        self.unknown_groups = {n: [groups(m) for m in ms] for n, ms in self.unknown.items()}
        self.crib_points: dict[tuple[int, ...], list[int]] = {}
        for size, ms in self.unknown.items():
            keys = [_key(m) for m in ms]
            for known in multisets(size):
                kk = _key(known)
                self.crib_points[known] = [by_key.get(kk + k, 0) for k in keys]
        self.build_seconds = time.perf_counter() - start


_TABLES: Tables | None = None


def tables() -> Tables:
    """The shared Tables, built on the first call (a few tens of milliseconds)."""
    global _TABLES
    if _TABLES is None:
        _TABLES = Tables()
    return _TABLES


def weights(group_list: Sequence[tuple[tuple[int, int], ...]], remaining: Sequence[int]
            ) -> list[int]:
    """Ways the unseen cards (remaining[r] of rank r) supply each rank multiset."""
    out = []
    for gs in group_list:
        w = 1
        for r, m in gs:
            w *= COMB[remaining[r]][m]
        out.append(w)
    return out
