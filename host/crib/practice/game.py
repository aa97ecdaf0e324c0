"""What a practice game is made of: its two seats (a computer level or the player at the
terminal), what each seat can see (`Seen`), and the cards it deals for a seed (`Dealing`).

A seat is anything with `discard(seen) -> 2 cards` and `play(seen) -> a card of
seen.playable`: a computer level (crib.practice.levels) or the player at the terminal.
Each seat is given a `Seen`, only what a player in that seat can see. The game itself is
played through the table engine (crib.practice.turns: its questions; crib.practice.computer:
the engine of a practice game and the computer's answers), as `crib practice` plays it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from cribcore.deal import first_dealer, shuffle
from cribcore.game import DISCARD, PLAY, Game
from cribcore.play import LAY

PLAYERS = 2
# ACC: the cut leaves at least four cards in each packet.
CUT_MARGIN = 4

Cards = tuple[int, ...]


class Seen(NamedTuple):
    """What the player in one seat can see now (cards are cribcore card numbers)."""

    me: int                               # the seat's player number (0 or 1)
    dealer: bool                          # True when the seat deals this hand (its crib)
    hand: Cards                           # its cards now: the 6 dealt while discarding,
                                          # then those not yet laid
    kept: Cards                           # its 4 cards after the discard, () before
    discard: Cards                        # the 2 cards it laid away, () before
    starter: int | None                   # the starter, None before the cut
    # the count of the play (the field shadows tuple.count, as the namedtuple's did)
    count: int  # type: ignore[assignment]
    pile: Cards                           # cards laid since the count was last 0, oldest first
    played: tuple[tuple[int, int], ...]   # every card laid this hand, as (player, card)
    playable: Cards                       # its cards that fit under 31 when it is to lay
    opp_left: int                         # how many cards the opponent still holds in the play
    opp_gone: bool                        # whether the opponent said go in this series
    scores: tuple[int, int]               # (its score, the opponent's)
    target: int                           # the game's target


class Seat(Protocol):
    """A seat of a practice game: a computer level or the player at the terminal."""

    def discard(self, seen: Seen) -> Sequence[int]:
        """The 2 cards of seen.hand to lay away."""

    def play(self, seen: Seen) -> int:
        """A card of seen.playable."""


def rngs(seed: int) -> tuple[random.Random, random.Random]:
    """(deal rng, computer rng) for a seed: the cards dealt never depend on anyone's choices."""
    return random.Random(seed), random.Random(f"{seed}/computer")


class Dealing:
    """The cards a practice game deals for a seed: the cut for the first deal, and each
    hand's deck and starter, each a function of the seed and the hand's number alone, so
    an undo, or the same seed again, deals the same cards."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def cuts(self) -> list[tuple[list[int], int]]:
        """[(cut cards, dealer)] of each cut for the first deal (-1: a tie, cut again)."""
        rng = random.Random(f"{self.seed}/cut")
        out: list[tuple[list[int], int]] = []
        while not out or out[-1][1] < 0:
            cuts = shuffle(list(range(52)), rng)[:PLAYERS]
            out.append((cuts, first_dealer(cuts)))
        return out

    def deck(self, hand_no: int) -> list[int]:
        """The shuffled deck of a hand."""
        return shuffle(list(range(52)), random.Random(f"{self.seed}/deal/{hand_no}"))

    def starter(self, hand_no: int, stock: Sequence[int]) -> int:
        """The starter of a hand: the pone cuts the stock, leaving CUT_MARGIN each side."""
        rng = random.Random(f"{self.seed}/starter/{hand_no}")
        return stock[CUT_MARGIN + rng.randrange(len(stock) - 2 * CUT_MARGIN)]


def seen(g: Game, p: int, dealt: Sequence[int], discard: Sequence[int]) -> Seen:
    """What the player in seat p of game g can see now: dealt, the 6 cards dealt to it (or
    () before the deal), discard, the 2 it laid away (or ())."""
    opp = 1 - p
    play = g.play if g.phase == PLAY else None
    if g.phase == DISCARD:
        hand, kept = tuple(dealt), ()
    else:
        kept = tuple(sorted(g.hands[p]))
        hand = tuple(sorted(play.hands[p])) if play else kept
    played: tuple[tuple[int, int], ...] = ()
    if play:
        played = tuple((q, c) for kind, q, c in play.actions if kind == LAY)
    return Seen(
        me=p, dealer=g.dealer == p, hand=hand, kept=kept, discard=tuple(discard),
        starter=g.starter, count=play.count if play else 0,
        pile=tuple(play.pile) if play else (), played=played,
        playable=tuple(sorted(play.playable())) if play and play.turn == p else (),
        opp_left=play.cards_left(opp) if play else 0,
        opp_gone=bool(play.gone[opp]) if play else False,
        scores=(g.scores[g.side_of(p)], g.scores[g.side_of(opp)]), target=g.target)
