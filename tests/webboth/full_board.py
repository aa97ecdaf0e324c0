"""The board's own server (as boardweb.unix makes it) whose game record's flash fills up
on demand: after POST /test/full {"full": true}, every write or append of the record
raises OSError 28 (no space left), as LittleFS does on a full flash; {"full": false}
frees it. Run under MicroPython's unix port by tests/webboth/test_storage_full.py; prints
`serving PORT`.

    MICROPYPATH=.frozen:firmware:MICRODOT micropython full_board.py PORT KEY STORE
"""

import asyncio
import sys

import desk
from boardweb.appboard import LoopPort
from boardweb.board import build
from boardweb.unix import serve_listening

from cribcore.table.session import Setup
from pegboard.logfiles import Files


class FullFiles(Files):
    """The record's files, full while `full`."""

    full = False

    def write(self, name, data):
        if FullFiles.full:
            raise OSError(28)
        return super().write(name, data)

    def append(self, name, data):
        if FullFiles.full:
            raise OSError(28)
        return super().append(name, data)

    def dump(self, name, items):
        if FullFiles.full:
            raise OSError(28)
        return super().dump(name, items)


def main(argv):
    port, key, store = int(argv[1]), argv[2], argv[3]
    app = desk.build({"store": store, "config": None, "driven": False}, LoopPort())
    server = build(app, key, "http://127.0.0.1:%d/?k=%s" % (port, key), store + "/page",
                   store + "/games", Setup(["Alice", "Bob"], False, 121, 0), None, True,
                   log_files=FullFiles())

    @server.app.post("/test/full")
    async def full(req):
        FullFiles.full = req.json["full"]
        return {"full": FullFiles.full}

    asyncio.run(serve_listening(server, port))  # `serving PORT` once it listens


if __name__ == "__main__":
    main(sys.argv)
