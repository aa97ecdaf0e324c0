"""The Cribbage Shuffle solver: an exact branch and bound over pairs of partitions.

A grid is two partitions of its 16 cards into 4 hands each, the rows R and the columns C,
that are orthogonal (every row meets every column in exactly one card); the score is
S(R) + S(C) (+ heels). Permuting rows or columns, or transposing, keeps the score, so a
grid is searched as its pair {R, C} only, and transposing lets us ask S(R) >= S(C).
P, the best S over all partitions, comes from a subset DP; 2P bounds every grid. Rows R
are taken level by level, S(R) = P, P - 1, ..., and for each the best orthogonal C is
found by a small search bounded per row and by the DP. Once 2 * S(R) <= the best found, no
untried R can pair better: the best is proved optimal. A time limit stops early; the bound
reported is then max(best, 2 * S of the level being tried). docs/shuffle.md has more.
"""

import itertools
import random
import time
from collections import namedtuple
from typing import Callable, Iterator, Sequence

from crib.analysis.fastshow import score_show_fast
from crib.solitaire import shuffle
from crib.solitaire.shuffle import Grid

Clock = Callable[[], float]  # seconds, e.g. time.perf_counter (time.process_time in tests)

Solution = namedtuple("Solution", ("grid", "score", "bound", "optimal", "swaps", "seconds"))
Solution.__doc__ = """grid: 16 cards row by row; score incl. heels; bound >= any grid's score;
optimal: score == bound (proved); swaps: (a, b) cell pairs turning the start grid into grid."""

_FULL = (1 << 16) - 1
_STRUCTURE: list = []  # filled once on first use: the masks do not depend on the cards


def _bits(mask: int) -> list[int]:
    """The single-bit masks of mask, lowest first."""
    return [1 << i for i in range(16) if mask >> i & 1]


def _low_quads(mask: int) -> list[int]:
    """The 4-card submasks of mask that hold its lowest card (one per way to group it)."""
    b = _bits(mask)
    return [b[0] | x | y | z for x, y, z in itertools.combinations(b[1:], 3)]


def _structure() -> tuple:
    """(quads, first, splits12, splits8): deal-independent mask tables, built once."""
    if not _STRUCTURE:
        quads = [sum([1 << i for i in q]) for q in itertools.combinations(range(16), 4)]
        first = [q for q in quads if q & 1]  # the hand holding card 0 is searched first
        splits12 = {_FULL ^ a: _low_quads(_FULL ^ a) for a in first}
        splits8 = {}
        for rest in itertools.combinations(range(1, 16), 8):
            m = sum([1 << i for i in rest])
            splits8[m] = _low_quads(m)
        _STRUCTURE.append((quads, first, splits12, splits8))
    return _STRUCTURE[0]


class _Deal:
    """Per-deal tables: hand scores by mask, best partitions of every remainder."""

    def __init__(self, grid: Grid, starter: int) -> None:
        quads, first, splits12, splits8 = _structure()
        self.hand = hand = [0] * (_FULL + 1)  # score of the 4 cards of a 4-bit mask
        for q in quads:
            hand[q] = score_show_fast([grid[i] for i in range(16) if q >> i & 1], starter)
        best = [0] * (_FULL + 1)  # best[m]: the best split of mask m into hands
        for m, qs in splits8.items():
            best[m] = max([hand[q] + hand[m ^ q] for q in qs])
        for m, qs in splits12.items():
            best[m] = max([hand[q] + best[m ^ q] for q in qs])
        self.best = best
        # Sorted lists pack (points << 16 | mask) into one int: ints sort fast.
        self.top = sorted([(hand[a] + best[_FULL ^ a]) << 16 | a for a in first],
                          reverse=True)
        self.partition_bound = self.top[0] >> 16
        self._by12: dict[int, list[int]] = {}
        self._by8: dict[int, list[int]] = {}

    def _next12(self, rest: int) -> list[int]:
        # The hands holding the lowest card of 12-card rest, best completion first (cached).
        got = self._by12.get(rest)
        if got is None:
            hand, best = self.hand, self.best
            got = sorted([(hand[q] + best[rest ^ q]) << 16 | q
                          for q in _structure()[2][rest]], reverse=True)
            self._by12[rest] = got
        return got

    def _next8(self, rest: int) -> list[int]:
        # The same for an 8-card rest: the two hands' points, best first (cached).
        got = self._by8.get(rest)
        if got is None:
            hand = self.hand
            got = sorted([(hand[q] + hand[rest ^ q]) << 16 | q
                          for q in _structure()[3][rest]], reverse=True)
            self._by8[rest] = got
        return got

    def level(self, points: int) -> Iterator[tuple[int, int, int, int]]:
        """Every partition (4 masks) scoring exactly points; no dead ends (bounds are exact)."""
        hand = self.hand
        for va in self.top:
            if va >> 16 < points:
                return
            a = va & _FULL
            need_b = points - hand[a]
            r12 = _FULL ^ a
            for vb in self._next12(r12):
                if vb >> 16 < need_b:
                    break
                b = vb & _FULL
                need_c = need_b - hand[b]
                r8 = r12 ^ b
                for vc in self._next8(r8):
                    got = vc >> 16
                    if got < need_c:
                        break
                    if got == need_c:  # higher ones were yielded at a higher level
                        c = vc & _FULL
                        yield a, b, c, r8 ^ c

    def best_columns(self, rows: tuple[int, int, int, int],
                     floor: int) -> tuple[int, tuple[int, ...]] | None:
        """(points, columns) of the best partition orthogonal to rows scoring > floor, or None.

        Column k goes through the k-th card of rows[0]; the first two columns are searched,
        best first, and the last two are then settled by trying all 8 ways to share out
        the 2 cards left in each of rows 1..3.
        """
        hand = self.hand
        heads, xs, ys, zs = [_bits(r) for r in rows]
        pairs = [y | z for y in ys for z in zs]
        # table[4 * h + x][4 * y + z]: the column through the h-th, x-th, y-th, z-th cards of
        # rows 0..3. No column can beat the best through each card of one row: a bound per
        # row, from the maxima of the table's rows (h, x) and of its columns (y, z).
        table = [[hand[h | x | p] for p in pairs] for h in heads for x in xs]
        by_hx = [max(t) for t in table]
        by_yz = [max(t) for t in zip(*table)]
        tops = [max(by_hx[4 * i:4 * i + 4]) for i in range(4)]
        bound = min(sum(tops), sum([max(by_hx[i::4]) for i in range(4)]),
                    sum([max(by_yz[4 * i:4 * i + 4]) for i in range(4)]),
                    sum([max(by_yz[i::4]) for i in range(4)]))
        if bound <= floor:
            return None
        tails = [x | p for x in xs for p in pairs]  # in the order of table[4 * h + x]
        h0, h1, h2, h3 = heads
        # h0 is card 0 (level() puts it in rows[0]), so the cards left after column 0, and
        # after columns 0 and 1, have an exact best partition in self.best: a bound that
        # knows the columns left cannot share cards. Column 0 is tried in the order of
        # that bound (packed above its points and mask), so the loop stops at the first
        # that cannot win.
        split = self.best
        rest2 = tops[2] + tops[3]
        rest3 = tops[1] + rest2
        firsts = sorted([(v + min(split[_FULL ^ h0 ^ t], rest3)) << 24 | v << 16 | t
                         for v, t in zip(table[0] + table[1] + table[2] + table[3], tails)],
                        reverse=True)
        seconds = sorted([v << 16 | t for v, t in
                          zip(table[4] + table[5] + table[6] + table[7], tails)], reverse=True)
        others = rows[1] | rows[2] | rows[3]
        best, found = floor, None
        for v0 in firsts:
            if v0 >> 24 <= best:
                break
            s0 = v0 >> 16 & 255
            q0 = v0 & _FULL
            for v1 in seconds:
                s1 = s0 + (v1 >> 16)
                if s1 + rest2 <= best:
                    break
                q1 = v1 & _FULL
                if q1 & q0:
                    continue
                left = others ^ q0 ^ q1  # 2 cards in each of rows 1..3
                if s1 + split[h2 | h3 | left] <= best:
                    continue
                lx, ly, lz = left & rows[1], left & rows[2], left & rows[3]
                for x in (lx & -lx, lx & (lx - 1)):
                    for y in (ly & -ly, ly & (ly - 1)):
                        for z in (lz & -lz, lz & (lz - 1)):
                            q2 = x | y | z
                            s3 = s1 + hand[h2 | q2] + hand[h3 | left ^ q2]
                            if s3 > best:
                                best = s3
                                found = (h0 | q0, h1 | q1, h2 | q2, h3 | left ^ q2)
        return (best, found) if found else None


def _grid_of(grid: Grid, rows: Sequence[int], cols: Sequence[int]) -> Grid:
    """The cards of grid placed so that row i is rows[i] and column j is cols[j]."""
    out = []
    for r in rows:
        for c in cols:
            out.append(grid[(r & c).bit_length() - 1])
    return tuple(out)


def _swap_count(start: Sequence[int], target: Sequence[int]) -> int:
    """Fewest swaps turning start into target: 16 minus the cycles of the permutation."""
    where = {c: i for i, c in enumerate(start)}
    seen = [False] * 16
    cycles = 0
    for i in range(16):
        if not seen[i]:
            cycles += 1
            j = i
            while not seen[j]:
                seen[j] = True
                j = where[target[j]]
    return 16 - cycles


def equivalents(grid: Sequence[int]) -> list[Grid]:
    """The 1152 grids with the same score: row and column permutations, transposed or not."""
    out = []
    flipped = tuple(grid[4 * (i % 4) + i // 4] for i in range(16))
    for g in (tuple(grid), flipped):
        for rp in itertools.permutations(range(4)):
            for cp in itertools.permutations(range(4)):
                out.append(tuple(g[4 * rp[i // 4] + cp[i % 4]] for i in range(16)))
    return out


def swaps_between(start: Sequence[int], target: Sequence[int]) -> list[tuple[int, int]]:
    """Cell swaps (a, b) that turn start into target (same 16 cards), fewest possible."""
    if sorted(start) != sorted(target) or len(set(start)) != 16:
        raise shuffle.ShuffleError("not the same 16 cards: %r and %r" % (start, target))
    cur = list(start)
    where = {c: i for i, c in enumerate(cur)}
    out = []
    for i in range(16):
        if cur[i] != target[i]:
            j = where[target[i]]
            where[cur[i]], where[cur[j]] = j, i
            cur[i], cur[j] = cur[j], cur[i]
            out.append((i, j))
    return out


def nearest(start: Sequence[int], grid: Sequence[int]) -> Grid:
    """The grid equivalent to grid that takes the fewest swaps from start (first on ties)."""
    return min(equivalents(grid), key=lambda g: _swap_count(start, g))


def upper_bound(grid: Sequence[int], starter: int) -> int:
    """2 * the best partition of the 16 cards into 4 hands, + heels: no grid scores more."""
    grid, starter = shuffle.check_deal(grid, starter)
    return 2 * _Deal(grid, starter).partition_bound + shuffle.heels(starter)


def solve(grid: Sequence[int], starter: int, time_limit: float = 1.0,
          clock: Clock = time.perf_counter) -> Solution:
    """The best arrangement of grid's cards found within time_limit seconds (a Solution)."""
    start_time = clock()
    grid, starter = shuffle.check_deal(grid, starter)
    d = _Deal(grid, starter)
    # A hill climb from the grid as given is the first candidate: a good score to beat
    # from the start prunes more, and a timed-out search never returns worse than it.
    target, best = climb(grid, starter)
    best -= shuffle.heels(starter)
    pair = None
    level = d.partition_bound
    finished = True
    while finished and 2 * level > best:
        for rows in d.level(level):
            if clock() - start_time > time_limit:
                finished = False
                break
            got = d.best_columns(rows, best - level)
            if got:
                best, pair = level + got[0], (rows, got[1])
        else:
            level -= 1
    bound = best if finished else max(best, 2 * level)
    if pair is not None:
        target = _grid_of(grid, *pair)
    target = nearest(grid, target)
    extra = shuffle.heels(starter)
    return Solution(target, best + extra, bound + extra, bound == best,
                    tuple(swaps_between(grid, target)), clock() - start_time)


def climb(grid: Sequence[int], starter: int,
          score: shuffle.Scorer = score_show_fast) -> tuple[Grid, int]:
    """Hill-climb by best single swaps until none helps; return (grid, total)."""
    g = tuple(grid)
    while True:
        step = shuffle.best_swap(g, starter, score)
        if step is None:
            return g, shuffle.total(g, starter, score)
        g = shuffle.swapped(g, step[0], step[1])


def random_search(grid: Sequence[int], starter: int, rng: random.Random, seconds: float,
                  clock: Clock = time.perf_counter) -> tuple[Grid, int]:
    """Hill climbs from random shuffles of grid for about `seconds`; the best (grid, total).

    The bench's independent check on solve(): plain restarts, no bounds, no structure.
    """
    end = clock() + seconds
    best = climb(grid, starter)
    cards = list(grid)
    while clock() < end:
        rng.shuffle(cards)
        got = climb(cards, starter)
        if got[1] > best[1]:
            best = got
    return best
