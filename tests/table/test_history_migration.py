"""A history written by the companion before schema 2 (tests/table/data/history-v1.sqlite3:
an unfinished 2-player game to 61 with an undone show, and a practice game, written by the
code of that time) is migrated on opening: the entries replay by their kind, the game
resumes where it stopped, and a file the migration cannot read is refused unchanged. The
same history at schema 2 (history-v2.sqlite3: v1 opened by the schema-2 code) gains the
seat that answered (none known) and calls a go's point a go."""

import shutil
import sqlite3
from pathlib import Path

import pytest
from tablescript import rows

from crib.board.memory import MemoryBoard
from crib.history.db import History
from crib.history.files import HistoryError
from crib.history.schema import SCHEMA_VERSION
from crib.table.record import Table

V1 = Path(__file__).with_name("data") / "history-v1.sqlite3"
V2 = Path(__file__).with_name("data") / "history-v2.sqlite3"


@pytest.fixture
def old(tmp_path):
    path = tmp_path / "history.sqlite3"
    shutil.copy(V1, path)
    return str(path)


def version(path):
    con = sqlite3.connect(path)
    try:
        return int(con.execute("SELECT value FROM meta WHERE key = 'schema_version'")
                   .fetchone()[0])
    finally:
        con.close()


def test_a_schema_1_history_is_migrated_and_its_games_replay(old):
    assert version(old) == 1
    before = rows(old, "SELECT id, kind, player, side, points, args, info, undone"
                       " FROM entries ORDER BY id")
    h = History.open(old)
    try:
        assert version(old) == SCHEMA_VERSION == 4
        after = rows(old, "SELECT id, kind, player, side, points, args, info, undone"
                          " FROM entries ORDER BY id")
        assert after == before  # every entry kept as it was, only the method names gone
        assert "call" not in rows(old, "SELECT * FROM entries LIMIT 1")[0]
        game = h.unfinished()
        table = Table(h, MemoryBoard(4), None, game["id"])
        points = [0, 0]
        for e in table.entries:
            if e.side is not None:
                points[e.side] += e.points
        assert table.game.scores == points and sum(points) > 0
    finally:
        h.close()


def test_the_migrated_game_resumes_at_the_table(crib, old):
    crib.db = old
    rc, out, err = crib.play("quit\n", "--resume")
    assert rc == 0, err
    assert "Resuming: Alice v Bob to 61" in out and "Alice's crib" in out


def test_a_history_the_migration_cannot_read_is_refused_unchanged(old):
    con = sqlite3.connect(old)
    con.execute("UPDATE entries SET call = 'frobnicate' WHERE kind = 'lay'")
    con.commit()
    con.close()
    data = Path(old).read_bytes()
    with pytest.raises(HistoryError, match="frobnicate"):
        History.open(old)
    assert version(old) == 1 and Path(old).read_bytes() == data


def test_a_schema_2_history_gains_who_answered_and_says_go(tmp_path):
    path = str(tmp_path / "history.sqlite3")
    shutil.copy(V2, path)
    assert version(path) == 2
    cols = "id, kind, player, side, points, args, info, undone"
    before = rows(path, f"SELECT {cols}, reason FROM entries ORDER BY id")
    assert any(r["reason"] == "last card for 1" for r in before)
    h = History.open(path)
    try:
        assert version(path) == 4
        after = rows(path, f"SELECT {cols}, reason, answered_by FROM entries ORDER BY id")
        assert [r["answered_by"] for r in after] == [None] * len(before)
        for b, a in zip(before, after):
            said = "go for 1" if b["reason"] == "last card for 1" else b["reason"]
            assert {**b, "reason": said} == {k: a[k] for k in b}
        game = h.unfinished()
        table = Table(h, MemoryBoard(4), None, game["id"])
        assert all(e.answered_by is None for e in table.entries) and table.game.scores
    finally:
        h.close()


def test_every_older_schema_has_its_step_to_the_next():
    from crib.history.schema import STEPS
    assert sorted(STEPS) == list(range(1, SCHEMA_VERSION))


def columns(path):
    con = sqlite3.connect(path)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master"
                                            " WHERE type = 'table' ORDER BY name")]
        return {t: sorted((c[1], c[2], c[3]) for c in con.execute(f"PRAGMA table_info({t})"))
                for t in tables}
    finally:
        con.close()


def test_a_migrated_history_has_the_tables_and_columns_of_a_new_one(old, tmp_path):
    new = tmp_path / "new.sqlite3"
    History.open(new).close()
    History.open(old).close()
    assert columns(old) == columns(new) and "entries" in columns(new)
