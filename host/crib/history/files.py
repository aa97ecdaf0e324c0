"""The history's file: where it is kept, the check that refuses a damaged or foreign file
before SQLite touches it, the connection's settings, and the transaction every write uses.

What the tables hold is crib.history.schema; what is written to them, crib.history.db.
"""

import sqlite3
from pathlib import Path
from typing import Literal, Mapping

from crib.env import data_dir
from crib.errors import CribError

DB_NAME = "history.sqlite3"
SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database


class HistoryError(CribError):
    """The history file cannot be used (newer schema, not a crib history, no game to resume)."""


def default_path(environ: Mapping[str, str] | None = None) -> Path:
    """history.sqlite3 in crib's data folder (crib.env.data_dir)."""
    return data_dir(environ) / DB_NAME


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


def connect(path: Path) -> sqlite3.Connection:
    """A connection to a file check_file let through (created if new), rows as sqlite3.Row,
    in autocommit mode (writes group themselves with Transaction)."""
    try:
        conn = sqlite3.connect(str(path), isolation_level=None)
    except sqlite3.Error as e:
        raise HistoryError(f"cannot open the history {str(path)!r}: {e}") from None
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA journal_mode = WAL")  # one sync per commit, readers never wait
        conn.execute("PRAGMA synchronous = FULL")  # a committed entry survives power loss
    except sqlite3.DatabaseError as e:
        conn.close()
        raise HistoryError(f"cannot use {str(path)!r} as a crib history: {e}") from None
    return conn


class Transaction:
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
