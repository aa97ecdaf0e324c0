"""Fixtures for the table tests: a history file, a board in memory, `crib play` driven by a
script on stdin."""

import io
import os
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from tablescript import FAST_DIR  # noqa: E402

from crib.board.memory import MemoryBoard  # noqa: E402
from crib.cli import main  # noqa: E402


@pytest.fixture
def db():
    """A fresh history file path."""
    with tempfile.TemporaryDirectory(dir=FAST_DIR) as d:
        yield os.path.join(d, "history.sqlite3")


@pytest.fixture
def history(db):
    """An open history on a fresh file."""
    from crib.history.db import History

    h = History.open(db)
    yield h
    h.close()


class Lines(io.StringIO):
    """Answers for the prompts, with hooks run before a given answer is read (0-based),
    e.g. to press the board's buttons while a question is open."""

    def __init__(self, text, hooks=None):
        super().__init__(text)
        self.hooks = dict(hooks or {})
        self.read_count = 0

    def readline(self, *a):
        hook = self.hooks.pop(self.read_count, None)
        if hook:
            hook()
        self.read_count += 1
        return super().readline(*a)

    def isatty(self):
        return False


class Runner:
    """`crib play` (and friends) through crib.cli.main with a board and a history."""

    def __init__(self, db, monkeypatch, capsys):
        self.db = db
        self.mp = monkeypatch
        self.capsys = capsys
        self.board = MemoryBoard(4)
        monkeypatch.setattr("crib.commands.play.open_table_board", lambda *a, **k: self.board)

    def play(self, text, *argv, hooks=None):
        """Run crib play with text as stdin; returns (exit code, stdout, stderr)."""
        self.stdin = Lines(text, hooks)
        self.mp.setattr(sys, "stdin", self.stdin)
        rc = main(["play", "--db", self.db, "--no-colour", *argv])
        out = self.capsys.readouterr()
        return rc, out.out, out.err

    def cmd(self, *argv):
        """Run another verb against the same history."""
        rc = main([argv[0], "--db", self.db, *argv[1:]])
        out = self.capsys.readouterr()
        return rc, out.out, out.err


@pytest.fixture
def crib(db, monkeypatch, capsys):
    """A Runner with a fresh history and an in-memory board."""
    return Runner(db, monkeypatch, capsys)
