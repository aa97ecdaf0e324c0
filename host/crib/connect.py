"""The one way to open a board: `--port auto|list|PATH|URL`, `--board sim|none`.

open_link(spec) is the factory of every kind of board behind a Link: "auto" (a Pico found
by USB id and handshake, found again by its serial number), "sim" (the virtual board on a
store, crib.sim.opener: the running one, or one started for the link), a device path or a
pyserial URL. Each kind is an opener the link's transport calls to (re)open its port, so
a Link knows only how to talk over a port it is given, and no low-level module imports
the virtual board.

Commands that talk to the board call add_board_arguments(parser) and open_board(args);
`--port list` is answered by list_ports_text() before any board is opened. The table
commands (play, practice, shuffle) get the table's board with open_table_board.
"""

import argparse
import math
import os
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any, Optional, TextIO

from crib.board.api import GameBoard
from crib.board.link import (
    RETRIES,
    TIMEOUT,
    Event,
    Link,
    LinkError,
    VersionMismatch,
    open_url,
)
from crib.board.ports import NoBoardFound, format_port, list_ports, pico_ports
from crib.errors import CribError

SIM_PATIENCE_S = 20.0  # how long a line to the virtual board is sent again before giving up


class BoardChoiceError(CribError):
    """--port and --board given together, or a store/config without --board sim."""


def add_board_arguments(parser: argparse.ArgumentParser, nested: bool = False) -> None:
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


def wants_port_list(args: argparse.Namespace) -> bool:
    """True for `--port list`."""
    return args.port == "list"


def list_ports_text(comports: Callable[[], Iterable[Any]] | None = None) -> str:
    """The `--port list` listing, one port a line (Picos first)."""
    ports = list_ports(comports)
    if not ports:
        return "no serial ports found"
    return "\n".join(format_port(p) for p in ports)


def port_spec(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> str:
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


def open_board(args: argparse.Namespace, on_event: Callable[[Event], None] | None = None,
               environ: Mapping[str, str] | None = None) -> Link:
    """A connected Link for a command's arguments (the caller closes it)."""
    spec = port_spec(args, environ)
    kw = {"timeout": args.timeout, "retries": RETRIES, "on_event": on_event}
    if spec == "sim":
        kw["store"] = args.store
        kw["config"] = args.config
    return open_link(spec, **kw)


def add_table_board_arguments(parser: argparse.ArgumentParser, default: str = "auto") -> None:
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


def ports_listed(args: argparse.Namespace, out: TextIO) -> bool:
    """For `--port list`: print the serial ports to out and return True."""
    if args.port != "list":
        return False
    out.write(list_ports_text() + "\n")
    return True


def table_port(args: argparse.Namespace, env: Any) -> str | None:
    """The port to open: --port, else $CRIB_PORT with --board auto, else None."""
    return args.port or (env.getenv("CRIB_PORT") if args.board == "auto" else None)


def open_link(spec: str, store: Optional[str] = None, config: Optional[str] = None,
              link_class: type[Link] = Link,
              comports: Callable[[], Iterable[Any]] | None = None, **kw: Any) -> Link:
    """A connected link to spec: "auto", "sim" (store, config: the virtual board's), a device
    path or a pyserial URL; kw go to the Link (timeout, retries, on_event, ...)."""
    if spec == "auto":
        return _open_auto(link_class, comports, **kw)
    if spec == "sim":
        return _open_sim(link_class, _sim_opener(store, config), **kw)
    return link_class.open(spec, **kw)


def _open_auto(link_class: type[Link], comports: Callable[[], Iterable[Any]] | None = None,
               **kw: Any) -> Link:
    """A connected link to the first Pico (by USB vendor id) that completes the handshake;
    NoBoardFound (or VersionMismatch, for a board with other firmware) if none does."""
    tried = []
    mismatch = None
    for p in list_ports(comports):
        if not p["pico"]:
            continue
        device = p["device"]
        # After an unplug the same Pico may come back under another device name: it is
        # opened by its USB serial number when it has one.
        link = link_class(partial(_reopen_pico, p["serial"], device, comports)
                          if p["serial"] else partial(open_url, device), name=device, **kw)
        try:
            link.connect()
        except VersionMismatch as e:
            mismatch = e
            tried.append("%s: %s" % (device, e))
            continue
        except LinkError as e:
            tried.append("%s: %s" % (device, e))
            continue
        return link
    if mismatch is not None:
        raise mismatch
    if not tried:
        raise NoBoardFound("no Pico found (USB id 2E8A); plug the board in, give --port "
                           "PATH|URL, or try the virtual board with --board sim")
    raise NoBoardFound("no Pico answered as a board: " + "; ".join(tried))


def _reopen_pico(serial_no: str, device: str,
                 comports: Callable[[], Iterable[Any]] | None = None) -> Any:
    found = pico_ports(comports, serial=serial_no)
    return open_url(found[0] if found else device)


def _sim_opener(store: str | None = None, config: str | None = None) -> Any:
    """The virtual board on store, started if none runs there (crib.sim.opener)."""
    from crib.sim.opener import SimOpener

    return SimOpener(store, config).start()


def _open_sim(link_class: type[Link], opener: Any, **kw: Any) -> Link:
    """A connected Link through a SimOpener (closed if the link cannot connect). Patient:
    the virtual board shares this machine's CPU, and a loaded desktop can keep it from
    answering for seconds, which a Pico never does (its line is sent again each `timeout`,
    for SIM_PATIENCE_S in all)."""
    every = kw.get("timeout") or TIMEOUT
    kw.setdefault("retries", max(RETRIES, math.ceil(SIM_PATIENCE_S / every)))
    link = link_class(opener, name=opener.name, **kw)
    try:
        return link.connect()
    except BaseException:
        opener.close()
        raise


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
    opener = _sim_opener(store)
    return LinkBoard(_open_sim(Link, opener), widener=opener)
