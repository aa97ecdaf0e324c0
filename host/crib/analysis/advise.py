"""The discard advisor: every discard of a 6- or 5-card deal with exact expected points.

The model (docs/advisor.md): the starter is uniform over the cards the player has not
seen (46, or 47 with 5 cards). With 6 cards (2 players) the opponent's 2 crib cards are a
uniform pair of the unseen cards and the starter uniform over the 44 left. With 5 cards
(3-4 players) the crib's 3 other cards (the other players' discards, or the deck card for
3 players) are a uniform 3-set of the 47 unseen and the starter uniform over the 44 left.
Real opponents do not discard at random; this is the usual, exact, model-based average.
Heels is left out: it does not depend on the discard.

Ranking: best net first (hand + crib when the crib is yours, hand - crib otherwise); ties
go to the higher expected hand, then to the lower discarded cards (card ints, ascending).

With pegging: the net adds the points the kept four are expected to peg and takes away
those the opponents are expected to peg against them: with 6 cards from the two-player
table (crib.analysis.pegging: both lay lookahead against a uniform opponent hand, exact), with
5 cards from the 3- and 4-player table (crib.analysis.pegging_multi: everyone lays greedy,
drawn deals of the other hands; with 4 players the points are the partnership's).
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from operator import mul
from typing import Any

from crib.analysis.advise_tables import Tables, tables, weights
from crib.analysis.pegging import expected_pegging
from crib.analysis.pegging_multi import expected_pegging_multi
from crib.errors import CribError
from cribcore.cards import JACK, InvalidCardError, card_name, card_symbol, check_card


class AdviceError(CribError, ValueError):
    """A deal the advisor cannot rank: a wrong card count, a discard not from the deal."""


@dataclass(frozen=True)
class Discard:
    """One way to discard, with exact expected points (Fractions) and the hand's range."""

    keep: tuple  # card ints, ascending
    discard: tuple  # card ints, ascending
    hand: Fraction  # expected hand points over every unseen starter
    crib: Fraction  # expected crib points under the model above
    net: Fraction  # hand + crib if dealer else hand - crib
    hand_min: int  # fewest hand points over the unseen starters
    hand_max: int  # most hand points over the unseen starters
    dealer: bool  # whether the crib counts for this player
    peg: Fraction | None = None  # expected points pegged with the kept four (None: not counted)
    peg_opp: Fraction | None = None  # expected points the opponent(s) peg against them
    players: int = 2  # 2 with 6 cards, 3 or 4 with 5

    def as_dict(self) -> dict:
        """JSON-ready: card names, floats for display and the exact values as 'p/q'."""
        out: dict[str, Any] = {
            "keep": [card_name(c) for c in self.keep],
            "discard": [card_name(c) for c in self.discard],
            "hand": float(self.hand),
            "crib": float(self.crib),
            "net": float(self.net),
            "hand_min": self.hand_min,
            "hand_max": self.hand_max,
            "players": self.players,
            "exact": {"hand": str(self.hand), "crib": str(self.crib), "net": str(self.net)},
        }
        if self.peg is not None and self.peg_opp is not None:
            out["peg"] = float(self.peg)
            out["peg_opp"] = float(self.peg_opp)
            out["exact"]["peg"] = str(self.peg)
            out["exact"]["peg_opp"] = str(self.peg_opp)
        return out


def _check_deal(cards: Iterable[int]) -> tuple[int, ...]:
    """The deal as a sorted tuple of distinct card ints (5 or 6), or raise."""
    cards = [check_card(c) for c in cards]
    if len(cards) not in (5, 6):
        got = " ".join(card_name(c) for c in cards)
        raise AdviceError(f"a deal to discard from has 5 or 6 cards, got {len(cards)}: {got!r}")
    for i, c in enumerate(cards):
        if c in cards[i + 1:]:
            raise InvalidCardError(f"card given twice: {card_name(c)!r}")
    return tuple(sorted(cards))


def _check_dealer(dealer: object) -> bool:
    if dealer not in (True, False):
        raise AdviceError(f"dealer must be True or False, got {dealer!r}")
    return bool(dealer)


def _check_players(players: object, deal: Sequence[int]) -> int:
    """The number of players for the deal (None: 2 for 6 cards, 3 for 5), or raise."""
    allowed = (2,) if len(deal) == 6 else (3, 4)
    if players is None:
        return allowed[0]
    if type(players) is not int or players not in allowed:
        raise AdviceError(f"a {len(deal)}-card deal is for "
                          + (f"2 players, not {players!r}" if len(deal) == 6
                             else f"3 or 4 players, not {players!r}"))
    return players


def _pegging(keep: Sequence[int], dealer: bool, players: int) -> tuple[Fraction, Fraction]:
    """(peg, opp) for the kept cards from the table for the number of players."""
    ranks = [c >> 2 for c in keep]
    if players == 2:
        return expected_pegging(ranks, dealer)
    return expected_pegging_multi(ranks, players, dealer)


def _discards(deal: Sequence[int]) -> list[tuple[int, ...]]:
    """Every way to lay away len(deal) - 4 cards, as sorted tuples."""
    n = len(deal)
    if n == 5:
        return [(c,) for c in deal]
    return [(deal[i], deal[j]) for i in range(n) for j in range(i + 1, n)]


def _hand(keep: Sequence[int], remaining: Sequence[int], unseen_suits: Sequence[int],
          unseen: Sequence[int], t: Tables) -> tuple[int, int, int]:
    """(total points over the unseen starters, min, max) for the 4 kept cards."""
    pts = t.quad_points[tuple(c >> 2 for c in keep)]
    extra = [0, 0, 0, 0]  # flush and nobs points by the starter's suit
    s = keep[0] & 3
    if all((c & 3) == s for c in keep):
        extra = [4, 4, 4, 4]
        extra[s] = 5
    for c in keep:
        if c >> 2 == JACK:
            extra[c & 3] += 1
    total = sum(map(mul, remaining, pts)) + sum(map(mul, unseen_suits, extra))
    scores = [pts[c >> 2] + extra[c & 3] for c in unseen]
    return total, min(scores), max(scores)


def _crib_suit_total(dis: Sequence[int], unseen_suits: Sequence[int], n_unseen: int,
                     k: int) -> int:
    """Flush and nobs points of the discarded cards, summed over every crib outcome."""
    total = 0
    s = dis[0] & 3
    if all((c & 3) == s for c in dis):
        # a 5-card flush: the k other crib cards and the starter all of suit s
        total += 5 * (k + 1) * comb(unseen_suits[s], k + 1)
    for c in dis:
        if c >> 2 == JACK:
            # nobs: a starter of the jack's suit, any k others from the rest
            total += unseen_suits[c & 3] * comb(n_unseen - 1, k)
    return total


def rank_discards(cards: Iterable[int], dealer: bool, pegging: bool = False,
                  players: int | None = None) -> list[Discard]:
    """Every discard of 6 (2 players) or 5 (3-4 players) card ints, best expected net first.

    `dealer` is True when the crib counts for this player (or their partner). `pegging`:
    count the play in the net. `players`: 2 for 6 cards; 3 (the default) or 4 for 5 cards
    (it changes only the play).
    """
    deal = _check_deal(cards)
    dealer = _check_dealer(dealer)
    players = _check_players(players, deal)
    if pegging not in (True, False):
        raise AdviceError(f"pegging must be True or False, got {pegging!r}")
    t = tables()
    n_dis = len(deal) - 4
    k = 4 - n_dis  # unknown crib cards besides the starter
    remaining = [4] * 13
    unseen_suits = [13] * 4
    for c in deal:
        remaining[c >> 2] -= 1
        unseen_suits[c & 3] -= 1
    unseen = [c for c in range(52) if c not in deal]
    n_unseen = len(unseen)
    outcomes = comb(n_unseen, k) * (n_unseen - k)  # (unordered other crib cards, starter)
    w = weights(t.unknown_groups[n_dis], remaining)
    # Nobs from an unseen jack in the crib: the jack among the k unknown cards (then the
    # k-1 others avoid it) and a starter of its suit that is none of them.
    per_jack = comb(n_unseen - 1, k - 1) - comb(n_unseen - 2, k - 2)
    unseen_nobs = sum((unseen_suits[c & 3] - 1) * per_jack for c in unseen if c >> 2 == JACK)
    # discards of equal ranks share the rank part of the crib
    by_ranks: dict[tuple[int, ...], int] = {}
    out = []
    for dis in _discards(deal):
        keep = tuple(c for c in deal if c not in dis)
        h_total, h_min, h_max = _hand(keep, remaining, unseen_suits, unseen, t)
        ranks = tuple(c >> 2 for c in dis)
        r_total = by_ranks.get(ranks)
        if r_total is None:
            # each unordered set of k+1 unknown cards is k+1 outcomes (which is the starter)
            r_total = by_ranks[ranks] = (k + 1) * sum(map(mul, w, t.crib_points[ranks]))
        c_total = r_total + _crib_suit_total(dis, unseen_suits, n_unseen, k) + unseen_nobs
        hand = Fraction(h_total, n_unseen)
        crib = Fraction(c_total, outcomes)
        net = hand + crib if dealer else hand - crib
        peg = peg_opp = None
        if pegging:
            peg, peg_opp = _pegging(keep, dealer, players)
            net += peg - peg_opp
        out.append(Discard(keep, dis, hand, crib, net, h_min, h_max, dealer, peg, peg_opp,
                           players))
    out.sort(key=lambda e: (-e.net, -e.hand, e.discard))
    return out


def best_discard(cards: Iterable[int], dealer: bool, pegging: bool = False,
                 players: int | None = None) -> Discard:
    """The best entry of rank_discards. With pegging=True it is the one best discard of
    `crib discard`, the reviews, the pro level and the practice hint."""
    return rank_discards(cards, dealer, pegging, players)[0]


def review(cards: Iterable[int], discard: Iterable[int], dealer: bool, pegging: bool = True,
           players: int | None = None) -> tuple[Discard, Discard]:
    """(made, best): the entry for the discard the player made and the best entry, ranked as
    `crib discard` ranks them (the play counted unless pegging=False)."""
    ranked = rank_discards(cards, dealer, pegging, players)
    want = tuple(sorted(check_card(c) for c in discard))
    for e in ranked:
        if e.discard == want:
            return e, ranked[0]
    made = " ".join(card_name(c) for c in want)
    deal = " ".join(card_name(c) for c in sorted(cards))
    n = len(ranked[0].discard)
    raise AdviceError(f"discard {made!r} is not {n} cards of the deal {deal!r}")


def _summary(e: Discard, name: Callable[[int], str]) -> str:
    sign = "+" if e.dealer else "-"
    cards = " ".join(name(c) for c in e.discard)
    play = ""
    if e.peg is not None and e.peg_opp is not None:
        net = float(e.peg - e.peg_opp)
        play = f" {'-' if net < 0 else '+'} play {abs(net):.2f}"
    return f"{cards} (hand {float(e.hand):.2f} {sign} crib {float(e.crib):.2f}{play})"


def hint_line(cards: Iterable[int], dealer: bool, symbols: bool = True) -> str:
    """The practice prompt's hint: the best discard (best_discard) and its averages."""
    best = best_discard(cards, dealer, pegging=True)
    name = card_symbol if symbols else card_name
    return (f"hint: lay away {_summary(best, name)}, averaging {float(best.net):.2f}"
            " (`crib discard` ranks them all)")


def review_line(made: Discard, best: Discard, symbols: bool = True) -> str:
    """The review line for the table: the discard made against the best, both averages."""
    name = card_symbol if symbols else card_name
    made_net = float(made.net)
    if made.net >= best.net:
        return f"optimal discard: {_summary(made, name)} averages {made_net:.2f}"
    return (f"not the optimal discard: {_summary(made, name)} averages {made_net:.2f}"
            f" vs {float(best.net):.2f} for {_summary(best, name)}")
