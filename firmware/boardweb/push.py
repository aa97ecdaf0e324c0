"""The state pushed to every screen of the board's server, by one writer for all the
event streams: each new version's JSON is the room's, made once (the patch from the
version before, cribcore.table.patch, about 1 KB, for a stream that has that one; the
whole state, 6-8 KB, for any other), and written to each phone in turn without waiting
(Gathered.put), not a task woken per phone. An event is written in three pieces, the
constant `data: `, the room's JSON as it is and the constant blank line, not joined into a
copy of the JSON (about 1 KB of the chip's heap an answer); the stream's socket sends
each piece at once (TCP_NODELAY, set when the stream starts: else the JSON and the blank
line would wait for the phone's ACK of the first piece, tens of ms). A comment goes to
every stream when HEARTBEAT_S pass without a wake (a task of its own: _beat), so a dead
phone's connection is noticed when it cannot be written.

    push = Push(room, app)          # app: boardweb.conn.Guarded (its streams capped)
    push.changed()                  # the room has a new state: the writer wakes
    follow = Follow(push, conn, seat)        # GET /events (conn: boardweb.conn.Gathered)
    frame = follow.start()                   # the state now: sent with the head
    await follow.hold()                      # then the connection held until it ends

A phone that cannot take its bytes at once (its socket's buffer full) is drained by a task
of its own and skipped by the writer until then; it is then sent the latest version (a
slow reader skips to the latest, it is never queued each one). A stream that fails
(MemoryError above all) ends: microdot then closes its connection and the page's
EventSource opens a new one; it is never left open and silent.
"""

import asyncio

from cribcore.web.edge import HEARTBEAT_S

BEAT = b": still here\n\n"  # the heartbeat's comment
HEAD = b"data: "  # an event's first piece, before its JSON
TAIL = b"\n\n"  # its last: the phone's EventSource dispatches it


def said(error, what="an event stream ended"):
    """Say on the console (a board's USB) why an event stream ended (or what failed)."""
    try:
        print("boardweb: %s: %r" % (what, error))
    except MemoryError:
        pass  # nothing to say it with


class Follow:
    """One event stream: its first piece the state now (start(), sent with the response's
    head), then the connection held (hold()) until the stream ends, while Push's writer
    writes each new version to it. boardweb.quick runs it on a phone's plain GET /events;
    microdot runs it as a response's body (an async iterator) for any other."""

    def __init__(self, push, conn, seat=None):
        self.push = push
        self.conn = conn  # boardweb.conn.Gathered
        self.seat = seat  # the seat the stream names (boardweb.routes.stream_seat)
        self.sent = -1  # the version written to it last
        self.started = False
        self.busy = False  # bytes still in its connection's buffer (Push._drain)
        self.ended = asyncio.Event()

    def start(self):
        """The stream counted among its seat's (boardweb.conn), and its first event: the
        state now (None if it could not be made: the stream ends)."""
        push = self.push
        self.started = True
        push.app.stream(self.conn, self.seat)
        no_delay(self.conn)
        try:
            text = push.event()
            self.sent = push.room.version
            return b"".join((HEAD, text, TAIL))  # with the head: once a stream
        except Exception as e:
            push.failed(e)
            return None

    async def hold(self):
        """Until the stream ends (dropped for a newer one, failed, or its phone gone)."""
        if not self.conn.dropped:
            self.push.add(self)
            try:
                await self.ended.wait()
            finally:
                self.push.remove(self)

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self.started:
            frame = self.start()
            if frame is not None:
                return frame
        else:
            await self.hold()
        raise StopAsyncIteration

    async def aclose(self):
        self.push.remove(self)


class Push:
    """The event streams of one room (module docstring)."""

    def __init__(self, room, app):
        self.room = room
        self.app = app
        self.follows = []  # the streams the writer writes to (Follow)
        self.writer = None  # its task, made with the first stream
        self.beat = None  # the heartbeat's task, made with it
        self.quiet = True  # no wake since the heartbeat's last look
        self.wake = asyncio.Event()
        # what event() made, each with its version (two fields: no tuple a version): the
        # whole state's JSON as bytes, and the patch's (b"" if it has none)
        self._frame_at, self._frame = -1, None
        self._patch_at, self._patch = -1, None
        app.wake = self.changed  # a stream dropped for a newer one ends at once
        self.after = None  # () -> None: run once each new version is written (tend)
        self.tended = -1  # the version tend() wrote last

    def changed(self):
        """Wake the writer: the room has a new state (or a stream was dropped)."""
        self.quiet = False
        self.wake.set()

    def add(self, follow):
        self.follows.append(follow)
        if self.writer is None:
            self.writer = asyncio.create_task(self._write())
            self.beat = asyncio.create_task(self._beat())
        if follow.sent != self.room.version:
            self.wake.set()

    def remove(self, follow):
        if follow in self.follows:
            self.follows.remove(follow)
        follow.ended.set()

    def failed(self, error):
        self._let_go_all()  # the heap back
        said(error)

    async def _write(self):
        """The one writer: each new version to every stream. It waits for a wake alone:
        asyncio.wait_for would make a task, a timer and a cancellation per version (the
        chip's time and heap in every answer), so the heartbeat has a task of its own."""
        while True:
            self.wake.clear()
            self.tend()
            await self.wake.wait()

    async def _beat(self):
        """A comment to every stream (not busy) once HEARTBEAT_S pass without a wake:
        so a comment comes within 2 x HEARTBEAT_S of the last word on an idle stream."""
        while True:
            self.quiet = True
            await asyncio.sleep(HEARTBEAT_S)
            if self.quiet:
                for f in self.follows[:]:
                    if not f.busy:
                        self._put(f, None)

    def behind(self):
        """Whether a new version waits for the writer (a screen open)."""
        return bool(self.follows) and self.tended != self.room.version

    def tend(self):
        """Each stream not busy and behind is written the version now; a dropped one
        ends."""
        version = self.tended = self.room.version
        follows = self.follows
        i = 0
        while i < len(follows):  # by index, not over a copy: a list less each version
            f = follows[i]
            i += 1
            if f.conn.dropped:
                self.remove(f)
                i -= 1
            elif not f.busy and f.sent != version:
                try:
                    text = self.event(f.sent)
                    f.sent = version
                except Exception as e:
                    self.failed(e)
                    self.remove(f)
                    i -= 1
                    continue
                if not self._put(f, text):
                    i -= 1  # it failed: removed
        self._let_go(version)
        if self.after is not None:
            try:
                self.after()  # what waited for the screens (BoardServer.flush)
            except Exception as e:  # noqa: BLE001 - the streams go on whatever it was
                said(e, "the work after a reply failed")

    def _let_go(self, version):
        """What no stream needs any more leaves the heap: a whole state made for a stream
        opened at an older version (6-8 KB), and the patch's event and the room's text of
        it once every stream has it (none busy: a busy one's drain may want it; the room
        keeps the text until then)."""
        if self._frame_at != version:
            self._frame_at, self._frame = -1, None
        for f in self.follows:
            if f.busy:
                return
        self._patch_at, self._patch = -1, None
        self.room.sent()  # its text too: a stream opened later is sent the whole state

    def _put(self, f, text):
        """Write an event (text: its JSON; None: the heartbeat's comment) to f's
        connection at once; what its buffer keeps is drained by a task of its own. False
        if the write failed: f is removed from the streams."""
        try:
            if put(f.conn, text):
                return True
        except Exception as e:
            self.failed(e)
            self.remove(f)
            return False
        f.busy = True
        asyncio.create_task(self._drain(f))
        return True

    async def _drain(self, f):
        """f's connection's buffer sent, then the version now if it is behind."""
        try:
            while True:
                await f.conn.drain()
                if f.ended.is_set() or f.sent == self.room.version:
                    break
                text = self.event(f.sent)
                f.sent = self.room.version
                if put(f.conn, text):
                    break
        except Exception as e:
            self.failed(e)
            self.remove(f)
        finally:
            f.busy = False
        self._let_go(self.room.version)  # it was the last to need them, maybe

    def _let_go_all(self):
        """The whole state's and the patch's JSON let go (a stream failed: the heap
        back)."""
        self._frame_at, self._frame = -1, None
        self._patch_at, self._patch = -1, None

    def event(self, sent=-1):
        """The JSON (as bytes) a stream that has version sent is sent for the room's
        version now: the patch from the version before if sent is that one and it has a
        patch, else the whole state; each the room's text (made once per version), its
        bytes shared (MicroPython's str.encode copies nothing)."""
        version = self.room.version
        if sent == version - 1:
            if self._patch_at != version:
                self._patch_at, self._patch = -1, None
                text = self.room.patch_text()
                self._patch = b"" if text is None else text.encode()
                self._patch_at = version
            if self._patch:
                return self._patch
        if self._frame_at != version:
            self._frame_at, self._frame = -1, None
            self._frame = self.room.text().encode()
            self._frame_at = version
        return self._frame


def put(conn, text):
    """An event (text: its JSON as bytes; None: the heartbeat's comment) written to conn
    (boardweb.conn.Gathered, its head sent) at once, in pieces: no copy of the JSON. True
    if the connection took it all, else its writer's buffer keeps the rest, in order
    (asyncio's stream: a write goes to the socket only while its buffer is empty)."""
    writer = conn.writer
    if text is None:
        writer.write(BEAT)
    else:
        writer.write(HEAD)
        writer.write(text)
        writer.write(TAIL)
    return not writer.out_buf


def no_delay(conn):
    """The stream's socket sends each write at once (TCP_NODELAY): an event's pieces
    (put) are not held for the phone's ACK of the first (Nagle). The option's number is
    the socket module's where it names it (lwIP's), else Linux's (the unix port's); a
    writer with no socket (a test's, the bench's) has nothing to set."""
    sock = getattr(conn.writer, "s", None)
    if sock is None or not hasattr(sock, "setsockopt"):
        return
    import socket

    try:
        sock.setsockopt(getattr(socket, "IPPROTO_TCP", 6), getattr(socket, "TCP_NODELAY", 1),
                        1)
    except OSError:
        pass  # not a TCP socket: its writes go as they would
