"""The board's connections (microdot on MicroPython's asyncio): each read under one
deadline for the whole request head and one for the body (a stranger trickling a header
line every few seconds holds nothing for long; past a deadline, what the socket holds
already is still read: a board busy for seconds after the accept refuses no request
waiting whole), each response's head sent with its body, and how many connections and
event streams may be open at once. What a phone posts per answer, and its event stream,
are served by boardweb.quick from the connection's first read, the rest by microdot.

    app = Guarded()                   # a Microdot: handle_request wrapped as below
    app.stream(gathered, seat)        # the connection is an event stream of seat now

Limits (cribcore.web.edge's deadlines): at most MAX_CONNECTIONS connections open, the
oldest still sending its request closed for a new one (silent yet, or GRACE_MS old: a
phone's answer comes in whole at once, a stranger's trickle is oldest; if every such one
is within its grace, the new one is closed unread); at most SEAT_STREAMS event streams per
seat (a phone's stream names its seat, with the seat's token), the seat's oldest dropped
for its new one, and at most MAX_STREAMS in all, the oldest of the seat with the most
dropped (its page opens it again; the streams naming no seat, or a wrong token, count as
one seat with no cap of its own: phones not yet joined, strangers with the key): one
phone opening stream after stream never pushes the other players' out; and a new
connection is only taken while the heap has ADMIT_FREE bytes free after a collection,
else a stream is dropped (as above) and the new connection closed unread (the page sends
again): the heap is never spent on strangers before a player's answer. Looking costs a
scan of the heap's whole table (gc.mem_free: about 9 ms on an RP2040), so the board looks
once an answer's work is done (note_heap(), from BoardServer.answer_done), and the next
connection is taken on that look; any other connection looks when it comes.
"""

import asyncio
import gc

from microdot import Microdot, Request

from boardweb import quick
from cribcore.web.edge import BODY_S, HEAD_S
from pegboard.ticks import elapsed, later

try:
    from time import ticks_ms  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - CPython (the module is MicroPython's)
    from pegboard.ticks import PERIOD

    def ticks_ms():
        import time
        return int(time.monotonic() * 1000) % PERIOD

MAX_CONNECTIONS = 12  # open at once (streams among them)
MAX_STREAMS = 6  # event streams at once: a few phones and a shared screen
SEAT_STREAMS = 2  # event streams of one seat at once (a page reloaded, a second tab)
# A connection that has sent a line of its request is closed for a new one only once
# GRACE_MS old: a phone's request comes whole at once, but the loop reads a line per pass and
# takes a new connection between them (before, a burst of 20 silent connections closed a
# player's GET half read again and again: tests/webboth/mixedrun.py)
GRACE_MS = 2000
ADMIT_FREE = 40 * 1024  # bytes free after a collection before a new connection is taken
# bytes free at an answer's end below which the heap is collected before the next answer
# (BoardServer.tidy, between answers): more than the most an answer allocates (about
# 36 KB on the chip), so that none needs a collection of its own
TIDY_FREE = 64 * 1024
BAD_LENGTH = b"Bad-Length:"  # a Content-Length not in digits, renamed (Timed)
RESET = 104  # ECONNRESET: microdot closes such a connection quietly
CHUNK = 1024  # bytes asked of the socket at a time: a phone's whole request, mostly
GET = ("GET",)  # a GET route's methods (Guarded.route: one tuple for them all)


def length(req):
    """The request's Content-Length as sent (one not in digits: BAD_LENGTH, renamed by Timed)."""
    return req.headers.get("Bad-Length") or req.headers.get("Content-Length")


class Timed:
    """A connection's reader under two deadlines: the request's whole head within HEAD_S
    of the connection, then its whole body within BODY_S of the head's end; past one it
    gives up as a reset connection. It reads the socket CHUNK bytes at a time into a
    bounded buffer and hands microdot its lines from there: a phone's request (about
    500 bytes) is one read under one deadline, not a read and a timer per line."""

    def __init__(self, reader):
        self.reader = reader
        self.opened = ticks_ms()
        self.heard = False  # a line of the request is in
        self.deadline = later(self.opened, HEAD_S * 1000)
        self.reading = True  # still reading the request (not yet answering it)
        self.in_body = False
        self.buf = b""  # read, not yet handed on: at most a line and a chunk
        self.at = 0  # where in buf the next byte is

    async def _within(self, read, n):
        """Up to n bytes: what the socket holds already, taken at once (no timer, no
        pass of the loop: a phone's request is there whole when its connection's task
        first runs), else read(n) awaited within the deadline. Past the deadline only
        what the socket holds is taken: the deadline counts from the accept, and a board
        busy for seconds meanwhile must not refuse a request waiting whole in its
        socket."""
        got = self._ready(n)
        if got:
            return got
        left = elapsed(self.deadline, ticks_ms())
        if left <= 0:
            raise OSError(RESET)
        try:
            return await asyncio.wait_for(read(n), left / 1000)
        except (asyncio.TimeoutError, EOFError):  # EOFError: a phone gone mid-body
            raise OSError(RESET) from None

    def _ready(self, n):
        """Up to n bytes the connection holds already, read without waiting (None if
        none: MicroPython's stream keeps its non-blocking socket as .s)."""
        sock = getattr(self.reader, "s", None)
        if sock is None or n <= 0:
            return None
        try:
            return sock.read(n)  # None when nothing is there (b"": its end)
        except OSError:
            return None  # said again by the read awaited

    def _take(self, n):
        """Up to n bytes from the buffer."""
        out = self.buf[self.at:self.at + n]
        self.at += len(out)
        if self.at >= len(self.buf):
            self.buf, self.at = b"", 0
        return out

    async def _line(self):
        """The next line (its newline kept), from the buffer and as few reads as may be;
        one longer than microdot's max_readline is cut just past it (microdot refuses
        it): the buffer stays bounded; b"" at the end."""
        most = Request.max_readline
        while True:
            end = self.buf.find(b"\n", self.at)
            if end >= 0:
                return self._take(end + 1 - self.at)
            if len(self.buf) - self.at > most:
                return self._take(most + 1)
            chunk = await self._within(self.reader.read, CHUNK)
            if not chunk:
                return self._take(len(self.buf))
            self.buf = self.buf[self.at:] + chunk if self.at < len(self.buf) else chunk
            self.at = 0

    def ready(self):
        """Whether the buffer holds bytes, after taking what the socket holds already
        (no coroutine, no wait: a phone's request is there whole when its task runs)."""
        if self.at < len(self.buf):
            return True
        got = self._ready(CHUNK)
        if not got:
            return False
        self.buf, self.at = got, 0
        return True

    def taken(self, n):
        """The next n bytes if the buffer holds them (a body in the first read), else
        None (readexactly() awaits them)."""
        if len(self.buf) - self.at < n:
            return None
        return self._take(n)

    async def fill(self):
        """The connection's first chunk read into the buffer (if it is empty): where
        boardweb.quick looks for a whole request head."""
        if self.at >= len(self.buf):
            self.buf, self.at = await self._within(self.reader.read, CHUNK), 0

    def head_read(self, end):
        """The head is the buffer up to end (boardweb.quick read it): the body's deadline
        from now."""
        self.at = end
        self.heard = self.in_body = True
        self.deadline = later(ticks_ms(), BODY_S * 1000)

    async def readline(self):
        line = await self._line()
        self.heard = True
        if not self.in_body:
            if line in (b"\r\n", b"\n", b""):
                self.in_body = True  # the head is in: the body has a deadline of its own
                self.deadline = later(ticks_ms(), BODY_S * 1000)
            elif line[:15].lower() == b"content-length:" and \
                    not line[15:].strip().isdigit():
                # microdot would print a traceback on it: the edge refuses it (400)
                line = BAD_LENGTH + line[15:]
        return line

    async def readexactly(self, n):
        out = self._take(n)
        while len(out) < n:
            got = await self._within(self.reader.read, n - len(out))
            if not got:
                raise OSError(RESET)  # the phone gone mid-body
            out += got
        return out

    async def read(self, n=-1):
        if self.at < len(self.buf):
            return self._take(len(self.buf) if n < 0 else n)
        return await self._within(self.reader.read, n)


class Gathered:
    """A connection's writer that sends a response's head with the first piece of its body
    in one write: microdot writes each header line by itself, and small packets wait for
    the phone's delayed ACK (about 40 ms each on loopback)."""

    # set on a connection only when they change (each attribute an instance holds is
    # heap: a phone's POST sets none of these)
    ended = False  # the head's blank line is in
    dropped = False  # an event stream dropped for a newer one (Guarded)
    seat = None  # an event stream's seat (Guarded.stream)

    def __init__(self, writer):
        self.writer = writer
        self.head = ()  # the head's lines so far, a list once one is (None: sent)

    def get_extra_info(self, name):
        return self.writer.get_extra_info(name)

    async def awrite(self, data):
        try:
            if self.head is None:
                return await self.writer.awrite(data)
            if self.head:
                self.head.append(data)
            else:  # a list only for microdot's responses (a quick reply is one write)
                self.head = [data]
            if self.ended:
                await self._send()
            elif data == b"\r\n":
                self.ended = True
        except MemoryError:
            # As a reset connection: microdot ends the response and closes the connection
            # (a phone's event stream opens anew), where a MemoryError would go past its
            # close and leave the connection open with nothing more to come.
            self.head = None
            raise OSError(RESET) from None

    def put(self, data):
        """Write data at once, without waiting (an event stream's, its head sent): True
        if the connection took it all, False if some is kept in its buffer (drain())."""
        self.writer.write(data)
        return not self.writer.out_buf

    async def drain(self):
        await self.writer.drain()

    def sent(self, data):
        """A whole response written and the connection closed, with no coroutine (what a
        phone's reply takes: the socket takes its few hundred bytes at once): True; False
        if the writer is no socket's stream (nothing written) or its socket kept some of
        data in the stream's buffer: send() then sends it (the rest) and closes."""
        writer = self.writer
        sock = getattr(writer, "s", None)
        if sock is None or writer.out_buf:
            return False
        self.head = None  # written here: send() drains what the socket kept
        try:
            writer.write(data)
        except (OSError, MemoryError):
            pass  # the phone gone, or no heap to send it: closed all the same
        if writer.out_buf:
            return False
        try:  # the stream's aclose() (asyncio's wait_closed), with no coroutine
            sock.close()
        except OSError:
            pass
        return True

    async def send(self, data):
        """A whole response in one write (or the rest of it, if sent() wrote it), then
        the connection closed (boardweb.quick's)."""
        written, self.head = self.head is None, None
        try:
            if written:
                await self.writer.drain()
            else:
                await self.writer.awrite(data)
        except (OSError, MemoryError):
            pass  # the phone gone, or no heap to send it: closed all the same
        try:
            await self.writer.aclose()
        except OSError:
            pass

    async def _send(self):
        head, self.head = self.head, None
        await self.writer.awrite(b"".join(head))

    async def aclose(self):
        if self.head:
            try:
                await self._send()
            except OSError:
                pass  # gone already
        await self.writer.aclose()


class Held:
    """The reader of a connection whose request is read (an event stream held open): read
    no more, never closed for a new connection (Guarded._admit)."""

    reading = False
    heard = True
    opened = 0


HELD = Held()


def heap_free():
    """Whether ADMIT_FREE bytes are free, after a collection if need be."""
    if gc.mem_free() >= ADMIT_FREE:
        return True
    gc.collect()
    return gc.mem_free() >= ADMIT_FREE


class Guarded(Microdot):
    """microdot with every connection's request read under deadlines (Timed), each
    response's head sent with its body (Gathered), and the connections and streams
    capped (module docstring)."""

    hosts = ()  # the Host names answered (boardweb.quick takes one as it is: no str made)

    def __init__(self):
        super().__init__()
        self.conns = []  # [task (None: closed), Timed, Gathered] of each open connection
        self.streams = []  # the Gathered of each event stream, oldest first
        self.refused = 0  # connections closed unread (heap short, or all busy)
        self.wake = None  # () -> None: wakes the streams (one dropped ends at once)
        self.hot = {}  # path -> (method, fn): served by boardweb.quick, not microdot
        self.check = None  # (method, path, header, key) -> the rules' refusal (quick's)
        self.noted = None  # () -> None after each quick request (the tests' heap peak)
        self.serving = 0  # requests in hand (their body in, their response not yet made)
        self.idle = None  # () -> None when serving falls to 0 (BoardServer.frames waits)
        self.answered = None  # () -> None after each quick request's reply is sent
        self.heap_ok = False  # the heap's last look (note_heap) passed: for one connection
        self.tidy = False  # the heap's last look found it short of TIDY_FREE
        self.exact = {}  # path -> [(methods, handler)]: the routes with no <argument>

    def route(self, url_pattern, methods=None):
        """microdot's route decorator, but a path with no <argument> is kept in a dict
        (exact), not as a URLPattern in url_map: microdot compiles each pattern into a
        regular expression with a dict per segment (about 200 bytes of the live heap a
        route on the chip) and tries them one by one; a path's routes are found here by
        one lookup, the first whose methods take the request's, as microdot's order."""
        if "<" in url_pattern:
            return super().route(url_pattern, methods)

        def decorated(f):
            taken = GET if methods is None or methods == ["GET"] else \
                tuple([m.upper() for m in methods])
            self.exact.setdefault(url_pattern, []).append((taken, f))
            return f
        return decorated

    def find_route(self, req):
        """(handler, prefix, subapp) as microdot's find_route: a path in exact by its
        lookup (then url_map's patterns if none of its routes takes the method: 405 if
        none does), any other by url_map's patterns. (An exact route is found before a
        pattern's that also matches its path: none of the board's does.)"""
        routes = self.exact.get(req.path)
        if routes is None:
            return super().find_route(req)
        method = req.method.upper()
        if method == "OPTIONS" and self.options_handler:
            return self.options_handler(req), "", None
        if method == "HEAD":
            method = "GET"
        for methods, handler in routes:
            if method in methods:
                req.url_args = {}
                return handler, "", None
        found = super().find_route(req)  # a pattern's route may take the method
        return found if found[0] != 404 else (405, "", None)

    def default_options_handler(self, req):
        """microdot's Allow header for OPTIONS, the exact routes' methods included."""
        allow = []
        for methods, _ in self.exact.get(req.path, ()):
            allow.extend(methods)
        for methods, pattern, _, _, _ in self.url_map:
            if pattern.match(req.path) is not None:
                allow.extend(methods)
        if "GET" in allow:
            allow.append("HEAD")
        allow.append("OPTIONS")
        return {"Allow": ", ".join(allow)}


    def took(self):
        """A request is in hand (its body in): counted in serving until done()."""
        self.serving += 1

    def done(self):
        """A request taken is answered (its response made, or sent)."""
        self.serving -= 1
        if not self.serving and self.idle is not None:
            self.idle()

    async def handle_request(self, reader, writer):
        if not self._admit():
            self.refused += 1
            try:
                await writer.aclose()
            except OSError:
                pass
            return
        timed, gathered = Timed(reader), Gathered(writer)  # (a test may wrap Gathered)
        conn = [asyncio.current_task(), timed, gathered]
        self.conns.append(conn)
        try:
            done = self.hot and quick.answer(self, timed, gathered)  # no coroutine
            if done is None:  # not whole at once: read and served by a coroutine
                done = await quick.serve(self, timed, gathered)
            elif isinstance(done, bytes):  # a reply the socket did not take at once
                await gathered.send(done)
                done = quick.finish(self)
            if not done:
                await super().handle_request(timed, gathered)
            elif done is not True:  # an event stream: held here, quick.serve's frame gone
                conn[1] = timed = HELD  # its reader (Timed) leaves the heap
                await quick.held(done, gathered)
        except asyncio.CancelledError:
            try:  # closed for a newer connection (_admit): no answer
                await writer.aclose()
            except OSError:
                pass
        finally:
            self.conns.remove(conn)
            if gathered in self.streams:
                self.streams.remove(gathered)

    def note_heap(self):
        """Look at the heap now, for the next connection (module docstring): the board is
        between answers, so the phone whose answer comes next does not wait for the look.
        Only a look: a short heap is collected where no answer waits on it, by the frames
        loop between answers (BoardServer.tidy), or by the next connection's own check."""
        free = gc.mem_free()
        self.heap_ok = free >= ADMIT_FREE
        self.tidy = free < TIDY_FREE  # BoardServer.tidy collects it between answers

    def _admit(self):
        """Whether a new connection is taken (room made for it if the caps are reached)."""
        ok, self.heap_ok = self.heap_ok, False  # a look serves one connection, no more
        if not (ok or heap_free()):
            self._drop_stream()
            return False
        if len(self.conns) >= MAX_CONNECTIONS:
            now, young = ticks_ms(), False
            for conn in self.conns:
                if conn[0] is None:
                    continue  # closed already
                # the oldest still sending its request (silent, or past GRACE_MS: a
                # trickle), or a stream dropped already and not yet ended: closed for it
                timed = conn[1]
                if conn[2].dropped or timed.reading and \
                        (not timed.heard or elapsed(now, timed.opened) >= GRACE_MS):
                    conn[1].reading = False
                    task, conn[0] = conn[0], None
                    task.cancel()
                    return True
                young = young or conn[1].reading
            if young or not self._drop_stream():
                return False  # the new one closed unread (sent again, if a phone's)
        return True

    def _drop_stream(self, seat=False):
        """End the oldest event stream of seat (False: of the seat with the most streams,
        the seatless first among equals, then the oldest); its page opens it again.
        False if none."""
        if seat is False:
            most = {}
            for s in self.streams:
                most[s.seat] = most.get(s.seat, 0) + 1
            top = max(most.values()) if most else 0
            mine = [s for s in self.streams if most[s.seat] == top]
            mine = [s for s in mine if s.seat is None] or mine
        else:
            mine = [s for s in self.streams if s.seat == seat]
        if not mine:
            return False
        self.streams.remove(mine[0])
        mine[0].dropped = True
        if self.wake is not None:
            self.wake()
        return True

    async def dispatch_request(self, req):
        if req is None:
            return await super().dispatch_request(req)
        req.sock[0].reading = False  # the request is in: answered, never dropped
        self.took()
        try:
            return await super().dispatch_request(req)
        finally:
            self.done()

    def stream(self, gathered, seat=None):
        """gathered's connection is an event stream of seat (boardweb.routes.stream_seat;
        None: no seat shown): counted among its seat's SEAT_STREAMS and MAX_STREAMS in
        all (module docstring)."""
        gathered.seat = seat
        if seat is not None and \
                sum([1 for s in self.streams if s.seat == seat]) >= SEAT_STREAMS:
            self._drop_stream(seat)
        elif len(self.streams) >= MAX_STREAMS:
            self._drop_stream()
        self.streams.append(gathered)
