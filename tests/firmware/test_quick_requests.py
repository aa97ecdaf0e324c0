"""boardweb.quick: what a phone posts per answer is served from its connection's first
read (the head looked at in one buffer, the body sliced, the reply in one write), not by
microdot's line-by-line parsing; any request not plain enough is left unread for
microdot. Either way the board answers alike: the same status, Content-Type and body as
microdot's path gives (the server built twice, once with the quick path off), for the
plain request and for every forged or odd one (no key, another site, a form, a foreign
Host, a bad or huge length, chunks, a folded or broken header, lower-case names, the key
in the query, a body in pieces or never finished)."""

import asyncio
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import FIRMWARE

for where in (str(FIRMWARE), str(FIRMWARE.parent / "tests" / "core_table")):
    if where not in sys.path:
        sys.path.append(where)

import desk  # noqa: E402
from boardweb import conn  # noqa: E402
from boardweb.appboard import LoopPort  # noqa: E402
from boardweb.board import build  # noqa: E402
from boardweb.quick import parse  # noqa: E402
from microdot import Request  # noqa: E402

from cribcore.table.session import Setup  # noqa: E402
from cribcore.web.rules import MAX_BODY  # noqa: E402

KEY = "quick-key"
HOST = "192.168.4.1"


class Heap:
    """MicroPython's gc.mem_free (the admission's check), on CPython: plenty free."""

    @staticmethod
    def mem_free():
        return 1 << 30

    @staticmethod
    def collect():
        pass


@pytest.fixture(autouse=True)
def heap(monkeypatch):
    monkeypatch.setattr(conn, "gc", Heap)


class Wire:
    """A connection's incoming bytes in pieces (asyncio's stream's read: one piece a
    call; b"" at the end, or a wait for ever when stalled)."""

    def __init__(self, pieces, stalled=False):
        self.pieces = [p for p in pieces if p]
        self.stalled = stalled

    async def read(self, n=-1):
        if not self.pieces:
            if self.stalled:
                await asyncio.sleep(3600)
            return b""
        piece = self.pieces.pop(0)
        if 0 <= n < len(piece):
            self.pieces.insert(0, piece[n:])
            piece = piece[:n]
        return piece

    async def readexactly(self, n):
        out = b""
        while len(out) < n:
            got = await self.read(n - len(out))
            if not got:
                raise EOFError()
            out += got
        return out


class Reply:
    """What the server wrote to a connection, as one byte string."""

    def __init__(self):
        self.out = []
        self.writes = 0

    def get_extra_info(self, name):
        return ("10.0.0.9", 50000)

    async def awrite(self, data):
        self.writes += 1
        self.out.append(data)

    async def aclose(self):
        pass

    def said(self):
        """(status, Content-Type, body) of the response."""
        head, _, body = b"".join(self.out).partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        kind = [ln.split(":", 1)[1].strip() for ln in lines
                if ln.lower().startswith("content-type:")]
        return int(lines[0].split()[1]), kind[0] if kind else None, body


def server():
    app = desk.build({"store": None, "config": None, "driven": False}, LoopPort())
    return build(app, KEY, "http://%s/?k=%s" % (HOST, KEY), "/page", None,
                 Setup(["Alice", "Bob"], False, 61, 0), hosts=[HOST],
                 clock=lambda: int(time.monotonic() * 1000), nonce="q1")


def serve(srv, pieces, stalled=False):
    """The server's response to a connection sending pieces: (status, type, body), and
    whether microdot read it (not the quick path), and the writes made."""
    read = []
    create = Request.create

    async def counted(*args, **kw):
        read.append(1)
        return await create(*args, **kw)

    reply = Reply()
    Request.create = counted
    try:
        asyncio.run(srv.app.handle_request(Wire(pieces, stalled), reply))
    finally:
        Request.create = create
    return reply.said(), bool(read), reply.writes


def both(pieces, stalled=False, answer=False):
    """The same request to a board with the quick path and one without: both answers,
    and whether the quick board's microdot read it."""
    quick, slow = server(), server()
    slow.app.hot = {}
    if answer:  # a seat's token for the question open now
        pieces = [p.replace(b"QID", quick.room.question["id"].encode()) for p in pieces]
        tokens = [quick.edge.join({"seat": 0}, quick.room.names())[1],
                  slow.edge.join({"seat": 0}, slow.room.names())[1]]
        assert tokens[0] == tokens[1]
    a, via_microdot, writes = serve(quick, pieces, stalled)
    b, _, _ = serve(slow, pieces, stalled)
    return a, b, via_microdot, writes


def post(body, path="/api/answer", headers=None, first="POST %s HTTP/1.1"):
    lines = [first % path, "Host: " + HOST, "X-Crib-Key: " + KEY,
             "Content-Type: application/json", "Content-Length: %d" % len(body)]
    if headers is not None:
        lines = [first % path] + headers
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


ANSWER = b'{"question": "QID", "answer": "5h", "seat": "table", "token": "TOKEN"}'


def test_a_phones_answer_is_served_quick_in_one_write_as_microdot_answers_it():
    srv = server()
    from cribcore.table.seats import seat_token
    body = ANSWER.replace(b"QID", srv.room.question["id"].encode()).replace(
        b"TOKEN", seat_token(KEY, "table").encode())
    before = srv.room.version
    (status, kind, said), via_microdot, writes = serve(srv, [post(body)])
    assert not via_microdot and writes == 1
    assert (status, kind) == (200, "application/json")
    assert said == b'{"ok":true,"version":%d}' % srv.room.version
    assert srv.room.version > before
    slow = server()
    slow.app.hot = {}
    assert serve(slow, [post(body)])[0] == (status, kind, said)


ODD = [  # (pieces, stalled, whether the quick path may serve it)
    ([post(b'{"question": "q", "answer": "5h"}')], False, True),
    ([post(b'{"question": "q", "answer": "5h", "seat": 0, "token": "x"}')], False, True),
    ([post(b'{"question": 1}', "/api/undo")], False, True),
    ([post(b'{"question": "q", "seat": "table", "token": ""}', "/api/redo")], False, True),
    ([post(b"not json")], False, True),
    ([post(b"[" * 40 + b"]" * 40)], False, True),
    ([post(b'{"question": "q"}', headers=["Host: " + HOST, "Content-Type: application/json",
                                           "Content-Length: 17"])], False, True),  # no key
    ([post(b'{"question": "q"}', "/api/answer?k=" + KEY,
           headers=["Host: " + HOST, "Content-Type: application/json",
                    "Content-Length: 17"])], False, True),  # the key in the query
    ([post(b'{"question": "q"}', headers=[
        "host: " + HOST, "x-crib-key: " + KEY, "origin: http://evil.example",
        "content-type: application/json", "content-length: 17"])], False, True),
    ([post(b'a=1', headers=["Host: " + HOST, "X-Crib-Key: " + KEY,
                            "Content-Type: application/x-www-form-urlencoded",
                            "Content-Length: 3"])], False, True),
    ([post(b'{}', headers=["Host: evil.example", "X-Crib-Key: " + KEY,
                           "Content-Length: 2"])], False, True),
    ([post(b'{}', headers=["Host: " + HOST, "X-Crib-Key: " + KEY,
                           "Content-Length: 2x"])], False, False),
    ([post(b'{}', headers=["Host: " + HOST, "X-Crib-Key: " + KEY,
                           "Content-Length: %d" % (MAX_BODY + 1)])], False, False),
    ([post(b'{}', headers=["Host: " + HOST, "X-Crib-Key: " + KEY,
                           "Transfer-Encoding: chunked"])], False, False),
    ([post(b'{}', headers=["Host: " + HOST, "X-Crib-Key: " + KEY, " folded",
                           "Content-Length: 2"])], False, False),
    ([post(b'{}', headers=["Host: " + HOST, "X-Crib-Key: " + KEY, "broken",
                           "Content-Length: 2"])], False, False),
    ([post(b'{}', headers=["Host: " + HOST, "X-Crib-Key: \xe9",
                           "Content-Length: 2"]).replace(b"\xc3\xa9", b"\xe9")],
     False, False),  # not UTF-8: microdot's 400
    ([post(b'{}', first="post %s HTTP/1.1")], False, False),
    ([post(b'{}', first="POST %s")], False, False),
    ([post(b'{"question": "q"}', "/api/join")], False, False),  # not a hot path
    ([post(b'{"question": "q", "answer": "5h"}')[:40]], False, False),  # head cut: 400
]


@pytest.mark.parametrize("pieces,stalled,quick", ODD)
def test_every_odd_request_is_answered_as_microdot_answers_it(pieces, stalled, quick):
    a, b, via_microdot, _ = both(pieces, stalled)
    assert a == b, (pieces, a, b)
    assert via_microdot is not quick


def test_a_body_cut_short_or_never_finished_gets_microdots_400(monkeypatch):
    # (microdot's own path gives it on MicroPython, where OSError(104) is a reset: the
    # tests of both servers check it there, tests/webboth/test_probes_both.py)
    data = post(b'{"question": "q", "answer": "5h"}')
    for pieces, stalled in (([data[:-5]], False), ([data[:-5]], True)):
        srv = server()
        if stalled:  # the body's deadline passed (BODY_S: 0 here, not waited for)
            monkeypatch.setattr(conn, "BODY_S", 0)
        said, via_microdot, _ = serve(srv, pieces, stalled)
        assert not via_microdot and said[:2] == (400, "application/json")
        assert b"bad request" in said[2]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(1, 60), max_size=8))
def test_a_request_in_any_pieces_is_answered_alike(cuts):
    data, pieces, at = post(b'{"question": "q", "answer": "5h", "seat": 0}'), [], 0
    for n in cuts:
        pieces.append(data[at:at + n])
        at += n
    pieces.append(data[at:])
    a, b, _, _ = both(pieces)
    assert a == b and a[0] == 403, (a, b)


def test_parse_takes_only_the_hot_paths_with_their_method():
    hot = {"/api/answer": ("POST", None)}
    assert parse(post(b"{}"), 0, hot)[0].path == "/api/answer"
    assert parse(post(b"{}", "/api/undo"), 0, hot) is None
    assert parse(post(b"{}").replace(b"POST", b"GET", 1), 0, hot) is None
    got = parse(b"xx" + post(b"{}", "/api/answer?k=a%20b&k=c"), 2, hot)
    assert got[0].args == {"k": "a b"} and got[2] == 2  # microdot's first value


class Counted:
    """gc as the admission sees it: free bytes as set, each look (mem_free) counted."""

    def __init__(self, free):
        self.free = free
        self.looks = 0
        self.collections = 0

    def mem_free(self):
        self.looks += 1
        return self.free

    def collect(self):
        self.collections += 1


def answer_body(srv):
    from cribcore.table.seats import seat_token
    return ANSWER.replace(b"QID", srv.room.question["id"].encode()).replace(
        b"TOKEN", seat_token(KEY, "table").encode())


def test_the_next_answer_is_taken_on_the_look_made_after_the_last_one(monkeypatch):
    """The heap's look (gc.mem_free: a scan of the whole heap table, about 9 ms on an
    RP2040) is made once an answer's work is done, not when the next phone's answer comes:
    that one is taken on it, with no look of its own. Before, every connection looked."""
    heap = Counted(1 << 20)
    monkeypatch.setattr(conn, "gc", heap)
    srv = server()
    (status, _, _), _, _ = serve(srv, [post(answer_body(srv))])  # no look made before it
    assert status == 200 and heap.looks == 2  # its own admission, then the look after it
    version = srv.room.version
    from cribcore.table.seats import seat_token
    undo = b'{"question": "%s", "seat": "table", "token": "%s"}' % (
        srv.room.question["id"].encode(), seat_token(KEY, "table").encode())
    (status, _, _), _, _ = serve(srv, [post(undo, "/api/undo")])
    assert status == 200 and srv.room.version > version  # taken, and the undo done
    assert heap.looks == 3  # taken on the look: the only one is the one after it


def test_a_look_serves_one_connection_and_a_short_heap_is_looked_at_again(monkeypatch):
    heap = Counted(1 << 20)
    monkeypatch.setattr(conn, "gc", heap)
    app = conn.Guarded()
    app.note_heap()
    assert heap.looks == 1 and app._admit() and heap.looks == 1  # taken on the look
    assert app._admit() and heap.looks == 2  # the look is spent: the next one looks
    heap.free = conn.ADMIT_FREE - 1
    app.note_heap()  # short: the next connection looks again, and collects
    assert not app.heap_ok and heap.collections == 0
    heap.free = conn.ADMIT_FREE
    assert app._admit()  # freed meanwhile: taken
    heap.free = conn.ADMIT_FREE - 1
    app.note_heap()
    assert not app._admit() and heap.collections == 1  # still short, collected: unread
    assert app.refused == 0  # (handle_request counts it; _admit only says no)


def test_parse_leaves_any_line_not_name_colon_value_to_microdot_wherever_it_is():
    """Each header line is looked at in place (no str of its own): a folded one (space or
    tab), one without a colon, first, in the middle or last, is microdot's to refuse."""
    hot = {"/api/answer": ("POST", None)}
    good = ["Host: " + HOST, "X-Crib-Key: " + KEY, "Content-Length: 2"]
    assert parse(post(b"{}", headers=good), 0, hot)[0].headers["content-length"] == "2"
    assert parse(post(b"{}", headers=[]), 0, hot) is not None  # the request line alone
    for bad in (" folded", "\tfolded", "broken", " x: y", "\tx: y"):
        for at in range(len(good) + 1):
            lines = good[:at] + [bad] + good[at:]
            assert parse(post(b"{}", headers=lines), 0, hot) is None, (bad, at)


class Socketed(Wire):
    """A connection whose whole request waits in its socket (.s, as MicroPython's stream
    keeps it): read at once, without waiting."""

    def __init__(self, data):
        super().__init__([])
        self.s = self
        self.data = data

    def read(self, n=-1):  # the socket's non-blocking read (the stream's is not used)
        out, self.data = self.data[:n], self.data[n:]
        return out


def test_a_request_waiting_in_its_socket_is_served_without_a_coroutine_to_read_it(
        monkeypatch):
    """Its head and body taken from the socket and the buffer as they are (Timed.ready,
    taken): no fill(), _within() or readexactly() coroutine made per answer (each a
    generator on the heap and a resume). Before, each answer made them all."""
    made = []
    for name in ("fill", "readexactly", "_within"):
        real = getattr(conn.Timed, name)

        def counted(self, *args, real=real, name=name):
            made.append(name)
            return real(self, *args)
        monkeypatch.setattr(conn.Timed, name, counted)
    srv = server()
    reply = Reply()
    before = srv.room.version
    asyncio.run(srv.app.handle_request(Socketed(post(answer_body(srv))), reply))
    assert reply.said()[0] == 200 and srv.room.version > before
    assert made == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["", " ", "\t"]),
                          st.sampled_from(["X-A", "Accept", "x"]),
                          st.sampled_from([": v", ":", "", " v", ": a:b"])), max_size=5))
def test_parse_takes_a_head_only_when_every_line_is_name_colon_value(extra):
    """Any line folded (a space or tab first) or without a colon leaves the request to
    microdot, wherever it is among the others; every other head is taken."""
    lines = ["%s%s%s" % parts for parts in extra]
    good = ["Host: " + HOST, "X-Crib-Key: " + KEY, "Content-Length: 2"]
    got = parse(post(b"{}", headers=good + lines), 0, {"/api/answer": ("POST", None)})
    plain = all(ln[:1] not in (" ", "\t") and ":" in ln for ln in lines)
    assert (got is not None) is plain, lines


class Stream:
    """A connection's writer as MicroPython's asyncio stream is one (extmod/asyncio/
    stream.py): write() gives the socket (.s) what it takes and keeps the rest in
    out_buf; drain() always yields to the loop (a sleep) and sends the rest; aclose()
    (its wait_closed) closes the socket. takes: bytes the socket takes a write."""

    def __init__(self, takes=1 << 20):
        self.s = self
        self.out_buf = b""
        self.sent = b""
        self.takes = takes
        self.closed = False
        self.calls = []

    def get_extra_info(self, name):
        return ("10.0.0.9", 50000)

    def write(self, data):
        self.calls.append("write")
        if not self.out_buf:
            took = data[:self.takes]
            self.sent += took
            data = data[len(took):]
        self.out_buf += data

    async def drain(self):
        self.calls.append("drain")
        await asyncio.sleep(0)
        self.sent, self.out_buf = self.sent + self.out_buf, b""

    async def awrite(self, data):
        self.calls.append("awrite")
        self.write(data)
        await self.drain()

    def close(self):  # the socket's
        self.calls.append("close")
        self.closed = True

    async def aclose(self):
        self.calls.append("aclose")
        self.close()


def test_a_phones_answer_is_read_answered_and_closed_in_its_tasks_first_step():
    """A phone's POST whole in its socket is served with no coroutine of quick's or the
    writer's (each a generator on the heap): its connection's task ends at its first
    step, having written the reply once to a stream that takes it and closed the socket
    as the stream's aclose() would. Before, serve(), send(), the stream's awrite() and
    aclose() were coroutines, and its drain() yielded to the loop."""
    srv = server()
    before = srv.room.version
    stream = Stream()

    async def first_step():
        handling = srv.app.handle_request(Socketed(post(answer_body(srv))), stream)
        try:
            handling.send(None)
        except StopIteration:
            return True  # ended here: nothing awaited
        handling.close()
        return False

    assert asyncio.run(first_step())
    assert stream.calls == ["write", "close"] and stream.closed
    assert srv.room.version > before
    assert stream.sent == quick_reply(srv.room.version)
    assert srv.app.serving == 0 and srv.app.conns == []


def quick_reply(version):
    body = b'{"ok":true,"version":%d}' % version
    return b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d" \
        b"\r\n\r\n%s" % (len(body), body)


@pytest.mark.parametrize("takes", [0, 1, 40])
def test_a_reply_the_socket_takes_in_part_is_sent_whole_then_closed(takes):
    """A socket that takes only part of the reply at once: the rest is kept in the
    stream's buffer and drained (awaited), then the socket closed; the reply whole, once,
    and the request counted done only then."""
    srv = server()
    stream = Stream(takes)
    asyncio.run(srv.app.handle_request(Socketed(post(answer_body(srv))), stream))
    assert stream.sent == quick_reply(srv.room.version) and stream.out_buf == b""
    assert stream.calls == ["write", "drain", "aclose", "close"] and stream.closed
    assert srv.app.serving == 0 and srv.app.conns == []


def test_a_posts_reply_made_of_its_version_is_edge_oks_with_its_head():
    """A post taken is answered with the version it made formatted into one constant
    (its digits counted for the length): the same bytes as edge.ok's body after the 200
    JSON head, whatever the version's number of digits."""
    from cribcore.web.edge import Edge

    srv = server()
    versions = [0, 1, 9, 10, 11, 99, 100, 999, 1000, 12345, 10 ** 9 - 1, 10 ** 9, 10 ** 12]
    for version in versions:
        srv.app.hot["/api/answer"] = ("POST", lambda req, version=version: version)
        stream = Stream()
        asyncio.run(srv.app.handle_request(Socketed(post(b"{}")), stream))
        assert stream.sent == quick_reply(version), version
        body = Edge.ok(version)
        assert stream.sent.endswith(b"\r\n\r\n" + body) and \
            b"Content-Length: %d\r\n" % len(body) in stream.sent
