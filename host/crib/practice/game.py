"""Practice against the computer: a whole 2-player game between two seats, no terminal.

A seat is anything with `discard(seen) -> 2 cards` and `play(seen) -> a card of
seen.playable`: a computer level (crib.practice.levels) or the player at the terminal
(crib.commands.practice). Each seat is given a `Seen`, only what a player in that seat can
see; a go is said for a seat automatically when none of its cards fits.

The rules are the shared core's: the flow is a cribcore Game (deal, discard, starter and
heels, the play tracker's go, 31 and last card, the show in counting order, counting out).
Every action goes through a record: `GameRecord` applies it to a plain Game (tests, bench);
`TableRecord` writes it to the history and pegs the board through crib.table, as `crib play`
does. A `Listener` hears what happened (the terminal prints it; tests check it).

    p = Practice([make("pro"), make("easy", rng)], target=121, rng=random.Random(7))
    game = p.run()                     # game.winner, game.scores
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, cast

from crib.errors import CribError
from cribcore.cards import card_name, card_symbol, names, value
from cribcore.deal import first_dealer, shuffle
from cribcore.game import CRIB, CUT, DEAL, DISCARD, PLAY, SHOW, Game, Step
from cribcore.match import win_level
from cribcore.play import LAY
from cribcore.show import show_breakdown
from cribcore.table.entries import replay

if TYPE_CHECKING:
    from crib.board.api import GameBoard
    from crib.history.db import History
    from crib.table.record import Table
    from cribcore.show import Item

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


class PracticeError(CribError):
    """A seat answered something the game does not allow (a bug in a strategy or a seat)."""


class Listener:
    """What a practice game tells as it goes; every method does nothing here."""

    def cut(self, cuts: Sequence[int], dealer: int) -> None:
        """Each player cut a card for the first deal; dealer -1 means a tie, cut again."""

    def hand(self, game: Game) -> None:
        """A new hand was dealt (game.hands holds the 6 cards of each player)."""

    def discarded(self, player: int, dealt: Cards, discard: Cards, dealer: bool) -> None:
        """player laid discard (of dealt) away; dealer: whether the crib is theirs."""

    def starter(self, card: int, step: Step) -> None:
        """The starter was cut; step pegs his heels for the dealer."""

    def laid(self, player: int, card: int, count: int, step: Step) -> None:
        """player laid card, making count; step holds what it pegged."""

    def said_go(self, player: int, step: Step) -> None:
        """player said go; step holds the last-card point it gave."""

    def shown(self, entry: int, player: int, cards: Cards, starter: int,
              items: Sequence[Item], step: Step) -> None:
        """A hand (entry: a player) or the crib (entry CRIB) was counted for player."""

    def over(self, game: Game) -> None:
        """Someone reached the target: the game is over."""


class GameRecord:
    """Actions applied to a plain cribcore Game: no history, no board."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def act(self, kind: str, args: Sequence[Any], player: int | None = None,
            info: Mapping[str, Any] | None = None) -> Step | None:
        """Apply the action of an entry of this kind (cribcore.table.entries.REPLAY)."""
        return replay(self.game, kind, args)

    def finish(self) -> None:
        """Nothing to write."""


class TableRecord:
    """Actions written to the history and pegged on the board, via crib.table.Table."""

    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def game(self) -> Game:
        """The table's game (rebuilt from the history's entries)."""
        return self.table.game

    def act(self, kind: str, args: Sequence[Any], player: int | None = None,
            info: Mapping[str, Any] | None = None) -> Step | None:
        """Apply, write to the history, then peg the board; returns the Game's answer."""
        return self.table.record(kind, list(args), info=info, player=player, announce=False)

    def finish(self) -> None:
        """Write the result: winner, scores, skunk level and game points."""
        t = self.table
        g = t.game
        level = win_level(g)
        t.h.finish_game(t.game_id, g.winner, g.scores, level, t.match["game_points"][level])

    def abandon(self) -> None:
        """Mark the game abandoned: practice games are not resumed by `crib play`."""
        self.table.h.abandon(self.table.game_id)


def open_table_record(history: History, board: GameBoard, view: Any, players: Sequence[str],
                      target: int, options: dict[str, Any], board_name: str | None
                      ) -> TableRecord:
    """A new match and game in the history for two players, the board set up for it; view:
    what the table tells (a crib.ui.view.View, a layer above practice)."""
    from crib.board.ids import new_prefix
    from crib.table.record import Table
    from cribcore.rules import GAME_POINTS

    match = history.new_match(players, False, target, GAME_POINTS)
    game_id = history.new_game(match, None, options, board_name, new_prefix())
    table = Table(history, board, view, game_id)
    table.start_board(True)
    return TableRecord(table)


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


class Practice:
    """One game between two seats (module docstring); run() plays it to the end.

    record: where actions go (default a GameRecord of a new Game to target); seed: the
    cards dealt (Dealing), else drawn from rng; listener: hears each event.
    """

    def __init__(self, seats: Sequence[Seat], target: int = 121, rng: random.Random | None = None,
                 record: GameRecord | TableRecord | None = None,
                 listener: Listener | None = None, seed: int | None = None) -> None:
        if len(seats) != PLAYERS:
            raise PracticeError(f"a practice game has 2 seats, got {len(seats)}")
        self.seats = list(seats)
        if seed is None:
            seed = (rng or random.Random()).getrandbits(48)
        self.dealing = Dealing(seed)
        self.record = record or GameRecord(Game(PLAYERS, target))
        self.listener = listener or Listener()
        self.dealt: list[Cards] = [(), ()]
        self.discards: list[Cards] = [(), ()]

    @property
    def game(self) -> Game:
        """The game being played (the record's)."""
        return self.record.game

    def run(self) -> Game:
        """Play to the end: cut for deal, then hand after hand until someone counts out."""
        while not self.game.over:
            self.step()
        self.record.finish()
        self.listener.over(self.game)
        return self.game

    def step(self) -> int | None:
        """One stage: the cut for deal, or a whole hand (it stops where the game ends)."""
        g = self.game
        if g.phase == CUT:
            return self.cut_for_deal()
        if g.phase != DEAL:
            raise PracticeError(f"a hand cannot start in phase {g.phase!r}")
        self.deal()
        for stage in (self.discard, self.starter, self.play, self.show):
            if self.game.over:
                return None
            stage()
        return None

    def cut_for_deal(self) -> int:
        """Each player cuts a card; the lower deals first (a tie cuts again)."""
        for cuts, dealer in self.dealing.cuts():
            self.listener.cut(cuts, dealer)
        self.record.act("cut", [cuts], info={"cuts": [card_name(c) for c in cuts]})
        return dealer

    def deal(self) -> None:
        """Shuffle and deal 6 cards each."""
        deck = self.dealing.deck(self.game.hand_no)
        self.record.act("deal", [None, deck], player=self.game.dealer)
        self.dealt = [tuple(sorted(h)) for h in self.game.hands]
        self.discards = [(), ()]
        self.listener.hand(self.game)

    def discard(self) -> None:
        """Each seat lays two cards away, the pone first; neither sees the other's."""
        g = self.game
        for p in ((g.dealer + 1) % PLAYERS, g.dealer):
            dealt = self.dealt[p]
            dis = tuple(self.seats[p].discard(self.seen(p)))
            if len(dis) != 2 or len(set(dis)) != 2 or any(c not in dealt for c in dis):
                raise PracticeError(f"seat {p} discarded {dis!r} from {names(dealt)!r}")
            self.record.act("discard", [p, sorted(dis)], player=p,
                            info={"cards": [card_name(c) for c in dealt],
                                  "discard": [card_name(c) for c in sorted(dis)]})
            self.discards[p] = tuple(sorted(dis))
            self.listener.discarded(p, dealt, self.discards[p], p == g.dealer)

    def starter(self) -> None:
        """The pone cuts, the dealer turns the starter; a jack pegs his heels."""
        g = self.game
        card = self.dealing.starter(g.hand_no, g.stock)
        step = self._pegged("starter", [card], player=g.dealer,
                            info={"dealer": g.dealer, "card": card_name(card),
                                  "text": card_symbol(card)})
        self.listener.starter(card, step)

    def play(self) -> None:
        """Card by card: the seat to lay picks a card that fits, or says go."""
        while self.game.phase == PLAY:
            play = self.game.play
            p = play.turn
            fits = play.playable()
            if not fits:
                step = self._pegged("go", [], p)
                self.listener.said_go(p, step)
                continue
            card = self.seats[p].play(self.seen(p))
            if card not in fits:
                raise PracticeError(f"seat {p} played {card!r}, not one of {names(fits)!r}")
            count = play.count + value(card)
            step = self._pegged("lay", [card], player=p,
                                info={"card": card_name(card), "lent": False,
                                      "text": card_symbol(card)})
            self.listener.laid(p, card, count, step)

    def show(self) -> None:
        """The pone's hand, the dealer's, then the crib, each itemised, until one counts out."""
        while self.game.phase == SHOW:
            g = self.game
            entry = g.show_next()
            cards = g.known_cards(entry)
            starter = g.starter
            who = g.dealer if entry == CRIB else entry
            items = show_breakdown(cards, starter, entry == CRIB)
            step = self._pegged("show", [], player=who,
                                info={"entry": entry, "cards": [card_name(c) for c in cards],
                                      "actual": sum(it.points for it in items)})
            self.listener.shown(entry, who, tuple(cards), starter, items, step)

    def _pegged(self, kind: str, args: Sequence[Any], player: int,
                info: Mapping[str, Any] | None = None) -> Step:
        """record.act for an action that answers with the core's Step (all but cut and deal)."""
        return cast(Step, self.record.act(kind, args, player=player, info=info))

    def seen(self, p: int) -> Seen:
        """What the player in seat p can see now, and nothing more."""
        return seen(self.game, p, self.dealt[p], self.discards[p])


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
