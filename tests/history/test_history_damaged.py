"""A damaged history gives a sentence (what is wrong, what to do), never a traceback, never
a new history in its place, and it is never written to."""

import os
import random
import sqlite3
import subprocess
import sys

import pytest

from crib.history.db import History
from crib.history.files import HistoryError


def _history_with_a_game(path):
    h = History.open(path)
    m = h.new_match(["Alice", "Bob"], False, 61, [1, 2, 3])
    g = h.new_game(m, 0, {}, "none", "t1")
    for i in range(40):
        h.add_entry(g, 0, "note", info={"text": "x" * 50, "i": i}, ops=[("peg", 0, 1, f"t1.{i}")])
    h.close()


def _root_pages(path):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return dict(con.execute("SELECT name, rootpage FROM sqlite_master"
                                " WHERE type = 'table'").fetchall())
    finally:
        con.close()


def _overwrite_page(path, page, seed):
    data = bytearray(open(path, "rb").read())
    size = 4096
    start = (page - 1) * size
    data[start:start + size] = random.Random(seed).randbytes(size)
    with open(path, "wb") as f:
        f.write(data)
    return bytes(data)


def _refused(path, match):
    before = open(path, "rb").read()
    with pytest.raises(HistoryError, match=match) as e:
        History.open(path)
    assert "left as it is" in str(e.value) and "--db" in str(e.value)
    assert open(path, "rb").read() == before  # never written to
    assert not os.path.exists(str(path) + "-wal") or os.path.getsize(str(path) + "-wal") == 0


@pytest.mark.parametrize("table", ["games", "entries", "ops", "matches"])
def test_random_bytes_over_a_page_are_found_on_open(tmp_path, table):
    path = tmp_path / "h.sqlite3"
    _history_with_a_game(path)
    _overwrite_page(path, _root_pages(path)[table], seed=len(table))
    _refused(path, "is damaged")


def test_random_bytes_over_the_first_page_and_other_files(tmp_path):
    path = tmp_path / "h.sqlite3"
    _history_with_a_game(path)
    _overwrite_page(path, 1, seed=1)
    _refused(path, "not an SQLite database")
    path.write_text("name,score\nAlice,61\n")
    _refused(path, "not an SQLite database")


def test_an_empty_file_is_not_taken_for_a_new_history(tmp_path):
    path = tmp_path / "h.sqlite3"
    path.write_bytes(b"")
    _refused(path, "empty")
    assert path.stat().st_size == 0


@pytest.mark.parametrize("verb", [["serve", "--no-qr", "--web-port", "0", "--resume"],
                                  ["play", "--resume"], ["history"], ["stats"]])
def test_every_verb_on_a_damaged_history_says_so_in_a_sentence(tmp_path, verb):
    path = tmp_path / "h.sqlite3"
    _history_with_a_game(path)
    damaged = _overwrite_page(path, _root_pages(path)["ops"], seed=3)
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    board = ["--board", "none"] if verb[0] in ("serve", "play") else []
    r = subprocess.run([sys.executable, "-m", "crib", *verb, *board, "--db", str(path)],
                       env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith("crib: error: the history") and "is damaged" in r.stderr
    assert open(path, "rb").read() == damaged
