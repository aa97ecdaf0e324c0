"""The virtual board's hub, line by line: who sent each line the runner has to answer. A
Client is one connection (the pty, a TCP client) with its partial line; an Ask, a line the
sim sends itself (crib.sim.virtual.VirtualBoard.ask) and waits for the reply to."""

from __future__ import annotations

import threading
from collections.abc import Callable

from cribcore.protocol import MAX_LINE, LineReader


class Client:
    """One connection to the hub: its partial line and how it splits into lines."""

    def __init__(self, name: str, write: Callable[[bytes], None]) -> None:
        self.name = name
        self.write = write  # bytes -> None; drops what cannot be sent now
        self.partial = bytearray()
        self.overflow = False
        self.counter = LineReader(MAX_LINE)

    def segments(self, data: bytes) -> list[bytes]:
        """Whole lines (terminator included) completed by data; a line past the limit is
        cut down to something still too long, so the runner refuses it the same way."""
        out = []
        for c in data:
            if c in (10, 13):
                seg = bytes(self.partial) + bytes((c,))
                self.partial = bytearray()
                self.overflow = False
                out.append(seg)
            elif not self.overflow:
                self.partial.append(c)
                if len(self.partial) > MAX_LINE + 1:
                    self.partial = bytearray(b"x" * (MAX_LINE + 1))
                    self.overflow = True
        return out


class Ask:
    """A line the sim itself sends; reply is set when the runner answers (None if it died)."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.reply: str | None = None
        self.done = threading.Event()

    def write(self, data: bytes) -> None:
        self.reply = data.decode().rstrip("\r\n")
        self.done.set()
