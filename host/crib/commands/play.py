"""Play a game of cribbage at the table: the companion scores the play and the show, pegs
the board (a Pico, else the virtual board) and keeps the history.

It asks for the players, the target and the first dealer (or takes them from the options),
then each hand: the starter (his heels), the play card by card (or the points typed), the
show in counting order (cards or totals), until someone counts out. At any prompt: `undo`
takes back the last entry, `quit` stops (the game is saved), `?` explains the prompt.
Every step is in the history before it is pegged; `crib play --resume` goes on after a
crash exactly where it stopped. Answers can come from a script on stdin. `crib docs table`
shows the guide.
"""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
from typing import TYPE_CHECKING

from crib.commands._options import add_table_arguments, table_options, table_setup
from crib.connect import open_table_board, ports_listed, table_port
from crib.env import Env, isatty
from crib.history.db import History
from crib.history.files import default_path
from crib.ui.prompt import InputEnded, QuitRequest, Terminal
from crib.ui.view import View

if TYPE_CHECKING:
    from crib.board.api import GameBoard
    from crib.table.engine import TableEngine

HELP = "play a game at the table: score the play and the show, peg the board, keep history"


def add_arguments(parser: ArgumentParser) -> None:
    """Setup, options, the board and the history file (shared with `crib serve`)."""
    add_table_arguments(parser)


def run(args: Namespace, env: Env, board: GameBoard | None = None) -> int:
    """Run the session on env's streams; board: the one chosen by default."""
    inp, out = env.stdin, env.stdout
    if ports_listed(args, out):
        return 0
    from crib.table.engine import TableEngine

    port = table_port(args, env)
    setup = table_setup(args)
    view = View(out, env.colour() if args.colour is None else args.colour)
    history = History.open(args.db or default_path(env.environ))
    engine = None
    try:
        if board is None:
            board = open_table_board(args.board, port, args.store, view.note)
        engine = TableEngine(history, board, table_options(args), setup, args.resume,
                             port or board.kind)
        Terminal(engine, inp, view, echo=not isatty(inp)).run()
        engine.catch_up(view.note)
        return 0
    except QuitRequest:
        if _in_game(engine):
            view.note("stopped: the game is saved; `crib play --resume` goes on")
        if engine is not None:
            engine.catch_up(view.note)
        return 0
    except KeyboardInterrupt:
        if _in_game(engine):  # every answer is in the history before it is acted on
            view.note("interrupted: the game is saved; `crib play --resume` goes on from here")
        raise
    except InputEnded:
        q = engine.question() if engine is not None else None
        if engine is not None and q is not None and q.kind == "another":
            engine.catch_up(view.note)
            return 0  # the script ended where the game did: no other game
        if _in_game(engine):
            view.note("the game is saved; `crib play --resume` goes on from here")
        raise
    finally:
        if board is not None:
            board.close()
        history.close()


def _in_game(engine: TableEngine | None) -> bool:
    """Whether a game was being played (and so is saved for --resume)."""
    table = engine.session.table if engine is not None else None
    return table is not None and not table.game.over
