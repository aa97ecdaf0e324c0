"""The game record in SQLite: matches, games, hands, every entry (card, go, show, peg) with
its reason and who made it, and every board operation with its id and whether it applied.

The table flow writes an entry and its board operations in one transaction before it sends
them, and marks each operation done when the board has answered; `crib play --resume`
rebuilds the game from the entries that stand and settles the operations still pending.
Entries taken back are kept, marked undone, so the record shows what happened.
"""

import json
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Literal, Mapping, Sequence

from crib.env import data_dir
from crib.errors import CribError
from crib.history import club
from crib.history.lock import WriterLock

SCHEMA_VERSION = 4  # 4: the club's tables (crib.history.club)
# Schema 1 stored with each entry the name of the Game method that replays it (`call`);
# schema 2 replays an entry by its kind alone (cribcore.table.entries.REPLAY). The migration
# checks that every entry of a schema-1 file names the method its kind stands for, then
# drops the column. Kinds with no game action (dealt, note) had no method.
V1_CALLS = {"cut": "cut_for_deal", "deal": "deal", "discard": "discard",
            "starter": "turn_starter", "lay": "lay", "go": "go", "end_play": "end_play",
            "show": "show", "peg": "peg", "muggins": "peg", "dealt": None, "note": None}
# Schema 3 records the seat that answered for another player (answered_by), NULL in older
# entries (each player answered for themselves, or it was not known), and says a go's
# point as a go: the reasons "last card for 1" of older entries read "go for 1".
DB_NAME = "history.sqlite3"
SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database

_SCHEMA = """
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


# A practice game (crib practice) records its level under this key of its options.
PRACTICE = "practice"
_PRACTICE = f"json_extract(options, '$.{PRACTICE}') IS NOT NULL"


Row = dict[str, Any]  # a row as a dict, its JSON columns decoded
Op = tuple[str, int, int, str]  # a board operation: verb, lane, n, op_id


class HistoryError(CribError):
    """The history file cannot be used (newer schema, not a crib history, no game to resume)."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def default_path(environ: Mapping[str, str] | None = None) -> Path:
    """history.sqlite3 in crib's data folder (crib.env.data_dir)."""
    return data_dir(environ) / DB_NAME


class Entry:
    """One row of `entries`, with its JSON columns decoded."""

    __slots__ = ("id", "seq", "hand", "kind", "player", "side", "points", "reason",
                 "source", "args", "info", "undone", "answered_by")
    id: int
    seq: int
    hand: int
    kind: str
    player: int | None
    side: int | None
    points: int
    reason: str | None
    source: str
    args: list
    info: dict
    undone: str | None  # when it was undone (an ISO time), None while it stands
    answered_by: int | None

    def __init__(self, row: sqlite3.Row) -> None:
        for k in self.__slots__:
            setattr(self, k, row[k])
        self.args = json.loads(row["args"])
        self.info = json.loads(row["info"])

    def __repr__(self) -> str:
        return f"<Entry {self.seq} {self.kind} player={self.player} points={self.points}>"


class History:
    """A history database (open with `History.open(path)`)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self._lock: WriterLock | None = None

    @classmethod
    def open(cls, path: str | os.PathLike, lock: bool = True) -> "History":
        """Open (or create) the history at path; refuse a newer or foreign schema, a damaged
        file (left as it is), and with lock (a companion that writes), a history another
        companion has open to write (crib.history.lock)."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise HistoryError(f"cannot make the folder of the history {str(path)!r}:"
                               f" {e.strerror or e}") from None
        held = WriterLock(path).acquire() if lock else None
        try:
            check_file(path)
            conn = _connect(path)
        except BaseException:
            if held is not None:
                held.release()
            raise
        h = cls(conn, path)
        h._lock = held
        return h

    def batch(self) -> "_tx":
        """A transaction grouping several writes (one commit, one sync to disk)."""
        return _tx(self.conn)

    def close(self) -> None:
        """Close the database (and let go of its writer's lock)."""
        try:
            self.conn.close()
        finally:
            if self._lock is not None:
                self._lock.release()
                self._lock = None

    # -- matches and games ------------------------------------------------------------------

    def new_match(self, names: Sequence[str], partnerships: bool, target: int,
                  game_points: Sequence[int]) -> int:
        """Start a match; returns its id."""
        cur = self.conn.execute(
            "INSERT INTO matches (started, players, partnerships, target, names, game_points)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (_now(), len(names), int(bool(partnerships)), target, json.dumps(list(names)),
             json.dumps(list(game_points))))
        return _new_id(cur)

    def match(self, match_id: int) -> Row:
        """The match row as a dict (names and game_points decoded)."""
        row = self.conn.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
        out = dict(row)
        out["names"] = json.loads(out["names"])
        out["game_points"] = json.loads(out["game_points"])
        return out

    def new_game(self, match_id: int, first_dealer: int | None, options: dict, board: str | None,
                 op_prefix: str) -> int:
        """Start the next game of a match; returns its id."""
        number = self.conn.execute("SELECT COUNT(*) FROM games WHERE match_id = ?",
                                   (match_id,)).fetchone()[0] + 1
        cur = self.conn.execute(
            "INSERT INTO games (match_id, number, started, first_dealer, options, board,"
            " op_prefix) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (match_id, number, _now(), first_dealer, json.dumps(options), board, op_prefix))
        return _new_id(cur)

    def game(self, game_id: int) -> Row:
        """The game row as a dict (options and scores decoded)."""
        row = self.conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return _game_dict(row)

    def unfinished(self) -> Row | None:
        """The latest table game neither finished nor abandoned, as a dict, or None (practice
        games are never resumed, so never offered)."""
        row = self.conn.execute(
            "SELECT * FROM games WHERE finished IS NULL AND abandoned = 0 AND NOT " + _PRACTICE
            + " ORDER BY id DESC LIMIT 1").fetchone()
        return _game_dict(row) if row else None

    def abandon_practice(self) -> int:
        """Mark abandoned every practice game left unfinished (its companion was killed);
        returns how many."""
        cur = self.conn.execute("UPDATE games SET abandoned = 1 WHERE finished IS NULL"
                                " AND abandoned = 0 AND " + _PRACTICE)
        return cur.rowcount

    def abandon(self, game_id: int) -> None:
        """Mark a game abandoned (it stays in the record, out of the results)."""
        self.conn.execute("UPDATE games SET abandoned = 1 WHERE id = ?", (game_id,))

    def finish_game(self, game_id: int, winner: int, scores: Sequence[int], level: int,
                    game_points: int) -> None:
        """Record the end of a game: winner side, final scores, skunk level, game points."""
        # A game played to its end was not abandoned, even if another session took it for
        # dead (abandon_practice while it was still being played).
        self.conn.execute(
            "UPDATE games SET finished = ?, winner = ?, scores = ?, level = ?, game_points = ?,"
            " abandoned = 0 WHERE id = ?",
            (_now(), winner, json.dumps(list(scores)), level, game_points, game_id))

    def unfinish(self, game_id: int) -> None:
        """Take back the end of a game (its last entry was undone)."""
        self.conn.execute("UPDATE games SET finished = NULL, winner = NULL, scores = NULL,"
                          " level = NULL, game_points = NULL WHERE id = ?", (game_id,))

    def match_games(self, match_id: int) -> list[Row]:
        """The finished games of a match, in order, as dicts."""
        rows = self.conn.execute(
            "SELECT * FROM games WHERE match_id = ? AND finished IS NOT NULL ORDER BY number",
            (match_id,)).fetchall()
        return [_game_dict(r) for r in rows]

    # -- entries and board operations ------------------------------------------------------------

    def add_entry(self, game_id: int, hand: int, kind: str, *, player: int | None = None,
                  side: int | None = None, points: int = 0, reason: str | None = None,
                  source: str = "table", args: Sequence = (), info: dict | None = None,
                  ops: Iterable[Op] = (), answered_by: int | None = None) -> tuple[int, int]:
        """Write an entry and its board operations (verb, lane, n, op_id) as pending, at
        once; returns (entry id, seq). answered_by: the player who gave the answer for
        `player` (None: the player, or not known)."""
        with _tx(self.conn):
            seq = self.conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM entries"
                                    " WHERE game_id = ?", (game_id,)).fetchone()[0]
            cur = self.conn.execute(
                "INSERT INTO entries (game_id, seq, hand, kind, player, side, points, reason,"
                " source, args, info, created, answered_by) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (game_id, seq, hand, kind, player, side, points, reason, source,
                 json.dumps(list(args)), json.dumps(info or {}), _now(), answered_by))
            self._add_ops(game_id, cur.lastrowid, ops)
        return _new_id(cur), seq

    def undo_entry(self, game_id: int, entry_id: int, ops: Iterable[Op] = ()) -> None:
        """Mark an entry undone and write the board operations that take it back."""
        with _tx(self.conn):
            self.conn.execute("UPDATE entries SET undone = ? WHERE id = ?", (_now(), entry_id))
            self._add_ops(game_id, entry_id, ops)

    def add_ops(self, game_id: int, ops: Iterable[Op], entry_id: int | None = None) -> None:
        """Write board operations (verb, lane, n, op_id) as pending."""
        with _tx(self.conn):
            self._add_ops(game_id, entry_id, ops)

    def _add_ops(self, game_id: int, entry_id: int | None, ops: Iterable[Op]) -> None:
        for verb, lane, n, op_id in ops:
            self.conn.execute(
                "INSERT INTO ops (game_id, entry_id, op_id, verb, lane, n, status, created)"
                " VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)",
                (game_id, entry_id, op_id, verb, lane, n, _now()))

    def settle_op(self, op_id: str, status: str = "done", front: int | None = None,
                  rev: int | None = None) -> None:
        """Mark an operation done (the board applied it) or skipped (it never will be)."""
        with _tx(self.conn):
            self._settle(op_id, status, front, rev)

    def _settle(self, op_id: str, status: str, front: int | None, rev: int | None) -> None:
        self.conn.execute("UPDATE ops SET status = ?, front = ?, rev = ?, settled = ?"
                          " WHERE op_id = ?", (status, front, rev, _now(), op_id))

    def entry_applied(self, entry_id: int) -> bool:
        """Whether the board applied a peg of this entry."""
        return self.conn.execute("SELECT 1 FROM ops WHERE entry_id = ? AND verb = 'peg'"
                                 " AND status = 'done'", (entry_id,)).fetchone() is not None

    def pending_ops(self, game_id: int) -> list[Row]:
        """Operations written but not yet known to be applied, oldest first, as dicts."""
        rows = self.conn.execute("SELECT * FROM ops WHERE game_id = ? AND status = 'pending'"
                                 " ORDER BY id", (game_id,)).fetchall()
        return [dict(r) for r in rows]

    def op_count(self, game_id: int) -> int:
        """How many operations the game has written (to number new ones)."""
        return self.conn.execute("SELECT COUNT(*) FROM ops WHERE game_id = ?",
                                 (game_id,)).fetchone()[0]

    def entries(self, game_id: int, undone: bool = False) -> list[Entry]:
        """The entries that stand (or all, with undone=True), in order."""
        where = "" if undone else " AND undone IS NULL"
        rows = self.conn.execute("SELECT * FROM entries WHERE game_id = ?" + where +
                                 " ORDER BY seq", (game_id,)).fetchall()
        return [Entry(r) for r in rows]

    def save_hand(self, game_id: int, number: int, dealer: int, starter: int | None,
                  summary: dict | None) -> None:
        """Write (or replace) the summary of a hand; starter None and no summary deletes it."""
        with _tx(self.conn):
            self.conn.execute("DELETE FROM hands WHERE game_id = ? AND number = ?",
                              (game_id, number))
            if summary is not None:
                self.conn.execute(
                    "INSERT INTO hands (game_id, number, dealer, starter, summary)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, number, dealer, starter, json.dumps(summary)))

    def imported(self, key: str) -> int | None:
        """The history's id of the game imported under key (`crib history import`), or None."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?",
                                ("import " + key,)).fetchone()
        return int(row[0]) if row else None

    def mark_imported(self, key: str, game_id: int) -> None:
        """Note that the game imported under key is game_id here (in the caller's batch)."""
        with _tx(self.conn):
            self.conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)",
                              ("import " + key, str(game_id)))

    def put_meta(self, key: str, value: str) -> None:
        """Keep a value under key (replacing the one there)."""
        with _tx(self.conn):
            self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                              (key, value))

    def get_meta(self, key: str) -> str | None:
        """The value kept under key, or None."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def position(self, game_id: int) -> int:
        """How many entries the game has written and taken back: it moves on with every
        change of its record (the table's question ids come of it)."""
        return int(self.conn.execute("SELECT COUNT(*) + COUNT(undone) FROM entries"
                                     " WHERE game_id = ?", (game_id,)).fetchone()[0])

    def query(self, sql: str, params: Sequence = ()) -> list[Row]:
        """Rows of a read-only query, as dicts (for history and stats)."""
        return [dict(r) for r in self.conn.execute(sql, params).fetchall()]


def _new_id(cur: sqlite3.Cursor) -> int:
    """The id of the row an INSERT just made (never None after an INSERT)."""
    rowid = cur.lastrowid
    assert rowid is not None
    return rowid


def _damaged(path: Path, why: str) -> HistoryError:
    return HistoryError(
        f"the history {str(path)!r} is damaged ({why}); it was left as it is. Keep a copy"
        f" of it (it may be mended with sqlite3's .recover), and give --db a new file, or"
        f" move it away, to start a new history")


def check_file(path: Path) -> None:
    """Refuse (HistoryError) a history file that exists but is not a whole SQLite database:
    empty, another kind of file, or damaged pages. Read-only: nothing is written."""
    path = Path(path)
    if not path.exists():
        return
    if not path.is_file():
        raise HistoryError(f"the history {str(path)!r} is not a file")
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as e:
        raise HistoryError(f"cannot read the history {str(path)!r}: {e.strerror}") from None
    if not head:
        raise _damaged(path, "it is empty: 0 bytes")
    if head != SQLITE_HEADER:
        raise _damaged(path, "it is not an SQLite database")
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            found = [r[0] for r in conn.execute("PRAGMA quick_check(3)").fetchall()]
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise _damaged(path, str(e)) from None
    if found != ["ok"]:
        raise _damaged(path, "; ".join(found))


def _connect(path: Path) -> sqlite3.Connection:
    """The connection to a history file checked by check_file (created if new)."""
    try:
        conn = sqlite3.connect(str(path), isolation_level=None)
    except sqlite3.Error as e:
        raise HistoryError(f"cannot open the history {str(path)!r}: {e}") from None
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA journal_mode = WAL")  # one sync per commit, readers never wait
        conn.execute("PRAGMA synchronous = FULL")  # a committed entry survives power loss
        version = _version(conn)
        if version is None:
            conn.executescript(
                "BEGIN IMMEDIATE;" + _SCHEMA + club.SCHEMA + "INSERT OR REPLACE INTO meta VALUES"
                " ('schema_version', '%d'); COMMIT;" % SCHEMA_VERSION)
        elif version > SCHEMA_VERSION:
            raise HistoryError(f"{str(path)!r} has history schema {version}, newer than"
                               f" this crib ({SCHEMA_VERSION}): upgrade crib")
        elif version < SCHEMA_VERSION:
            _migrate(conn, version, path)
    except sqlite3.DatabaseError as e:
        conn.close()
        raise HistoryError(f"cannot use {str(path)!r} as a crib history: {e}") from None
    except BaseException:
        conn.close()
        raise
    return conn


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


def _migrate(conn: sqlite3.Connection, version: int, path: Path) -> None:
    """Bring a history of an older schema up to this one, in one transaction."""
    with _tx(conn):
        if version == 1:
            rows = conn.execute("SELECT id, kind, call FROM entries").fetchall()
            for r in rows:
                if r["kind"] not in V1_CALLS or V1_CALLS[r["kind"]] != r["call"]:
                    raise HistoryError(f"{str(path)!r}: entry {r['id']} ({r['kind']!r} by"
                                       f" {r['call']!r}) is not one this crib can replay")
            conn.execute("ALTER TABLE entries DROP COLUMN call")
        if version <= 2:
            conn.execute("ALTER TABLE entries ADD COLUMN answered_by INTEGER")
            conn.execute("UPDATE entries SET reason = REPLACE(reason, 'last card for', 'go for')"
                         " WHERE kind IN ('lay', 'go')")
        if version <= 3:
            for statement in club.statements():
                conn.execute(statement)
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                     (str(SCHEMA_VERSION),))


def _game_dict(row: sqlite3.Row) -> Row:
    out = dict(row)
    out["options"] = json.loads(out["options"])
    out["scores"] = json.loads(out["scores"]) if out["scores"] else None
    return out


class _tx:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on an exception (autocommit connection);
    inside an open transaction it only joins it."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.outer = False

    def __enter__(self) -> sqlite3.Connection:
        self.outer = not self.conn.in_transaction
        if self.outer:
            self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, kind: object, value: object, tb: object) -> Literal[False]:
        if self.outer:
            self.conn.execute("COMMIT" if kind is None else "ROLLBACK")
        return False
