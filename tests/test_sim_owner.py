"""`crib sim` showing a virtual board another command runs (crib play's), when that command
ends: it says the board's owner left and goes on running the board itself, from the same
store, with no traceback."""

import os
import subprocess
import sys

import pytest
from support import read_until

from crib.sim.store import running_sim
from crib.sim.virtual import VirtualBoard

pty = pytest.importorskip("pty")  # crib sim draws the board at a terminal


def test_crib_sim_goes_on_when_the_command_that_ran_the_board_ends(tmp_path):
    store = str(tmp_path / "sim")
    master, slave = pty.openpty()
    owner = VirtualBoard(store, None, pty=False, address=("127.0.0.1", 0))
    proc = None
    try:
        with owner:
            url = running_sim(store)
            assert url and url.startswith("socket://")
            assert owner.ask("peg p=0 n=7").startswith("ok")
            proc = subprocess.Popen([sys.executable, "-m", "crib", "sim", "--store", store],
                                    stdin=slave, stdout=slave, stderr=slave, close_fds=True,
                                    env=dict(os.environ, TERM="xterm", NO_COLOR="1"))
            os.close(slave)
            slave = None
            seen = read_until(master, b"started by another crib command")
            seen += read_until(master, b"keys: ")  # the board drawn from the owner's
            assert b"keys: " in seen, seen[-2000:]
        # The owner has gone, and its board with it.
        seen = read_until(master, b"keys: ", seconds=30)
        assert b"Traceback" not in seen and b"SerialException" not in seen, seen[-3000:]
        text = seen.decode(errors="replace")
        assert "the board's owner left" in text, text[-2000:]
        assert "crib sim runs the board itself now" in text, text[-2000:]
        new = running_sim(store)
        assert new is not None and new != url  # this crib sim runs it now
        os.write(master, b"q")
        seen += read_until(master, b"\x1b[?25h", seconds=20)
        assert proc.wait(30) == 0
        assert b"Traceback" not in seen
        # The store kept the game: the new board shows the owner's peg.
        with VirtualBoard(store, None, pty=False) as again:
            assert " p0=0,7 " in again.ask("state")
    finally:
        if slave is not None:
            os.close(slave)
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
