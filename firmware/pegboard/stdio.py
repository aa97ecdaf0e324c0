"""The protocol port over the standard streams: USB serial on the Pico, a pipe or pty on a
desktop. read() never blocks; on the Pico write() never waits either.

On the Pico (`pico=True`, docs/firmware.md "The USB serial"):
- Writes go to a small outbox, drained by flush() (the app calls it every step) one byte
  at a time while the USB send buffer has room (poll's POLLOUT: room for at least one
  byte), so no write ever waits. MicroPython waits up to its USB timeout (500 ms a chunk)
  for room when a host keeps the port open but does not read, which stalled the loop for
  tens of seconds on one `leds` reply. Past OUT_LIMIT queued bytes, whole new lines are
  dropped (counted in `dropped`): a host that reads nothing loses replies, and gets them
  again by retrying with the same id; a line already started is always finished.
- Ctrl-C (0x03) is a plain byte here (main.py turns MicroPython's keyboard interrupt off
  while the app runs), so a stray one cannot stop the app; Ctrl-C bytes never reach the
  protocol. CR, one or more Ctrl-C, CR hands the board over to the REPL: read() raises
  KeyboardInterrupt, main.py returns, and the REPL reads what follows. That is exactly
  how mpremote (`crib deploy`) enters the raw REPL, `\\r\\x03` then `\\r\\x01`: the
  Ctrl-A is left unread for the REPL. A person at a terminal types Enter, Ctrl-C, Enter.
"""

import os
import select
import sys

# CPython reads straight from the fd (its sys.stdin buffers); MicroPython has no os.read,
# and its sys.stdin.buffer does not buffer.
_os_read = getattr(os, "read", None)

CHUNK = 256  # bytes taken per read(): the app reads again only when its lines are done
OUT_LIMIT = 1024  # bytes queued for a slow host before whole new lines are dropped
_CR = 13
_CTRL_C = 3


def _poller(stream, event):
    """A poll object watching stream for event; None for a stream that is no file (the
    tests' fakes, which answer ready() and writable() themselves)."""
    p = select.poll()
    try:
        p.register(stream, event)
    except (TypeError, ValueError, OSError):
        return None
    return p


class StdioPort:
    """port.read() -> bytes available now (b"" if none); port.write(bytes); flush()."""

    def __init__(self, stdin=None, stdout=None, pico=False):
        self._in = stdin or sys.stdin
        out = stdout or sys.stdout
        self._out = getattr(out, "buffer", out)
        self._raw = getattr(self._in, "buffer", self._in)
        self.pico = pico
        self.closed = False  # the other end hung up (desktop pipes)
        self.queued = 0  # bytes in the outbox
        self.dropped = 0  # lines dropped because the host did not read
        self._box: list = []  # pieces waiting to be sent (pico)
        self._at = 0  # bytes of the first piece already sent
        self._open = False  # the last piece queued did not end its line
        self._skip = False  # dropping the rest of a line
        self._one = bytearray(1)
        self._cc = 0  # hand-over: 1 after CR, 2 after CR and Ctrl-C
        self._poll = _poller(self._in, select.POLLIN)
        self._wpoll = _poller(out, select.POLLOUT) if pico else None
        # MicroPython's ipoll answers without making a list: it is asked once a byte.
        self._ripoll = getattr(self._poll, "ipoll", None)
        self._wipoll = getattr(self._wpoll, "ipoll", None)

    def ready(self, timeout_ms=0):
        """True when a read would return data (or the end of input) within timeout_ms."""
        if self._ripoll is not None:
            for _ in self._ripoll(timeout_ms):
                return True
            return False
        return bool(self._poll.poll(timeout_ms))

    def writable(self):
        """True when the output takes a byte now without waiting."""
        if self._wipoll is not None:
            for _ in self._wipoll(0):
                return True
            return False
        return bool(self._wpoll.poll(0))

    def read(self):
        """What has arrived, without waiting."""
        if self.closed or not self.ready():
            return b""
        if self.pico:
            return self._read_pico()
        if _os_read is not None:
            data = _os_read(self._in.fileno(), CHUNK)
        else:
            data = b""
            while len(data) < CHUNK:
                byte = self._raw.read(1)
                if not byte:
                    break
                data += byte
                if not self.ready():
                    break
        if not data:
            self.closed = True
        return data

    def _read_pico(self):
        # Byte by byte, so the hand-over leaves what follows it unread for the REPL.
        data = bytearray()
        while len(data) < CHUNK:
            byte = self._raw.read(1)
            if not byte:
                break
            c = byte[0]
            if c == _CTRL_C:
                self._cc = 2 if self._cc else 0
            else:
                if c == _CR and self._cc == 2:
                    raise KeyboardInterrupt  # CR, Ctrl-C, CR: the REPL's turn
                self._cc = 1 if c == _CR else 0
                data.append(c)
            if not self.ready():
                break
        return bytes(data)

    def write(self, data):
        """Send bytes now (desktop), or queue them and send what the host takes (pico)."""
        if not self.pico:
            self._out.write(data)
            flush = getattr(self._out, "flush", None)
            if flush:
                flush()
            return
        if not self._open and self.queued >= OUT_LIMIT:
            self.flush()  # the host may have read meanwhile
        if not self._open and not self._skip and self.queued >= OUT_LIMIT:
            self._skip = True  # a new line, and the host is not reading: drop it whole
            self.dropped += 1
        if self._skip:
            self._skip = data[-1:] != b"\n"
            return
        self._box.append(data)
        self.queued += len(data)
        self._open = data[-1:] != b"\n"
        self.flush()

    def flush(self):
        """Send what the host takes now, a byte at a time while there is room; never waits."""
        box = self._box
        one = self._one
        while box and self.writable():
            piece = box[0]
            one[0] = piece[self._at]
            if not self._out.write(one):
                break
            self.queued -= 1
            self._at += 1
            if self._at == len(piece):
                box.pop(0)
                self._at = 0
