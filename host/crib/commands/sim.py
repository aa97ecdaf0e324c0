"""Run the virtual board: the real firmware app (firmware/desk.py) on a pseudo terminal, or
on a TCP socket with --socket, drawn live in the terminal; keys act as its buttons. Where
there are no pseudo terminals (Windows) it listens on a local TCP socket instead.

With --wifi it runs the board's own web server instead (a Pico 2 W's phone page, served
by the board: crib.web.wifisim), on this computer under MicroPython.

Other crib commands reach it with --port PATH (the pty printed at the start, or the
stable link STORE/tty), --port socket://HOST:PORT, or --board sim. Its state lives in
--store: quit and start again with the same store and the game is where it was.
"""

from __future__ import annotations

import os
import select
import signal
from argparse import ArgumentParser, Namespace
from types import FrameType
from typing import TYPE_CHECKING, NoReturn

from crib.commands._options import port_number
from crib.env import Env
from crib.errors import CribError

if TYPE_CHECKING:
    from crib.sim.screen import Asker
    from crib.sim.virtual import VirtualBoard
    from pegboard.config import Config

HELP = "the virtual board: firmware on a pty or socket, drawn live, keys as buttons"


def add_arguments(parser: ArgumentParser) -> None:
    """[--socket HOST:PORT] [--no-pty] [--store DIR] [--config FILE] [--headless]."""
    parser.add_argument("--socket", metavar="HOST:PORT", default=None,
                        help="also listen on TCP (use :0 for any free port)")
    parser.add_argument("--no-pty", action="store_true",
                        help="no pseudo terminal (with --socket: the socket only)")
    parser.add_argument("--store", metavar="DIR", default=None,
                        help="the state folder (default: $CRIB_SIM_STORE or "
                             "sim in crib's data folder)")
    parser.add_argument("--config", metavar="FILE", default=None,
                        help="the board layout (default: the shipped firmware/config.json)")
    parser.add_argument("--headless", action="store_true",
                        help="no drawing, no keys: print the port and run until stopped")
    parser.add_argument("--python", metavar="PATH", default=None,
                        help="the interpreter for the runner (default: this Python; "
                             "micropython works too)")
    parser.add_argument("--wifi", action="store_true",
                        help="instead, the board's own web server (a Pico 2 W's: the phone"
                             " page served by the board) on this computer, under"
                             " MicroPython; its game is kept in STORE/wifi")
    parser.add_argument("--web-port", type=port_number, default=None, metavar="N",
                        help="with --wifi: the TCP port (default 8122; 0: any free)")
    parser.add_argument("--no-qr", dest="qr", action="store_false",
                        help="with --wifi: do not draw the QR code in the terminal")


def run(args: Namespace, env: Env) -> int:
    """Start the board, print where to reach it, draw it (or wait) until q or Ctrl-C."""
    # Imported here: the CLI imports every command module to build its parser.
    from crib.layout.source import load_layout
    from crib.sim.store import default_store, parse_address, running_sim, store_layout
    from crib.sim.virtual import VirtualBoard

    if args.wifi:
        from crib.web import wifisim

        port = wifisim.DEFAULT_PORT if args.web_port is None else args.web_port
        return wifisim.run(args.store or default_store(env.environ), port, args.qr,
                           env.stdout)
    if args.web_port is not None:
        raise CribError("--web-port goes with --wifi (the board's own web server)")
    address = parse_address(args.socket) if args.socket else None
    store = args.store or default_store(env.environ)
    # A store crib widened for four lanes keeps its own layout (crib.sim.store.write_layout).
    config = load_layout(args.config or store_layout(store))
    url = running_sim(store)
    if url is not None and not args.socket and not args.headless:
        # Another command (crib play) runs the board on this store: show that one.
        env.print("virtual board on %s (started by another crib command)" % url, flush=True)
        if not env.interactive() or not _keys_one_by_one():
            env.print("run `crib sim` in a terminal to see it; crib board --port %s status"
                  % url, flush=True)
            return 0
        try:
            with RemoteBoard(url) as remote:
                _interactive(remote, config, "virtual board: %s\nstore: %s" % (url, store),
                             env)
            return 0
        except OwnerLeft:
            # The command that ran the board ended, and the board with it: run it here,
            # from the same store (the game is where that command left it).
            env.print("the board's owner left (the crib command that ran it ended); crib sim "
                      "runs the board itself now, from %s" % store, flush=True)
            _wait_for_release(store)
    # SIGTERM ends the sim like Ctrl-C, so the store's lock and links are tidied up.
    signal.signal(signal.SIGTERM, _interrupt)
    board = VirtualBoard(store, args.config, pty=not args.no_pty, address=address,
                         python=args.python)
    with board:
        where = []
        if board.port:
            where.append("pty %s (stable link %s)" % (board.port, board.link))
        if board.socket_url:
            where.append(board.socket_url)
        env.print("virtual board on " + " and ".join(where), flush=True)
        env.print("try: crib board --port %s status" % board.url, flush=True)
        interactive = not args.headless and env.interactive() and _keys_one_by_one()
        try:
            if interactive:
                _interactive(board, config, "virtual board: %s\nstore: %s"
                             % ("  ".join(filter(None, (board.port, board.socket_url))),
                                store), env)
            else:
                _wait(board)
        except KeyboardInterrupt:
            pass
    return 0


class OwnerLeft(CribError):
    """The process that runs the virtual board closed its socket (it ended); crib sim goes
    on with the board itself, so this reaches the user only if something else shows one."""


class RemoteBoard:
    """A virtual board another process runs, reached on its socket: `ask(line)` sends a
    line and returns its reply (events are passed over), as SimScreen needs; OwnerLeft when
    that process has gone."""

    def __init__(self, url: str, timeout: float = 2.0) -> None:
        from crib.board.link import open_url

        try:
            self.port = open_url(url)
        except OSError as e:  # it ended between finding its port and opening it
            raise OwnerLeft(str(e)) from e
        self.timeout = timeout
        self._buf = b""

    def __enter__(self) -> RemoteBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (the board goes on)."""
        self.port.close()

    def ask(self, line: str) -> str | None:
        """The reply to line, or None if none came in time."""
        try:
            return self._ask(line)
        except OSError as e:  # pyserial's SerialException too: the socket was closed
            raise OwnerLeft(str(e)) from e

    def _ask(self, line: str) -> str | None:
        import time

        self.port.write((line + "\n").encode())
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            self._buf += self.port.read(4096)
            while b"\n" in self._buf:
                got, self._buf = self._buf.split(b"\n", 1)
                text = got.decode(errors="replace").strip()
                if text and not text.startswith("evt"):
                    return text
        return None


def _wait_for_release(store: str, seconds: float = 10.0) -> None:
    """Until no process holds the store (the one that left lets go as it exits)."""
    import time

    from crib.sim.store import running_sim

    deadline = time.monotonic() + seconds
    while running_sim(store) is not None and time.monotonic() < deadline:
        time.sleep(0.1)


def _interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    raise KeyboardInterrupt


def _wait(board: VirtualBoard) -> NoReturn:
    """Headless: run until interrupted (Ctrl-C, SIGTERM)."""
    while True:
        select.select([], [], [], 1.0)


def _keys_one_by_one() -> bool:
    """True where a terminal can hand over keys one at a time (POSIX termios); elsewhere
    the board runs without its drawing, as with --headless."""
    try:
        import termios  # noqa: F401
        import tty  # noqa: F401
    except ImportError:
        return False
    return True


def _interactive(board: Asker, config: Config, header: str, env: Env) -> None:
    import termios
    import tty

    from crib.sim.screen import SimScreen

    fd = env.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)  # keys one at a time, no echo; Ctrl-C still interrupts

    def keys(timeout: float) -> str | None:
        r, _, _ = select.select([fd], [], [], timeout)
        if not r:
            return None
        return os.read(fd, 1).decode(errors="replace")

    try:
        SimScreen(board, config, env.stdout, colour=env.colour(), header=header).run(keys)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
