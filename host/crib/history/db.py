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
from typing import Any, Iterable, Sequence

from crib.history.files import HistoryError, Transaction, check_file, connect
from crib.history.lock import WriterLock
from crib.history.schema import prepare

# A practice game (crib practice) records its level under this key of its options.
PRACTICE = "practice"
_PRACTICE = f"json_extract(options, '$.{PRACTICE}') IS NOT NULL"


Row = dict[str, Any]  # a row as a dict, its JSON columns decoded
Op = tuple[str, int, int, str]  # a board operation: verb, lane, n, op_id


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


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
            conn = connect(path)
            try:
                prepare(conn, path)
            except BaseException:
                conn.close()
                raise
        except BaseException:
            if held is not None:
                held.release()
            raise
        h = cls(conn, path)
        h._lock = held
        return h

    def batch(self) -> Transaction:
        """A transaction grouping several writes (one commit, one sync to disk)."""
        return Transaction(self.conn)

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
        with Transaction(self.conn):
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
        with Transaction(self.conn):
            self.conn.execute("UPDATE entries SET undone = ? WHERE id = ?", (_now(), entry_id))
            self._add_ops(game_id, entry_id, ops)

    def add_ops(self, game_id: int, ops: Iterable[Op], entry_id: int | None = None) -> None:
        """Write board operations (verb, lane, n, op_id) as pending."""
        with Transaction(self.conn):
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
        with Transaction(self.conn):
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
        with Transaction(self.conn):
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
        with Transaction(self.conn):
            self.conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)",
                              ("import " + key, str(game_id)))

    def put_meta(self, key: str, value: str) -> None:
        """Keep a value under key (replacing the one there)."""
        with Transaction(self.conn):
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


def _game_dict(row: sqlite3.Row) -> Row:
    out = dict(row)
    out["options"] = json.loads(out["options"])
    out["scores"] = json.loads(out["scores"]) if out["scores"] else None
    return out
