"""The board's server (boardweb.server.BoardServer) around a room whose next state cannot
be made: run under MicroPython's unix port by tests/webboth/test_stream_fails.py, it
serves on a loopback port and prints `serving PORT`. Every answer posted makes a new
version; the first `fail` of them raise MemoryError when a stream makes the state into
its event (as a full heap does), the rest are made as usual. With `write` after FAIL,
the states are made, and it is writing the first `fail` of the new ones to a phone's
connection that raises MemoryError (the connection's buffer, say).

    MICROPYPATH=.frozen:firmware:MICRODOT micropython failing_board.py PORT KEY FAIL [write]
"""

import asyncio
import sys
import time

from boardweb import conn
from boardweb.server import BoardServer
from boardweb.unix import serve_listening


class Room:
    """As cribcore.table.room.Room to the server: a version, its text and patch, the
    names, act."""

    def __init__(self, fail, writing):
        self.version = 1
        self.fail = 0 if writing else fail

    def names(self):
        return ["Ann", "Bob"]

    def _made(self):
        if self.version > 1 and self.fail > 0:
            self.fail -= 1
            raise MemoryError("memory allocation failed, allocating 8171 bytes")

    def text(self):
        self._made()
        return '{"version":%d}' % self.version

    def patch_text(self):
        """From the version before (what a stream that has it is sent): fails as text()."""
        self._made()
        return '{"version":%d,"base":%d,"set":{},"drop":0,"log":[]}' % (
            self.version, self.version - 1)

    def sent(self):
        """Every stream has the version (push let go of its patch)."""

    def act(self, kind, body, seat):
        self.version += 1


class FailingWriter:
    """A connection's writer whose writes of an event with a new state (after version 1)
    fail."""

    def __init__(self, writer, room):
        self.writer = writer
        self.room = room

    def get_extra_info(self, name):
        return self.writer.get_extra_info(name)

    @property
    def out_buf(self):
        return self.writer.out_buf

    def _fails(self, data):
        if self.room.writes_fail > 0 and data.startswith(b"data: ") \
                and b'"version":1}' not in data:
            self.room.writes_fail -= 1
            raise MemoryError("memory allocation failed, allocating 8171 bytes")

    async def awrite(self, data):
        self._fails(data)
        return await self.writer.awrite(data)

    def write(self, data):  # an event stream's writes after its first (boardweb.push)
        self._fails(data)
        self.writer.write(data)

    async def drain(self):
        await self.writer.drain()

    async def aclose(self):
        await self.writer.aclose()


class Board:
    """A board with nothing to draw, no presses and nothing left for after a reply."""

    news = False
    behind = False

    @staticmethod
    def clock():
        """The App's clock (ms), as a real board's: the server's frames loop reads it
        when a frame falls due while an answer is in hand (BoardServer._held)."""
        return time.ticks_ms()

    def tick(self):
        pass

    def flush(self):
        return True


def main(argv):
    port, key, fail = int(argv[1]), argv[2], int(argv[3])
    writing = argv[4:] == ["write"]
    room = Room(fail, writing)
    room.writes_fail = fail if writing else 0
    gathered = conn.Gathered

    def wrapped(writer):  # every connection's writer, as the server gathers it
        return gathered(FailingWriter(writer, room))
    conn.Gathered = wrapped
    server = BoardServer(room, Board(), key, "/nonexistent", "http://127.0.0.1/")
    asyncio.run(serve_listening(server, port))  # `serving PORT` once it listens


if __name__ == "__main__":
    main(sys.argv)
