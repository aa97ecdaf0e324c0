"""boardweb.quick serves a phone's event stream (GET /events, as the page opens it) as it
serves the posts: from its connection's first read, with no microdot Request (its dicts,
its task's frame) held for as long as the stream is open. The stream is the same either
way (the board built twice, once with the quick path off): its head, the state now as
its first event, each new version after it, its seat counted among the caps, a forged
or keyless one refused alike, a stream dropped for a newer one of its seat ended."""

import asyncio
import json
import sys

import pytest
from support import FIRMWARE

for where in (str(FIRMWARE), str(FIRMWARE.parent / "tests" / "core_table")):
    if where not in sys.path:
        sys.path.append(where)

from boardweb import conn  # noqa: E402
from microdot import Request  # noqa: E402
from test_quick_requests import HOST, KEY, Heap, server  # noqa: E402

from cribcore.table.seats import seat_token  # noqa: E402


@pytest.fixture(autouse=True)
def heap(monkeypatch):
    monkeypatch.setattr(conn, "gc", Heap)


class Wire:
    """A connection's request, there whole at its first read; then the phone reads and
    sends nothing more (a stream's connection stays open)."""

    def __init__(self, data):
        self.data = data

    async def read(self, n=-1):
        if self.data:
            out, self.data = self.data, b""
            return out
        await asyncio.sleep(3600)
        return b""


class Phone:
    """A connection's writer as MicroPython's asyncio stream: every write taken at once."""

    out_buf = b""

    def __init__(self):
        self.got = b""
        self.writes = []  # each write's bytes, in order
        self.closed = False

    def get_extra_info(self, name):
        return ("10.0.0.9", 50000)

    async def awrite(self, data):
        self.write(data)

    def write(self, data):
        self.writes.append(bytes(data))
        self.got += data

    async def drain(self):
        pass

    async def aclose(self):
        self.closed = True

    def head(self):
        head = self.got.partition(b"\r\n\r\n")[0].decode().split("\r\n")
        fields = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        return head[0], fields

    def events(self):
        body = self.got.partition(b"\r\n\r\n")[2]
        return [json.loads(line[6:]) for line in body.split(b"\n")
                if line.startswith(b"data: ")]


def get(path, key=KEY, host=HOST):
    lines = ["GET %s HTTP/1.1" % path, "Host: " + host, "Accept: text/event-stream"]
    if key is not None:
        lines.append("X-Crib-Key: " + key)
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def _until(test):
    for _ in range(500):
        if test():
            return
        await asyncio.sleep(0)
    raise AssertionError("never came")


def counting():
    """Request.create wrapped: how many requests microdot read."""
    read = []
    create = Request.create

    async def counted(*args, **kw):
        read.append(1)
        return await create(*args, **kw)
    Request.create = counted
    return read, create


async def _stream(srv, data):
    """A stream opened on srv: (its phone, its task) once its first event is in."""
    phone = Phone()
    task = asyncio.create_task(srv.app.handle_request(Wire(data), phone))
    await _until(lambda: phone.events() or task.done())
    return phone, task


def run_streams(quick, data, more=None):
    """The stream data opens on a board (the quick path on or off): what its phone got,
    how many requests microdot read, the streams counted (seats), and more(srv, phone)'s."""
    srv = server()
    if not quick:
        srv.app.hot = {}
    read, create = counting()

    async def go():
        phone, task = await _stream(srv, data)
        seats = [g.seat for g in srv.app.streams]
        extra = None if more is None else await more(srv, phone, task)
        task.cancel()
        return phone, seats, extra

    try:
        phone, seats, extra = asyncio.run(go())
    finally:
        Request.create = create
    return phone, len(read), seats, extra


async def _next_version(srv, phone, task):
    """A new version (the server's own fields shown anew) reaches the stream."""
    before = len(phone.events())
    srv.room.show({"lanes": 2})
    srv.changed()
    await _until(lambda: len(phone.events()) > before)
    return phone.events()[-1]["version"] == srv.room.version


def test_a_phones_stream_is_served_quick_with_microdots_head_and_events():
    seat = "?s=0&t=" + seat_token(KEY, 0)
    for path in ("/events", "/events" + seat):
        fast, read, seats, moved = run_streams(True, get(path), _next_version)
        slow, slow_read, slow_seats, slow_moved = run_streams(False, get(path),
                                                             _next_version)
        assert read == 0 and slow_read == 1  # no microdot Request for the quick one
        assert fast.head() == slow.head() == (
            "HTTP/1.0 200 OK", {"content-type": "text/event-stream",
                                "cache-control": "no-store"})
        # the state now, whole (each board its own run's id)
        assert dict(fast.events()[0], run=0) == dict(slow.events()[0], run=0)
        assert fast.events()[0]["version"] >= 0 and moved and slow_moved
        assert seats == slow_seats == [0 if "s=" in path else None]
        # the head with the state in one write; then the version in three pieces, the
        # room's JSON written as it is (no copy of it joined to the event's ends)
        first, *rest = fast.writes
        assert first.startswith(b"HTTP/1.0 200 OK") and first.endswith(b"}\n\n")
        assert len(rest) == 3 and rest[0] == b"data: " and rest[2] == b"\n\n"
        assert json.loads(rest[1]) == fast.events()[-1]


@pytest.mark.parametrize("data", [
    get("/events", key=None),  # no key
    get("/events", key="wrong"),
    get("/events", host="evil.example"),  # a foreign Host
    get("/events?k=" + KEY, key=None),  # the key in the query: taken
])
def test_a_forged_or_keyless_stream_is_answered_as_microdot_answers_it(data):
    (fast, read, _, _), (slow, _, _, _) = run_streams(True, data), run_streams(False, data)
    assert read == 0
    assert fast.head()[0] == slow.head()[0]
    assert fast.head()[1].get("content-type") == slow.head()[1].get("content-type")
    assert [dict(e, run=0) for e in fast.events()] == \
        [dict(e, run=0) for e in slow.events()]
    if not fast.events():  # refused: the rules' text
        assert fast.got.partition(b"\r\n\r\n")[2] == slow.got.partition(b"\r\n\r\n")[2]
    assert (fast.events() == []) is (b"evil" in data or b"wrong" in data or
                                     b"Key" not in data and b"k=" not in data)


def test_a_seats_third_stream_drops_its_oldest_which_ends_and_closes():
    srv = server()
    path = get("/events?s=1&t=" + seat_token(KEY, 1))

    async def go():
        first, first_task = await _stream(srv, path)
        second, _ = await _stream(srv, path)
        third, _ = await _stream(srv, path)
        await _until(first_task.done)  # dropped for the newer ones (SEAT_STREAMS = 2)
        assert first.closed and not second.closed and not third.closed
        assert [g.seat for g in srv.app.streams] == [1, 1]
        assert len(srv.push.follows) == 2
    asyncio.run(go())


def test_a_stream_whose_state_cannot_be_made_gets_its_head_and_is_closed():
    srv = server()

    def fails():
        raise MemoryError()
    srv.room.text = fails

    async def go():
        phone = Phone()
        await srv.app.handle_request(Wire(get("/events")), phone)
        return phone
    phone = asyncio.run(go())
    assert phone.closed and phone.head()[0] == "HTTP/1.0 200 OK" and phone.events() == []
    assert srv.app.streams == [] and srv.push.follows == []


def test_a_held_stream_keeps_no_reader_and_is_never_closed_for_a_new_connection():
    """Once its request is read, a stream's connection keeps no reader (Timed: its
    deadlines and buffer) for as long as the page is open, only conn.HELD; with every
    connection taken, a new one still closes a silent one, never the stream."""
    srv = server()

    async def go():
        phone, task = await _stream(srv, get("/events"))
        await _until(lambda: srv.app.conns and srv.app.conns[0][1] is conn.HELD)
        silent = []
        for _ in range(conn.MAX_CONNECTIONS - 1):  # connections that send nothing yet
            silent.append(asyncio.create_task(srv.app.handle_request(Wire(b""), Phone())))
        await _until(lambda: len(srv.app.conns) == conn.MAX_CONNECTIONS)
        assert srv.app._admit()  # room made: a silent one closed, not the stream
        assert not task.done() and srv.app.conns[0][1] is conn.HELD
        assert srv.app.conns[1][0] is None  # the oldest silent one
        for t in silent + [task]:
            t.cancel()
    asyncio.run(go())
