"""Where the bytes of one answer go: the board's server (its record on disk) under
MicroPython's unix port, played by tests/pico/chipgame.py's phones with the collector
off, and the heap's allocation (gc.mem_alloc) counted around each step of an answer.

    python bench/alloc.py [ANSWERS]     (default 150: at most; one game to 61, as
                                         bench/chip.py's first)
    python bench/alloc.py ANSWERS request   the request path's own bytes a POST (its
                                         connection's handling but room.act and
                                         server.changed, with one wrapper each: no step's
                                         wrapper in it, whose argument tuples and calls
                                         add about 100 bytes to each row of the table)

prints a table: each step's bytes per answer (its own: the steps it calls counted apart),
and the answer's whole allocation (chipgame's `alloc`: from the request's first byte to
the last phone having the state). Each step is counted by a wrapper around it, so the
wrappers' own few bytes (their argument tuples) fall in the step that calls them. The
unix port is 64-bit: its objects are about 1.6-2x the chip's (bench/chip.py's figure is
the one that counts); the table says where they go, and what a change saves.
"""

import sys

STEPS = (
    # (label, where: "room" / "engine" / "edge" / "push" / "server" / a module, name)
    ("conn: _admit", "boardweb.conn:Guarded", "_admit"),
    ("conn: ready (the socket's read)", "boardweb.conn:Timed", "ready"),
    ("quick: parse the request", "boardweb.quick", "parse"),
    ("conn: taken (the body)", "boardweb.conn:Timed", "taken"),
    ("rules: refusal (the key, origin)", "cribcore.web.rules", "refusal"),
    ("edge: body (JSON, checks)", "edge", "body"),
    ("edge: seat token", "edge", "seat"),
    ("edge: ok reply", "edge", "ok"),
    ("server: act_on (rest)", "server", "act_on"),
    ("room: act (rest)", "room", "act"),
    ("engine: answer (rest)", "engine", "answer"),
    ("engine: _check", "engine", "_check"),
    ("engine: _crc_of", "engine", "_crc_of"),
    ("engine: _run (the flow, rest)", "engine", "_run"),
    ("flow: Turns.step", "cribcore.table.turns:Turns", "step"),
    ("flow: Turns._play_parser", "cribcore.table.turns:Turns", "_play_parser"),
    ("flow: turns._open_cards", "cribcore.table.turns", "_open_cards"),
    ("flow: Turns._lay", "cribcore.table.turns:Turns", "_lay"),
    ("flow: Turns._announce", "cribcore.table.turns:Turns", "_announce"),
    ("flow: Turns.context", "cribcore.table.turns:Turns", "context"),
    ("flow: Events._add", "cribcore.table.questions:Events", "_add"),
    ("flow: Table.show_board", "cribcore.table.table:Table", "show_board"),
    ("flow: Table.note", "cribcore.table.table:Table", "note"),
    ("flow: play_text", "cribcore.table.turns", "play_text"),
    ("table: replay (the game)", "cribcore.table.table", "replay"),
    ("table: record (rest)", "cribcore.table.table:Table", "record"),
    ("table: write (rest)", "cribcore.table.table:Table", "write"),
    ("record: append (s6-flash's)", "pegboard.flashrecord:FlashRecord", "append"),
    ("record: entries", "pegboard.flashrecord:FlashRecord", "entries"),
    ("engine: _take", "engine", "_take"),
    ("engine: question_id", "engine", "question_id"),
    ("engine: _keep", "engine", "_keep"),
    ("room: _after (events numbered)", "room", "_after"),
    ("room: _keep_log", "room", "_keep_log"),
    ("room: _build (rest)", "room", "_build"),
    ("engine: question", "engine", "question"),
    ("Question.to_dict", "cribcore.table.questions:Question", "to_dict"),
    ("engine: view", "engine", "view"),
    ("room: _publish (state dict)", "room", "_publish"),
    ("engine: undone", "engine", "undone"),
    ("engine: answered", "engine", "answered"),
    ("room: patch", "cribcore.table.room", "patch"),
    ("room: dumps (JSON)", "cribcore.table.room", "dumps"),
    ("server: changed", "server", "changed"),
    ("push: event (SSE frame)", "push", "event"),
    ("push: _put", "push", "_put"),
    ("conn: put (a stream's write)", "boardweb.conn:Gathered", "put"),
    ("push: tend (rest)", "push", "tend"),
    ("server: flush (after-work, rest)", "server", "flush"),
    ("appboard: _call (rest)", "boardweb.appboard:AppBoard", "_call"),
    ("App: _change (pegboard's)", "pegboard.app:App", "_change"),
    ("direct: apply (the engine's pegs)", "boardweb.appboard", "apply"),
    ("store: save", "pegboard.store:Store", "save"),
    ("store: frame (the slot's chunks)", "pegboard.store", "frame"),
    ("resume: _append (screens' log)", "boardweb.resume:KeptSession", "_append"),
    ("record: settle", "pegboard.gamelog:GameLog", "settle"),
)


CONN = "conn: a POST's handling (rest)"


def request_path(server, mem_alloc):
    """Count a POST's handling but room.act and server.changed (each with one wrapper):
    [bytes, POSTs] as the game goes."""
    inner, total = [0], [0, 0]
    room, act, changed = server.room, server.room.act, server.changed

    def acting(kind, body, seat):
        a0 = mem_alloc()
        try:
            return act(kind, body, seat)
        finally:
            inner[0] += mem_alloc() - a0

    def changing():
        a0 = mem_alloc()
        try:
            return changed()
        finally:
            inner[0] += mem_alloc() - a0

    room.act, server.changed = acting, changing
    handle = server.app.handle_request

    async def handled(reader, writer):
        if not reader.data.startswith(b"POST"):
            return await handle(reader, writer)
        a0, i0 = mem_alloc(), inner[0]
        try:
            return await handle(reader, writer)
        finally:
            total[0] += mem_alloc() - a0 - (inner[0] - i0)
            total[1] += 1

    server.app.handle_request = handled
    return total


def profile(answers):
    """Under MicroPython: play, print the table."""
    import asyncio
    import gc

    import chipgame
    import desk
    from boardweb.appboard import LoopPort

    folder = sys.argv[2]
    gc.collect()
    gc.disable()
    mem_alloc = gc.mem_alloc
    if len(sys.argv) > 3 and sys.argv[3] == "request":
        app = desk.build({"store": folder, "config": None, "driven": False}, LoopPort())
        parts = chipgame.Parts()
        server = chipgame.build(app, parts, 61, folder + "/games")
        server.hold_ms = 600000
        total = request_path(server, mem_alloc)
        server.push.after = server.flush
        asyncio.run(chipgame.game(server, parts, 1, 11, answers, lambda line: None))
        print("the request path (unix port, 64-bit): %d bytes a POST (%d POSTs; a POST's"
              " handling but room.act and server.changed)" % (total[0] // max(total[1], 1),
                                                                total[1]))
        return
    own = {}
    stack = []

    def wrap(holder, name, label, static=False):
        fn = getattr(holder, name)
        own[label] = 0

        def counted(*args, **kw):
            a0 = mem_alloc()
            stack.append(0)
            try:
                return fn(*args, **kw)
            finally:
                inner = stack.pop()
                d = mem_alloc() - a0
                own[label] += d - inner
                if stack:
                    stack[-1] += d

        setattr(holder, name, staticmethod(counted) if static else counted)

    app = desk.build({"store": folder, "config": None, "driven": False}, LoopPort())
    parts = chipgame.Parts()
    server = chipgame.build(app, parts, 61, folder + "/games")
    server.hold_ms = 600000  # no frame forced by the hold's bound (a loaded machine)
    holders = {"room": server.room, "engine": server.room.engine, "edge": server.edge,
               "push": server.push, "server": server}
    for label, where, name in STEPS:
        if where in holders:
            wrap(holders[where], name, label)
        else:
            mod, _, cls = where.partition(":")
            holder = __import__(mod, None, None, ["x"])
            if cls:
                holder = getattr(holder, cls)
            wrap(holder, name, label)
    # a phone's POST: its connection's whole handling (it runs to its end without a wait:
    # the request is whole in its socket, the reply taken at once), its own bytes the
    # connection's objects, coroutines and reply; a stream's GET is held: not counted
    handle = server.app.handle_request
    own[CONN] = 0

    async def handled(reader, writer):
        if not reader.data.startswith(b"POST"):
            return await handle(reader, writer)
        a0 = mem_alloc()
        stack.append(0)
        try:
            return await handle(reader, writer)
        finally:
            inner = stack.pop()
            own[CONN] += mem_alloc() - a0 - inner

    server.app.handle_request = handled
    # the server's flush is also push's `after` (and chipgame timed both): the counted one
    server.push.after = server.flush
    allocs = []

    def out(line):
        if line.startswith("A "):
            f = line.split()
            if f[10] != "-1":
                allocs.append(int(f[10]))
        elif line.startswith("END"):
            print(line)

    asyncio.run(chipgame.game(server, parts, 1, 11, answers, out))
    n = len(allocs)
    whole = sum(allocs)
    print("allocated per answer (unix port, 64-bit): %d bytes (%d answers)"
          % (whole // max(n, 1), n))
    print("%-34s %8s" % ("step (its own bytes)", "B/answer"))
    counted = own[CONN]
    print("%-34s %8d" % (CONN, own[CONN] // max(n, 1)))
    for label, _, _ in STEPS:
        counted += own[label]
        print("%-34s %8d" % (label, own[label] // max(n, 1)))
    print("%-34s %8d" % ("outside the steps (streams, tasks)", (whole - counted) // max(n, 1)))


def host(argv):
    """Under CPython: run this file under the unix MicroPython."""
    import os
    import subprocess
    import tempfile
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "tests"))
    from support import FIRMWARE, MICROPYPATH, micropython_path

    from crib.web.unixboard import microdot_dir

    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join([MICROPYPATH, str(FIRMWARE), str(root / "tests" / "pico"),
                                   str(root / "tests" / "core_table"),
                                   microdot_dir()])
    answers = argv[1] if len(argv) > 1 else "150"
    with tempfile.TemporaryDirectory() as tmp:
        return subprocess.run([micropython_path(), "-X", "heapsize=64M", __file__, answers,
                               tmp] + argv[2:3], env=env).returncode


if __name__ == "__main__":
    if sys.implementation.name == "micropython":
        profile(int(sys.argv[1]))
    else:
        sys.exit(host(sys.argv))
