"""What the web tests share: the session key, a Hub on a fresh history and an in-memory
board, and the people at the table answering from a reference game (tests/table's Table)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "table"))

from test_engine import Table  # noqa: E402  (the people at the table)

from crib.board.api import BoardError  # noqa: E402
from crib.board.memory import MemoryBoard  # noqa: E402
from crib.history.db import History  # noqa: E402
from crib.table.engine import TableEngine  # noqa: E402
from crib.table.session import Setup  # noqa: E402
from crib.web.hub import Hub  # noqa: E402
from cribcore.counting import CRIB  # noqa: E402
from cribcore.table.cards import rank_text  # noqa: E402
from cribcore.table.ranks import CODES, flags_of  # noqa: E402

KEY = "test-key-0123456789"


class Players(Table):
    """The people at the table as they use a phone: in the play, a rank is all they tap
    (the companion lends it a suit); at a show by ranks, the crib's ranks, and a flush or
    nobs said at the confirmation from the cards they hold; everything else as tests/table's
    Table answers."""

    def _showing(self):
        entry = self.g.show_next()
        return (self.crib if entry == CRIB else self.hands[entry]), entry == CRIB

    def answer(self, q):
        g = self.g
        if q.kind in ("show", "crib") and q.legal.get("prefer") == "ranks":
            cards, _ = self._showing()
            self.answers += 1
            return " ".join(rank_text(c >> 2) for c in cards)
        if q.kind == "confirm" and "labels" in q.legal:  # a show by ranks: its suits said
            cards, crib = self._showing()
            code = CODES[flags_of(cards, g.starter, crib)]
            assert code in q.legal["choices"]
            g.show(cards)
            self.answers += 1
            return code
        if q.kind == "play" and g.play.playable():
            card = g.play.playable()[0]
            rank = rank_text(card >> 2)
            assert rank in q.legal["ranks"] and q.asks == g.play.turn
            g.lay(card)
            self.answers += 1
            return rank
        return super().answer(q)


NAMES = ["Alice", "Bob"]


def make_hub(db, names=NAMES, target=121, options=None, board=None, picture=None):
    """A Hub whose engine plays names to target on board (default in memory)."""
    def make():
        return TableEngine(History.open(db), board or MemoryBoard(4),
                           dict({"confirm": True}, **(options or {})),
                           Setup(list(names), False, target, 0))
    return Hub(make, picture)


class Unplugged(MemoryBoard):
    """A board in memory that can stop answering (down = True), as an unplugged Pico."""

    down = False

    def _answer(self):
        if self.down:
            raise BoardError("no answer from the board", "offline")

    def state(self):
        self._answer()
        return super().state()

    def peg(self, lane, n, op_id):
        self._answer()
        return super().peg(lane, n, op_id)

    def undo(self, op_id):
        self._answer()
        return super().undo(op_id)

    def set_turn(self, lane: int) -> bool:
        self._answer()
        return super().set_turn(lane)


def state(client):
    """The state a screen gets now (GET /state)."""
    r = client.get("/state")
    assert r.status_code == 200
    return r.json()


def seat(client, n):
    """Join as seat n: the fields an answer then carries."""
    r = client.post("/api/join", json={"seat": n})
    assert r.status_code == 200 and r.json()["ok"]
    return {"seat": n, "token": r.json()["token"]}
