"""The board never stalls the table: with the virtual board killed (kill -9) or stopped
(SIGSTOP), every answer posted to `crib serve`'s app returns at once and its pegs wait as
pending; a virtual board the user restarts (on a new port) is found again, and what waited
is sent and reconciled. Latency figures are bench/web.py's (--board-killed); here an answer
only has to come back long before the link's own 10 s reconnect."""

import os
import signal
import subprocess
import sys
import time

import httpx2 as httpx
import pytest

from crib.board import link as board_link
from crib.board.guard import BoardOffline
from crib.board.memory import MemoryBoard
from crib.connect import open_table_board
from crib.history.db import History
from crib.sim.store import running_sim
from crib.table.engine import TableEngine
from crib.table.session import Setup
from crib.web.app import create_app
from crib.web.hub import Hub
from crib.web.picture import board_svg
from crib.web.server import Background

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web"))
from webtools import KEY, Players  # noqa: E402

NAMES = ["Alice", "Bob"]
# A tap that waited for a board away would take at least one command's whole patience (a
# reply awaited TIMEOUT s, sent RETRIES times more: 4 s; 8-41 s before this was fixed): 3 s
# tells the two apart with the most room a loaded machine's slow answers can have.
QUICK_S = 0.75 * board_link.TIMEOUT * (board_link.RETRIES + 1)


def start_sim(store, old=None):
    """`crib sim --headless --no-pty --socket :0` on store; waits for its (new) port."""
    proc = subprocess.Popen([sys.executable, "-m", "crib", "sim", "--headless", "--no-pty",
                             "--socket", "127.0.0.1:0", "--store", store],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    end = time.monotonic() + 30
    while running_sim(store) in (None, old):
        assert proc.poll() is None and time.monotonic() < end, "the sim did not start"
        time.sleep(0.05)
    return proc, running_sim(store)


def until(cond, what, timeout=30.0):
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out waiting for " + what
        time.sleep(0.05)


class Game:
    """crib serve's app on a virtual board run by the user, and the players posting."""

    def __init__(self, tmp_path, store):
        db = str(tmp_path / "h.sqlite3")
        self.hub = Hub(lambda: TableEngine(History.open(db), open_table_board("sim", None, store),
                                           {"confirm": True}, Setup(NAMES, False, 121, 0)),
                       board_svg(store))
        self.players = Players(2, 121, False, seed=7)
        self.db = db

    def serve(self):
        return Background(create_app(self.hub, KEY, "http://127.0.0.1/?k=" + KEY))

    def answer(self, http):
        """Post the next answer as the shared screen; the seconds it took."""
        q = http.get("/state").json()["question"]
        text = self.players.answer(_Q(q))
        t0 = time.monotonic()
        r = http.post("/api/answer", json={"question": q["id"], "answer": text, **self.seat})
        took = time.monotonic() - t0
        assert r.status_code == 200, r.text
        return took

    def pending(self):
        h = History.open(self.db, lock=False)
        try:
            return h.query("SELECT COUNT(*) AS n FROM ops WHERE status = 'pending'")[0]["n"]
        finally:
            h.close()

    def offline(self):
        return self.hub.state["view"]["offline"]

    def agrees(self):
        """The board's pegs are the record's scores (False while the board is offline: on a
        loaded machine a peg may miss the guard's budget and the board be offline again
        until its next try)."""
        def read():
            engine = self.hub.engine
            return list(engine.board.state().fronts[:2]), list(engine.session.table.game.scores)
        try:
            board, record = self.hub.call(read)
        except BoardOffline:
            return False
        return board == record


class _Q:
    def __init__(self, d):
        self.__dict__.update(d)


@pytest.mark.parametrize("how", ["killed", "stopped"])
def test_answers_never_wait_for_the_board_and_pegs_wait_for_it(tmp_path, how):
    store = str(tmp_path / "sim")
    sim, url = start_sim(store)
    game = Game(tmp_path, store)
    try:
        with game.serve() as base, httpx.Client(base_url=base,
                                                 headers={"X-Crib-Key": KEY}) as http:
            game.seat = {"seat": "table", "token": http.post(
                "/api/join", json={"seat": "table"}).json()["token"]}
            for _ in range(4):
                game.answer(http)
            if how == "killed":
                sim.send_signal(signal.SIGKILL)
                sim.wait()
            else:
                sim.send_signal(signal.SIGSTOP)
            took = [game.answer(http) for _ in range(14)]
            assert max(took) < QUICK_S, took
            until(game.offline, "the board offline")
            assert game.pending() > 0  # the pegs wait, written
            if how == "killed":
                sim, new = start_sim(store, old=url)  # restarted by the user: a new port
                assert new != url
            else:
                sim.send_signal(signal.SIGCONT)
            until(lambda: not game.offline(), "the board found again")
            until(lambda: game.pending() == 0, "the pegs that waited sent")
            until(game.agrees, "the board agreeing with the record")
            assert max(game.answer(http) for _ in range(3)) < QUICK_S
            until(lambda: game.pending() == 0 and game.agrees(), "the last pegs on the board")
    finally:
        game.hub.stop()
        if sim.poll() is None:
            sim.send_signal(signal.SIGCONT)
            sim.terminate()
            sim.wait(10)


def test_a_virtual_board_restarted_on_a_new_port_is_found_again(tmp_path):
    from crib.connect import open_link

    store = str(tmp_path / "sim")
    sim, url = start_sim(store)
    link = open_link("sim", store=store)
    try:
        link.peg(0, 5)
        sim.send_signal(signal.SIGKILL)
        sim.wait()
        sim, new = start_sim(store, old=url)
        assert new != url
        assert link.state().fronts[0] in (0, 5)  # the restarted board, on its new port
        assert link.reconnects == 1
    finally:
        link.close()
        sim.terminate()
        sim.wait(10)


class CountingBoard(MemoryBoard):
    """A board in memory that can be offline, counting what it is asked."""

    kind = "pico"

    def __init__(self):
        super().__init__(4)
        self.down = False
        self.asked = []

    def _ask(self, what):
        if self.down:
            raise BoardOffline("the board is offline (a test)")
        self.asked.append(what)

    def state(self):
        self._ask("state")
        return super().state()

    def peg(self, lane, n, op_id):
        self._ask("peg")
        asked = list(self.asked)
        st = super().peg(lane, n, op_id)
        self.asked = asked  # its reply's state is not a question of its own
        return st


def test_the_pegs_that_waited_take_one_round_trip_each_when_the_board_is_back(tmp_path):
    """What waited is sent on the engine's worker, before the next answer: no state asked
    again after each peg (each peg's reply says the state after)."""
    board = CountingBoard()
    engine = TableEngine(History.open(str(tmp_path / "h.sqlite3")), board, {"confirm": True},
                         Setup(NAMES, False, 121, 0), clock=lambda: clock[0])
    clock = [0.0]
    players = Players(2, 121, False, seed=7)
    engine.start()
    board.down = True
    table = engine.session.table
    while len(table.h.pending_ops(table.game_id)) < 6:
        q = engine.question()
        engine.answer(q.id, players.answer(q))
    waited = len(table.h.pending_ops(table.game_id))
    board.down = False
    board.asked = []
    clock[0] += 60  # the engine tries an offline board again every few seconds
    engine.poll()
    assert not table.offline and table.h.pending_ops(table.game_id) == []
    assert board.asked.count("peg") == waited
    # retry_board's probe, settle_pending's one look, reconcile's: never one per peg
    assert board.asked.count("state") <= 3, board.asked
