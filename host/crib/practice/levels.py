"""The computer's levels for `crib practice`: how it discards and which card it plays.

A strategy sees only what a player in its seat sees: a `crib.practice.Seen` (its own cards,
the cards laid, the starter once cut, the count, the scores). Two calls:

    discard(seen) -> the cards to lay away (2 of seen.hand)
    play(seen) -> a card of seen.playable (only asked when one fits; a go is automatic)

Levels, one sentence each (docs/practice.md):
- easy: discards two cards at random and plays a legal card at random.
- standard: keeps the four cards that score most as they stand (pairs and fifteens it lays
  away count for its own crib and against the opponent's, and it avoids giving the
  opponent 5s), and in the play takes the most points now, avoiding a count of 5 or 21
  (a ten-card makes 15 or 31 from there).
- pro: discards as `crib discard` ranks (the advisor's exact expected hand and crib, and
  the pegging table's net points for the four it keeps), and in the play lays
  the card with the best expected net pegging to the end of the play over the hands the
  opponent may hold (crib.analysis.playsearch: a search, both sides greedy after it).
- pro0 (not offered to players; the practice bench measures pro against it): the pro level
  before the pegging search: the advisor's discard without the play, and each card weighed
  by its points now against the opponent's best reply and its own answer.
- pro-half and TablePro (bench only): the pro level's play, discarding with a pegging table
  (the shipped one or one of before) counted at a weight: pro-half is the shipped table at
  half weight; bench/practice.py's --old plays the pro of the issue's day (the greedy
  table of before at half weight) as a TablePro.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

from crib.analysis.pegging import greedy, pile_points, row_net, table
from crib.analysis.playsearch import best_card, card_values
from crib.errors import CribError
from cribcore.cards import value
from cribcore.show import points_by_rank

if TYPE_CHECKING:
    from crib.analysis.advise import Discard
    from crib.practice.game import Seen

LEVELS = ("easy", "standard", "pro")
BENCH_LEVELS = LEVELS + ("pro0", "pro-half")  # for the benches: pro0 (the pro level before
# the search), pro-half (the pro level counting half the pegging table, bench/paired.py)


class LevelError(CribError):
    """A level name that is not one of LEVELS."""


def _pairs(cards: Sequence[int]) -> list[tuple[int, int]]:
    """Every way to choose 2 of cards, as tuples in the order given."""
    n = len(cards)
    return [(cards[i], cards[j]) for i in range(n) for j in range(i + 1, n)]


class Easy:
    """Discards two cards at random and plays a legal card at random."""

    level = "easy"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def discard(self, seen: Seen) -> tuple[int, ...]:
        """Two cards of the hand, at random."""
        return tuple(self.rng.sample(sorted(seen.hand), 2))

    def play(self, seen: Seen) -> int:
        """A playable card, at random."""
        return self.rng.choice(sorted(seen.playable))


def hand_now(cards: Sequence[int]) -> int:
    """What cards score as they stand, before the starter (fifteens, pairs, runs, flush)."""
    flush = 4 if len(cards) == 4 and len({c & 3 for c in cards}) == 1 else 0
    return points_by_rank(cards) + flush


def standard_discard_score(keep: Sequence[int], discard: Sequence[int], dealer: bool) -> int:
    """The standard level's value of a discard: hand points now, plus (own crib) or minus
    (the opponent's) what the two laid-away cards score, and a point for each 5 laid away."""
    crib = points_by_rank(discard) + sum(1 for c in discard if c >> 2 == 4)
    return hand_now(keep) + (crib if dealer else -crib)


class Standard:
    """Most points now, in the hand kept and in the play; no 5 or 21 left to the opponent."""

    level = "standard"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng  # unused: the standard level is deterministic

    def discard(self, seen: Seen) -> tuple[int, ...]:
        """The discard with the best standard_discard_score (ties: the lower cards)."""
        hand = sorted(seen.hand)

        def key(dis: tuple[int, int]) -> tuple[int, list[int]]:
            keep = [c for c in hand if c not in dis]
            return standard_discard_score(keep, dis, seen.dealer), [-c for c in dis]
        return max(_pairs(hand), key=key)  # the first of equal keys, as before

    def play(self, seen: Seen) -> int:
        """The card scoring most now, less 2 when it leaves the count at 5 or 21; ties: rid
        the hand of its high cards first (crib.analysis.pegging.greedy)."""
        fits = sorted(seen.playable)
        r = greedy(sorted({c >> 2 for c in fits}), tuple(c >> 2 for c in seen.pile), seen.count)
        return max(c for c in fits if c >> 2 == r)


def unseen(seen: Seen) -> list[int]:
    """Cards the seat has not seen this hand: not its own, not the starter, not laid."""
    known = set(seen.hand) | set(seen.kept) | set(seen.discard)
    known |= {c for _, c in seen.played}
    if seen.starter is not None:
        known.add(seen.starter)
    return [c for c in range(52) if c not in known]


def _points(pile: Sequence[int]) -> int:
    """cribcore.play.score_play of a pile of cards (memoised by its ranks)."""
    return pile_points(tuple(c >> 2 for c in pile))


def _solo(pile: list[int], count: int, cards: Sequence[int]) -> int:
    """Most points cards can make laid one after another with the opponent out of the
    series (it said go or holds nothing): each card's points, then the last card's 1."""
    best = 0
    for c in cards:
        n = count + value(c)
        if n > 31:
            continue
        grown = pile + [c]
        pts = _points(grown)
        if n < 31:
            rest = [d for d in cards if d != c]
            pts += _solo(grown, n, rest) if rest else 1
        best = max(best, pts)
    fits = any(count + value(c) <= 31 for c in cards)
    return best if fits else (1 if pile and count < 31 else 0)


def expected_best(values: Sequence[int], unplayable: int, k: int, none_value: int) -> float:
    """The average best of a random k of the cards: values for those that fit, unplayable
    more that do not (none_value when all k drawn are such)."""
    n = len(values) + unplayable
    if k <= 0 or n == 0:
        return none_value
    k = min(k, n)
    total = comb(n, k)
    out = none_value * comb(unplayable, k)
    for i, v in enumerate(sorted(values, reverse=True)):
        # the i-th best card is held and none better: C(n - 1 - i, k - 1) of the subsets
        out += v * comb(n - 1 - i, k - 1)
    return out / total


class Pro:
    """The advisor's discard with the play counted; in the play, the card with the best
    expected net pegging over the opponent's possible hands (a search to the last card)."""

    level = "pro"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng  # unused: the pro level is deterministic

    def discard(self, seen: Seen) -> tuple[int, ...]:
        """The discard `crib discard` stars (crib.analysis.advise.best_discard with the
        play counted at PEGGING_WEIGHT, all of it)."""
        from crib.analysis.advise import best_discard

        return best_discard(seen.hand, seen.dealer, pegging=True).discard

    def play(self, seen: Seen) -> int:
        """The playable card of the rank with the best card_values (ties: the higher card)."""
        r = best_card(play_values(seen))
        return max(c for c in seen.playable if c >> 2 == r)


# How much of the pegging table's net play (peg - opp) the pro level's discard counts: all
# of it, as `crib discard`, the reviews and the practice hint do (one best discard). The
# greedy table of before was biased (the pone never played defensively), so the pro level
# counted half of it; the table is now made with the lookahead policy (docs/advisor.md).
# HalfPro (bench only) keeps the half weight for bench/paired.py to measure against.
PEGGING_WEIGHT = Fraction(1)


def pro_net(e: Discard, weight: Fraction = PEGGING_WEIGHT) -> Fraction:
    """A ranked discard's net with the play counted at weight (e: ranked with
    pegging=True)."""
    if e.peg is None or e.peg_opp is None:
        raise LevelError("pro_net needs a discard ranked with the play counted")
    return e.net - (1 - weight) * (e.peg - e.peg_opp)


def play_values(seen: Seen) -> dict[int, Fraction]:
    """{rank: expected net pegging} of each rank seen.playable holds (playsearch.card_values)."""
    return card_values([c >> 2 for c in seen.hand], [c >> 2 for c in seen.pile], seen.count,
                       [c >> 2 for c in unseen(seen)], seen.opp_left, seen.opp_gone)


class ClassicPro:
    """pro0: the pro level before the pegging search (for the practice bench only)."""

    level = "pro0"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng  # unused: the pro level is deterministic

    def discard(self, seen: Seen) -> tuple[int, ...]:
        """The discard with the best exact expected net (crib.analysis.advise.best_discard)."""
        # Imported here: the advisor tabulates at import, which every `crib` verb would pay.
        from crib.analysis.advise import best_discard

        return best_discard(seen.hand, seen.dealer).discard

    def play(self, seen: Seen) -> int:
        """The playable card with the best value() (ties: the higher card)."""
        hidden = unseen(seen)
        return max(sorted(seen.playable),
                   key=lambda c: (round(self.value(seen, c, hidden), 9), value(c), c))

    def value(self, seen: Seen, card: int, hidden: Sequence[int]) -> float:
        """Points card makes now, less the opponent's expected best reply net of our answer;
        the opponent holds seen.opp_left of the hidden cards, any of them equally likely."""
        pile = list(seen.pile) + [card]
        count = seen.count + value(card)
        mine = _points(pile)
        rest = [c for c in seen.hand if c != card]
        if count == 31:
            return mine  # a new series; the opponent leads it
        if seen.opp_gone or seen.opp_left == 0:
            return mine + _solo(pile, count, rest)
        # The opponent's replies by rank (suits do not score in the play): one card stands
        # for its rank, weighted by how many of that rank are hidden.
        by_rank: dict[int, list[int]] = {}
        for c in hidden:
            by_rank.setdefault(c >> 2, []).append(c)
        values = []
        unplayable = 0
        for cards in by_rank.values():
            u = cards[0]
            n = count + value(u)
            if n > 31:
                unplayable += len(cards)
                continue
            theirs = _points(pile + [u])
            values += [theirs - self._answer(pile + [u], n, rest)] * len(cards)
        # Holding nothing that fits, the opponent says go and we lay on alone.
        none = -_solo(pile, count, rest)
        return mine - expected_best(values, unplayable, seen.opp_left, none)

    @staticmethod
    def _answer(pile: list[int], count: int, rest: Sequence[int]) -> int:
        """Our best points in answer to the opponent's card (a go gives them about 1)."""
        if count == 31:
            return 0
        best = None
        for c in rest:
            if count + value(c) <= 31:
                pts = _points(pile + [c])
                best = pts if best is None else max(best, pts)
        return -1 if best is None else best


def table_discard(hand: Sequence[int], dealer: bool, rows: dict[tuple[int, ...], tuple[int, ...]],
                  weight: Fraction) -> tuple[int, ...]:
    """The discard with the best advisor net (hand and crib) plus weight x the net play
    (mine - theirs) that rows, a pegging table (crib.analysis.pegging.read_rows), gives the
    four kept in this seat; ties: the higher hand, then the lower cards laid away (the
    order of rank_discards)."""
    from crib.analysis.advise import rank_discards

    def key(e: Discard) -> tuple[Fraction, Fraction, tuple[int, ...]]:
        row = rows[tuple(sorted(c >> 2 for c in e.keep))]
        return -(e.net + weight * row_net(row, dealer)), -e.hand, e.discard
    return min(rank_discards(hand, dealer), key=key).discard


class TablePro(Pro):
    """The pro level's play, discarding with a pegging table's rows at a weight (bench only:
    the pro of before, with the table of its day, against the pro of now)."""

    level = "pro-table"

    def __init__(self, rng: random.Random | None = None,
                 rows: dict[tuple[int, ...], tuple[int, ...]] | None = None,
                 weight: Fraction = Fraction(1, 2)) -> None:
        super().__init__(rng)
        self.rows = table() if rows is None else rows
        self.weight = weight

    def discard(self, seen: Seen) -> tuple[int, ...]:
        """table_discard with this level's rows and weight."""
        return table_discard(seen.hand, seen.dealer, self.rows, self.weight)


class HalfPro(TablePro):
    """pro-half: the pro level counting half the shipped table's net play (bench only)."""

    level = "pro-half"

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng, None, Fraction(1, 2))


_CLASSES: dict[str, type[Easy | Standard | Pro | ClassicPro]] = {
    "easy": Easy, "standard": Standard, "pro": Pro, "pro0": ClassicPro, "pro-half": HalfPro}


def make(level: str, rng: random.Random | None = None) -> Easy | Standard | Pro | ClassicPro:
    """The strategy for a level name (rng: randomness for the levels that use it)."""
    if level not in _CLASSES:
        raise LevelError(f"level must be one of {', '.join(BENCH_LEVELS)}, not {level!r}")
    return _CLASSES[level](rng)
