"""The table served by the board itself: the App (its LEDs, its buttons, its USB port) as
the engine's board, the game record on flash, the engine, the room and the page's server,
built once; on a Pico 2 W, `pegboard.wifi` calls serve() once its access point is up, and
the unix runner (boardweb.unix) builds the same on fake drivers.

    serve(app, key, address)    # the Pico 2 W: never returns
    server = build(app, key, join_url, files="page", record="games")
    await server.serve(address, 80)

The game record (pegboard.gamelog) keeps every game on flash, so a power cut loses
nothing acknowledged: at boot the unfinished game goes on where it was (the engine replays
it and asks what it asked). Without a record (record=None, the tests' and the desk's
choice) the games are kept in memory only.
"""

PORT = 80
DNS_PORT = 53
PAGE = "/page"  # the page's gzipped files on flash (crib deploy writes them there)
RECORD = "/games"  # the game record's folder on flash (beside /state and /wifi)


def build(app, key, join_url, files=PAGE, record=RECORD, setup=None, hosts=None,
          hooks=False, clock=None, nonce=None, log_files=None, suits=False, club=None,
          club_retry=None):
    """The BoardServer over app (pegboard.app.App): the page's files in the folder files,
    the game record in the folder record (None: in memory), setup (a
    cribcore.table.session.Setup: what is not asked), hosts (the Host headers answered,
    None: any), hooks (the tests' routes), clock (() -> ms; time.ticks_ms), nonce (the
    questions' ids begin with it: the record's name, random without one), log_files (the
    record's filesystem: pegboard.logfiles.Files when None), suits (each show card asked
    by rank and suit, as `crib serve --suits`; by default the show by ranks, as `crib
    serve`: a hand laid in the play goes straight to its confirmation, which asks its flush
    and nobs once); club (the club night's address for the tables: each game reported
    when it ends, boardweb.clubreport; with a record the address is kept beside it, and
    the `club` verb sets it over USB), club_retry (ms: its first wait to send again)."""
    import os

    from boardweb.appboard import AppBoard
    from boardweb.server import BoardServer
    from cribcore.table.engine import TableEngine
    from cribcore.table.questions import Events
    from cribcore.table.room import Room
    from cribcore.table.session import Session, Setup

    if clock is None:
        from time import ticks_ms as clock
    board = AppBoard(app, clock)
    view, options = Events(), {"confirm": True, "ranks": not suits}
    if record is None:
        session = Session(board, view, options)
        name = _hex(os.urandom(3))
    else:
        from boardweb.resume import KeptSession
        from pegboard.gamelog import GameLog
        from pegboard.gamesverb import register

        log = GameLog(record, log_files).open()
        register(app, log)  # the `games` verb: `crib history import` reads them over USB
        session = KeptSession(log, board, view, options)
        name = log.token  # the questions' ids come of the record: the same after a restart
    engine = TableEngine(session, setup or Setup(), nonce=nonce or name)
    # The board's picture is drawn by the page from its layout (the holes, each lane's
    # name and colour) and the pegs in the state: no picture is made here.
    lanes = [{"name": ln.name, "colour": "#%02x%02x%02x" % tuple(ln.colour)}
             for ln in app.config.lanes]
    extra = {"board_rev": None, "lanes": lanes, "holes": app.config.holes}
    report = None
    if record is not None or club is not None:
        from boardweb.clubreport import RETRY_MS, ClubReport
        from boardweb.clubreport import register as club_verb

        kept = None if record is None else record.rpartition("/")[0] + "/club"
        report = ClubReport(kept, name, club_retry or RETRY_MS)
        if club is not None:
            report.set_address(club)
        club_verb(app, report)  # the `club` verb: the address set over USB
        extra["club"] = report.status()
    room = Room(engine, run=_hex(os.urandom(4)), extra=extra)
    room.start()
    if record is not None:
        from boardweb.resume import resync

        resync(engine, board)  # after a cut: the LEDs made the record's, before any answer
        _settle(log)  # the segments a restart found sealed, the next one's folder made
    server = BoardServer(room, board, key, files, join_url, hosts, hooks)
    if record is not None:
        board.defer()  # the App's pegs after each reply: resync puts a cut right
        session.defer_log()  # and the screens' log (not the record)
        server.afters.append(session.flush_log)
        server.afters.append(lambda: _settle(log))
    if report is not None:
        def shown():  # the club's news on every screen
            room.show(dict(extra, club=report.status()))
            server.changed()
        report.on_change = shown
        server.club = report
    return server


def _settle(log):
    """The record's full segments to their game's file and the next segment's folder made
    (pegboard.gamelog's settle), after the reply (and at boot); a flash that fails now
    fails the next answer that needs it (GameLog.add does it first then: the answer is
    refused, 507 when the flash is full)."""
    try:
        log.settle()
    except (OSError, MemoryError):
        pass


def _hex(data):
    return "".join(["%02x" % b for b in data])


def serve(app, key, address, port=PORT, files=PAGE, record=RECORD, listen=None,
          dns_port=DNS_PORT):
    """Serve the table on port for ever (the Pico 2 W's entry: pegboard.wifi); files,
    record: the folders of the page and of the game record. With a radio (app.radio,
    pegboard.radio), on every interface (the home network's and the own network's) with
    the Host names and the joining address of the network it is on (and address's), and
    the DNS responder of its own network;
    without one, on address alone. listen: where to listen instead (the tests' loopback);
    dns_port: the DNS responder's (None: none)."""
    import asyncio
    import gc

    radio = getattr(app, "radio", None)
    url = "http://%s/?k=%s" % (address, key) if port == PORT else \
        "http://%s:%d/?k=%s" % (address, port, key)
    usb = app.port
    try:
        server = build(app, key, url, files, record, hosts=(address, "%s:%d" % (address, port)))
        if radio is not None:
            server.follow(radio, port, server.hosts if address else ())
        if listen is None:
            listen = address if radio is None else "0.0.0.0"
        gc.collect()
        # The own network's DNS responder (boardweb.dns) on port 53 of every interface: it
        # answers only while the board is on its own network (server.probing).
        dns = (listen, dns_port) if radio is not None and dns_port else None
        asyncio.run(server.serve(listen, port, dns))
    finally:
        app.port = usb  # the App as it was, for the loop that runs it next (pegboard.pico)
