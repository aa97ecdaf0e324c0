"""The one way to open a board: `--port auto|list|PATH|URL`, `--board sim|none`.

open_link(spec) is the factory of every kind of board behind a Link: "auto" (a Pico found
by USB id and handshake), "sim" (the virtual board on a store: the running one, or one
started for the link), a device path or a pyserial URL. It sits above all the kinds, so a
Link knows only how to talk over a port it is given, and no low-level module imports the
virtual board.

Commands that talk to the board call add_board_arguments(parser) and open_board(args);
`--port list` is answered by list_ports_text() before any board is opened. The table
commands (play, practice, shuffle) get the table's board with open_table_board.
"""

import argparse
import os
from typing import Callable, Optional

from crib.board.api import GameBoard
from crib.board.link import RETRIES, TIMEOUT, Link, LinkError, VersionMismatch, open_url
from crib.board.ports import NoBoardFound, format_port, list_ports, pico_ports
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
    # The table's words (add_table_board_arguments) less "none": these commands need a board.
    g.add_argument("--board", choices=("auto", "sim"), default=default,
                   help="auto (default): the board at --port; sim: the virtual board (the "
                        "one running on --store, else one started for this command)")
    g.add_argument("--store", metavar="DIR", default=default,
                   help="the virtual board's state folder (default: $CRIB_SIM_STORE or "
                        "sim in crib's data folder)")
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


def port_spec(args, environ=None):
    """What open_link gets: "sim", "auto", a path or a URL ($CRIB_PORT from environ, default
    os.environ, when no --port is given)."""
    environ = os.environ if environ is None else environ
    if args.board == "sim":
        if args.port not in (None, "auto"):
            raise BoardChoiceError("give --port or --board sim, not both (got --port %r)"
                                   % (args.port,))
        return "sim"
    if args.store is not None:
        raise BoardChoiceError("--store is for the virtual board: add --board sim")
    return args.port or environ.get("CRIB_PORT") or "auto"


def open_board(args: argparse.Namespace, on_event=None, environ=None) -> Link:
    """A connected Link for a command's arguments (the caller closes it)."""
    spec = port_spec(args, environ)
    kw = {"timeout": args.timeout, "retries": RETRIES, "on_event": on_event}
    if spec == "sim":
        kw["store"] = args.store
        kw["config"] = args.config
    return open_link(spec, **kw)


def add_table_board_arguments(parser, default="auto"):
    """--board auto|sim|none, --port and --store: the board a game pegs (open_table_board
    takes them); `crib play`, `crib practice` and `crib shuffle` share them."""
    parser.add_argument("--board", choices=("auto", "sim", "none"), default=default,
                        help="auto: a Pico if one is found, else the virtual board;"
                             " none: no board (default %(default)s)")
    parser.add_argument("--port", metavar="PORT",
                        help="the board's serial port or pyserial URL (socket://HOST:PORT);"
                             " list: show the ports (default with --board auto: $CRIB_PORT,"
                             " else a Pico found by its USB id)")
    parser.add_argument("--store", metavar="DIR",
                        help="the virtual board's state folder (default: crib sim's)")


def ports_listed(args, out):
    """For `--port list`: print the serial ports to out and return True."""
    if args.port != "list":
        return False
    out.write(list_ports_text() + "\n")
    return True


def table_port(args, env):
    """The port to open: --port, else $CRIB_PORT with --board auto, else None."""
    return args.port or (env.getenv("CRIB_PORT") if args.board == "auto" else None)


def open_link(spec: str, store: Optional[str] = None, config: Optional[str] = None,
              link_class=Link, comports=None, **kw) -> Link:
    """A connected link to spec: "auto", "sim" (store, config: the virtual board's), a device
    path or a pyserial URL; kw go to the Link (timeout, retries, on_event, ...)."""
    if spec == "auto":
        return _open_auto(link_class, comports, **kw)
    if spec == "sim":
        return _open_sim(link_class, store, config, **kw)
    return link_class.open(spec, **kw)


def _open_auto(link_class, comports=None, **kw):
    """A connected link to the first Pico (by USB vendor id) that completes the handshake;
    NoBoardFound (or VersionMismatch, for a board with other firmware) if none does."""
    tried = []
    mismatch = None
    for p in list_ports(comports):
        if not p["pico"]:
            continue
        device = p["device"]
        link = link_class(lambda d=device: open_url(d), name=device, **kw)
        try:
            link.connect()
        except VersionMismatch as e:
            mismatch = e
            tried.append("%s: %s" % (device, e))
            continue
        except LinkError as e:
            tried.append("%s: %s" % (device, e))
            continue
        if p["serial"]:
            # After an unplug the same Pico may come back under another device name.
            link.opener = lambda s=p["serial"], d=device: _reopen_pico(s, d, comports)
        return link
    if mismatch is not None:
        raise mismatch
    if not tried:
        raise NoBoardFound("no Pico found (USB id 2E8A); plug the board in, give --port "
                           "PATH|URL, or try the virtual board with --board sim")
    raise NoBoardFound("no Pico answered as a board: " + "; ".join(tried))


def _reopen_pico(serial_no, device, comports=None):
    found = pico_ports(comports, serial=serial_no)
    return open_url(found[0] if found else device)


def _open_sim(link_class, store=None, config=None, **kw):
    """A Link to the virtual board on `store`: the running one, or one started for the link
    (headless, on a pty; it stops when the link is closed)."""
    from crib.sim.store import SimError, default_store, running_sim
    from crib.sim.virtual import VirtualBoard

    store = store or default_store()
    if config is not None and not os.path.exists(config):
        raise SimError("no such config file: %r" % (config,))
    try:
        url = running_sim(store)
        vb = None if url is not None else VirtualBoard(store, config).start()
    except SimError:
        url, vb = running_sim(store), None  # another command started one just now
        if url is None:
            raise
    if vb is None:
        # A virtual board the user runs may be restarted, on a new port: each reopen looks
        # the store up again (its port file), and falls back on the address it had.
        link = link_class(lambda: open_url(running_sim(store) or url), name="sim on " + store,
                          **kw)
        return link.connect()
    link = link_class(lambda: open_url(vb.url), name="sim " + vb.url, **kw)
    link.owned.append(vb)
    link.sim = vb
    try:
        link.connect()
    except BaseException:
        vb.close()
        raise
    return link


def open_table_board(choice: str, port: Optional[str] = None, store: Optional[str] = None,
                     note: Optional[Callable[[str], None]] = None) -> GameBoard:
    """The board for `crib play`, `practice` and `shuffle`: port (a device or URL), choice
    "none" (no board: in memory), "sim" (the virtual board on store), or "auto" (a Pico
    found by USB id, else the virtual board, else none where that cannot run (Windows);
    note() says which)."""
    from crib.board.memory import MemoryBoard

    if choice == "none" and port is None:
        return MemoryBoard(4)
    from crib.table.linkboard import LinkBoard  # the serial link, only when a board is wanted

    if port is not None:
        return LinkBoard(open_link(port))
    if choice == "auto":
        try:
            return LinkBoard(open_link("auto"))
        except NoBoardFound:
            from crib.sim import virtual

            if not virtual.RUNS_HERE:
                if note:
                    note("no Pico found, and the virtual board does not run here: playing "
                         "without a board")
                return MemoryBoard(4)
            if note:
                note("no Pico found: playing on the virtual board (crib sim shows it)")
    return LinkBoard(open_link("sim", store=store))
