"""boardweb.conn.Timed: the board's server reads a request from its socket in chunks
into a bounded buffer and hands microdot its lines from there (one read, under one
deadline, for a phone's whole request: not a read and a timer per line), whatever
pieces the bytes come in; a line too long for microdot is cut where microdot refuses it."""

import asyncio
import sys

from hypothesis import given
from hypothesis import strategies as st
from microdot import Request
from support import FIRMWARE

if str(FIRMWARE) not in sys.path:  # boardweb is the board's, not an installed package
    sys.path.append(str(FIRMWARE))

from boardweb.conn import BAD_LENGTH, CHUNK, Timed  # noqa: E402

BODY = b'{"question":"q1","answer":"5h","seat":0,"token":"t"}'
HEAD = (b"POST /api/answer HTTP/1.1\r\nHost: 192.168.4.1\r\nX-Crib-Key: k\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(BODY))


class Socket:
    """A connection's stream (asyncio's reader) whose bytes come in the given pieces,
    each call counted."""

    def __init__(self, pieces):
        self.pieces = [p for p in pieces if p]
        self.calls = {"read": 0, "readline": 0, "readexactly": 0}

    async def read(self, n=-1):
        self.calls["read"] += 1
        if not self.pieces:
            return b""
        piece = self.pieces.pop(0)
        if 0 <= n < len(piece):
            piece, rest = piece[:n], piece[n:]
            self.pieces.insert(0, rest)
        return piece

    async def readexactly(self, n):
        self.calls["readexactly"] += 1
        out = b""
        while len(out) < n and self.pieces:
            out += await self.read(n - len(out))
            self.calls["read"] -= 1
        if len(out) < n:
            raise EOFError()
        return out

    async def readline(self):  # the per-line reads Timed no longer makes
        self.calls["readline"] += 1
        raise AssertionError("read a line at a time")


async def _request(sock):
    """The head's lines and the body, as microdot reads them through Timed."""
    timed = Timed(sock)
    lines = []
    while True:
        line = await timed.readline()
        lines.append(line)
        if line in (b"\r\n", b""):
            break
    length = [ln for ln in lines if ln.lower().startswith(b"content-length:")]
    n = int(length[0].split(b":")[1]) if length else 0
    return lines, await timed.readexactly(n), timed


def test_a_phones_request_is_one_read_of_the_socket():
    sock = Socket([HEAD + BODY])
    lines, body, timed = asyncio.run(_request(sock))
    assert b"".join(lines) == HEAD and body == BODY
    assert sock.calls == {"read": 1, "readline": 0, "readexactly": 0}
    assert timed.in_body and timed.buf == b""  # the head is in: the body's deadline


@given(st.lists(st.integers(1, 80), max_size=30))
def test_any_pieces_give_the_same_lines_and_body(cuts):
    data, pieces, at = HEAD + BODY, [], 0
    for n in cuts:
        pieces.append(data[at:at + n])
        at += n
    pieces.append(data[at:])
    sock = Socket(pieces)
    lines, body, timed = asyncio.run(_request(sock))
    assert b"".join(lines) == HEAD and body == BODY
    assert sock.calls["readline"] == 0
    assert len(timed.buf) <= CHUNK + Request.max_readline


def test_a_line_too_long_is_cut_where_microdot_refuses_it_and_a_bad_length_renamed():
    most = Request.max_readline
    long = b"X-Long: " + b"a" * (3 * most) + b"\r\n"
    sock = Socket([b"GET / HTTP/1.1\r\n", long, b"Content-Length: 1x\r\n\r\n"])

    async def run():
        timed = Timed(sock)
        first = await timed.readline()
        cut = await timed.readline()
        return first, cut, timed

    first, cut, timed = asyncio.run(run())
    assert first == b"GET / HTTP/1.1\r\n" and len(cut) == most + 1  # refused by microdot
    assert len(timed.buf) - timed.at <= CHUNK + most
    sock = Socket([b"Content-Length: 1x\r\n\r\n"])
    line = asyncio.run(Timed(sock).readline())
    assert line.startswith(BAD_LENGTH)


class Waiting:
    """A connection whose request is whole in its socket (MicroPython's stream keeps the
    socket as .s: a non-blocking read gives what is there, None when nothing is), and
    whose asyncio read would wait for ever (the loop never gets to it in time)."""

    def __init__(self, data):
        self.s = self
        self.data = data

    def read(self, n=-1):  # the socket's
        if not self.data:
            return None
        out, self.data = self.data[:n], self.data[n:]
        return out

    async def readexactly(self, n):  # asyncio's: never in time
        await asyncio.sleep(3600)


def test_a_request_waiting_in_its_socket_is_read_after_a_late_start():
    # The head's deadline counts from the accept: a board busy for seconds before the
    # connection's task first runs once refused a request already whole in its socket.
    async def run():
        timed = Timed(Waiting(HEAD + BODY))
        timed.deadline = timed.opened - 1  # HEAD_S gone before the first read
        lines = []
        while not lines or lines[-1] != b"\r\n":
            lines.append(await timed.readline())
        timed.deadline = timed.opened - 1  # and the body's too
        return lines, await timed.readexactly(len(BODY))

    lines, body = asyncio.run(run())
    assert b"".join(lines) == HEAD and body == BODY


def test_past_its_deadline_a_request_not_there_is_refused():
    async def run(data, head):
        timed = Timed(Waiting(data))
        if not head:
            timed.buf = data
            timed.reader.data = b""
        timed.deadline = timed.opened - 1
        try:
            return await (timed.readline() if head else timed.readexactly(len(data) + 1))
        except OSError:
            return None

    assert asyncio.run(run(b"", True)) is None  # nothing sent: closed
    assert asyncio.run(run(b"GET", False)) is None  # a body short of its length: closed


def test_a_request_in_its_socket_is_taken_without_a_timer_or_a_pass_of_the_loop():
    # Before, every read went through asyncio.wait_for (a task and a timer each, and a
    # pass of the loop: the App's frame drawn in the middle of a phone's answer).
    sock = Waiting(HEAD + BODY)

    async def never(n):
        raise AssertionError("waited for bytes the socket held")

    class Reader:
        s = sock
        read = staticmethod(never)

    async def run():
        timed = Timed(Reader())
        lines = []
        while not lines or lines[-1] != b"\r\n":
            lines.append(await timed.readline())
        return lines, await timed.readexactly(len(BODY))

    lines, body = asyncio.run(run())
    assert b"".join(lines) == HEAD and body == BODY
