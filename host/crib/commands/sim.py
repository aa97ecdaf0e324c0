"""Run the virtual board: the real firmware app (firmware/desk.py) on a pseudo terminal, or
on a TCP socket with --socket, drawn live in the terminal; keys act as its buttons.

Other crib commands reach it with --port PATH (the pty printed at the start, or the
stable link STORE/tty), --port socket://HOST:PORT, or --board sim. Its state lives in
--store: quit and start again with the same store and the game is where it was.
"""

import os
import select
import signal
import sys
import termios
import tty

HELP = "the virtual board: firmware on a pty or socket, drawn live, keys as buttons"


def add_arguments(parser):
    """[--socket HOST:PORT] [--no-pty] [--store DIR] [--config FILE] [--headless]."""
    parser.add_argument("--socket", metavar="HOST:PORT", default=None,
                        help="also listen on TCP (use :0 for any free port)")
    parser.add_argument("--no-pty", action="store_true",
                        help="no pseudo terminal (with --socket: the socket only)")
    parser.add_argument("--store", metavar="DIR", default=None,
                        help="the state folder (default: $CRIB_SIM_STORE or "
                             "~/.local/share/crib/sim)")
    parser.add_argument("--config", metavar="FILE", default=None,
                        help="the board layout (default: the shipped firmware/config.json)")
    parser.add_argument("--headless", action="store_true",
                        help="no drawing, no keys: print the port and run until stopped")
    parser.add_argument("--python", metavar="PATH", default=None,
                        help="the interpreter for the runner (default: this Python; "
                             "micropython works too)")


def run(args):
    """Start the board, print where to reach it, draw it (or wait) until q or Ctrl-C."""
    # Imported here: the CLI imports every command module to build its parser.
    from crib.picture import load_layout
    from crib.sim import VirtualBoard, default_store, parse_address, store_layout

    address = parse_address(args.socket) if args.socket else None
    store = args.store or default_store()
    # A store crib widened for four lanes keeps its own layout (crib.sim.write_layout).
    config = load_layout(args.config or store_layout(store))
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
        print("virtual board on " + " and ".join(where), flush=True)
        print("try: crib board --port %s status" % board.url, flush=True)
        interactive = not args.headless and sys.stdin.isatty() and sys.stdout.isatty()
        try:
            if interactive:
                _interactive(board, config, "virtual board: %s   store: %s"
                             % ("  ".join(filter(None, (board.port, board.socket_url))),
                                store))
            else:
                _wait(board)
        except KeyboardInterrupt:
            pass
    return 0


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _wait(board):
    """Headless: run until interrupted (Ctrl-C, SIGTERM)."""
    while True:
        select.select([], [], [], 1.0)


def _interactive(board, config, header):
    from crib.screen import SimScreen

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)  # keys one at a time, no echo; Ctrl-C still interrupts

    def keys(timeout):
        r, _, _ = select.select([fd], [], [], timeout)
        if not r:
            return None
        return os.read(fd, 1).decode(errors="replace")

    try:
        SimScreen(board, config, sys.stdout, colour=True, header=header).run(keys)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
