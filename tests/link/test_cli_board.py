"""`crib board` and `crib sim` through crib.cli.main, against the virtual board."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from rig import FakePeer, UsbPort

from crib.board.link import Link
from crib.board.ports import PICO_VID
from crib.cli import main
from crib.sim.virtual import VirtualBoard


@pytest.fixture
def sim(tmp_path):
    """Arguments that reach a virtual board on a fresh store."""
    return ["board", "--board", "sim", "--store", str(tmp_path / "store")]


def run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def state(capsys, sim):
    code, out, _ = run(capsys, sim + ["--json", "status"])
    assert code == 0
    return json.loads(out)["state"]


def test_status_draws_the_board(capsys, sim):
    code, out, err = run(capsys, sim + ["status"])
    assert code == 0 and err == ""
    for name in ("Red", "Blue", "Green"):
        assert name in out
    assert "game to 121, 3 players" in out


def test_peg_undo_new_set(capsys, sim):
    assert run(capsys, sim + ["peg", "red", "12"])[0] == 0
    assert run(capsys, sim + ["peg", "2", "5"])[0] == 0
    assert run(capsys, sim + ["peg", "RED", "3"])[0] == 0
    assert state(capsys, sim)["pegs"] == [[12, 15], [0, 5], [0, 0]]
    code, out, _ = run(capsys, sim + ["undo"])
    assert code == 0 and "Red" in out
    assert state(capsys, sim)["pegs"][0] == [0, 12]
    code, out, _ = run(capsys, sim + ["--json", "set", "dealer=blue", "brightness=60"])
    st = json.loads(out)["state"]
    assert (st["dealer"], st["settings"]["brightness"]) == (1, 60)
    assert run(capsys, sim + ["set", "dealer=none"])[0] == 0
    assert state(capsys, sim)["dealer"] == -1
    code, out, _ = run(capsys, sim + ["--json", "new", "--target", "61", "--players", "2"])
    st = json.loads(out)["state"]
    assert (st["target"], st["players"], st["pegs"]) == (61, 2, [[0, 0], [0, 0]])


@pytest.mark.parametrize("argv", [
    ["peg", "9", "3"], ["peg", "purple", "3"], ["peg", "1", "0"], ["set", "bogus=1"],
    ["set", "brightness=x"], ["set", "brightness=0"], ["set", "nonsense"], ["undo"],
    ["snapshot", "board.gif"],
])
def test_bad_requests_fail_cleanly_and_change_nothing(capsys, sim, argv, tmp_path):
    before = state(capsys, sim)
    code, out, err = run(capsys, sim + argv)
    assert code == 1
    assert err.startswith("crib: error: ")
    after = state(capsys, sim)
    assert after == before


def test_options_may_follow_the_action(capsys, sim):
    assert run(capsys, ["board", "peg", "3", "4"] + sim[1:])[0] == 0
    code, out, _ = run(capsys, ["board", "status", "--json"] + sim[1:])
    assert code == 0 and json.loads(out)["state"]["pegs"][2] == [0, 4]


def test_snapshot_files(capsys, sim, tmp_path):
    run(capsys, sim + ["peg", "1", "9"])
    for name in ("b.svg", "b.png"):
        code, out, _ = run(capsys, sim + ["--json", "snapshot", str(tmp_path / name)])
        assert code == 0
        assert json.loads(out)["bytes"] == (tmp_path / name).stat().st_size > 1000


def test_port_choices(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    code, _, err = run(capsys, ["board", "status"])  # --port auto, no Pico
    assert code == 1 and err.startswith("crib: error: ")
    code, out, _ = run(capsys, ["board", "--port", "list"])
    assert code == 0 and "no serial ports" in out
    code, _, err = run(capsys, ["board", "--port", "/dev/x", "--board", "sim", "status"])
    assert code == 1 and err.startswith("crib: error: ")
    code, _, err = run(capsys, ["board", "--store", str(tmp_path), "status"])
    assert code == 1 and err.startswith("crib: error: ")
    code, _, err = run(capsys, ["board", "--port", str(tmp_path / "nothing"), "status"])
    assert code == 1 and err.startswith("crib: error: ")


def test_board_words_are_the_tables(capsys, monkeypatch):
    """`crib board --board` takes the words `crib play --board` takes (less none)."""
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    code, _, err = run(capsys, ["board", "--board", "auto", "status"])  # no Pico attached
    assert code == 1 and "no Pico found" in err
    for word in ("pico", "none"):
        with pytest.raises(SystemExit):
            main(["board", "--board", word, "status"])
        assert "invalid choice" in capsys.readouterr().err


def _pico(device):
    return UsbPort(device, PICO_VID, 5, "E660", "Board in FS mode")


def test_port_auto_finds_a_pico_by_usb_id_and_handshake(capsys, monkeypatch, tmp_path):
    with VirtualBoard(str(tmp_path / "s"), driven=True) as vb:
        silent = FakePeer(lambda line: b"")  # a Pico that does not answer is skipped
        try:
            monkeypatch.setattr("serial.tools.list_ports.comports",
                                lambda: [_pico(silent.url), _pico(vb.port)])
            code, out, _ = run(capsys, ["board", "--timeout", "2", "--json", "status"])
            assert code == 0
            assert json.loads(out)["port"] == vb.port
            code, out, _ = run(capsys, ["board", "--port", "list"])
            assert vb.port in out and "2E8A" in out
            code, out, _ = run(capsys, ["board", "--port", "list", "--json"])
            picos = [p["device"] for p in json.loads(out) if p["pico"]]
            assert picos == sorted([silent.url, vb.port])
        finally:
            silent.close()


def test_version_mismatch_through_the_cli(capsys):
    peer = FakePeer(lambda line: b"ok rev=0 proto=99 fw=9.9.9 lanes=3 holes=121\n")
    try:
        code, _, err = run(capsys, ["board", "--port", peer.url, "--timeout", "0.2",
                                    "status"])
        assert code == 1 and err.startswith("crib: error: ")
    finally:
        peer.close()


def test_watch_prints_events_as_they_come(capsys, tmp_path):
    with VirtualBoard(str(tmp_path / "s"), address=("127.0.0.1", 0), driven=True) as vb:
        with Link.open(vb.url) as link:
            link.set(pause_ms=300)
            result = {}
            t = threading.Thread(target=lambda: result.setdefault("code", main(
                ["board", "--port", vb.socket_url, "--json", "watch", "--count", "2",
                 "--seconds", "10"])))
            t.start()
            end = time.monotonic() + 10
            while len(vb.clients) < 2:  # the pty (our link) and the watcher's socket
                assert time.monotonic() < end
                time.sleep(0.01)
            for _ in range(2):
                link.button("lane1", True)
                link.tick(50)
                link.button("lane1", False)
                link.tick(400)
            t.join(10)
        assert result["code"] == 0
        lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
        assert [(x["event"], x["p"], x["n"], x["src"]) for x in lines] == [
            ("peg", 1, 1, "button")] * 2


def test_crib_sim_resumes_its_game_after_a_restart(tmp_path):
    store = str(tmp_path / "store")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    for round_ in range(2):
        proc = subprocess.Popen([sys.executable, "-m", "crib", "sim", "--headless", "--store",
                                 store, "--socket", ":0"], stdout=subprocess.PIPE, text=True,
                                env=env)
        try:
            head = proc.stdout.readline()
            assert head.startswith("virtual board on pty ")
            sock = head.split()[-1]
            assert sock.startswith("socket://")
            with Link.open(sock) as link:
                assert link.state().pegs[0] == ((0, 0) if round_ == 0 else (0, 7))
                if round_ == 0:
                    link.peg(0, 7)
            with Link.open(os.path.join(store, "tty")) as link:  # the stable pty link
                assert link.state().pegs[0] == (0, 7)
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(10) == 0
        assert not os.path.exists(os.path.join(store, "sim.port"))  # tidied up


def test_a_store_widened_for_four_lanes_keeps_its_layout(capsys, sim, tmp_path):
    """crib play widens the virtual board for four solo players; crib board reads that."""
    from crib.sim.store import write_layout

    write_layout(str(tmp_path / "store"), 4)
    code, out, err = run(capsys, sim + ["new", "--players", "4"])
    assert code == 0, err
    code, out, err = run(capsys, sim + ["peg", "4", "7"])
    assert code == 0, err
    pegs = state(capsys, sim)["pegs"]
    assert len(pegs) == 4 and pegs[3][1] == 7
