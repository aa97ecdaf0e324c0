"""Expected pegging of every kept four-card hand in the play of 3 or 4 players (5-card deals),
from a table shipped with the package (docs/advisor.md).

The seats go in turn order: seat 0 (left of the dealer) leads, the last seat deals; with 4
players the partners sit in seats 0 and 2, 1 and 3 (the dealer's side). For each of the
1,820 rank patterns of the four kept cards, and each (players, side):

- 3 players, pone: the player sits in seat 0 or 1 (alternate draws); dealer: seat 2.
  mine: the player's points in the play; theirs: the two others' together (a point to
  either opponent counts against the player, as their crib does).
- 4 players, pone side: seat 0 or 2; dealer side: seat 1 or 3. mine: the points of the
  player's side (the player and the partner); theirs: the other side's.

Everybody lays by crib.analysis.pegging.greedy (the two-player table's policy). The other
hands are drawn, not enumerated (3 other hands of 4 are too many): draw i shuffles the 52
cards by a fixed seed and deals the others' hands from it, skipping the kept cards, so
every pattern meets the same draws where it can (common random numbers: the difference
between two kept hands is sharper than either value). Like the two-player table, the
player's laid-away card and the starter are not taken out (a small bias). The file holds
the integer totals over SAMPLES draws; the values are totals / SAMPLES, each with a
sampling error that bench/pegging_table.py --multi prints (docs/advisor.md gives it).
"""

import random
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from crib.analysis.pegging import play_out, read_rows

TABLE_FILE = Path(__file__).with_name("pegging_multi_table.txt")
SAMPLES = 800  # draws of the other hands per pattern and (players, side)
CONFIGS = ((3, False), (3, True), (4, False), (4, True))  # the table's column pairs, in order


def seats(players: int, dealer: bool) -> tuple[int, ...]:
    """The seats the player takes in turn over the draws."""
    if players == 3:
        return (2,) if dealer else (0, 1)
    return (1, 3) if dealer else (0, 2)


def side(players: int, seat: int) -> tuple[int, ...]:
    """The seats whose points count for the player in `seat`."""
    return (seat,) if players == 3 else (seat, (seat + 2) % 4)


_DECKS: list = []


def decks(n: int) -> list[list[int]]:
    """The first n shuffled decks of the table's draws (the same in every process)."""
    while len(_DECKS) < n:
        deck = list(range(52))
        random.Random(f"pegging-multi/{len(_DECKS)}").shuffle(deck)
        _DECKS.append(deck)
    return _DECKS[:n]


def kept_cards(ranks: Sequence[int]) -> list[int]:
    """Cards for sorted ranks: the k-th card of a rank gets suit k (suits never score)."""
    seen = [0] * 13
    out = []
    for r in ranks:
        out.append(r << 2 | seen[r])
        seen[r] += 1
    return out


def row_totals(ranks: Sequence[int], samples: int = SAMPLES
               ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The table row for 4 kept ranks: ((mine, theirs) totals over `samples` draws for each
    of CONFIGS, flattened; the sums of squares of mine - theirs for each, for the error)."""
    ranks = tuple(sorted(ranks))
    kept = set(kept_cards(ranks))
    totals = [0] * (2 * len(CONFIGS))
    squares = [0] * len(CONFIGS)
    for i, deck in enumerate(decks(samples)):
        others = [c >> 2 for c in deck if c not in kept][:12]
        for j, (players, dealer) in enumerate(CONFIGS):
            options = seats(players, dealer)
            seat = options[i % len(options)]
            hands: list[Sequence[int]] = [others[4 * k:4 * k + 4] for k in range(players - 1)]
            hands.insert(seat, ranks)
            pts = play_out(hands, 0)
            mine = sum(pts[s] for s in side(players, seat))
            theirs = sum(pts) - mine
            totals[2 * j] += mine
            totals[2 * j + 1] += theirs
            squares[j] += (mine - theirs) ** 2
    return tuple(totals), tuple(squares)


_TABLE = None


def table() -> dict[tuple[int, ...], tuple[int, ...]]:
    """{sorted 4 ranks: (mine, theirs) totals for each of CONFIGS, flattened}, read once."""
    global _TABLE
    if _TABLE is None:
        _TABLE = read_rows(TABLE_FILE)
    return _TABLE


def expected_pegging_multi(ranks: Sequence[int], players: int, dealer: bool
                           ) -> tuple[Fraction, Fraction]:
    """(points your side pegs, points the others peg) as Fractions for 4 kept ranks in the
    play of `players` (3 or 4), on the dealer's side or not."""
    i = CONFIGS.index((players, bool(dealer)))
    row = table()[tuple(sorted(ranks))]
    return Fraction(row[2 * i], SAMPLES), Fraction(row[2 * i + 1], SAMPLES)
