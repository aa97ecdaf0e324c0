"""`crib play` against the virtual board (the firmware's desktop runner): a whole game, and
the companion killed (SIGKILL) while the board holds a peg it has or has not applied."""

import sqlite3
import subprocess
import sys
import time

import pytest
from tablescript import Script

from crib.board.link import Link
from crib.cli import main
from crib.sim.store import store_layout
from crib.sim.virtual import VirtualBoard

ARGS = ["--names", "Alice,Bob", "--target", "61", "--dealer", "Alice", "--no-colour"]


def board_state(port):
    """The board's (lanes, target, fronts, winner), asked over a fresh link."""
    link = Link.open(port)
    try:
        s = link.state()
        return s.players, s.target, tuple(p[1] for p in s.pegs), s.winner
    finally:
        link.close()


def test_a_whole_game_on_the_virtual_board(db, tmp_path, monkeypatch, capsys):
    s = Script(["Alice", "Bob"], 61, seed=51)
    s.play_out(play="cards", show="cards")
    store = str(tmp_path / "sim")
    monkeypatch.setattr(sys, "stdin", _Script(s.text()))
    rc = main(["play", "--db", db, "--board", "sim", "--store", store, *ARGS])
    out = capsys.readouterr().out
    assert rc == 0
    assert " wins, " in out
    with VirtualBoard(store) as vb:  # the state survived on the store, like a Pico's flash
        assert board_state(vb.port) == (2, 61, tuple(s.game.scores), s.game.winner)
        assert vb.lanes() == 3 and store_layout(store) is None  # the shipped layout


FOUR = ["Ann", "Ben", "Cat", "Dan"]


def test_four_solo_players_get_four_lanes_on_the_virtual_board(db, tmp_path, monkeypatch,
                                                               capsys):
    s = Script(FOUR, 61, partnerships=False, seed=55)
    s.play_out(play="typed", show="total")
    store = str(tmp_path / "sim")
    # Asked, not forced: the virtual board started for the game can have four lanes.
    monkeypatch.setattr(sys, "stdin", _Script("Ann Ben Cat Dan\nn\n61\nAnn\n" + s.text()))
    rc = main(["play", "--db", db, "--board", "sim", "--store", store, "--no-colour"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "Partnerships (" in out and "four play in partnerships" not in out
    assert "Ann v Ben v Cat v Dan to 61" in out
    assert store_layout(store) is not None  # the layout stays with the game in the store
    with VirtualBoard(store) as vb:
        assert vb.lanes() == 4
        assert board_state(vb.port) == (4, 61, tuple(s.game.scores), s.game.winner)


def test_four_players_on_a_three_lane_board_not_ours_play_in_partnerships(db, tmp_path,
                                                                          monkeypatch, capsys):
    # A board the companion cannot lay out again (a Pico; here a sim running on its own).
    s = Script(FOUR, 31, seed=56)
    s.play_out(play="typed", show="total")
    with VirtualBoard(str(tmp_path / "sim")) as vb:
        monkeypatch.setattr(sys, "stdin", _Script("Ann Ben Cat Dan\n31\nAnn\n" + s.text()))
        rc = main(["play", "--db", db, "--port", vb.port, "--no-colour"])
        out = capsys.readouterr().out
        assert rc == 0
        assert "this board has 3 lanes: four play in partnerships" in out
        assert vb.lanes() == 3
        assert board_state(vb.port) == (2, 31, tuple(s.game.scores), s.game.winner)


class _Script:
    """stdin for an in-process run (not a terminal)."""

    def __init__(self, text):
        self.lines = text.splitlines(True)

    def readline(self):
        return self.lines.pop(0) if self.lines else ""

    def isatty(self):
        return False


def _count(db, sql):
    try:
        # Read-only: a connection that made the file would leave it empty (0 bytes), and
        # an empty history file is refused as damaged.
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return con.execute(sql).fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:
        return -1  # not created yet


def _wait(cond, what, timeout=20.0):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.01)


def _companion(db, port, *extra):
    cmd = [sys.executable, "-m", "crib", "play", "--db", db, "--port", port, *ARGS, *extra]
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("applied", [True, False])
def test_companion_killed_while_the_board_holds_a_peg(db, tmp_path, applied):
    s = Script(["Alice", "Bob"], 61, seed=52)
    s.play_out(play="cards", show="cards")
    lines = s.text().splitlines()
    at = next(i for i, points in s.lay_at if points)  # the first card that pegs
    with VirtualBoard(str(tmp_path / "sim")) as vb:
        comp = _companion(db, vb.port)
        comp.stdin.write("\n".join(lines[:at]) + "\n")
        comp.stdin.flush()
        _wait(lambda: _count(db, "SELECT COUNT(*) FROM entries") == at, "the first cards")
        # Everything sent so far answered (on a loaded machine the last lines may still be
        # at the runner, or wait in a companion offline by its budget): only the peg below
        # then stops the runner.
        _wait(lambda: _count(db, "SELECT COUNT(*) FROM ops WHERE status = 'pending'") == 0
              and vb.unanswered == 0, "the board quiet")
        # The runner stops just before it is given the peg, so the peg itself waits there.
        # (Freezing first and then sending did not always hold it there: a companion offline
        # by its own budget on a loaded machine keeps the peg pending and sends a hello to
        # the frozen runner instead.)
        vb.freeze_at("peg ")
        try:
            comp.stdin.write(lines[at] + "\n")
            comp.stdin.flush()
            _wait(lambda: vb.frozen, "the peg sent")
            assert _count(db, "SELECT COUNT(*) FROM entries") == at + 1  # the card laid
            assert _count(db, "SELECT COUNT(*) FROM ops WHERE status = 'pending'") == 1
            comp.kill()  # SIGKILL: no goodbye, no cleanup
            comp.wait()
        finally:
            if applied:
                vb.thaw()  # the board gets the peg after all
            else:
                vb.kill()  # the board loses it (a reset)
        if applied:  # the runner answers the peg it held before the companion comes back
            _wait(lambda: vb.unanswered == 0, "the held peg answered")
        else:
            vb.wait_started(2)
        _wait(lambda: board_state(vb.port)[0] == 2, "the board back")
        comp = _companion(db, vb.port, "--resume")
        out, err = comp.communicate("\n".join(lines[at + 1:]) + "\n", timeout=60)
        assert comp.returncode == 0, err + out[-3000:]
        said = "was applied before the stop" if applied else "was not applied: sending it"
        assert said in out
        assert board_state(vb.port) == (2, 61, tuple(s.game.scores), s.game.winner)
    assert _count(db, "SELECT COUNT(*) FROM ops WHERE status = 'pending'") == 0


def test_plain_crib_play_uses_the_virtual_board_and_the_user_data_dir(tmp_path, monkeypatch,
                                                                      capsys):
    # A fresh machine: no Pico, no history, nothing configured.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("CRIB_SIM_STORE", raising=False)
    monkeypatch.delenv("CRIB_PORT", raising=False)
    monkeypatch.setattr("crib.board.ports.pico_ports", lambda *a, **k: [])
    s = Script(["Alice", "Bob"], 61, seed=53)
    s.play_out(play="ranks", show="total")
    monkeypatch.setattr(sys, "stdin", _Script("Alice Bob\n61\nAlice\n" + s.text()))
    assert main(["play", "--no-colour"]) == 0
    out = capsys.readouterr().out
    assert "no Pico found: playing on the virtual board" in out
    assert (tmp_path / "crib" / "history.sqlite3").exists()
    with VirtualBoard(str(tmp_path / "crib" / "sim")) as vb:
        assert board_state(vb.port)[2] == tuple(s.game.scores)


def test_a_button_press_on_the_virtual_board_is_recorded(db, tmp_path, monkeypatch, capsys):
    s = Script(["Alice", "Bob"], 121, seed=54)
    s.hand(play="cards", show="cards")
    with VirtualBoard(str(tmp_path / "sim")) as vb:
        assert vb.ask("set pause_ms=200 id=t1").startswith("ok")

        def press():  # Bob taps his button twice while a question is open
            # On the board's clock, driven from here (tick: the runner's time moves only
            # by it from then on), so a loaded machine cannot stretch the gap between the
            # taps past the pause and split them into two pegs.
            for _ in range(2):
                assert vb.ask("btn b=lane1 on=1").startswith("ok")
                assert vb.ask("tick ms=60").startswith("ok")  # held past the debounce
                assert vb.ask("btn b=lane1 on=0").startswith("ok")
                assert vb.ask("tick ms=60").startswith("ok")
            assert vb.ask("tick ms=400").startswith("ok")  # past the pause: committed
        stdin = _Script(s.text())
        lines = stdin.lines
        reads = []

        def readline():
            reads.append(1)
            if len(reads) == 3:
                press()
            return lines.pop(0) if lines else ""
        stdin.readline = readline
        monkeypatch.setattr(sys, "stdin", stdin)
        rc = main(["play", "--db", db, "--port", vb.port, "--names", "Alice,Bob",
                   "--target", "121", "--dealer", "Alice", "--no-colour"])
        out = capsys.readouterr().out
        assert rc == 1  # the script ends in hand 2
        assert "Bob: pegged on board  +2" in out
        lanes, target, fronts, winner = board_state(vb.port)
        assert fronts == (s.game.scores[0], s.game.scores[1] + 2)
    con = sqlite3.connect(db)
    got = con.execute("SELECT side, points, source FROM entries WHERE source = 'board'").fetchall()
    con.close()
    assert got == [(1, 2, "board")]
