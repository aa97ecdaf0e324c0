"""boardweb.push: one writer writes every event stream (not a task woken per phone):
each version made into its event once and written to each phone in turn without
waiting; a phone that stops reading (its connection's buffer full) holds up no other,
and once it reads again it is sent the latest version whole, not each one it missed; a
stream dropped for a newer one ends."""

import asyncio
import json
import sys

from support import FIRMWARE

if str(FIRMWARE) not in sys.path:  # boardweb is the board's, not an installed package
    sys.path.append(str(FIRMWARE))

from boardweb import push as push_module  # noqa: E402
from boardweb.conn import Gathered  # noqa: E402
from boardweb.push import BEAT, Follow, Push  # noqa: E402


class Room:
    """As cribcore.table.room.Room to Push: a version, its text and its patch, each
    counted as made."""

    def __init__(self):
        self.version = 1
        self.made = 0

    def text(self):
        self.made += 1
        return '{"version":%d,"question":{"id":"q%d"}}' % (self.version, self.version)

    def patch_text(self):
        self.made += 1
        return '{"version":%d,"base":%d}' % (self.version, self.version - 1)

    sent_at = 0  # the version whose patch text push let go last (sent())

    def sent(self):
        self.sent_at = self.version


class Stream:
    """A connection's writer as MicroPython's asyncio stream: a write goes at once, or
    waits in out_buf while the phone reads nothing (stalled) until drain()."""

    def __init__(self):
        self.got = b""  # what the phone has read
        self.out_buf = b""
        self.stalled = False
        self.reading = asyncio.Event()

    def write(self, data):
        if self.stalled or self.out_buf:
            self.out_buf += data
        else:
            self.got += data

    async def drain(self):
        await self.reading.wait()
        self.got, self.out_buf = self.got + self.out_buf, b""

    def read_again(self):
        self.stalled = False
        self.reading.set()

    def events(self):
        return [json.loads(line[6:]) for line in self.got.split(b"\n")
                if line.startswith(b"data: ")]


class App:
    """As boardweb.conn.Guarded to Push."""

    wake = None

    def stream(self, gathered, seat=None):
        pass


async def _until(test):
    for _ in range(200):
        if test():
            return
        await asyncio.sleep(0)
    raise AssertionError("never came")


async def _open(push, stream):
    """An event stream as microdot runs it: its first piece written with the head, then
    the connection held (the task) until the stream ends."""
    conn = Gathered(stream)
    conn.head = None  # the head is sent with the first piece
    follow = Follow(push, conn)
    stream.write(await follow.__anext__())
    return conn, asyncio.create_task(follow.__anext__())


async def _scenario():
    room = Room()
    push = Push(room, App())
    fast, slow = Stream(), Stream()
    fast_conn, fast_task = await _open(push, fast)
    _, slow_task = await _open(push, slow)
    await _until(lambda: len(push.follows) == 2)
    slow.stalled = True
    for v in (2, 3, 4):
        room.version = v
        made = room.made
        push.changed()
        await _until(lambda v=v: fast.events()[-1]["version"] == v)
        assert room.made == made + 1  # the patch made once for both phones
    assert fast.events() == [{"version": 1, "question": {"id": "q1"}},
                             {"version": 2, "base": 1}, {"version": 3, "base": 2},
                             {"version": 4, "base": 3}]
    assert slow.events() == [{"version": 1, "question": {"id": "q1"}}]  # read nothing
    assert [f.busy for f in push.follows] == [False, True]
    slow.read_again()
    await _until(lambda: slow.events()[-1]["version"] == 4)
    # what waited in its buffer (version 2), then the latest whole: never 3
    assert slow.events() == [{"version": 1, "question": {"id": "q1"}},
                             {"version": 2, "base": 1},
                             {"version": 4, "question": {"id": "q4"}}]
    room.version = 5
    push.changed()
    await _until(lambda: slow.events()[-1]["version"] == 5)
    assert slow.events()[-1] == fast.events()[-1] == {"version": 5, "base": 4}
    fast_conn.dropped = True  # a newer stream of its seat (boardweb.conn.Guarded)
    push.changed()
    await _until(fast_task.done)
    assert isinstance(fast_task.exception(), StopAsyncIteration)
    assert len(push.follows) == 1 and not slow_task.done()
    slow_task.cancel()
    await _until(lambda: not push.follows)
    push.writer.cancel()
    push.beat.cancel()


def test_one_writer_a_stalled_phone_holds_up_no_other_and_gets_the_latest():
    asyncio.run(_scenario())


async def _when(test, seconds=30):
    """Until test() holds (a loaded machine may be slow), or AssertionError."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not test():
        if loop.time() > end:
            raise AssertionError("never came")
        await asyncio.sleep(0.005)


async def _two_streams():
    """A room, its Push and two phones' streams open on it (each has version 1)."""
    room = Room()
    push = Push(room, App())
    one, two = Stream(), Stream()
    await _open(push, one)
    await _open(push, two)
    await _until(lambda: len(push.follows) == 2)
    return room, push, one, two


async def _idle_streams(monkeypatch):
    monkeypatch.setattr(push_module, "HEARTBEAT_S", 0.05)
    room, push, idle, stalled = await _two_streams()
    stalled.stalled = True
    room.version = 2
    push.changed()
    await _until(lambda: push.follows[1].busy)  # its version 2 waits in its buffer
    await _when(lambda: idle.got.endswith(BEAT))
    assert idle.events()[-1] == {"version": 2, "base": 1}
    assert BEAT not in stalled.out_buf  # a busy stream is not written more
    room.version = 3  # a wake: the next comment comes after a quiet HEARTBEAT_S again
    push.changed()
    await _when(lambda: idle.events()[-1]["version"] == 3)
    await _when(lambda: idle.got.endswith(BEAT))  # then comments again, once idle
    assert idle.got.rfind(b'"version":3') < idle.got.rfind(BEAT)
    push.writer.cancel()
    push.beat.cancel()


def test_an_idle_stream_gets_a_comment_from_a_heartbeat_of_its_own(monkeypatch):
    """A comment goes to every stream not busy when HEARTBEAT_S pass without a new
    version (so a dead phone's connection is noticed); the writer itself only waits for
    a wake (no timer per version)."""
    asyncio.run(_idle_streams(monkeypatch))


async def _let_go():
    room, push, fast, slow = await _two_streams()
    assert push._frame_at == 1  # the whole state, made once for both new streams
    room.version = 2
    push.changed()
    await _until(lambda: slow.events()[-1]["version"] == 2 == fast.events()[-1]["version"])
    # every stream has version 2: neither the older whole state nor the patch is kept,
    # nor the room's text of it
    assert push._frame is push._patch is None
    assert room.sent_at == 2
    slow.stalled = True
    room.version = 3
    push.changed()
    await _until(lambda: push.follows[1].busy and fast.events()[-1]["version"] == 3)
    assert push._patch_at == 3 and push._patch  # a stream still waits for them: kept
    assert room.sent_at == 2  # and the room's text of it
    slow.read_again()
    await _until(lambda: not push.follows[1].busy)
    assert room.sent_at == 3
    room.version = 4
    push.changed()
    await _until(lambda: slow.events()[-1]["version"] == 4 == fast.events()[-1]["version"])
    assert push._patch is None
    assert slow.events()[-1] == {"version": 4, "base": 3}
    push.writer.cancel()
    push.beat.cancel()


def test_no_event_is_kept_once_every_stream_has_it():
    """Push keeps a version's event, and the room its patch's text, only while a stream
    still needs it (a busy one's drain): not for the whole answer after (room.sent()),
    and never a whole state (6-8 KB) made for a stream opened at an older version."""
    asyncio.run(_let_go())


class Socket:
    """A stream's socket: the options set on it."""

    def __init__(self):
        self.options = []

    def setsockopt(self, level, name, value):
        self.options.append((level, name, value))


async def _pieces():
    room, push, one, two = await _two_streams()
    sock = Socket()
    three = Stream()
    three.s = sock  # as MicroPython's asyncio stream keeps its socket
    await _open(push, three)
    assert sock.options == [(6, 1, 1)]  # TCP_NODELAY (the unix port's numbers)
    writes = []
    write = three.write

    def kept(data):
        writes.append(data)
        write(data)

    three.write = kept
    room.version = 2
    push.changed()
    await _until(lambda: three.events()[-1]["version"] == 2)
    # the room's JSON as it is, between two constants: no copy of it joined
    assert writes == [b"data: ", room.patch_text().encode(), b"\n\n"]
    assert one.events()[-1] == two.events()[-1] == three.events()[-1]
    push.writer.cancel()
    push.beat.cancel()


def test_an_event_is_written_in_pieces_to_a_socket_that_sends_each_at_once():
    """Each event is `data: `, the room's JSON and a blank line written apart (no copy of
    the JSON an answer), on a socket set to send each write at once (TCP_NODELAY: no
    wait for the phone's ACK of the first piece)."""
    asyncio.run(_pieces())
