"""Practice a game against the computer (easy, standard or pro), with the board pegging
both sides and the game kept in the history like `crib play`.

The cards are dealt at random (the same cards again with --seed). You lay away two cards,
then see the advisor's review of your discard; the starter is cut (a jack pegs his heels);
in the play you name a card (5h) or a rank (5) when it is your turn, a go is said for you
when nothing fits; the show is counted in order, itemised, until someone counts out.
Answers can come from a script on stdin; `quit` stops (the game is marked abandoned).
`crib docs practice` shows the guide.
"""

from __future__ import annotations

import random
from argparse import ArgumentParser, Namespace
from typing import TYPE_CHECKING

from crib.commands._options import add_history_and_colour
from crib.connect import add_table_board_arguments, open_table_board, ports_listed, table_port
from crib.env import Env, isatty
from crib.errors import CribError
from crib.history.db import History
from crib.history.files import default_path
from crib.practice.game import rngs
from crib.practice.levels import LEVELS, make
from crib.ui.prompt import InputEnded, QuitRequest, Terminal
from crib.ui.view import View

if TYPE_CHECKING:
    from crib.board.api import GameBoard

HELP = "practice a game against the computer (easy, standard, pro), pegged on the board"
MAX_NAME = 20
HUMAN, COMPUTER = 0, 1


def add_arguments(parser: ArgumentParser) -> None:
    """Level, target, seed, the board and the history file."""
    parser.add_argument("--level", choices=LEVELS, default="standard",
                        help="the computer's level (default standard)")
    parser.add_argument("--target", type=int, choices=(61, 121), default=121,
                        help="play to 61 or 121 (default 121)")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="deal the same cards again (every game shows its seed)")
    parser.add_argument("--name", default="You", metavar="NAME",
                        help="your name in the history (default You)")
    add_table_board_arguments(parser)
    add_history_and_colour(parser)


def check_name(name: str, computer: str) -> str:
    """The player's name: 1-20 characters, not the computer's."""
    name = name.strip()
    if not name or len(name) > MAX_NAME or name.lower() == computer.lower():
        raise CribError(f"a name is 1-{MAX_NAME} characters, not the computer's: {name!r}")
    return name


def run(args: Namespace, env: Env, board: GameBoard | None = None) -> int:
    """Play one practice game on env's streams; board: the one chosen by default."""
    from crib.practice.computer import Computer, practice_engine

    inp, out = env.stdin, env.stdout
    if ports_listed(args, out):
        return 0
    computer = f"Computer ({args.level})"
    names = [check_name(args.name, computer), computer]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10 ** 6)
    view = View(out, env.colour() if args.colour is None else args.colour)
    history = History.open(args.db or default_path(env.environ))
    engine = None
    try:
        if history.abandon_practice():  # a game whose companion was killed: never resumed
            view.note("a practice game left unfinished is kept in the history, marked"
                      " abandoned")
        port = table_port(args, env)
        if board is None:
            board = open_table_board(args.board, port, args.store, view.note)
        view.heading(f"Practice: {names[0]} v {computer} to {args.target} (seed {seed})")
        engine = practice_engine(history, board, names, args.level, args.target, seed, HUMAN,
                                 port or board.kind)
        level = make(args.level, rngs(seed)[1])
        terminal = Terminal(engine, inp, view, echo=not isatty(inp),
                            auto=Computer(engine, {COMPUTER: level}).answer)
        try:
            terminal.run()
        except (QuitRequest, InputEnded) as e:
            table = engine.session.table
            if table is not None:
                history.abandon(table.game_id)
            view.note(f"stopped: the game is kept in the history, marked abandoned;"
                      f" `crib practice --seed {seed}` deals the same cards")
            if isinstance(e, InputEnded):
                raise
            return 0
        view.note(f"`crib practice --seed {seed}` deals the same cards again")
        return 0
    finally:
        if board is not None:
            board.close()
        history.close()
