"""The protocol port over the standard streams: a pipe or pty on a desktop (the desk
runner), and the base of the Pico's USB serial port (pegboard.usbserial). read() never
blocks; write() sends at once."""

import os
import select
import sys

# CPython reads straight from the fd (its sys.stdin buffers); MicroPython has no os.read,
# and its sys.stdin.buffer does not buffer.
_os_read = getattr(os, "read", None)

CHUNK = 256  # bytes taken per read(): the app reads again only when its lines are done


def poller(stream, event):
    """A poll object watching stream for event, and its ipoll (MicroPython's, which
    answers without making a list) or None; (None, None) for a stream that is no file
    (the tests' fakes, which answer ready() themselves)."""
    p = select.poll()
    try:
        p.register(stream, event)
    except (TypeError, ValueError, OSError):
        return None, None
    return p, getattr(p, "ipoll", None)


def polled(p, ipoll, timeout_ms):
    """True when the poll object reports its event within timeout_ms."""
    if ipoll is not None:
        for _ in ipoll(timeout_ms):
            return True
        return False
    return bool(p.poll(timeout_ms))


class StdioPort:
    """port.read() -> bytes available now (b"" if none); port.write(bytes)."""

    def __init__(self, stdin=None, stdout=None):
        self._in = stdin or sys.stdin
        out = stdout or sys.stdout
        self._out = getattr(out, "buffer", out)
        self._raw = getattr(self._in, "buffer", self._in)
        self._poll, self._ipoll = poller(self._in, select.POLLIN)
        self.closed = False  # the other end hung up (desktop pipes)

    def ready(self, timeout_ms=0):
        """True when a read would return data (or the end of input) within timeout_ms."""
        return polled(self._poll, self._ipoll, timeout_ms)

    def read(self):
        """What has arrived, without waiting."""
        if self.closed or not self.ready():
            return b""
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

    def write(self, data):
        """Send bytes now."""
        self._out.write(data)
        flush = getattr(self._out, "flush", None)
        if flush:
            flush()
