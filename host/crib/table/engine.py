"""The host's table engine: the core's (cribcore.table.engine: question, answer, undo,
redo, board_event, view) over the history and the board, plus `poll`: the board's news,
and a retry of an offline board.

    engine = TableEngine(history, board, options, setup)   # or resume=True
    events = engine.start()          # what happened before the first question
    q = engine.question()            # a Question: id, kind, who is asked, legal answers...
    events = engine.answer(q.id, "5h")   # validated; AnswerError (nothing changed) if not
    events = engine.poll()           # the board's news, and a retry of an offline board

Every answer is written to the history before it is pegged (crib.table.record).
"""

import time
from collections.abc import Callable
from typing import Any

from crib.board.api import GameBoard
from crib.errors import CribError
from crib.history.db import History
from crib.table.session import Session, Setup
from cribcore import CoreError
from cribcore.table.engine import TURN_KINDS, StaleQuestion
from cribcore.table.engine import TableEngine as CoreEngine
from cribcore.table.entries import StateChanged
from cribcore.table.questions import Events
from cribcore.table.turns import Turns

__all__ = ["CATCH_UP_S", "RETRY_S", "TURN_KINDS", "StaleQuestion", "TableEngine"]

RETRY_S = 2.0  # how often an offline board is tried again
CATCH_UP_S = 30.0  # how long a companion leaving waits for an offline board to come back
CALL_S = 5.0  # the most one board call may take then


class TableEngine(CoreEngine):
    """A session at the table kept in the history (module docstring)."""

    BOARD_ERRORS = (CribError, OSError)
    ANSWER_ERRORS = (CribError, CoreError, ValueError)

    def __init__(self, history: History, board: GameBoard, options: dict[str, Any] | None = None,
                 setup: Setup | None = None, resume: bool = False,
                 board_name: str | None = None,
                 clock: Callable[[], float] = time.monotonic, turns: type | None = None,
                 games: int = 0, offer_resume: bool = True) -> None:
        """options: recorded with each game (muggins, manual, review, confirm, totals);
        setup: what is known of the match (cribcore.table.session.Setup); resume: go on
        with the unfinished game; turns: the questions of a hand (default the table's:
        cribcore.table.turns.Turns); games: 1 for a single game (no "Another game?");
        offer_resume: False for a game of another kind (practice), which asks before it
        takes over a board that holds an unfinished table game."""
        self.history = history
        session = Session(history, board, Events(), dict(options or {}),
                          board_name or board.kind, turns=turns or Turns, games=games,
                          offer_resume=offer_resume)
        # The questions' ids come of the history's game and position (the core engine),
        # so they are the same after a --resume: "h" names this history's ids.
        super().__init__(session, setup, resume, "h")
        self._clock = clock
        self._retried: float | None = None

    def catch_up(self, say: Callable[[str], None], wait: float = CATCH_UP_S,
                 step: float = 0.1) -> bool:
        """Before the companion leaves: an offline board (a hiccup at the game's last pegs,
        a loaded machine's virtual board) tried again for up to `wait` seconds, so the pegs
        that waited reach it and it shows the game as it stands; say() tells the player.
        True when nothing waits."""
        table = self.session.table
        if table is None or not table.offline:
            return True
        say("the board is offline: waiting up to %.0f s for it to take the pegs that waited"
            % wait)
        # Nobody waits for the board now: each of its calls may take the link's own time
        # (a LinkBoard's guard holds up the game at most 150 ms a call while it is played).
        guard = getattr(table.board, "guard", None)
        budget: float = guard.budget if guard is not None else CALL_S
        if guard is not None:
            guard.budget = max(budget, CALL_S)
        try:
            end = self._clock() + wait
            while not table.retry_board():
                if self._clock() >= end:
                    say("the board did not come back: it shows the game as it last heard it"
                        " (the history has every peg)")
                    return False
                time.sleep(step)
        finally:
            if guard is not None:
                guard.budget = budget
        say("the board is back: it shows the game as it stands")
        return True

    def _news(self) -> None:
        """Before a poll reads the board's presses: an offline board tried again (every
        RETRY_S), and the open question asked again if what the board holds changed it."""
        table = self.session.table
        if table is not None and table.offline:
            now = self._clock()
            if self._retried is None or now - self._retried >= RETRY_S:
                self._retried = now
                if table.retry_board() and self.session.playing and self._ask is not None:
                    self._run(lambda: self._flow.throw(StateChanged()), news=True)
