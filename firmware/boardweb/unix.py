"""The board's web server under MicroPython's unix port: the firmware App on fake drivers
(as desk.py runs it) as the engine's board, the page served on a TCP port. The tests,
bench/board_web.py and a player without a Pico 2 W run it this way (crib.web.unixboard
starts it with the heap capped):

    MICROPYPATH=firmware:MICRODOT micropython -X heapsize=256K -m boardweb.unix \\
        --port 8080 --key KEY --files DIR [--names Alice,Bob] [--target 121]
        [--dealer 0] [--join URL] [--hosts h1,h2] [--store DIR] [--hooks] [--suits]
        [--dns-port N] [--club URL] [--club-retry MS] [--home FILE]

--files DIR   the page's gzipped files (crib.web.assets.write) and qr.svg if made
--names       the players (else the page asks); --target 61/121; --dealer a player
--store DIR   the board's state and its game record (DIR/games) on disk, as on flash: a
              game cut off goes on at the next start (without it, all in memory)
--suits       each show card asked by rank and suit (crib serve --suits); by default the
              show by ranks, as crib serve plays it
--club URL    the club night's address for the tables (`crib club serve` prints it):
              each game of two to 121 reported when it ends (boardweb.clubreport);
              --club-retry MS its first wait before sending again (default 2000)
--hooks       the tests' /test/board (pegs and lit LEDs) and /test/heap routes
--home FILE   a home network kept in FILE as a Pico 2 W keeps it (pegboard.homenet): the
              page's Wi-Fi form sets it; no radio joins it here
--dns-port N  as on the board's own network: a DNS responder on 127.0.0.1:N (UDP) that
              answers every name with 127.0.0.1, and the phones' captive-portal probes
              redirected to the page (boardweb.dns, boardweb.routes.PROBES)
Prints `serving PORT` once it listens (never before: serve_listening); exit status 2
for bad arguments.
"""

import gc
import sys

if hasattr(gc, "threshold"):
    gc.threshold(32768)  # collect often enough that garbage never spreads over the heap

USAGE = ("usage: boardweb.unix --port N --key KEY --files DIR [--names A,B] [--target N]"
         " [--dealer N] [--join URL] [--hosts H,...] [--store DIR] [--hooks] [--suits]"
         " [--dns-port N] [--club URL] [--club-retry MS] [--home FILE]")
VALUED = ("--port", "--key", "--files", "--names", "--target", "--dealer", "--join",
          "--hosts", "--store", "--dns-port", "--club", "--club-retry", "--home")


def parse_args(argv):
    """The options as a dict; ValueError if bad."""
    opts = {"hooks": False, "suits": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--hooks", "--suits"):
            opts[a[2:]] = True
        elif a in VALUED and i + 1 < len(argv):
            opts[a[2:].replace("-", "_")] = argv[i + 1]
            i += 1
        else:
            raise ValueError("bad argument %r" % (a,))
        i += 1
    for need in ("port", "key", "files"):
        if need not in opts:
            raise ValueError("--%s is needed" % need)
    for name in ("port", "target", "dealer", "dns_port", "club_retry"):
        if name in opts:
            opts[name] = int(opts[name])
    if "club" in opts:
        from cribcore.table.club import club_address

        club_address(opts["club"])  # ClubAddressError (a ValueError): the sentence, exit 2
    return opts


def make(opts):
    """The server: the App on fake drivers (with --store, its state and the game record
    on disk), served as a Pico 2 W serves it (boardweb.board.build)."""
    import desk

    from boardweb.appboard import LoopPort
    from boardweb.board import build
    from cribcore.table.session import Setup

    app = desk.build({"store": opts.get("store"), "config": None, "driven": False},
                     LoopPort())
    if "home" in opts:  # the page's form works; nothing joins it (no radio)
        import os

        from pegboard.homenet import Home
        from pegboard.store import Files

        Home(Files(), os.urandom(8), opts["home"]).register(app)
    names = opts["names"].split(",") if "names" in opts else None
    setup = Setup(names, False if names and len(names) < 4 else None, opts.get("target"),
                  opts.get("dealer"))
    hosts = opts["hosts"].split(",") if "hosts" in opts else None
    join = opts.get("join") or "http://127.0.0.1:%d/?k=%s" % (opts["port"], opts["key"])
    record = opts["store"] + "/games" if "store" in opts else None
    return build(app, opts["key"], join, opts["files"], record, setup, hosts, opts["hooks"],
                 suits=opts["suits"], club=opts.get("club"), club_retry=opts.get("club_retry"))


def main(argv):
    try:
        opts = parse_args(argv)
    except ValueError as e:
        sys.stderr.write("boardweb.unix: %s\n%s\n" % (e, USAGE))
        return 2
    import asyncio

    server = make(opts)
    dns = None
    if "dns_port" in opts:
        server.probing, server.dns_address = True, "127.0.0.1"
        dns = ("127.0.0.1", opts["dns_port"])
    gc.collect()
    asyncio.run(serve_listening(server, opts["port"], dns))
    return 0


async def serve_listening(server, port, dns=None):
    """Serve; `serving PORT` once the port listens (microdot's start_server has bound it:
    its `server` set), not before: a client told earlier could be refused. A port that
    cannot be bound ends the run with its error and no such line."""
    import asyncio

    serving = asyncio.create_task(server.serve("127.0.0.1", port, dns))
    while server.app.server is None and not serving.done():
        await asyncio.sleep(0.005)
    if server.app.server is not None:
        print("serving %d" % port)
    await serving


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
