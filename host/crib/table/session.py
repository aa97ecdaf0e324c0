"""The host's session at the table: the core's flow of a match (cribcore.table.session:
setup, games, the result, another game) kept in the history, with the resume of an
unfinished game (its pending board operations settled, the board reconciled) and the
question a game of another kind asks before it takes over a board that holds one.
"""

import json
from collections.abc import Generator, Sequence
from typing import Any, cast

from crib.board.api import GameBoard
from crib.board.ids import new_prefix
from crib.history.db import History, Row
from crib.history.files import HistoryError
from crib.table.record import Table
from crib.words import when
from cribcore.rules import GAME_POINTS
from cribcore.table.answers import AnswerError
from cribcore.table.questions import Ask
from cribcore.table.session import (
    CUT,
    Setup,
    ask_setup,
    dealer_ask,
    dealer_parser,
    parse_names,
    parse_target,
    result,
)
from cribcore.table.session import Session as CoreSession
from cribcore.table.turns import Turns, confirm_ask

__all__ = ["CUT", "LATER", "Session", "Setup", "dealer_ask", "dealer_parser", "describe_game",
           "parse_names", "parse_resume", "parse_target", "result", "resume_ask"]


def describe_game(history: History, game: Row) -> str:
    """An unfinished game in a line: sides, target, scores, when it started."""
    match = history.match(game["match_id"])
    t = Table(history, cast(GameBoard, _NoBoard()), None, game["id"])
    scores = " ".join(f"{n} {s}" for n, s in zip(t.side_names, t.game.scores))
    return (f"{' v '.join(t.side_names)} to {match['target']}, {scores}, started"
            f" {when(game['started'])}")


LATER = "later"


def parse_resume(text: str) -> bool | None:
    """The answer to an unfinished game: True go on, False a new game, None later."""
    low = text.strip().lower()
    if low in ("", "y", "yes"):
        return True
    if low in ("n", "no", "new"):
        return False
    if low in (LATER, "l"):
        return None
    raise AnswerError(f"answer y (go on with it), n (a new game) or later, not {text!r}")


def resume_ask(text: str, names: Sequence[str] | None) -> Ask:
    """The one question of an unfinished game met by a new session: go on with it, start a
    new game (names: its players, when given) or neither (stop, keep it for later)."""
    new = "New game" + (f": {' v '.join(names)}" if names else "")
    return Ask("resume", f"Unfinished: {text}. Go on with it (Y/n/{LATER})", parse_resume,
               "y", hint="y: go on with it; n: a new game (that one stays in the history,"
               " abandoned); later: stop and keep it", undo=False,
               legal={"choices": ["y", "n", LATER],
                      "labels": {"y": "Go on with it", "n": new, LATER: "Keep it for later"}})


KEPT = "table kept answers"  # the meta key of Session.keep
KEPT_LOG = "table log"  # and of Session.keep_log


class _NoBoard:
    kind = "none"


class Session(CoreSession):
    """One session at the table, kept in the history, game after game."""

    def __init__(self, history: History, board: GameBoard, view: Any, options: dict[str, Any],
                 board_name: str | None, turns: type = Turns, games: int = 0,
                 offer_resume: bool = True) -> None:
        super().__init__(board, view, options, turns, games)
        self.offer_resume = offer_resume  # False: a game of another kind (practice)
        self.h = history
        self.board_name = board_name

    def start(self, setup: Setup, resume: bool) -> Generator[Ask, Any, Table | None]:
        """The Table to play: the unfinished game, or a new match from setup (generator)."""
        h = self.h
        old = h.unfinished()
        if not self.offer_resume:
            if old is not None and getattr(self.board, "kind", "none") != "none":
                keep = yield confirm_ask(
                    f"The board holds {describe_game(h, old)}. Play on it anyway (`crib play"
                    " --resume` sets that game up again)", False, undo=False, kind="resume")
                if not keep:
                    self.view.note("the board keeps its game")
                    return None
            old = None
        if resume and old is None:
            raise HistoryError("no unfinished game to resume")
        if old is not None and not resume:
            resume = yield resume_ask(describe_game(h, old), setup.names)
            if resume is None:
                self.view.note("kept: `crib play --resume` goes on with it")
                return None
            if not resume:
                h.abandon(old["id"])
                self.view.note("that game is kept in the history, marked abandoned")
        if resume and old is not None:  # (resume with none raised above)
            table = Table(h, self.board, self.view, old["id"])
            self.view.heading(f"Resuming: {describe_game(h, old)}")
            table.settle_pending()
            table.reconcile()
            table.mark_dealer()
            table.show_board()
            table.show_hand()
            return table
        setup = yield from ask_setup(self.view, setup, self.capacity())
        self.check_sides(setup)
        match = h.new_match(setup.names, setup.partnerships, setup.target, GAME_POINTS)
        return self._new_game(match, setup.dealer, True)

    def keep(self, pending: dict[str, Any]) -> None:
        """Keep the answers that wrote no line yet in the history (a --resume gives them
        again: cribcore.table.engine)."""
        self.h.put_meta(KEPT, json.dumps(pending))

    def kept(self) -> dict[str, Any] | None:
        """What keep() kept, or None."""
        text = self.h.get_meta(KEPT)
        return None if text is None else json.loads(text)

    def keep_log(self, added: list[dict[str, Any]], log: list[dict[str, Any]]) -> None:
        """Keep the log every screen shows with the game in play (a --resume shows it)."""
        game = self.table.game_id if self.table is not None else None
        self.h.put_meta(KEPT_LOG, json.dumps({"game": game, "log": log}))

    def kept_log(self) -> list[dict[str, Any]] | None:
        """The log kept with the game being resumed (None: another game's, or none)."""
        text = self.h.get_meta(KEPT_LOG)
        kept = None if text is None else json.loads(text)
        if not kept or self.table is None or kept.get("game") != self.table.game_id:
            return None
        return cast(list[dict[str, Any]], kept["log"])

    def _new_game(self, match_id: int, dealer: Any, first: bool) -> Any:
        """A new game of the match in the history (dealer: a player, or CUT: cut for it);
        the flow of its first deal."""
        dealer = None if dealer == CUT else dealer
        game_id = self.h.new_game(match_id, dealer, self.options, self.board_name,
                                  new_prefix())
        table = Table(self.h, self.board, self.view, game_id)
        return self.open_game(table, self.h.game(game_id)["number"], first)

    def new_game(self, last: Table, dealer: int | str | None, first: bool) -> Any:
        """The next game of the match, in the history."""
        return self._new_game(last.row["match_id"], dealer, first)

    def keep_result(self, table: Table, level: int, points: int) -> list[int]:
        """Record the result in the history; the match tally after it."""
        g = table.game
        self.h.finish_game(table.game_id, g.winner, g.scores, level, points)
        tally = [0] * len(g.sides)
        for row in self.h.match_games(table.row["match_id"]):
            tally[row["winner"]] += row["game_points"]
        return tally

    def unfinish(self, table: Table) -> None:
        """The game is not over after all (an undo took back its last peg)."""
        self.h.unfinish(table.game_id)
