"""Scripts of whole games for `crib play`: a game dealt and played by the core with known
cards, written down as the answers a table would type (cards, ranks or totals)."""

import os
import random
import sqlite3

from cribcore.cards import card_name
from cribcore.counting import CRIB
from cribcore.deal import DISCARDS
from cribcore.game import DEAL, PLAY, SHOW, Game
from cribcore.play import Play
from cribcore.show import score_show
from cribcore.table.cards import rank_text
from cribcore.table.turns import SURPRISING

# The history syncs every entry to disk; on tmpfs that costs nothing, so the tests stay fast.
FAST_DIR = "/dev/shm" if os.path.isdir("/dev/shm") else None


def rows(db, sql, params=()):
    """The rows of a query on a history file, as dicts."""
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in con.execute(sql, params)]
    finally:
        con.close()


class Script:
    """A reference game (cribcore Game with known hands) and the answers that replay it."""

    def __init__(self, names, target, dealer=0, partnerships=True, seed=1):
        self.names = list(names)
        self.game = Game(len(names), target, partnerships, dealer)
        self.rng = random.Random(seed)
        self.answers = []
        self.hands = 0
        self.starter_at = []  # index in answers of each hand's starter
        self.crib_at = []  # index in answers of each crib's cards (or total)
        self.lay_at = []  # (index in answers, points) of each card laid
        self.log = []  # every Peg the reference game made, in order
        self.shows = []  # (player, "hand" or "crib", what the cards are worth) of each show

    def _log(self, step):
        self.log += list(step.pegs)
        return step

    def text(self):
        """The answers, one per line."""
        return "".join(a + "\n" for a in self.answers)

    def hand(self, play="cards", show="cards", confirm=True, starter=None):
        """Deal, play and show one hand (or up to the moment someone counts out).

        play: "cards" (with suits), "ranks" or "typed" (each player's points);
        show: "cards" (typed in full), "enter" (take the default when the play showed the
        cards) or "total"."""
        g = self.game
        assert g.phase == DEAL
        deck = list(range(52))
        self.rng.shuffle(deck)
        if starter is not None:  # put the wanted starter right after the dealt cards
            n = 6 * 2 if len(self.names) == 2 else 5 * len(self.names) + (len(self.names) == 3)
            deck.remove(starter)
            deck.insert(n, starter)
        g.deal(deck=deck)
        for p in range(len(self.names)):
            g.discard(p, g.hands[p][:DISCARDS[len(self.names)]])
        hands = [list(h) for h in g.hands]
        crib = list(g.crib)
        self._log(g.turn_starter())
        self.starter_at.append(len(self.answers))
        self.answers.append(card_name(g.starter))
        self.hands += 1
        if g.over:
            return
        if play == "typed":
            self.answers.append("points")
            # The play scored by a tracker of its own, then typed player by player.
            ref = Play(len(self.names), g.dealer, hands, g.starter)
            while not ref.over:
                ok = ref.playable()
                ref.lay(ok[0]) if ok else ref.go()
            for k in range(1, len(self.names) + 1):
                p = (g.dealer + k) % len(self.names)
                self.answers.append(str(ref.points[p]))
                if ref.points[p] > SURPRISING:  # a real but surprising total: confirmed
                    self.answers.append("y")
                self._log(g.peg(g.side_of(p), ref.points[p], "play"))
                if g.over:
                    return
            g.end_play()
        while g.phase == PLAY:
            ok = g.play.playable()
            if ok:
                c = ok[0]
                self.lay_at.append((len(self.answers), self._log(g.lay(c)).points))
                self.answers.append(card_name(c) if play == "cards" else rank_text(c >> 2))
            else:
                self.answers.append("go")
                self._log(g.go())
        while g.phase == SHOW and not g.over:
            entry = g.show_next()
            cards = crib if entry == CRIB else hands[entry]
            if entry == CRIB:
                self.crib_at.append(len(self.answers))
            self.shows.append((g.dealer if entry == CRIB else entry,
                               "crib" if entry == CRIB else "hand",
                               score_show(cards, g.starter, entry == CRIB)))
            if show == "total":
                self.answers.append(str(score_show(cards, g.starter, entry == CRIB)))
            elif show == "enter" and entry != CRIB and play == "cards":
                self.answers.append("")
                if confirm:
                    self.answers.append("")
            else:
                self.answers.append(" ".join(card_name(c) for c in cards))
                if confirm:
                    self.answers.append("")
            self._log(g.show())
            if g.over:
                return

    def play_out(self, **kw):
        """Hands until the game is over."""
        while not self.game.over:
            self.hand(**kw)
