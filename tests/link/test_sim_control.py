"""The virtual board's controls for tests and the table: freeze, thaw, kill, reset, and
more lanes than the shipped layout (a layout written into the store)."""

import json
import socket
import time

import pytest

from crib.board.link import Link
from crib.sim.store import MAX_LANES, SimError, layout_for, store_layout
from crib.sim.virtual import VirtualBoard
from pegboard.config import default_dict, from_dict, load_config


def wait_for(pred, seconds=20.0):
    end = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < end, "timed out waiting"
        time.sleep(0.01)


@pytest.fixture
def board(tmp_path):
    with VirtualBoard(str(tmp_path / "store"), pty=False, address=("127.0.0.1", 0),
                      driven=True) as vb:
        yield vb


def _lines(raw, want, seconds=20.0):
    """Lines read from a raw connection until one starts with `want`."""
    raw.settimeout(seconds)
    got = b""
    while True:
        for line in got.decode().splitlines():
            if line.startswith(want):
                return line
        got += raw.recv(4096)


def test_a_frozen_runner_holds_the_line_until_thawed(board):
    with socket.create_connection(tuple(board.address)) as raw:
        raw.sendall(b"peg p=0 n=4 id=f1\n")
        _lines(raw, "ok")
        pid = board.runner_pid
        board.freeze()
        raw.sendall(b"peg p=0 n=3 id=f2\n")
        wait_for(lambda: board.unanswered == 1)
        raw.settimeout(0.3)
        with pytest.raises(socket.timeout):
            raw.recv(4096)  # a frozen board answers nothing
        board.thaw()
        assert "id=f2" in _lines(raw, "ok")
        assert board.unanswered == 0 and board.runner_pid == pid and board.starts == 1


def test_freeze_at_stops_the_runner_just_before_the_line_it_names(board):
    with socket.create_connection(tuple(board.address)) as raw:
        board.freeze_at("peg ")
        raw.sendall(b"hello\n")  # not the line named: answered
        _lines(raw, "ok")
        assert not board.frozen
        raw.sendall(b"peg p=0 n=2 id=z1\n")
        wait_for(lambda: board.frozen)
        assert board.unanswered == 1 and board.given[-1] == "peg p=0 n=2 id=z1"
        board.thaw()
        assert "id=z1" in _lines(raw, "ok")
        raw.sendall(b"peg p=0 n=1 id=z2\n")  # once only
        assert "id=z2" in _lines(raw, "ok") and not board.frozen


def test_a_frozen_runner_killed_loses_the_line_and_starts_again(board):
    with socket.create_connection(tuple(board.address)) as raw:
        pid = board.runner_pid
        board.freeze()
        raw.sendall(b"peg p=1 n=3 id=k1\n")
        wait_for(lambda: board.unanswered == 1)
        board.kill()
        board.wait_started(2)
        assert board.runner_pid not in (None, pid) and board.unanswered == 0
        raw.sendall(b"hello\n")  # a driven runner boots at its first line
        assert " rev=0" in _lines(raw, "evt boot")  # the peg never happened
    board.close()
    assert board.runner_pid is None


def test_reset_restarts_the_runner_and_keeps_the_game(board):
    with Link.open(board.socket_url) as link:
        link.peg(2, 9)
        pid = board.runner_pid
        board.reset()
        assert board.starts == 2 and board.runner_pid != pid
        assert link.state().pegs[2] == (0, 9)
        boots = [e.args["rev"] for e in link.poll_events() if e.name == "boot"]
        assert boots[-1:] == [1]  # the link heard the board start again, its peg kept
        assert link.drift == []


def test_reset_of_a_board_not_started_says_so(tmp_path):
    vb = VirtualBoard(str(tmp_path / "s"))
    with pytest.raises(SimError, match="not running"):
        vb.reset()
    assert vb.ask("state") is None  # and a line from the sim gets no answer


def test_widen_gives_a_board_more_lanes_and_the_store_keeps_them(tmp_path):
    store = str(tmp_path / "store")
    with VirtualBoard(store) as vb:
        with Link.open(vb.port) as link:
            link.peg(1, 7)
            assert vb.lanes() == 3 and store_layout(store) is None
            assert vb.widen(3) and vb.starts == 1  # enough already: nothing changes
            assert vb.widen(4)
            assert link.hello()["lanes"] == 4
            assert link.new(players=4, match=True).players == 4
            link.peg(3, 5)
    with open(store_layout(store)) as f:
        assert load_config(f.read()).to_dict() == layout_for(4)
    with VirtualBoard(store) as vb, Link.open(vb.port) as link:  # started again: 4 lanes
        assert link.info["lanes"] == 4 and link.state().pegs[3] == (0, 5)


def test_widen_keeps_a_layout_given_with_config(tmp_path):
    config = tmp_path / "three.json"
    config.write_text(json.dumps(default_dict()))
    store = str(tmp_path / "store")
    with VirtualBoard(store, str(config)) as vb:
        assert not vb.widen(4)
        assert vb.lanes() == 3 and vb.starts == 1 and store_layout(store) is None


@pytest.mark.parametrize("lanes", range(2, MAX_LANES + 1))
def test_generated_layouts_extend_the_shipped_one(lanes):
    d = layout_for(lanes)
    shipped = from_dict(default_dict()).to_dict()
    assert from_dict(d).to_dict() == d and len(d["lanes"]) == lanes
    assert d["leds"] == lanes * shipped["holes"] and d["holes"] == shipped["holes"]
    n = min(lanes, len(shipped["lanes"]))
    assert d["lanes"][:n] == shipped["lanes"][:n]
    # The shipped allowance for light above the idle draw of the whole chain.
    idle = shipped["led_ma"]["idle"]
    assert d["budget_ma"] - d["leds"] * idle == shipped["budget_ma"] - shipped["leds"] * idle
    if lanes == len(shipped["lanes"]):
        assert d == shipped


@pytest.mark.parametrize("lanes", [0, 1, MAX_LANES + 1])
def test_a_layout_of_too_few_or_too_many_lanes_is_refused(lanes):
    with pytest.raises(SimError):
        layout_for(lanes)


def test_a_link_to_a_virtual_board_waits_out_a_loaded_machine(tmp_path):
    # The virtual board shares the desktop's CPU: a pause longer than a Pico's four tries
    # (1 s each) stopped `crib serve` with "no reply from sim ... to 'hello'" (a hunt beside
    # two busy processes). The link sends the line again and connects when it answers.
    import threading

    from crib.board.link import RETRIES
    from crib.connect import open_link

    store = str(tmp_path / "store")
    with VirtualBoard(store) as vb:
        vb.freeze()
        vb.given.clear()
        got = {}

        def connect():
            try:
                got["link"] = open_link("sim", store=store)
            except Exception as e:  # noqa: BLE001 - reported by the assertion below
                got["error"] = e
        t = threading.Thread(target=connect, daemon=True)
        t.start()
        try:
            wait_for(lambda: sum(line.startswith("hello") for line in vb.given) > RETRIES + 1
                     or not t.is_alive(), 60)
        finally:
            vb.thaw()
        t.join(60)
        assert "error" not in got, got
        try:
            assert got["link"].state().target == 121  # a fresh board, answering
        finally:
            got["link"].close()
