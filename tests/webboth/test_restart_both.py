"""A restart loses nothing, on both servers: `crib serve --resume` over the same history
and board, and the board's own server started again on the same store (a power cut: kill
-9). The LEDs follow the game after every answer across restarts (issue 35.1), a count
acknowledged before its "Peg N?" stands (35.2), and a question keeps its id, so an
answer kept through the cut lands once (36.4)."""

import os
import tempfile

import pytest
from both import KEY, NAMES, Table, client, seat, state

from crib.board.memory import MemoryBoard
from crib.history.db import History
from crib.table.engine import TableEngine
from crib.table.session import Setup
from crib.web.app import create_app
from crib.web.hub import Hub
from crib.web.server import Background
from crib.web.unixboard import UnixBoard

TARGET = 61


class CribServer:
    """`crib serve` on a history and a board that outlive it; restart(): --resume."""

    kind = "crib"

    def __init__(self, folder):
        self.db = os.path.join(folder, "history.sqlite3")
        self.board = MemoryBoard(4)  # the Pico on USB: it keeps its pegs across the restart
        self.bg = None
        self.resume = False

    def start(self):
        def make():
            return TableEngine(History.open(self.db), self.board, {"confirm": True},
                               Setup(list(NAMES), False, TARGET, 0), self.resume)
        self.bg = Background(create_app(Hub(make), KEY, "http://127.0.0.1/?k=" + KEY))
        self.url = self.bg.__enter__()
        return self.url

    def restart(self):
        self.bg.__exit__(None, None, None)
        self.resume = True
        return self.start()

    def pegs(self, c):
        b = self.board.board
        return [[b.back(i), b.front(i)] for i in range(b.players)]

    def stop(self):
        self.bg.__exit__(None, None, None)


class BoardServer:
    """The board's own server on a store folder; restart(): killed and started again."""

    kind = "board"

    def __init__(self, folder):
        # The show asked card by card, as CribServer's {"confirm": True}: a hand's cards
        # are the answer acknowledged before its "Peg N?" (35.2).
        self.unix = UnixBoard(KEY, names=NAMES, target=TARGET, dealer=0, suits=True,
                              store=os.path.join(folder, "store"))

    def start(self):
        self.url = self.unix.start()
        return self.url

    def restart(self):
        self.url = self.unix.restart()
        return self.url

    def pegs(self, c):
        r = c.get("/test/board")
        assert r.status_code == 200, r.text
        return r.json()["pegs"]

    def stop(self):
        said = self.unix.output()
        self.unix.__exit__()
        assert "Traceback" not in said, said


@pytest.fixture(params=("crib", "board"))
def served(request):
    with tempfile.TemporaryDirectory() as d:
        s = (CribServer if request.param == "crib" else BoardServer)(d)
        s.start()
        try:
            yield s
        finally:
            s.stop()


def again(served, table):
    """The server restarted: the table's client and seats again (a seat's token is made of
    the key, so it still works)."""
    served.restart()
    table.c.close()
    table.c = client(served)
    table.seats = [seat(table.c, 0), seat(table.c, 1)]
    table.table = seat(table.c, "table")
    return state(table.c)


def leds_follow(served, table, s):
    assert served.pegs(table.c) == s["view"]["pegs"], (served.pegs(table.c), s["view"])


def test_the_leds_follow_the_game_after_every_answer_across_restarts(served):
    c = client(served)
    table = Table(c, TARGET)
    answers = 0
    s = state(c)
    while not s["over"] and answers < 400:
        r = table.answer()
        assert r.status_code == 200, r.text
        answers += 1
        s = state(table.c)
        if answers % 9 == 0:  # a cut in the play, the show, anywhere
            before = s
            s = again(served, table)
            leds_follow(served, table, s)
            assert s["view"]["scores"] == before["view"]["scores"]
        leds_follow(served, table, s)
        if s["question"] and s["question"]["kind"] == "another":
            break
    assert max(s["view"]["scores"]) >= TARGET, s["view"]


def test_a_count_acknowledged_and_a_kept_answer_stand_after_a_restart(served):
    c = client(served)
    table = Table(c, TARGET)
    s = table.until(lambda q: q["kind"] == "show")
    r = table.answer()  # the hand's cards: acknowledged, then "Peg N?"
    assert r.status_code == 200, r.text
    asked = state(table.c)["question"]
    assert asked["kind"] == "confirm", asked
    s = again(served, table)
    assert s["question"]["kind"] == "confirm", s["question"]  # not the hand's question
    assert s["question"]["id"] == asked["id"]
    assert s["question"]["prompt"] == asked["prompt"]
    scores = s["view"]["scores"]
    # The answer a phone kept through the cut, sent with the id it had: it lands once.
    body = {"question": asked["id"], "answer": table.players.answer(
        type("Q", (), dict(asked))()), **table.who(asked)}
    r = table.c.post("/api/answer", json=body)
    assert r.status_code == 200, r.text
    r = table.c.post("/api/answer", json=body)  # sent again: refused, nothing twice
    assert r.status_code == 409, r.text
    s = state(table.c)
    assert sum(s["view"]["scores"]) > sum(scores) or s["view"]["scores"] == scores
    assert s["question"]["id"] != asked["id"]
    leds_follow(served, table, s)


def test_a_question_has_the_same_id_after_a_restart_and_its_answer_lands_once(served):
    c = client(served)
    table = Table(c, TARGET)
    s = table.until(lambda q: q["kind"] == "play")
    for _ in range(3):
        assert table.answer().status_code == 200
    asked = state(table.c)["question"]
    s = again(served, table)
    assert s["question"]["id"] == asked["id"], (s["question"], asked)
    r = table.answer()  # answered with the id it had before the cut
    assert r.status_code == 200, r.text
    r = table.c.post("/api/answer", json={"question": asked["id"], "answer": "go",
                                          **table.who(asked)})
    assert r.status_code == 409, r.text  # and only once
    leds_follow(served, table, state(table.c))


def test_every_screen_shows_what_it_showed_before_a_restart(served):
    c = client(served)
    table = Table(c, TARGET)
    table.until(lambda q: q["kind"] == "play")
    for _ in range(4):
        assert table.answer().status_code == 200
    done = state(table.c)
    q = done["question"]
    r = table.c.post("/api/undo", json={"question": q["id"], **table.who(q)})
    assert r.status_code == 200, r.text
    before = state(table.c)
    assert before["undone"] and before["undone"]["redo"], before["undone"]
    log = before["log"]
    assert len(log) > 10
    s = again(served, table)
    kept = [e for e in s["log"] if e["seq"] <= log[-1]["seq"]]
    assert len(kept) >= len(log) - 8 and kept == log[-len(kept):], (s["log"], log)
    assert all(e["seq"] > log[-1]["seq"] for e in s["log"][len(kept):])  # numbered on
    assert s["undone"] == before["undone"]  # Undo still offers "Put it back"
    assert s["question"]["id"] == before["question"]["id"]
    r = table.c.post("/api/redo", json={"question": s["question"]["id"],
                                        **table.who(s["question"])})
    assert r.status_code == 200, r.text
    s = state(table.c)
    assert s["view"] == done["view"], (s["view"], done["view"])
    leds_follow(served, table, s)
