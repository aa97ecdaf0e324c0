"""Ctrl-C in `crib play` at a terminal: the game is saved, and it says so and how to go on,
as `quit` does; `crib play --resume` then goes on from there."""

import os
import subprocess
import sys

import pytest
from support import close_pty, read_until

pty = pytest.importorskip("pty")  # Ctrl-C typed at a terminal


def _controlling_terminal():
    import fcntl
    import signal
    import termios

    fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # Ctrl-C there signals this process
    # As from a shell: a test run in the background inherits SIGINT ignored, and Python
    # then never raises KeyboardInterrupt.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _play(db, *extra):
    """`crib play` on a terminal of its own (its controlling one, as in a shell)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "crib", "play", "--db", db, "--board",
                             "none", "--no-colour", *extra],
                            stdin=slave, stdout=slave, stderr=slave, close_fds=True,
                            start_new_session=True, preexec_fn=_controlling_terminal,
                            env=dict(os.environ, TERM="xterm"))
    os.close(slave)
    return proc, master


def _finish(proc, master):
    """The rest of what it showed, once it has ended."""
    seen = read_until(master, b"\x00never", seconds=5) if proc.poll() is None else b""
    close_pty(proc, master)
    return seen


def test_ctrl_c_in_a_game_says_it_is_saved_and_how_to_go_on(tmp_path):
    db = str(tmp_path / "history.sqlite3")
    proc, master = _play(db)
    seen = read_until(master, b"seating order: ")
    os.write(master, b"Alice Bob\r")
    seen += read_until(master, b"[121]: ")
    os.write(master, b"61\r")
    seen += read_until(master, b"[cut]: ")
    os.write(master, b"Bob\r")
    seen += read_until(master, b"Starter: ")
    os.write(master, b"\x03")  # Ctrl-C: the terminal sends SIGINT
    seen += read_until(master, b"interrupted")
    seen += _finish(proc, master)
    text = seen.decode(errors="replace")
    assert proc.returncode == 130
    assert "Traceback" not in text
    after = text[text.index("Starter: "):]
    assert "the game is saved" in after and "crib play --resume" in after, after

    proc, master = _play(db, "--resume")
    seen = read_until(master, b"Starter: ")
    os.write(master, b"quit\r")
    seen += _finish(proc, master)
    assert b"Alice 0  Bob 0 | hand 1, Bob deals" in seen, seen[-1500:]
    assert proc.returncode == 0


def test_ctrl_c_before_a_game_begins_says_only_interrupted(tmp_path):
    proc, master = _play(str(tmp_path / "history.sqlite3"))
    seen = read_until(master, b"seating order: ")
    os.write(master, b"\x03")
    seen += read_until(master, b"interrupted")
    seen += _finish(proc, master)
    assert proc.returncode == 130 and b"crib: interrupted" in seen
    assert b"saved" not in seen
