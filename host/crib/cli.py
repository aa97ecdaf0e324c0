"""`crib <verb>`: an explicit table of verbs, one module each in crib.commands, and the one
place that reports errors."""

import argparse
import importlib
import sys
from argparse import ArgumentParser
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from crib.env import Env
from crib.errors import HANDLED

DIST = "ledcrib"  # the distribution (pyproject.toml) that installs the `crib` command

# verb -> its module: add_arguments(parser), run(args, env) (env: crib.env.Env), HELP (one
# line) and a docstring.
# Command modules import what is heavy inside run(), so building the parser stays quick.
VERBS = {
    "board": "crib.commands.board",
    "club": "crib.commands.club",
    "completion": "crib.commands.completion",
    "deploy": "crib.commands.deploy",
    "discard": "crib.commands.discard",
    "docs": "crib.commands.docs",
    "hardware": "crib.commands.hardware",
    "history": "crib.commands.history",
    "peg": "crib.commands.peg",
    "play": "crib.commands.play",
    "practice": "crib.commands.practice",
    "score": "crib.commands.score",
    "serve": "crib.commands.serve",
    "shuffle": "crib.commands.shuffle",
    "sim": "crib.commands.sim",
    "stats": "crib.commands.stats",
}


def _verbs() -> list[tuple[str, ModuleType]]:
    """(verb, module) for every verb of the table, in its order."""
    return [(verb, importlib.import_module(path)) for verb, path in VERBS.items()]


def version() -> str:
    """crib's version, the protocol it speaks and the firmware folder it uses."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    from crib.layout.source import firmware_dir
    from cribcore.protocol import PROTO

    try:
        number = dist_version(DIST)
    except PackageNotFoundError:  # run from a source tree that was never installed
        number = "(not installed)"
    return "crib %s (ledcrib; protocol %d; firmware %s)" % (number, PROTO, firmware_dir())


class _Version(argparse.Action):
    """--version: worked out only when asked, so building the parser stays quick."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 **kw: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kw)

    def __call__(self, parser: ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print(version(), file=sys.stdout)  # on stdout, as argparse's own --version and --help
        parser.exit()


def build_parser() -> ArgumentParser:
    """The argparse parser with a subcommand per verb."""
    parser = argparse.ArgumentParser(
        prog="crib", description="Companion for the LED cribbage board.")
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    # `crib completion` writes a script for the whole parser: it is given it here.
    parser.set_defaults(root_parser=parser)
    sub = parser.add_subparsers(dest="verb", metavar="VERB")
    for verb, mod in _verbs():
        p = sub.add_parser(verb, help=mod.HELP, description=mod.__doc__)
        mod.add_arguments(p)
        p.set_defaults(handler=mod.run)
    return parser


def _os_error(e: OSError) -> str:
    """An OSError as a sentence: what failed, and on which file."""
    text = e.strerror or str(e)
    return "%s: %r" % (text, e.filename) if e.filename else text


def main(argv: Sequence[str] | None = None, env: Env | None = None) -> int:
    """Run crib with argv (default sys.argv[1:]) in env (default: this process's streams
    and environment); return the exit code."""
    env = Env() if env is None else env
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(env.stdout)
        return 2
    try:
        return args.handler(args, env) or 0
    except HANDLED as e:
        env.error("crib: error: %s" % e)
        return 1
    except KeyboardInterrupt:
        env.error("crib: interrupted")
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed: not an error worth a traceback.
        env.stderr.close()
        return 0
    except OSError as e:  # a file or socket error no command foresaw: still a sentence
        env.error("crib: error: %s" % _os_error(e))
        return 1


if __name__ == "__main__":
    sys.exit(main())
