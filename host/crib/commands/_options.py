"""Option groups several verbs share (the board's options are crib.connect's): the history
and colour, and a game at the table's (`crib play`, `crib serve`)."""

from __future__ import annotations

import argparse
from argparse import ArgumentParser, Namespace
from typing import TYPE_CHECKING

from crib.connect import add_table_board_arguments
from crib.history.files import default_path
from cribcore.table.answers import AnswerError

if TYPE_CHECKING:
    from crib.table.session import Setup


def add_history_and_colour(parser: ArgumentParser) -> None:
    """--db and --colour/--no-colour, shared by the commands that keep games in the history."""
    parser.add_argument("--db", metavar="PATH",
                        help=f"the history file (default {default_path()})")
    parser.add_argument("--colour", "--color", dest="colour", action="store_true",
                        default=None, help="colour even when not on a terminal")
    parser.add_argument("--no-colour", "--no-color", dest="colour", action="store_false",
                        help="no colour")


def port_number(text: str) -> int:
    """A TCP port, 0-65535 (0: any free one); a usage error otherwise."""
    if not (text.isascii() and text.isdigit()) or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a TCP port is a number 0-65535, not {text!r}")
    return int(text)


def _target(text: str) -> int:
    """--target through the setup's parser (imported only when a target is given); a bad
    one is a usage error like any other bad option."""
    from crib.table.session import parse_target  # the table flow: only when played

    try:
        return parse_target(text)
    except AnswerError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_table_arguments(parser: ArgumentParser) -> None:
    """A game at the table: setup, options, the board and the history file."""
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
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--ranks", dest="ranks", action="store_true", default=None,
                       help="the show by ranks: a hand laid in the play is known, a crib is"
                            " 4 ranks, and a flush or nobs is one answer at the"
                            " confirmation (crib serve's way)")
    group.add_argument("--suits", dest="ranks", action="store_false",
                       help="the show card by card with suits (crib play's way)")
    add_table_board_arguments(parser)
    add_history_and_colour(parser)


def table_setup(args: Namespace) -> Setup:
    """What the options say of the match (crib.table.session.Setup); a bad dealer name
    fails before anything starts."""
    from crib.table.session import Setup, dealer_parser, parse_names

    setup = Setup(target=args.target, partnerships=args.partnerships, dealer=args.dealer)
    if args.names:
        setup.names = parse_names(args.names)
        if len(setup.names) < 4:
            setup.partnerships = False
        if args.dealer:
            dealer_parser(setup.names)(args.dealer)
    return setup


def table_options(args: Namespace, ranks: bool = False) -> dict[str, bool]:
    """The game options recorded with each game (ranks: the show by ranks unless --ranks
    or --suits says)."""
    return {"muggins": bool(args.muggins), "manual": bool(args.manual or args.muggins),
            "review": bool(args.review), "confirm": bool(args.confirm),
            "totals": bool(args.totals), "ranks": ranks if args.ranks is None else args.ranks}
