"""Getting a board for a command: `--port auto|list|PATH|URL` or `--board sim`.

Commands that talk to the board call add_board_arguments(parser) and open_board(args);
`--port list` is answered by list_ports_text() before any board is opened.
"""

import argparse
import os

from crib.board.link import RETRIES, TIMEOUT, Link
from crib.board.ports import format_port, list_ports
from crib.errors import CribError


class BoardChoiceError(CribError):
    """--port and --board given together, or a store/config without --board sim."""


def add_board_arguments(parser, nested=False):
    """--port, --board, --store, --config, --timeout. nested: on a sub-command's parser
    too, so the options may follow the sub-command (its defaults leave the parent's)."""
    g = parser.add_argument_group("board")
    default = argparse.SUPPRESS if nested else None
    g.add_argument("--port", default=default, metavar="auto|list|PATH|URL",
                   help="the board's serial port: auto (default: a Pico found by its USB "
                        "id), list (show the ports), a device such as /dev/ttyACM0, or a "
                        "pyserial URL such as socket://HOST:PORT")
    g.add_argument("--board", choices=("pico", "sim"), default=default,
                   help="sim: the virtual board (the one running on --store, else one "
                        "started for this command)")
    g.add_argument("--store", metavar="DIR", default=default,
                   help="the virtual board's state folder (default: $CRIB_SIM_STORE or "
                        "~/.local/share/crib/sim)")
    g.add_argument("--config", metavar="FILE", default=default,
                   help="the board layout (default: the shipped firmware/config.json)")
    g.add_argument("--timeout", type=float, default=argparse.SUPPRESS if nested else TIMEOUT,
                   metavar="S",
                   help="seconds to wait for a reply before sending again (default %s)" % TIMEOUT)


def wants_port_list(args):
    """True for `--port list`."""
    return args.port == "list"


def list_ports_text(comports=None):
    """The `--port list` listing, one port a line (Picos first)."""
    ports = list_ports(comports)
    if not ports:
        return "no serial ports found"
    return "\n".join(format_port(p) for p in ports)


def port_spec(args):
    """What Link.open gets: "sim", "auto", a path or a URL."""
    if args.board == "sim":
        if args.port not in (None, "auto"):
            raise BoardChoiceError("give --port or --board sim, not both (got --port %r)"
                                   % (args.port,))
        return "sim"
    if args.store is not None:
        raise BoardChoiceError("--store is for the virtual board: add --board sim")
    return args.port or os.environ.get("CRIB_PORT") or "auto"


def open_board(args, on_event=None):
    """A connected Link for a command's arguments (the caller closes it)."""
    spec = port_spec(args)
    kw = {"timeout": args.timeout, "retries": RETRIES, "on_event": on_event}
    if spec == "sim":
        kw["store"] = args.store
        kw["config"] = args.config
    return Link.open(spec, **kw)
