"""The core's session (cribcore.table.session) keeping a match's games in the game record
(pegboard.gamelog), and going on with the game in play at boot."""

from cribcore.rules import SKUNKS
from cribcore.table.session import CUT, Session, Setup, result
from cribcore.table.table import Table
from cribcore.table.turns import Turns


class RecordSession(Session):
    """The core's session (cribcore.table.session) with each game in the GameLog: a new game
    begins with its header line, a finished one is closed (reopened if "Another game" is
    undone), and start() goes on with the game in play when there is one (the board's
    `--resume`: after a power cut the engine replays it and asks what it asked)."""

    def __init__(self, log, board, view, options, turns=None, games=0):
        Session.__init__(self, board, view, options, turns or Turns, games)
        self.log = log

    def start(self, setup, resume):
        rec = self.log.unfinished()
        if rec is None:
            return (yield from Session.start(self, setup, resume))
        h = rec.replay.header
        self.setup = Setup(h["names"], h["partnerships"], h["target"],
                           CUT if h["dealer"] is None else h["dealer"])
        table = Table(rec, self.board, self.view, h["names"], h["target"], h["partnerships"],
                      h["dealer"], h["options"], rec.game)
        self.view.heading("Game %d resumed: %s to %d" % (rec.game, " v ".join(table.side_names),
                                                          table.target))
        self.results = self._match_before(rec.game, h, table)
        table.mark_dealer()
        return table

    def _match_before(self, game, header, table):
        """The results of the match's games before `game` (Session.results), read back
        from their close lines: a power cut keeps the match's tally. Back from the game
        before it to the one that began the match (its header says so)."""
        out = []
        while not header.get("match") and game > 1:
            game -= 1
            if game not in self.log.sizes:
                break  # dropped for the budget: the tally from what is kept
            r = self.log.replay(game)
            header = r.header or {}
            if r.result is None or r.result["winner"] not in table.side_names:
                break  # set aside unfinished, or another match's players
            level = SKUNKS.index(r.result["skunk"])
            out.insert(0, (game, table.side_names.index(r.result["winner"]),
                           table.game_points[level]))
        return out

    def new_game(self, last, dealer, first):
        dealer = None if dealer == CUT else dealer
        s = self.setup
        rec = self.log.new_game({"names": list(s.names), "partnerships": bool(s.partnerships),
                                 "target": s.target, "dealer": dealer,
                                 "options": self.options, "match": bool(first)})
        table = Table(rec, self.board, self.view, s.names, s.target, s.partnerships, dealer,
                      self.options, rec.game)
        return self.open_game(table, rec.game, first)

    def finish(self, table):
        points = Session.finish(self, table)
        table.rec.close(result(table))
        return points

    def unfinish(self, table):
        Session.unfinish(self, table)
        table.rec.reopen()
