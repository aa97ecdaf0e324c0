"""One game, one writer: a second companion on a history is refused with a sentence naming
the first; a lock left by a killed companion is recognised as stale; readers never wait."""

import os
import signal
import subprocess
import sys

import pytest

from crib.history.db import History
from crib.history.lock import HistoryLocked

HOLD = ("import sys, time; from crib.history.db import History;"
        " h = History.open(sys.argv[1]); print('open', flush=True); time.sleep(60)")


def _holder(db):
    p = subprocess.Popen([sys.executable, "-c", HOLD, db], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "open"
    return p


def test_a_second_writer_is_refused_and_a_reader_is_not(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    first = History.open(db)
    try:
        with pytest.raises(HistoryLocked, match="in use by another companion") as e:
            History.open(db)
        assert f"pid {os.getpid()}" in str(e.value) and "--db" in str(e.value)
        reader = History.open(db, lock=False)  # crib history, crib stats
        assert reader.query("SELECT COUNT(*) AS n FROM games") == [{"n": 0}]
        reader.close()
    finally:
        first.close()
    History.open(db).close()  # closed: free again


def test_a_lock_left_by_a_killed_companion_is_stale(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    p = _holder(db)
    try:
        with pytest.raises(HistoryLocked, match=f"pid {p.pid}"):
            History.open(db)
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait()
    assert os.path.exists(db + ".lock")  # left behind, and no longer held
    h = History.open(db)
    h.close()


def test_two_companions_on_one_history_the_second_says_so(tmp_path):
    """A `crib play` holds the history: `crib serve` and another `crib play` on it stop
    with a sentence; nothing is written by them."""
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    db = str(tmp_path / "h.sqlite3")
    common = ["--db", db, "--board", "none", "--names", "Alice,Bob", "--target", "61",
              "--dealer", "Alice", "--no-colour"]
    first = subprocess.Popen([sys.executable, "-m", "crib", "play", *common], env=env,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        first.stdout.readline()  # it has started the game: the history is open
        for verb in (["serve", "--no-qr", "--web-port", "0"], ["play"]):
            second = subprocess.run([sys.executable, "-m", "crib", *verb, *common], env=env,
                                    stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                    timeout=60)
            assert second.returncode == 1, second.stderr
            assert second.stderr.startswith("crib: error: the history"), second.stderr
            assert f"pid {first.pid}" in second.stderr and "Traceback" not in second.stderr
    finally:
        first.kill()
        first.wait()
    h = History.open(db)
    assert len(h.query("SELECT * FROM games")) == 1  # the first companion's game only
    h.close()
