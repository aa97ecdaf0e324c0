"""Play a game of cribbage at the table: the companion scores the play and the show, pegs
the board (a Pico, else the virtual board) and keeps the history.

It asks for the players, the target and the first dealer (or takes them from the options),
then each hand: the starter (his heels), the play card by card (or the points typed), the
show in counting order (cards or totals), until someone counts out. At any prompt: `undo`
takes back the last entry, `quit` stops (the game is saved), `?` explains the prompt.
Every step is in the history before it is pegged; `crib play --resume` goes on after a
crash exactly where it stopped. Answers can come from a script on stdin. See docs/table.md.
"""

import argparse

from crib.commands._options import add_history_and_colour
from crib.connect import add_table_board_arguments, open_table_board, ports_listed, table_port
from crib.env import isatty
from crib.history.db import History, default_path
from crib.table.answers import AnswerError
from crib.ui.prompt import InputEnded, QuitRequest, Terminal
from crib.ui.view import View

HELP = "play a game at the table: score the play and the show, peg the board, keep history"


def _target(text):
    """--target through the setup's parser (imported only when a target is given); a bad
    one is a usage error like any other bad option."""
    from crib.table.session import parse_target  # the table flow: only when played

    try:
        return parse_target(text)
    except AnswerError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_arguments(parser):
    """Setup, options, the board and the history file."""
    parser.add_argument("--resume", action="store_true",
                        help="go on with the unfinished game, reconciled with the board")
    parser.add_argument("--names", metavar="NAMES",
                        help="players in seating order, e.g. 'Alice,Bob' (2-4)")
    parser.add_argument("--target", type=_target, metavar="N",
                        help="61, 121 (the default when asked) or any 1-1000")
    parser.add_argument("--dealer", metavar="NAME",
                        help="the first dealer (a name or number), or `cut`")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--partnerships", dest="partnerships", action="store_true",
                       default=None, help="four players as two teams (the default)")
    group.add_argument("--solo", dest="partnerships", action="store_false",
                       help="four players each on their own lane")
    parser.add_argument("--muggins", action="store_true",
                        help="players state their counts; opponents may claim what they miss")
    parser.add_argument("--manual", action="store_true",
                        help="players state their counts; the companion checks them")
    parser.add_argument("--review", action="store_true",
                        help="ask the dealt cards and discards; review each discard after"
                             " the show")
    parser.add_argument("--no-confirm", dest="confirm", action="store_false",
                        help="peg a show without asking to confirm it")
    parser.add_argument("--totals", action="store_true",
                        help="totals only, no cards: each player's play points, then each"
                             " show's total (six answers a hand for two players)")
    add_table_board_arguments(parser)
    add_history_and_colour(parser)


def _setup(args):
    from crib.table.session import Setup, dealer_parser, parse_names

    setup = Setup(target=args.target, partnerships=args.partnerships, dealer=args.dealer)
    if args.names:
        setup.names = parse_names(args.names)
        if len(setup.names) < 4:
            setup.partnerships = False
        if args.dealer:
            dealer_parser(setup.names)(args.dealer)  # a bad name fails before anything
    return setup


def options(args):
    """The game options recorded with each game."""
    return {"muggins": bool(args.muggins), "manual": bool(args.manual or args.muggins),
            "review": bool(args.review), "confirm": bool(args.confirm),
            "totals": bool(args.totals)}


def run(args, env, board=None):
    """Run the session on env's streams; board: the one chosen by default."""
    inp, out = env.stdin, env.stdout
    if ports_listed(args, out):
        return 0
    from crib.table.engine import TableEngine

    port = table_port(args, env)
    setup = _setup(args)
    view = View(out, env.colour() if args.colour is None else args.colour)
    history = History.open(args.db or default_path(env.environ))
    engine = None
    try:
        if board is None:
            board = open_table_board(args.board, port, args.store, view.note)
        engine = TableEngine(history, board, options(args), setup, args.resume,
                             port or board.kind)
        Terminal(engine, inp, view, echo=not isatty(inp)).run()
        return 0
    except QuitRequest:
        if _in_game(engine):
            view.note("stopped: the game is saved; `crib play --resume` goes on")
        return 0
    except InputEnded:
        q = engine.question() if engine is not None else None
        if q is not None and q.kind == "another":
            return 0  # the script ended where the game did: no other game
        if _in_game(engine):
            view.note("the game is saved; `crib play --resume` goes on from here")
        raise
    finally:
        if board is not None:
            board.close()
        history.close()


def _in_game(engine):
    """Whether a game was being played (and so is saved for --resume)."""
    table = engine.session.table if engine is not None else None
    return table is not None and not table.game.over
