"""Fixtures for the practice tests: a fresh history file on a fast disk."""

import os
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(__file__))

# The history syncs every entry to disk; on tmpfs that costs nothing, so the tests stay fast.
_FAST_DIR = "/dev/shm" if os.path.isdir("/dev/shm") else None


@pytest.fixture
def db():
    """A fresh history file path."""
    with tempfile.TemporaryDirectory(dir=_FAST_DIR) as d:
        yield os.path.join(d, "history.sqlite3")
