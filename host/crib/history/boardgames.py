"""`crib history import`: the finished games a board keeps on its own flash (a board that
serves the table: firmware/pegboard/gamelog.py) copied into the history over the link.

Each game is read a line at a time with the protocol's `games` verb, each line checked by
its CRC and its place in the game (cribcore.table.gamelines.Replay), and replayed on the
core's Game: a game that is damaged, or does not reach its end, is reported and not
imported. A game is imported once: its key is the board record's name (8 hex digits made
once on the board's flash, written in each game's header) and the game's number there
(never reused on that record), kept in the history's meta table with the game's id here;
a second import skips it.
"""

from __future__ import annotations

from typing import Any, Protocol

from crib.errors import CribError
from crib.history.db import History
from cribcore.match import win_level
from cribcore.rules import GAME_POINTS
from cribcore.table.entries import summary
from cribcore.table.gamelines import HEADER, Replay, parse
from cribcore.table.record import NoBoard
from cribcore.table.table import Table


class NoRecordError(CribError):
    """The board keeps no game record (a plain Pico, or the plain virtual board)."""


class _Board(Protocol):
    def request(self, verb: str, **args: Any) -> Any: ...


class _Listed:
    """A Record over entries already read (Table replays them)."""

    def __init__(self, entries: list) -> None:
        self._entries = entries

    def entries(self) -> list:
        return self._entries


class Report:
    """What an import did: games imported (board number, history id), skipped (imported
    before: board number, history id), damaged (board number, why)."""

    def __init__(self, record: str) -> None:
        self.record = record
        self.imported: list[tuple[int, int]] = []
        self.skipped: list[tuple[int, int]] = []
        self.damaged: list[tuple[int, str]] = []

    def as_dict(self) -> dict:
        return {"record": self.record,
                "imported": [{"board_game": n, "id": i} for n, i in self.imported],
                "skipped": [{"board_game": n, "id": i} for n, i in self.skipped],
                "damaged": [{"board_game": n, "why": w} for n, w in self.damaged]}


def board_games(board: _Board) -> list[int]:
    """The numbers of the board's finished games; NoRecordError if it keeps no record."""
    try:
        msg = board.request("games")
    except CribError as e:  # the link's BoardRefused (crib.history never imports crib.board)
        if getattr(e, "code", None) in ("unknown_verb", "desk_only"):
            raise NoRecordError(
                "this board keeps no game record: only a board that serves the table itself"
                " (a Pico 2 W with the table's firmware) keeps its games; a plain Pico's"
                " games are in the history already when `crib play` ran them") from None
        raise
    return list(msg.args.get("games", ()))


def read_game(board: _Board, number: int) -> Replay:
    """A board game's lines, one a reply, replayed and checked (Replay.damage says what)."""
    r = Replay(number)
    at = 0
    while True:
        args = board.request("games", g=number, at=at).args
        if "line" not in args:
            break
        r.add(args["line"] + "\n")
        at += len(args["line"]) + 1
    return r.end()


def import_games(board: _Board, history: History) -> Report:
    """Copy the board's finished games not imported before into the history."""
    report = Report("")
    for n in board_games(board):
        named = _record_name(board, n)
        done = history.imported("%s:%d" % (named, n)) if named else None
        if named and done is not None:
            report.record = report.record or named
            report.skipped.append((n, done))
            continue
        r = read_game(board, n)
        why = _damage(r)
        if why is not None:
            report.damaged.append((n, why))
            continue
        record = str((r.header or {}).get("rec"))
        report.record = report.record or record
        report.imported.append((n, _save(history, record, r)))
    return report


def _record_name(board: _Board, number: int) -> str | None:
    """The record's name in a board game's header (its first line), None if unreadable."""
    line = board.request("games", g=number, at=0).args.get("line")
    got = parse(line) if line is not None else None
    if got is None or got[2] != HEADER or type(got[3]) is not dict:
        return None
    rec = got[3].get("rec")
    return rec if type(rec) is str else None


def _table(r: Replay) -> Table:
    h = r.header or {}
    return Table(_Listed(r.entries), NoBoard(), None, h["names"], h["target"],
                 h["partnerships"], h["dealer"], h["options"], r.game)


def _damage(r: Replay) -> str | None:
    """Why a game read from the board cannot be imported, or None."""
    if r.damage is not None:
        return "damaged on the board's flash (%s)" % r.damage
    if r.result is None:
        return "not closed on the board"
    try:
        over = _table(r).game.over
    except Exception as e:  # noqa: BLE001 - any failure to replay is damage
        return "its entries do not replay (%s)" % e
    return None if over else "its entries do not reach the end of the game"


def _save(history: History, record: str, r: Replay) -> int:
    """Write one checked game (a match of its own, or the next game of the board's match
    when its header says it did not begin one); its id here."""
    h = r.header or {}
    t = _table(r)
    g = t.game
    level = win_level(g)
    with history.batch():
        before = history.imported("%s:%d" % (record, r.game - 1)) if not h["match"] else None
        if before is not None:
            match_id = history.game(before)["match_id"]
        else:
            match_id = history.new_match(h["names"], h["partnerships"], h["target"],
                                         GAME_POINTS)
        game_id = history.new_game(match_id, h["dealer"], h["options"], "board " + record,
                                   "b%s-%d" % (record, r.game))
        for e in r.entries:
            history.add_entry(game_id, e.hand, e.kind, player=e.player, side=e.side,
                              points=e.points, reason=e.reason, source=e.source, args=e.args,
                              info=e.info, answered_by=e.answered_by)
        for number in sorted({e.hand for e in r.entries}):
            es = [e for e in r.entries if e.hand == number]
            starter = [e for e in es if e.kind == "starter"]
            if starter:
                s = starter[-1]
                history.save_hand(game_id, number, s.info["dealer"], s.info["card"],
                                  summary(es, t.players))
        history.finish_game(game_id, g.winner, g.scores, level, GAME_POINTS[level])
        history.mark_imported("%s:%d" % (record, r.game), game_id)
    return game_id
