"""Fixtures for the web companion: a history file, and the app around a Hub
(Starlette's TestClient) with the key given as a header."""

import os
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from webtools import KEY, make_hub  # noqa: E402

from crib.web.app import create_app  # noqa: E402

FAST_DIR = "/dev/shm" if os.path.isdir("/dev/shm") else None  # as tests/table's scripts


@pytest.fixture
def db():
    """A fresh history file path."""
    with tempfile.TemporaryDirectory(dir=FAST_DIR) as d:
        yield os.path.join(d, "history.sqlite3")


@pytest.fixture
def client(db):
    """A TestClient on the app, the key given as a header; .hub is the Hub."""
    from starlette.testclient import TestClient

    hub = make_hub(db)
    app = create_app(hub, KEY, "http://127.0.0.1/?k=" + KEY, poll=False)
    with TestClient(app, headers={"X-Crib-Key": KEY}) as c:
        c.hub, c.db = hub, db
        yield c


@pytest.fixture
def history(db):
    """An open history on a fresh file."""
    from crib.history.db import History

    h = History.open(db)
    yield h
    h.close()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, shared by a browser module's tests."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
