"""The club's SQL (crib club): its nights, the rounds paired, every result entered (the
ones replaced by a correction or withdrawn are kept, marked so) and the special hands, in
the history file beside the games. crib.history.db creates these tables with the rest
(schema 4); every write here is one transaction, so a crash loses nothing acknowledged.

A result's status: `proposed` (a phone entered it, its opponent has not confirmed),
`final`, `disputed` (the opponent said no: the director decides), `replaced` (a director's
correction stands instead: its row names this one) or `withdrawn` (a proposal taken back).
At most one live result (proposed, final or disputed) a table.
"""

import json
from datetime import datetime, timezone
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS club_nights (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    season TEXT NOT NULL,
    started TEXT NOT NULL,
    players TEXT NOT NULL,              -- JSON list: the seating the pairings turn
    games INTEGER NOT NULL,
    fees TEXT NOT NULL                  -- JSON {entry, skunk, hands} in cents
);
CREATE TABLE IF NOT EXISTS club_rounds (
    night_id INTEGER NOT NULL REFERENCES club_nights(id),
    number INTEGER NOT NULL,
    paired TEXT NOT NULL,               -- when its pairings were published
    PRIMARY KEY (night_id, number)
);
CREATE TABLE IF NOT EXISTS club_results (
    id INTEGER PRIMARY KEY,
    night_id INTEGER NOT NULL REFERENCES club_nights(id),
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    winner TEXT NOT NULL,
    loser TEXT NOT NULL,
    loser_score INTEGER NOT NULL,
    status TEXT NOT NULL,               -- proposed final disputed replaced withdrawn
    source TEXT NOT NULL,               -- phone, table (reported by itself), cli, director
    entered_by TEXT,                    -- the player whose phone entered it
    replaces INTEGER REFERENCES club_results(id),  -- the result a correction replaced
    note TEXT,
    created TEXT NOT NULL,
    settled TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS club_results_live ON club_results (night_id, round, table_no)
    WHERE status IN ('proposed', 'final', 'disputed');
CREATE TABLE IF NOT EXISTS club_hands (
    id INTEGER PRIMARY KEY,
    night_id INTEGER NOT NULL REFERENCES club_nights(id),
    round INTEGER NOT NULL,
    player TEXT NOT NULL,
    points INTEGER NOT NULL,
    source TEXT NOT NULL,
    created TEXT NOT NULL
);
"""
LIVE = ("proposed", "final", "disputed")


def statements() -> list[str]:
    """SCHEMA as single statements (a migration runs them inside its transaction)."""
    return [s.strip() for s in SCHEMA.split(";") if s.strip()]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class ClubStore:
    """The club's rows of a history (crib.history.db.History: its conn and batch())."""

    def __init__(self, history: Any) -> None:
        self.history = history
        self.conn = history.conn

    def _rows(self, sql: str, params: tuple = ()) -> list[dict[str, Any]]:
        return [dict(r) for r in self.conn.execute(sql, params).fetchall()]

    # -- nights -------------------------------------------------------------------------------

    def new_night(self, name: str, season: str, players: list[str], games: int,
                  fees: dict[str, int]) -> int:
        with self.history.batch():
            cur = self.conn.execute(
                "INSERT INTO club_nights (name, season, started, players, games, fees)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (name, season, _now(), json.dumps(players), games, json.dumps(fees)))
            night = int(cur.lastrowid or 0)
            self.conn.execute("INSERT INTO club_rounds (night_id, number, paired)"
                              " VALUES (?, 1, ?)", (night, _now()))
        return night

    def night(self, name: str | None) -> dict[str, Any] | None:
        """The night of that name, or the latest one (None if there is none)."""
        if name is None:
            rows = self._rows("SELECT * FROM club_nights ORDER BY id DESC LIMIT 1")
        else:
            rows = self._rows("SELECT * FROM club_nights WHERE name = ?", (name,))
        return _night(rows[0]) if rows else None

    def nights(self, season: str | None = None) -> list[dict[str, Any]]:
        """Every night (of a season), oldest first."""
        if season is None:
            return [_night(r) for r in self._rows("SELECT * FROM club_nights ORDER BY id")]
        return [_night(r) for r in self._rows(
            "SELECT * FROM club_nights WHERE season = ? ORDER BY id", (season,))]

    # -- rounds and results -------------------------------------------------------------------

    def paired(self, night: int) -> int:
        """The last round whose pairings are published."""
        row = self.conn.execute("SELECT MAX(number) FROM club_rounds WHERE night_id = ?",
                                (night,)).fetchone()
        return int(row[0] or 0)

    def pair(self, night: int, number: int) -> None:
        with self.history.batch():
            self.conn.execute("INSERT INTO club_rounds (night_id, number, paired)"
                              " VALUES (?, ?, ?)", (night, number, _now()))

    def results(self, night: int, every: bool = False) -> list[dict[str, Any]]:
        """The live results (every=True: all, replaced and withdrawn ones too), in order."""
        where = "" if every else " AND status IN ('proposed', 'final', 'disputed')"
        return self._rows("SELECT * FROM club_results WHERE night_id = ?" + where
                          + " ORDER BY round, table_no, id", (night,))

    def add_result(self, night: int, round_no: int, table: int, winner: str, loser: str,
                   loser_score: int, status: str, source: str, entered_by: str | None = None,
                   replaces: int | None = None, note: str | None = None) -> int:
        """A result; with replaces, the one it corrects is marked replaced at once."""
        with self.history.batch():
            if replaces is not None:
                self.conn.execute("UPDATE club_results SET status = 'replaced', settled = ?"
                                  " WHERE id = ?", (_now(), replaces))
            cur = self.conn.execute(
                "INSERT INTO club_results (night_id, round, table_no, winner, loser,"
                " loser_score, status, source, entered_by, replaces, note, created, settled)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (night, round_no, table, winner, loser, loser_score, status, source,
                 entered_by, replaces, note, _now(), _now() if status == "final" else None))
        return int(cur.lastrowid or 0)

    def settle(self, result: int, status: str, note: str | None = None) -> None:
        """A proposal confirmed (final), disputed or withdrawn."""
        with self.history.batch():
            self.conn.execute("UPDATE club_results SET status = ?, settled = ?,"
                              " note = COALESCE(?, note) WHERE id = ?",
                              (status, _now(), note, result))

    # -- special hands ------------------------------------------------------------------------

    def add_hand(self, night: int, round_no: int, player: str, points: int,
                 source: str) -> int:
        with self.history.batch():
            cur = self.conn.execute(
                "INSERT INTO club_hands (night_id, round, player, points, source, created)"
                " VALUES (?, ?, ?, ?, ?, ?)", (night, round_no, player, points, source, _now()))
        return int(cur.lastrowid or 0)

    def hands(self, night: int) -> list[dict[str, Any]]:
        return self._rows("SELECT round, player, points, source FROM club_hands"
                          " WHERE night_id = ? ORDER BY id", (night,))


def _night(row: dict[str, Any]) -> dict[str, Any]:
    row["players"] = json.loads(row["players"])
    row["fees"] = json.loads(row["fees"])
    return row
