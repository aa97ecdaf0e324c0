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
PAGE = "/page"  # the page's gzipped files on flash (crib deploy writes them there)
RECORD = "/games"  # the game record's folder on flash (beside /state and /wifi)


def build(app, key, join_url, files=PAGE, record=RECORD, setup=None, hosts=None,
          hooks=False, clock=None, nonce=None, log_files=None):
    """The BoardServer over app (pegboard.app.App): the page's files in the folder files,
    the game record in the folder record (None: in memory), setup (a
    cribcore.table.session.Setup: what is not asked), hosts (the Host headers answered,
    None: any), hooks (the tests' routes), clock (() -> ms; time.ticks_ms), nonce (the
    questions' ids begin with it: random when None), log_files (the record's filesystem:
    pegboard.logfiles.Files when None)."""
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
    view, options = Events(), {"confirm": True}
    if record is None:
        session = Session(board, view, options)
    else:
        from pegboard.gamelog import GameLog
        from pegboard.gamesverb import register
        from pegboard.recordsession import RecordSession

        log = GameLog(record, log_files).open()
        register(app, log)  # the `games` verb: `crib history import` reads them over USB
        session = RecordSession(log, board, view, options)
    engine = TableEngine(session, setup or Setup(), nonce=nonce or _hex(os.urandom(3)))
    # No picture of the board (its own LEDs are the board): as crib serve without one.
    room = Room(engine, run=_hex(os.urandom(4)), extra={"board_rev": None, "lanes": None})
    room.start()
    return BoardServer(room, board, key, files, join_url, hosts, hooks)


def _hex(data):
    return "".join(["%02x" % b for b in data])


def serve(app, key, address, port=PORT, files=PAGE, record=RECORD):
    """Serve the table on address:port for ever (the Pico 2 W's entry: pegboard.wifi);
    files, record: the folders of the page and of the game record."""
    import asyncio
    import gc

    url = "http://%s/?k=%s" % (address, key) if port == PORT else \
        "http://%s:%d/?k=%s" % (address, port, key)
    usb = app.port
    try:
        server = build(app, key, url, files, record, hosts=(address, "%s:%d" % (address, port)))
        gc.collect()
        asyncio.run(server.serve(address, port))
    finally:
        app.port = usb  # the App as it was, for the loop that runs it next (pegboard.pico)
