"""`crib play` at a real terminal (a pseudo terminal): answers are edited with readline,
so arrow keys move in the line instead of being stored, and the score line is shown."""

import os
import select
import subprocess
import sys
import time

import pytest
from tablescript import rows

pty = pytest.importorskip("pty")  # a POSIX terminal: the line editing under test is there


def read_until(fd, want, seconds=20):
    """Output of the terminal until want appears (or the time is up)."""
    seen = b""
    deadline = time.monotonic() + seconds
    while want not in seen and time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_arrow_keys_edit_the_answer_at_a_terminal(db):
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "crib", "play", "--db", db, "--board",
                             "none", "--no-colour"], stdin=slave, stdout=slave, stderr=slave,
                            close_fds=True, env=dict(os.environ, TERM="xterm"))
    os.close(slave)
    try:
        assert b"Players, in seating order" in read_until(master, b"seating order: ")
        # "Bb", Left, "o", End (Ctrl-E), " Al", Enter: the names are Bob and Al.
        os.write(master, b"Bb\x1b[Do\x05 Al\r")
        assert b"Target" in read_until(master, b"[121]: ")
        os.write(master, b"61\r")
        read_until(master, b"[cut]: ")
        os.write(master, b"Bob\r")
        assert b"[Bob 0  Al 0 | hand 1, Bob deals]" in read_until(master, b"Starter: ")
        os.write(master, b"quit\r")
        read_until(master, b"--resume")
        proc.wait(20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert proc.returncode == 0
    names = rows(db, "SELECT names FROM matches")
    assert names == [{"names": '["Bob", "Al"]'}]
