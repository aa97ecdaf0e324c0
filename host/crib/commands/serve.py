"""The phone companion: a game at the table played on the players' phones. Each player
opens the address printed (or scans its QR code), picks their seat, and taps their cards;
every screen shows the score, the board and what is asked. The board (a Pico, else the
virtual board), the history, the options and --resume are exactly those of `crib play`.

It listens on 127.0.0.1 unless --lan is given; the address always carries a secret key
made for the session, and a request without it is refused. Ctrl-C stops (the game is
saved; `crib serve --resume` or `crib play --resume` goes on). `crib docs web` shows the guide.
"""

from crib.commands._options import (
    add_table_arguments,
    port_number,
    table_options,
    table_setup,
)
from crib.connect import open_table_board, ports_listed, table_port
from crib.history.db import History
from crib.history.files import default_path

HELP = "the phone companion: a game at the table on the players' phones, in a browser"
DEFAULT_PORT = 8121


def add_arguments(parser):
    """`crib play`'s options, and where to listen."""
    add_table_arguments(parser)
    parser.add_argument("--lan", action="store_true",
                        help="serve the local network (phones on the same Wi-Fi), not only"
                             " this computer")
    parser.add_argument("--web-port", type=port_number, default=DEFAULT_PORT, metavar="N",
                        help="the TCP port to listen on (default %(default)s; 0: any free)")
    parser.add_argument("--no-qr", dest="qr", action="store_false",
                        help="do not draw the QR code in the terminal")
    parser.add_argument("--new-key", action="store_true",
                        help="with --resume: a new joining address and key (phones scan the"
                             " new code); without it the interrupted game's are used again")
    parser.add_argument("--club", metavar="URL",
                        help="report the game to a club night when it ends: the address"
                             " `crib club serve` prints for the tables")
    parser.add_argument("--terminal", action="store_true",
                        help="also ask the questions here, as crib play does: the terminal"
                             " and the phones drive the same game")


def run(args, env):
    """Serve the game until Ctrl-C (with --terminal: until the terminal's session ends)."""
    inp, out = env.stdin, env.stdout
    if ports_listed(args, out):
        return 0
    from crib.table.engine import TableEngine
    from crib.ui.view import View
    from crib.web import keep
    from crib.web.app import create_app
    from crib.web.hub import Hub
    from crib.web.picture import board_svg
    from crib.web.seats import new_key
    from crib.web.server import Background, lan_address, server

    port = table_port(args, env)
    setup = table_setup(args)
    view = View(out, env.colour() if args.colour is None else args.colour)
    db = args.db or default_path(env.environ)

    def make():
        history = History.open(db)
        try:
            board = open_table_board(args.board, port, args.store, view.note)
        except BaseException:
            history.close()
            raise
        return TableEngine(history, board, table_options(args, ranks=True), setup, args.resume,
                           port or board.kind)
    reporter = None
    if args.club:
        from crib.web.clubreport import ClubReporter

        reporter = ClubReporter(args.club, view.note)
    hub = Hub(make, board_svg(args.store), reporter)
    sock = None
    try:
        hub.prepare()
        game = hub.call(lambda: getattr(hub.engine.session.table, "game_id", None))
        kept = keep.load(db) if args.resume and game is not None and not args.new_key \
            else None
        sock = _listen(args, kept)
        web_port = sock.getsockname()[1]
        key = kept["key"] if kept else new_key()
        host = lan_address() if args.lan else "127.0.0.1"
        url = f"http://{host}:{web_port}/?k={key}"
        keep.save(db, game, key, web_port)  # the run's key, whichever game it plays
        names = {host, "127.0.0.1", "localhost"}  # what a phone or this computer types
        app = create_app(hub, key, url, hosts={f"{n}:{web_port}" for n in names})
        if args.qr:
            import segno

            segno.make(url, error="m").terminal(out=out, compact=True)
        out.write(f"crib serve: open {url}\n")
        if kept:
            out.write("  the same address as before: the phones reconnect by themselves\n")
        if not args.lan:
            out.write("  (this computer only: --lan serves phones on the same Wi-Fi)\n")
        out.write("  Ctrl-C stops; the game is saved\n")
        out.flush()
        if args.terminal:
            with Background(app, sock):
                _terminal(hub, inp, view)
        else:
            srv = server(app)
            stop = srv.handle_exit

            def handle_exit(sig, frame):  # Ctrl-C: the phones' streams end first
                hub.end_streams()
                stop(sig, frame)
            srv.handle_exit = handle_exit  # type: ignore[method-assign]
            try:
                srv.run(sockets=[sock])
            except KeyboardInterrupt:
                pass  # uvicorn stops cleanly on Ctrl-C, then raises it again: done
        hub.stop()
        if hub.unfinished and hub.game_id is not None:
            keep.save(db, hub.game_id, key, web_port)
            view.note("stopped: the game is saved; `crib serve --resume` goes on at the same"
                      " address")
        else:
            keep.forget(db)
        return 0
    finally:
        if sock is not None:
            sock.close()
        hub.stop()


def _listen(args, kept):
    """The listening socket: on the kept port when resuming (unless --web-port names
    another), else on --web-port."""
    from crib.web.server import ListenError, listen

    if kept and args.web_port in (DEFAULT_PORT, 0):
        try:
            return listen(args.lan, kept["port"])
        except ListenError:
            pass  # taken now: another port, and the phones scan the new code
    return listen(args.lan, args.web_port)


def _terminal(hub, inp, view):
    """`crib play`'s prompts on the hub's engine, beside the phones."""
    from crib.env import isatty
    from crib.ui.prompt import InputEnded, QuitRequest, Terminal
    from crib.web.hub import SharedEngine

    try:
        Terminal(SharedEngine(hub), inp, view, echo=not isatty(inp)).run()
    except QuitRequest:
        pass
    except InputEnded:
        view.note("input ended")
