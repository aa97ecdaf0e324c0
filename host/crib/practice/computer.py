"""The computer at the practice table: a practice game's table engine, the computer's
answers to the questions of its seats, and whole games between computer seats.

`crib practice` builds its engine with `practice_engine` and lets `Computer.answer` give
the computer's answers (the player types theirs); the tests and bench/practice.py play
both seats with levels through the same engine, history and board:

    engine = practice_engine(history, board, ["You", "Computer (pro)"], "pro", 121, seed)
    game = play_game(engine, [make("standard"), make("pro", rngs(seed)[1])])
    game.winner, game.scores           # the entries are in the history, the pegs on board

`memory_engine` is the same game (the same turns, the core's engine and session under the
host's) kept in memory with no board, for games by the thousand (bench/practice.py, the
rules tests): the history's writes would cost four times the game itself.

An answer a level gives goes through the engine's validation like a typed one: a strategy
that answers wrongly gets the AnswerError a player would (and nothing changes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from crib.errors import CribError
from crib.history.db import PRACTICE
from crib.practice.game import PLAYERS
from cribcore.cards import card_name

if TYPE_CHECKING:
    from crib.board.api import GameBoard
    from crib.history.db import History
    from crib.practice.game import Seat
    from crib.table.engine import TableEngine
    from cribcore.table.engine import TableEngine as CoreEngine
    from cribcore.table.questions import Event, Question

# The questions a seat chooses the answer of; every other step of a practice game is the
# companion's own (crib.practice.turns).
SEAT_KINDS = ("discard", "play")


class PracticeError(CribError):
    """A question of a practice game that none of the seats given can answer."""


def practice_engine(history: History, board: GameBoard, names: list[str], level: str,
                    target: int, seed: int, human: int = 0,
                    board_name: str | None = None) -> TableEngine:
    """The table engine of one practice game (crib.practice.turns) kept in history and
    pegged on board: names of the two seats, the computer's level, target 61 or 121, the
    seed of the cards dealt, human: the seat the player sits in (reviewed, and what undo
    takes back)."""
    from crib.practice.turns import PracticeTurns
    from crib.table.engine import TableEngine
    from crib.table.session import Setup

    options = {PRACTICE: level, "seed": seed, "human": human}
    return TableEngine(history, board, options, Setup(names, False, target, "cut"),
                       board_name=board_name or board.kind, turns=PracticeTurns, games=1,
                       offer_resume=False)


def memory_engine(names: list[str], level: str, target: int, seed: int,
                  human: int | None = None) -> CoreEngine:
    """A practice game's engine with no history and no board (module docstring); human:
    the player's seat, None when the computer sits in both (nobody is reviewed)."""
    from crib.practice.turns import PracticeTurns
    from cribcore.table.engine import TableEngine as CoreEngine
    from cribcore.table.questions import Events
    from cribcore.table.record import NoBoard
    from cribcore.table.session import Session, Setup

    options = {PRACTICE: level, "seed": seed, "human": human}
    session = Session(NoBoard(), Events(), options, turns=PracticeTurns, games=1)
    return CoreEngine(session, Setup(names, False, target, "cut"))


class Computer:
    """Answers the questions of the seats a level plays, {player: seat}."""

    def __init__(self, engine: CoreEngine, seats: Mapping[int, Seat]) -> None:
        self.engine = engine
        self.seats = dict(seats)

    def answer(self, question: Question) -> str | None:
        """The answer of the seat asked (None: not a question of a seat of ours)."""
        seat = self.seats.get(question.asks) if question.asks is not None else None
        if seat is None or question.kind not in SEAT_KINDS:
            return None
        seen = self.engine.seen(question.asks)
        if question.kind == "discard":
            return " ".join(card_name(c) for c in seat.discard(seen))
        return card_name(seat.play(seen))

    def play(self, stop: Callable[[], bool] | None = None) -> list[Event]:
        """Answer question after question until the session is over (or stop() is true
        before a question): every seat of the game must be ours. The events on the way."""
        engine = self.engine
        events = engine.start()
        while stop is None or not stop():
            q = engine.question(known=False)
            if q is None:
                break
            text = self.answer(q)
            if text is None:
                raise PracticeError(f"no seat answers {q.kind!r} for player {q.asks!r}:"
                                    f" {q.prompt}")
            events += engine.answer(q.id, text)
        return events


def play_game(engine: CoreEngine, seats: list[Seat],
              stop: Callable[[], bool] | None = None) -> Any:
    """Play a practice engine's game with two computer seats (seats[p] sits in seat p) to
    its end (or until stop()); the game (cribcore.game.Game)."""
    if len(seats) != PLAYERS:
        raise PracticeError(f"a practice game has {PLAYERS} seats, got {len(seats)}")
    Computer(engine, dict(enumerate(seats))).play(stop)
    return engine.session.table.game
