"""The history's tables, and the steps that bring a file of an older schema up to this one.

To change the schema: add the new tables or columns to SCHEMA (what a new file gets), raise
SCHEMA_VERSION, and add to STEPS the step from the previous version (what an older file
gets); tests/table/test_history_migration.py checks that every version has its step.
"""

import sqlite3
from pathlib import Path
from typing import Callable

from crib.history import club
from crib.history.files import HistoryError, Transaction

SCHEMA_VERSION = 4  # 4: the club's tables (crib.history.club)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    players INTEGER NOT NULL,           -- 2..4
    partnerships INTEGER NOT NULL,      -- 1: four players as two teams
    target INTEGER NOT NULL,
    names TEXT NOT NULL,                -- JSON list, in seating order
    game_points TEXT NOT NULL           -- JSON [win, skunk, double skunk]
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    number INTEGER NOT NULL,            -- 1.. within its match
    started TEXT NOT NULL,
    finished TEXT,                      -- NULL while it is played
    abandoned INTEGER NOT NULL DEFAULT 0,
    first_dealer INTEGER,               -- NULL: cut for it
    options TEXT NOT NULL,              -- JSON: muggins, manual, review, confirm; practice
    board TEXT NOT NULL,                -- where the pegs went: none, sim, a port
    op_prefix TEXT NOT NULL,            -- every operation id sent to the board starts so
    winner INTEGER,                     -- side (lane)
    scores TEXT,                        -- JSON per side, at the end
    level INTEGER,                      -- 0 win, 1 skunk, 2 double skunk
    game_points INTEGER
);
CREATE TABLE IF NOT EXISTS hands (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,            -- 0.. within its game
    dealer INTEGER NOT NULL,
    starter TEXT,
    summary TEXT NOT NULL,              -- JSON: heels, play, shows, crib per player
    UNIQUE (game_id, number)
);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,               -- order within the game
    hand INTEGER NOT NULL,              -- hand number when it was made
    kind TEXT NOT NULL,                 -- cut starter lay go end_play show peg dealt note
    player INTEGER,                     -- who: a player, or NULL
    side INTEGER,                       -- the lane that scored, or NULL
    points INTEGER NOT NULL DEFAULT 0,
    reason TEXT,                        -- 'fifteen for 2', 'hand', 'muggins', ...
    source TEXT NOT NULL,               -- table, board (pegged on its buttons), reconcile
    args TEXT NOT NULL,                 -- JSON arguments of the action its kind replays
    info TEXT NOT NULL,                 -- JSON: what was entered (cards, stated count ...)
    created TEXT NOT NULL,
    undone TEXT,                        -- when it was taken back; NULL while it stands
    answered_by INTEGER,                -- the player who answered for `player`, or NULL
    UNIQUE (game_id, seq)
);
CREATE TABLE IF NOT EXISTS ops (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    entry_id INTEGER REFERENCES entries(id),
    op_id TEXT NOT NULL UNIQUE,         -- the id= sent, so a retry never applies twice
    verb TEXT NOT NULL,                 -- peg, undo, new
    lane INTEGER,
    n INTEGER,
    status TEXT NOT NULL,               -- pending, done, skipped
    front INTEGER,                      -- the lane's front peg the board reported
    rev INTEGER,
    created TEXT NOT NULL,
    settled TEXT
);
CREATE INDEX IF NOT EXISTS entries_game ON entries (game_id, seq);
CREATE INDEX IF NOT EXISTS ops_game ON ops (game_id, status);
"""

# Schema 1 stored with each entry the name of the Game method that replays it (`call`);
# schema 2 replays an entry by its kind alone (cribcore.table.entries.REPLAY). The migration
# checks that every entry of a schema-1 file names the method its kind stands for, then
# drops the column. Kinds with no game action (dealt, note) had no method.
V1_CALLS = {"cut": "cut_for_deal", "deal": "deal", "discard": "discard",
            "starter": "turn_starter", "lay": "lay", "go": "go", "end_play": "end_play",
            "show": "show", "peg": "peg", "muggins": "peg", "dealt": None, "note": None}


def _from_1(conn: sqlite3.Connection, path: Path) -> None:
    rows = conn.execute("SELECT id, kind, call FROM entries").fetchall()
    for r in rows:
        if r["kind"] not in V1_CALLS or V1_CALLS[r["kind"]] != r["call"]:
            raise HistoryError(f"{str(path)!r}: entry {r['id']} ({r['kind']!r} by"
                               f" {r['call']!r}) is not one this crib can replay")
    conn.execute("ALTER TABLE entries DROP COLUMN call")


def _from_2(conn: sqlite3.Connection, path: Path) -> None:
    # Schema 3 records the seat that answered for another player (answered_by), NULL in
    # older entries (each player answered for themselves, or it was not known), and says a
    # go's point as a go: the reasons "last card for 1" of older entries read "go for 1".
    conn.execute("ALTER TABLE entries ADD COLUMN answered_by INTEGER")
    conn.execute("UPDATE entries SET reason = REPLACE(reason, 'last card for', 'go for')"
                 " WHERE kind IN ('lay', 'go')")


def _from_3(conn: sqlite3.Connection, path: Path) -> None:
    # Schema 4 adds a club night's tables (crib.history.club), beside the games.
    for statement in club.statements():
        conn.execute(statement)


# version -> the step that brings a file of that version to the next one
STEPS: dict[int, Callable[[sqlite3.Connection, Path], None]] = {
    1: _from_1, 2: _from_2, 3: _from_3}


def prepare(conn: sqlite3.Connection, path: Path) -> None:
    """Give a new (empty) file the schema, bring an older one up to it in one transaction,
    refuse a newer or foreign one (HistoryError)."""
    try:
        version = _version(conn)
        if version is None:
            conn.executescript(
                "BEGIN IMMEDIATE;" + SCHEMA + club.SCHEMA + "INSERT OR REPLACE INTO meta VALUES"
                " ('schema_version', '%d'); COMMIT;" % SCHEMA_VERSION)
        elif version > SCHEMA_VERSION:
            raise HistoryError(f"{str(path)!r} has history schema {version}, newer than"
                               f" this crib ({SCHEMA_VERSION}): upgrade crib")
        elif version < SCHEMA_VERSION:
            with Transaction(conn):
                for v in range(version, SCHEMA_VERSION):
                    STEPS[v](conn, path)
                conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                             (str(SCHEMA_VERSION),))
    except sqlite3.DatabaseError as e:
        raise HistoryError(f"cannot use {str(path)!r} as a crib history: {e}") from None


def _version(conn: sqlite3.Connection) -> int | None:
    """The schema version, or None for a new (empty) file."""
    has_meta = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                            " AND name = 'meta'").fetchone()
    if not has_meta:
        other = conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]
        if other:
            raise HistoryError("the file holds other tables, not a crib history")
        return None
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else None
