"""The whole table on the chip: the board's server as a Pico W serves it
(boardweb.board.build: the App, the engine, the room, the game record on flash), with 4
phones' event streams open and every answer posted to it as an HTTP request, through
the server's request path (boardweb.quick). Only the radio and its sockets are
stand-ins: each connection is a Wire (the request's bytes, read as a socket's stream
reads them) and a Screen or a Reply (what the server writes). The players are
tests/core_table/tablegame.py's, as in tests/pico/roomgame.py. Plain code for
MicroPython: on the emulated Pico, main.py runs

    import chipgame
    chipgame.main(GAMES, SEED, TARGET, ANSWERS)

which runs the board's own main (pegboard.pico.main: the App on the real WS2812 PIO
driver, its state on LittleFS) with serve=, as a Pico W's main runs the server once its
access point is up; under the unix port, play(app, ...) with an App on fake drivers.

It prints one line per answer (PREFIX "A", then the answer's number and the emulated
microseconds of each part; PARTS), one per game's start and end (a MARK line: JSON), the
final scores (an END line: JSON), and DONE. An answer's parts: engine (Room.act less the
App and the record), board (the App's verbs before the reply: with the record on flash,
only those that cannot wait), flash (the record's writes before the reply), request (the
server's handling of the POST less Room.act: boardweb.quick's), state (the state's JSON
and its patch from the version before, each once per version), streams (from the reply
to the last phone having the new state, less the state's making), gc (a collection run
before the answer when less than RESERVE bytes are free, and every SAMPLE answers: its
time is that answer's), after (the work the server leaves for after the reply and the
screens, BoardServer.flush: the App's pegs and their saves, the screens' log on flash;
not in total, nor in board and flash), frames (the App's steps the server's loop ran
within the answer's time, its LED frames above all: taken out of request and streams,
where they fall; the server draws none while an answer is in hand, boardweb.server's
frames(), unless its hold's bound runs out). Each answer is posted THINK_MS after the
last phone had the state before (a player reads it first): the server's work after the
screens and the App's frames (a peg's animation) come between the answers, as at a
table; the request's connection is accepted by a task of its own, as asyncio's server
accepts one.
`total` is from the collection (if any) and the request's first byte to the last phone
having the state.
`alloc` is the bytes allocated meanwhile (when no collection ran within), `auto` 1 when
the heap shrank during the answer (MicroPython collected on its own: alloc unknown).
"""

import gc
import json
import sys

try:
    from time import ticks_diff, ticks_ms, ticks_us
except ImportError:  # CPython: the scores' reference
    import time

    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_ms():
        return time.perf_counter_ns() // 1000000

    def ticks_diff(a, b):
        return a - b

from tablegame import NAMES, Lcg, choose

KEY = "chipgame-key"
HOST = "192.168.4.1"
PHONES = 4
RESERVE = 48 * 1024  # collect before an answer when less than this is free
STUCK = 4 * PHONES  # streams reopened for one version before the run gives up
SAMPLE = 10  # and before every SAMPLE-th, for the peak: what was live then plus all the
# answer allocated (the heap it needed at once, garbage of its own included)
THINK_MS = 20  # from the last phone having a state to the next answer's request: a
# player reads it first (seconds at a real table; here two of the App's frames, so the
# work the server leaves for after the screens, and a frame, come between answers)
PARTS = ("engine", "board", "flash", "request", "state", "streams", "gc", "total", "alloc",
         "auto", "version", "after", "frames")
DONE = "CHIP-" + "DONE"


class Wire:
    """A connection's incoming bytes, read as asyncio's stream reads a socket; its
    socket (.s, as MicroPython's stream keeps it) read without waiting gives what is
    there (the whole request: a phone's comes at once)."""

    def __init__(self, data):
        self.data = data
        self.at = 0
        self.s = Socket(self)

    async def readline(self):
        end = self.data.find(b"\n", self.at)
        end = len(self.data) if end < 0 else end + 1
        out = self.data[self.at:end]
        self.at = end
        return out

    async def readexactly(self, n):
        out = self.data[self.at:self.at + n]
        self.at += len(out)
        if len(out) < n:
            raise EOFError()
        return out

    async def read(self, n=-1):
        end = len(self.data) if n < 0 else self.at + n
        out = self.data[self.at:end]
        self.at += len(out)
        return out


class Socket:
    """A Wire's socket, non-blocking: read(n) gives up to n bytes of what is left (b"" at
    the end)."""

    def __init__(self, wire):
        self.wire = wire

    def read(self, n):
        w = self.wire
        out = w.data[w.at:w.at + n]
        w.at += len(out)
        return out


def _number_after(data, key):
    """The decimal number after key in data (bytes), or -1: read digit by digit, so
    that a phone's reading of what the board sent allocates nothing on the board's heap
    (a real phone reads it on its own chip; the answer's `alloc` is the board's)."""
    at = data.find(key)
    if at < 0:
        return -1
    at += len(key)
    value = 0
    while at < len(data) and 48 <= data[at] <= 57:
        value = value * 10 + data[at] - 48
        at += 1
    return value


class Reply:
    """A POST's connection: what the server wrote back, read as the phone reads it (its
    status and the state's version, digit by digit: nothing allocated); the bytes kept
    only for a reply other than 200, to say it. Written and closed as asyncio's stream
    is: write() (its socket takes it all at once), then its socket (.s) closed; or
    awrite() and aclose()."""

    out_buf = b""  # a socket's stream's buffer: the phone takes every write at once

    def __init__(self):
        self.out = []
        self.status = -1
        self.version = -1
        self.closed = False
        self.when = 0  # when it was closed (the reply is whole)

    @property
    def s(self):  # its socket: close() (the stream's aclose closes it so)
        return self

    def get_extra_info(self, name):
        return ("10.0.0.9", 50000)

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        if self.status < 0:
            self.status = _number_after(data, b" ")  # "HTTP/1.0 200 OK"
        if self.status != 200:
            self.out.append(data)
        elif self.version < 0:
            self.version = _number_after(data, b'"version":')

    async def awrite(self, data):
        self.write(data)

    async def drain(self):
        pass

    def close(self):
        self.closed = True
        self.when = ticks_us()

    async def aclose(self):
        self.close()

    def body(self):
        """(status, body) of a reply other than 200."""
        text = b"".join(self.out)
        return self.status, text.partition(b"\r\n\r\n")[2]


class Screen(Reply):
    """A phone's event stream: the newest state version it has, and when it came."""

    def __init__(self, clock):
        super().__init__()
        self.version = -1
        self.coming = -1  # the version of an event begun, not yet whole
        self.when = 0
        self.clock = clock

    def write(self, data):  # an event stream's writes after its first (boardweb.push)
        if isinstance(data, str):
            data = data.encode()
        # An event may come in pieces (boardweb.push writes `data: `, the JSON and the
        # blank line apart): the phone has its version when the blank line comes, as a
        # page's EventSource dispatches it. The first write carries the response's head.
        version = _number_after(data, b'"version":')
        if version >= 0:
            self.coming = version
        if self.coming >= 0 and data.endswith(b"\n\n"):
            self.version, self.coming = self.coming, -1
            self.when = self.clock()
        # a stream's bytes are not kept: a phone reads them and they are gone


def request(method, path, body=b""):
    """An HTTP request's bytes as the page sends them."""
    head = ("%s %s HTTP/1.1\r\nHost: %s\r\nX-Crib-Key: %s\r\n" % (method, path, HOST, KEY))
    if method == "POST":
        head += "Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
    return head.encode() + b"\r\n" + body


class Parts:
    """Emulated microseconds spent in each part of an answer. Nothing is wrapped around
    the code that runs an answer: each wrapper would be one more Python call deep in the
    RP2040's 8 KB C stack, which the request's path nearly fills (docs/image.md). So the
    parts are timed at their edges: Room.act from the seat's check just before it
    (seats.seat_generation) to the server's changed() just after it; the App's verbs by
    the port's `taking` being set and cleared (boardweb.appboard.AppBoard._call); the
    record's writes by a Files whose methods time themselves; the state's JSON by a
    wrapper (a stream task's shallow call)."""

    def __init__(self):
        self.us = {}
        self.posting = False
        self.started = {}
        self.ticks = []

    def reset(self):
        self.us = {"engine": 0, "board": 0, "flash": 0, "state": 0, "after": 0}
        self.started = {}
        self.ticks = []  # (start, us) of each App step (the server's frames)

    def start(self, part):
        if "after" in self.started:
            return  # the work after the reply: all of it is "after"
        self.started[part] = ticks_us()

    def stop(self, part):
        t = self.started.pop(part, None)
        if t is not None:
            self.us[part] = self.us.get(part, 0) + ticks_diff(ticks_us(), t)

    def timed(self, part, fn):
        def call(*args, **kw):
            self.start(part)
            try:
                return fn(*args, **kw)
            finally:
                self.stop(part)
        return call


def timed_files(parts):
    """The game record's filesystem (pegboard.logfiles.Files), its writes timed."""
    from pegboard.logfiles import Files

    class TimedFiles(Files):
        def write(self, name, data):
            parts.start("flash")
            try:
                Files.write(self, name, data)
            finally:
                parts.stop("flash")

        def append(self, name, data):  # Files.append's: its file kept open between calls
            parts.start("flash")
            try:
                Files.append(self, name, data)
            finally:
                parts.stop("flash")

        def rename(self, name, new):
            parts.start("flash")
            Files.rename(self, name, new)
            parts.stop("flash")

        def remove(self, name):
            parts.start("flash")
            try:
                Files.remove(self, name)
            finally:
                parts.stop("flash")

        def mkdir(self, name):
            parts.start("flash")
            try:
                Files.mkdir(self, name)
            finally:
                parts.stop("flash")

        def rmdir(self, name):
            parts.start("flash")
            Files.rmdir(self, name)
            parts.stop("flash")

    return TimedFiles()


def timed_tap(board, parts):
    """The App's port (boardweb.appboard.Tap) with its calls timed by `taking`."""
    from boardweb.appboard import Tap

    class TimedTap(Tap):
        @property
        def taking(self):
            return self._taking

        @taking.setter
        def taking(self, value):
            self._taking = value
            if value is None:
                parts.stop("board")
            else:
                parts.start("board")

    tap = TimedTap(board.tap.port)
    tap.presses = board.tap.presses
    board.tap = board.app.port = tap


def build(app, parts, target, record="/games"):
    """The board's server over app, timed by parts (its record in the folder record on
    the board's filesystem; None: in memory)."""
    from boardweb.board import build as make

    from cribcore.table import seats
    from cribcore.table.session import Setup

    server = make(app, KEY, "http://%s/?k=%s" % (HOST, KEY), "/page", record,
                  Setup(list(NAMES[:2]), False, target, 0), clock=ticks_ms, nonce="c1",
                  hosts=[HOST],  # as a board on its network answers its own names only
                  log_files=None if record is None else timed_files(parts))
    timed_tap(server.board, parts)
    tick = server.board.tick

    def ticked():
        t = ticks_us()
        tick()
        parts.ticks.append((t, ticks_diff(ticks_us(), t)))

    server.board.tick = ticked
    seat_generation, changed = seats.seat_generation, server.changed

    def checked(*args):
        gen = seat_generation(*args)
        parts.start("engine")  # Room.act is next
        return gen

    def changing():
        parts.stop("engine")  # Room.act is over (or refused)
        changed()

    seats.seat_generation = checked
    server.changed = changing
    server.flush = parts.timed("after", server.flush)
    server.answer_done = server.push.after = parts.timed("after", server.answer_done)
    room = server.room
    room.text = parts.timed("state", room.text)
    room.patch_text = parts.timed("state", room.patch_text)
    return server


def answer_for(q, rng, games_done, games):
    kind = q["kind"]
    if kind == "another":
        return "y" if games_done + 1 < games else "n"
    if kind == "dealer":
        return ""
    return choose(q, rng, "cards")


async def accept(server, wire, reply):
    """A connection accepted: its task made (asyncio's server does so in its own task)."""
    import asyncio

    asyncio.create_task(server.app.handle_request(wire, reply))


def _behind(screens, version):
    """Whether a phone has not the version yet (a loop over a list: no iterator or
    generator on the heap, where min() over a generator made one each round)."""
    for s in screens:
        if s.version < version:
            return True
    return False


async def _until(cond):
    import asyncio

    while not cond():
        await asyncio.sleep(0)


try:
    mem_alloc, mem_free = gc.mem_alloc, gc.mem_free
except AttributeError:  # CPython: the scores' reference has no heap to measure
    def mem_alloc():
        return 0

    def mem_free():
        return 1 << 30


def _live():
    gc.collect()
    return mem_alloc(), mem_free()


async def game(server, parts, games, seed, answers, out, census=None, undos=0):
    """Play: 4 phones listening, every answer posted; out(line) for each line; census:
    its objects' lines at each game's first question; undos: then that many undos posted,
    one after another, as a player taps undo late in the game (a U line each: its number,
    the emulated microseconds from the request's first byte to the last phone having the
    state, the heap's growth over it (-1: it shrank), the state's version, then the
    microseconds of its engine, flash, state and board parts, as an answer's)."""
    import asyncio

    from cribcore.table import seats

    room = server.room
    ticking = asyncio.create_task(server.frames())  # the App's frames, as serve() runs them
    screens, streams = [], []
    reopened = [0]

    def listen(i):
        screen = Screen(ticks_us)
        task = asyncio.create_task(server.app.handle_request(
            Wire(request("GET", "/events")), screen))
        if i < len(screens):
            screens[i], streams[i] = screen, task
        else:
            screens.append(screen)
            streams.append(task)

    for i in range(PHONES):
        listen(i)

    async def phones_have(version):
        """Until every phone has the version; a stream the server ended is opened again
        (as the page's EventSource does), and counted. STUCK reopenings for one version
        end the run: the phones cannot get it (a heap too fragmented for the state's
        frame ends every new stream at once: docs/image.md), and would retry for ever."""
        again = 0
        while _behind(screens, version):
            for i, task in enumerate(streams):
                if task.done():
                    reopened[0] += 1
                    again += 1
                    out("R %d %d" % (n, i))
                    if again > STUCK:
                        raise RuntimeError("the phones cannot get version %d: their event "
                                           "streams end as soon as they are opened (%d "
                                           "bytes free)" % (version, mem_free()))
                    listen(i)
            await asyncio.sleep(0)

    n = 0
    await phones_have(room.version)
    if census is not None:
        census.step("the App's frames' task and 4 phones' event streams (their requests,"
                    " tasks, connections, the state's first event)")
    tokens = {0: seats.seat_token(KEY, 0), 1: seats.seat_token(KEY, 1),
              "table": seats.seat_token(KEY, "table")}
    rng = Lcg(seed)
    done = 0
    mark = "first"
    peak = 0
    total = mem_alloc() + mem_free()
    while n < answers and room.question is not None:
        q = room.question
        if mark is not None:
            live, free = _live()
            out("MARK " + json.dumps({"at": mark, "game": done, "answers": n, "live": live,
                                      "free": free}))
            if census is not None and mark == "first" and done + 1 == census.game:
                census.objects(done + 1)  # destructive: the run ends here
                return
            mark = None
        kind = q["kind"]
        text = answer_for(q, rng, done, games)
        seat = "table" if q["asks"] is None else q["asks"]
        body = json.dumps({"question": q["id"], "answer": text, "seat": seat,
                           "token": tokens[seat]}).encode()
        wire = Wire(request("POST", "/api/answer", body))
        reply = Reply()
        parts.reset()
        # gc.mem_free() and mem_alloc() scan the heap's whole table (about 8 ms here):
        # outside the timed parts
        collect = mem_free() < RESERVE or n % SAMPLE == 0
        t0 = ticks_us()
        if collect:
            gc.collect()
        gc_us = ticks_diff(ticks_us(), t0)
        a0 = mem_alloc()
        t_gc = ticks_us()
        # A task of its own, as the server starts one per connection (so the call's stack
        # is as deep as on a board, not under this coroutine's), made by an accept of its
        # own: as asyncio's server, woken by the poll, accepts it and makes its task
        asyncio.create_task(accept(server, wire, reply))
        await _until(lambda reply=reply: reply.closed)
        t_reply = reply.when
        if reply.status != 200 or reply.version < 0:
            raise RuntimeError("answer %d refused: %d %s" % ((n,) + reply.body()))
        version = reply.version
        await phones_have(version)
        a1 = mem_alloc()
        t_end = max([s.when for s in screens])
        auto = 1 if a1 < a0 else 0
        if collect and not auto:  # the live heap before it and all it made: at once
            peak = max(peak, a1)
        us = parts.us
        engine = us["engine"] - us["board"] - us["flash"]
        before = sum([d for t, d in parts.ticks if ticks_diff(t, t_gc) >= 0 and
                      ticks_diff(t_reply, t) > 0])
        after = sum([d for t, d in parts.ticks if ticks_diff(t, t_reply) >= 0 and
                     ticks_diff(t_end, t) > 0])
        stream_us = ticks_diff(t_end, t_reply) - us["state"] - after
        req = ticks_diff(t_reply, t_gc) - us["engine"] - before
        out("A %d %d %d %d %d %d %d %d %d %d %d %d %d %d" % (
            n, engine, us["board"], us["flash"], req, us["state"], stream_us,
            gc_us, gc_us + ticks_diff(t_end, t_gc), -1 if auto else a1 - a0, auto,
            version, us["after"], before + after))
        n += 1
        await asyncio.sleep(THINK_MS / 1000)  # the players read the state before answering
        if kind == "another":
            done += 1
        nxt = room.question
        if kind == "dealer":
            mark = "first"
        elif nxt is not None and nxt["kind"] == "another":
            mark = "another"
    for u in range(undos):
        q = room.question
        if q is None:
            break
        seat = "table" if q["asks"] is None else q["asks"]
        body = json.dumps({"question": q["id"], "seat": seat,
                           "token": tokens[seat]}).encode()
        wire, reply = Wire(request("POST", "/api/undo", body)), Reply()
        parts.reset()
        gc.collect()
        a0 = mem_alloc()
        t0 = ticks_us()
        asyncio.create_task(accept(server, wire, reply))
        await _until(lambda reply=reply: reply.closed)
        if reply.status != 200 or reply.version < 0:
            raise RuntimeError("undo %d refused: %d %s" % ((u,) + reply.body()))
        await phones_have(reply.version)
        a1 = mem_alloc()
        t_end = max([s.when for s in screens])
        us = parts.us
        out("U %d %d %d %d %d %d %d %d" % (
            u, ticks_diff(t_end, t0), a1 - a0 if a1 >= a0 else -1, reply.version,
            us["engine"] - us["board"] - us["flash"], us["flash"], us["state"], us["board"]))
        await asyncio.sleep(THINK_MS / 1000)
    live, free = _live()
    out("MARK " + json.dumps({"at": "end", "game": done, "answers": n, "live": live,
                              "free": free}))
    view = room.view
    q = room.question  # the open question less its id (whose count goes on at an undo)
    q = None if q is None else [q.get(k) for k in ("kind", "asks", "prompt", "legal")]
    out("END " + json.dumps({"answers": n, "games": done, "scores": view.get("scores"),
                             "peak": peak, "heap": total, "reopened": reopened[0],
                             "question": q}))
    ticking.cancel()
    for s in streams:
        s.cancel()


def play(app, games=1, seed=11, target=121, answers=4000, record="/games", out=print,
         census=None, undos=0):
    """Build the server over app and play (module docstring); census (a Census): its
    lines too."""
    import asyncio

    parts = Parts()
    if census is not None:
        census.imports()
    server = build(app, parts, target, record)
    if census is not None:
        census.step("the server built: its objects (the room started, the record open)")
        census.server = server
    gc.collect()
    asyncio.run(game(server, parts, games, seed, answers, out, census, undos))


PAINT = 0x1A5AC33C  # a word the C stack is painted with (a small int on the chip)


def paint(bottom, top):
    """Fill the C stack's free words (from bottom to just below where it is now) with
    PAINT, before the game: what is still PAINT after it was never used. bottom, top:
    the image's __StackBottom and __StackTop (its link map)."""
    import machine
    import micropython

    mem = machine.mem32
    at, below = bottom, top - micropython.stack_use() - 256
    while at < below:
        mem[at] = PAINT
        at += 4


def deepest(bottom, top):
    """The most of the C stack the run has used, in bytes: from the top down to the
    lowest word no longer PAINT (an interrupt's frames count too: they are the stack's)."""
    import machine

    mem = machine.mem32
    at = bottom
    while at < top and mem[at] == PAINT:
        at += 4
    return top - at


def main(games=1, seed=11, target=121, answers=4000, census=None, stack=None, undos=0):
    """On the Pico: the board's own main, with the game played where the server would
    serve; DONE at the end (then the REPL). census: a chipcensus.Census (main.py's): the
    heap's census at its game's first question, where the run ends. stack: (bottom, top)
    of the C stack, to print before DONE the most of it the run used (a STACK line);
    undos: game()'s."""
    count = census
    if stack is not None:
        paint(*stack)
    import fastboot

    fastboot.setup()
    if count is not None:
        count.step("fastboot (the built-in modules it imports)")
        count.pegboard()
    from pegboard.pico import main as board_main

    def serve(app):
        if count is not None:
            count.step("the board's main: the App, its drivers, LED buffers, USB port")
            count.app = app
        try:
            play(app, games, seed, target, answers, census=count, undos=undos)
        except Exception as e:  # noqa: BLE001 - said, then the REPL: the run failed
            sys.print_exception(e)
        if stack is not None:
            print("STACK " + json.dumps({"deepest": deepest(*stack),
                                         "size": stack[1] - stack[0]}))
        print(DONE)
        raise KeyboardInterrupt  # pegboard.pico.main returns on it (the REPL hand-over)

    board_main(fastboot.done, serve)
