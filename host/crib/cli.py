"""`crib <verb>`: one module per verb in crib.commands, one place that reports errors."""

import argparse
import importlib
import pkgutil
import sys

from crib import commands
from crib.errors import HANDLED


def _verbs():
    """(verb, module) for every command module, sorted by verb."""
    out = []
    for info in pkgutil.iter_modules(commands.__path__):
        if not info.name.startswith("_"):
            mod = importlib.import_module("crib.commands." + info.name)
            out.append((info.name.replace("_", "-"), mod))
    return sorted(out, key=lambda vm: vm[0])


def build_parser():
    """The argparse parser with a subcommand per verb."""
    parser = argparse.ArgumentParser(
        prog="crib", description="Companion for the LED cribbage board.")
    sub = parser.add_subparsers(dest="verb", metavar="VERB")
    for verb, mod in _verbs():
        p = sub.add_parser(verb, help=mod.HELP, description=mod.__doc__)
        mod.add_arguments(p)
        p.set_defaults(handler=mod.run)
    return parser


def main(argv=None):
    """Run crib with argv (default sys.argv[1:]); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return args.handler(args) or 0
    except HANDLED as e:
        print("crib: error: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("crib: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed: not an error worth a traceback.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
