"""`crib play` at a real terminal (a pseudo terminal): answers are edited with readline,
so arrow keys move in the line instead of being stored, and the score line is shown."""

import os
import subprocess
import sys

import pytest
from support import read_until
from tablescript import rows

pty = pytest.importorskip("pty")  # a POSIX terminal: the line editing under test is there


# `crib play`, where Python has no readline module (as on Windows or a Python built without
# it): the terminal's own line discipline is all the editing there is.
NO_READLINE = ("import sys; sys.modules['readline'] = None; from crib.cli import main; "
               "sys.exit(main(sys.argv[1:]))")


def play_names(db, typed, editor=True, dealer=b"Bob\r"):
    """Start `crib play` on a pseudo terminal, type `typed` at the players' prompt (then,
    if it was refused, "Bob Al"), 61, `dealer` at the first dealer's, quit; what it showed
    after the first line. The stored names are the test's to check."""
    master, slave = pty.openpty()
    start = ["-m", "crib"] if editor else ["-c", NO_READLINE]
    proc = subprocess.Popen([sys.executable, *start, "play", "--db", db, "--board", "none",
                             "--no-colour"], stdin=slave, stdout=slave, stderr=slave,
                            close_fds=True, env=dict(os.environ, TERM="xterm"))
    os.close(slave)
    try:
        assert b"Players, in seating order" in read_until(master, b"seating order: ")
        os.write(master, typed)
        seen = read_until(master, b": ")
        if b"Target" not in seen:
            os.write(master, b"Bob Al\r")
            seen += read_until(master, b"[121]: ")
        os.write(master, b"61\r")
        read_until(master, b"[cut]: ")
        os.write(master, dealer)
        seen += read_until(master, b"Starter: ")
        os.write(master, b"quit\r")
        read_until(master, b"--resume")
        proc.wait(20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert proc.returncode == 0
    return seen


def test_arrow_keys_edit_the_answer_at_a_terminal(db):
    # "Bb", Left, "o", End (Ctrl-E), " Al", Enter: the names are Bob and Al.
    seen = play_names(db, b"Bb\x1b[Do\x05 Al\r")
    assert b"holds key codes" not in seen and b"Target" in seen
    assert b"[Bob 0  Al 0 | hand 1, Bob deals]" in seen
    assert rows(db, "SELECT names FROM matches") == [{"names": '["Bob", "Al"]'}]


def test_without_readline_arrow_keys_are_refused_never_stored(db):
    # The same keys where nothing edits the line: the codes arrive in it as they are.
    seen = play_names(db, b"Bb\x1b[Do\x05 Al\r", editor=False)
    assert seen.index(b"holds key codes") < seen.index(b"Target")
    assert rows(db, "SELECT names FROM matches") == [{"names": '["Bob", "Al"]'}]
    assert rows(db, "SELECT count(*) AS n FROM entries WHERE info LIKE '%\\u001b%'") == [
        {"n": 0}]


def test_up_recalls_an_earlier_answer_at_a_terminal(db):
    # At the first dealer's prompt: Up, Up ("Bob Al", the players' answer), Ctrl-W (the
    # last word rubbed out), Enter: Bob deals.
    seen = play_names(db, b"Bob Al\r", dealer=b"\x1b[A\x1b[A\x17\r")
    assert b"[Bob 0  Al 0 | hand 1, Bob deals]" in seen
    assert rows(db, "SELECT first_dealer FROM games") == [{"first_dealer": 0}]
