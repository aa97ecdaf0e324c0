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

import random
from collections import namedtuple

from crib.errors import CribError
from cribcore.cards import card_name, card_symbol, names, value
from cribcore.deal import first_dealer, shuffle
from cribcore.game import CRIB, CUT, DEAL, DISCARD, PLAY, SHOW, Game
from cribcore.match import win_level
from cribcore.play import LAY
from cribcore.show import show_breakdown
from cribcore.table.entries import replay

PLAYERS = 2
# ACC: the cut leaves at least four cards in each packet.
CUT_MARGIN = 4

Seen = namedtuple("Seen", (
    "me",        # the seat's player number (0 or 1)
    "dealer",    # True when the seat deals this hand (the crib is its own)
    "hand",      # its cards now: the 6 dealt while discarding, then those not yet laid
    "kept",      # its 4 cards after the discard, () before
    "discard",   # the 2 cards it laid away, () before
    "starter",   # the starter, None before the cut
    "count",     # the count of the play
    "pile",      # cards laid since the count was last 0, oldest first
    "played",    # every card laid this hand, in order, as (player, card)
    "playable",  # its cards that fit under 31 when it is to lay, else ()
    "opp_left",  # how many cards the opponent still holds in the play
    "opp_gone",  # whether the opponent said go in this series
    "scores",    # (its score, the opponent's)
    "target",    # the game's target
))


class PracticeError(CribError):
    """A seat answered something the game does not allow (a bug in a strategy or a seat)."""


class Listener:
    """What a practice game tells as it goes; every method does nothing here."""

    def cut(self, cuts, dealer):
        """Each player cut a card for the first deal; dealer -1 means a tie, cut again."""

    def hand(self, game):
        """A new hand was dealt (game.hands holds the 6 cards of each player)."""

    def discarded(self, player, dealt, discard, dealer):
        """player laid discard (of dealt) away; dealer: whether the crib is theirs."""

    def starter(self, card, step):
        """The starter was cut; step pegs his heels for the dealer."""

    def laid(self, player, card, count, step):
        """player laid card, making count; step holds what it pegged."""

    def said_go(self, player, step):
        """player said go; step holds the last-card point it gave."""

    def shown(self, entry, player, cards, starter, items, step):
        """A hand (entry: a player) or the crib (entry CRIB) was counted for player."""

    def over(self, game):
        """Someone reached the target: the game is over."""


class GameRecord:
    """Actions applied to a plain cribcore Game: no history, no board."""

    def __init__(self, game):
        self.game = game

    def act(self, kind, args, player=None, info=None):
        """Apply the action of an entry of this kind (cribcore.table.entries.REPLAY)."""
        return replay(self.game, kind, args)

    def finish(self):
        """Nothing to write."""


class TableRecord:
    """Actions written to the history and pegged on the board, via crib.table.Table."""

    def __init__(self, table):
        self.table = table

    @property
    def game(self):
        """The table's game (rebuilt from the history's entries)."""
        return self.table.game

    def act(self, kind, args, player=None, info=None):
        """Apply, write to the history, then peg the board; returns the Game's answer."""
        return self.table.record(kind, list(args), info=info, player=player, announce=False)

    def finish(self):
        """Write the result: winner, scores, skunk level and game points."""
        t = self.table
        g = t.game
        level = win_level(g)
        t.h.finish_game(t.game_id, g.winner, g.scores, level, t.match["game_points"][level])

    def abandon(self):
        """Mark the game abandoned: practice games are not resumed by `crib play`."""
        self.table.h.abandon(self.table.game_id)


def open_table_record(history, board, view, players, target, options, board_name):
    """A new match and game in the history for two players, the board set up for it."""
    from crib.board.ids import new_prefix
    from crib.table.record import Table
    from cribcore.rules import GAME_POINTS

    match = history.new_match(players, False, target, GAME_POINTS)
    game_id = history.new_game(match, None, options, board_name, new_prefix())
    table = Table(history, board, view, game_id)
    table.start_board(True)
    return TableRecord(table)


def rngs(seed):
    """(deal rng, computer rng) for a seed: the cards dealt never depend on anyone's choices."""
    return random.Random(seed), random.Random(f"{seed}/computer")


class Dealing:
    """The cards a practice game deals for a seed: the cut for the first deal, and each
    hand's deck and starter, each a function of the seed and the hand's number alone, so
    an undo, or the same seed again, deals the same cards."""

    def __init__(self, seed):
        self.seed = seed

    def cuts(self):
        """[(cut cards, dealer)] of each cut for the first deal (-1: a tie, cut again)."""
        rng = random.Random(f"{self.seed}/cut")
        out = []
        while not out or out[-1][1] < 0:
            cuts = shuffle(list(range(52)), rng)[:PLAYERS]
            out.append((cuts, first_dealer(cuts)))
        return out

    def deck(self, hand_no):
        """The shuffled deck of a hand."""
        return shuffle(list(range(52)), random.Random(f"{self.seed}/deal/{hand_no}"))

    def starter(self, hand_no, stock):
        """The starter of a hand: the pone cuts the stock, leaving CUT_MARGIN each side."""
        rng = random.Random(f"{self.seed}/starter/{hand_no}")
        return stock[CUT_MARGIN + rng.randrange(len(stock) - 2 * CUT_MARGIN)]


class Practice:
    """One game between two seats (module docstring); run() plays it to the end.

    record: where actions go (default a GameRecord of a new Game to target); seed: the
    cards dealt (Dealing), else drawn from rng; listener: hears each event.
    """

    def __init__(self, seats, target=121, rng=None, record=None, listener=None, seed=None):
        if len(seats) != PLAYERS:
            raise PracticeError(f"a practice game has 2 seats, got {len(seats)}")
        self.seats = list(seats)
        if seed is None:
            seed = (rng or random.Random()).getrandbits(48)
        self.dealing = Dealing(seed)
        self.record = record or GameRecord(Game(PLAYERS, target))
        self.listener = listener or Listener()
        self.dealt = [(), ()]
        self.discards = [(), ()]

    @property
    def game(self):
        """The game being played (the record's)."""
        return self.record.game

    def run(self):
        """Play to the end: cut for deal, then hand after hand until someone counts out."""
        while not self.game.over:
            self.step()
        self.record.finish()
        self.listener.over(self.game)
        return self.game

    def step(self):
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

    def cut_for_deal(self):
        """Each player cuts a card; the lower deals first (a tie cuts again)."""
        for cuts, dealer in self.dealing.cuts():
            self.listener.cut(cuts, dealer)
        self.record.act("cut", [cuts], info={"cuts": [card_name(c) for c in cuts]})
        return dealer

    def deal(self):
        """Shuffle and deal 6 cards each."""
        deck = self.dealing.deck(self.game.hand_no)
        self.record.act("deal", [None, deck], player=self.game.dealer)
        self.dealt = [tuple(sorted(h)) for h in self.game.hands]
        self.discards = [(), ()]
        self.listener.hand(self.game)

    def discard(self):
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

    def starter(self):
        """The pone cuts, the dealer turns the starter; a jack pegs his heels."""
        g = self.game
        card = self.dealing.starter(g.hand_no, g.stock)
        step = self.record.act("starter", [card], player=g.dealer,
                               info={"dealer": g.dealer, "card": card_name(card),
                                     "text": card_symbol(card)})
        self.listener.starter(card, step)

    def play(self):
        """Card by card: the seat to lay picks a card that fits, or says go."""
        while self.game.phase == PLAY:
            play = self.game.play
            p = play.turn
            fits = play.playable()
            if not fits:
                step = self.record.act("go", [], player=p)
                self.listener.said_go(p, step)
                continue
            card = self.seats[p].play(self.seen(p))
            if card not in fits:
                raise PracticeError(f"seat {p} played {card!r}, not one of {names(fits)!r}")
            count = play.count + value(card)
            step = self.record.act("lay", [card], player=p,
                                   info={"card": card_name(card), "lent": False,
                                         "text": card_symbol(card)})
            self.listener.laid(p, card, count, step)

    def show(self):
        """The pone's hand, the dealer's, then the crib, each itemised, until one counts out."""
        while self.game.phase == SHOW:
            g = self.game
            entry = g.show_next()
            cards = g.known_cards(entry)
            starter = g.starter
            who = g.dealer if entry == CRIB else entry
            items = show_breakdown(cards, starter, entry == CRIB)
            step = self.record.act("show", [], player=who,
                                   info={"entry": entry, "cards": [card_name(c) for c in cards],
                                         "actual": sum(it.points for it in items)})
            self.listener.shown(entry, who, tuple(cards), starter, items, step)

    def seen(self, p):
        """What the player in seat p can see now, and nothing more."""
        return seen(self.game, p, self.dealt[p], self.discards[p])


def seen(g, p, dealt, discard):
    """What the player in seat p of game g can see now: dealt, the 6 cards dealt to it (or
    () before the deal), discard, the 2 it laid away (or ())."""
    opp = 1 - p
    play = g.play if g.phase == PLAY else None
    if g.phase == DISCARD:
        hand, kept = tuple(dealt), ()
    else:
        kept = tuple(sorted(g.hands[p]))
        hand = tuple(sorted(play.hands[p])) if play else kept
    played = ()
    if play:
        played = tuple((q, c) for kind, q, c in play.actions if kind == LAY)
    mine = play is not None and play.turn == p
    return Seen(
        me=p, dealer=g.dealer == p, hand=hand, kept=kept, discard=tuple(discard),
        starter=g.starter, count=play.count if play else 0,
        pile=tuple(play.pile) if play else (), played=played,
        playable=tuple(sorted(play.playable())) if mine else (),
        opp_left=play.cards_left(opp) if play else 0,
        opp_gone=bool(play.gone[opp]) if play else False,
        scores=(g.scores[g.side_of(p)], g.scores[g.side_of(opp)]), target=g.target)
