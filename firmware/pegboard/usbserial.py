"""The Pico's USB serial as the protocol port: writes that never wait, and the REPL
hand-over (docs/firmware.md, "The USB serial").

- Writes go to a small outbox, drained by flush() (the app calls it every step) while the
  USB send buffer has room. poll's POLLOUT only promises room for one byte, and
  MicroPython waits up to its USB timeout (500 ms a 64-byte chunk) for room when a host
  keeps the port open but does not read, which stalled the loop for tens of seconds on
  one `leds` reply. So there are two ways to send:
  - trusting (the host has been taking everything): a piece of up to PIECE bytes in one
    write. A write costs the Pico about as much for 64 bytes as for one, and one byte at
    a time made every reply 4-5 ms slower. If the host stops reading just then, that one
    write can wait (at most twice the timeout, once); a short write, or a poll that says
    no room, ends the trust.
  - careful: a byte at a time, each after a poll that says there is room, so nothing
    waits, until the host has taken a whole send buffer's worth (FIFO bytes), the outbox
    is empty and there is room: trusting again. So a host that reads in fits and starts
    makes at most one write wait per FIFO bytes it reads.
  Past OUT_LIMIT queued bytes, whole new lines are dropped (counted in `dropped`): a host
  that reads nothing loses replies, and gets them again by retrying with the same id; a
  line already started is always finished.
- Ctrl-C (0x03) is a plain byte here (main.py turns MicroPython's keyboard interrupt off
  while the app runs), so a stray one cannot stop the app; Ctrl-C bytes never reach the
  protocol. CR, one or more Ctrl-C, CR hands the board over to the REPL: read() raises
  KeyboardInterrupt, main.py returns, and the REPL reads what follows. That is exactly
  how mpremote (`crib deploy`) enters the raw REPL, `\\r\\x03` then `\\r\\x01`: the
  Ctrl-A is left unread for the REPL. A person at a terminal types Enter, Ctrl-C, Enter.
"""

import select
import sys

from pegboard.stdio import CHUNK, StdioPort, polled, poller

OUT_LIMIT = 1024  # bytes queued for a slow host before whole new lines are dropped
PIECE = 64  # bytes a trusting write sends at once: one USB packet
FIFO = 256  # MicroPython's USB serial send buffer (CFG_TUD_CDC_TX_BUFSIZE)
_CR = 13
_CTRL_C = 3


class UsbSerial(StdioPort):
    """port.read() -> bytes available now; port.write(bytes) queues; flush() sends what
    the host takes now."""

    def __init__(self, stdin=None, stdout=None):
        StdioPort.__init__(self, stdin, stdout)
        self._wpoll, self._wipoll = poller(stdout or sys.stdout, select.POLLOUT)
        self.queued = 0  # bytes in the outbox
        self.dropped = 0  # lines dropped because the host did not read
        self._box: list = []  # pieces waiting to be sent
        self._at = 0  # bytes of the first piece already sent
        self._open = False  # the last piece queued did not end its line
        self._skip = False  # dropping the rest of a line
        self._one = bytearray(1)
        self.trusting = True  # the host has been taking all we send: whole pieces
        self._proof = 0  # careful: bytes the host has taken since the trust ended
        self._cc = 0  # hand-over: 1 after CR, 2 after CR and Ctrl-C

    def writable(self):
        """True when the output takes a byte now without waiting."""
        return polled(self._wpoll, self._wipoll, 0)

    def read(self):
        """What has arrived, without waiting; byte by byte, so the hand-over leaves what
        follows it unread for the REPL."""
        # Locals, not attributes, in the loop: it runs once a byte of every command.
        data = bytearray()
        raw, ipoll, cc, n = self._raw, self._ipoll, self._cc, 0
        while n < CHUNK:
            if ipoll is None:
                if not self.ready():
                    break
            else:  # ready(), inline: two calls a byte were a third of a command's read
                for _ in ipoll(0):
                    break
                else:
                    break
            byte = raw.read(1)
            if not byte:
                break
            c = byte[0]
            n += 1
            if c == _CTRL_C:
                cc = 2 if cc else 0
                continue
            if c == _CR and cc == 2:
                self._cc = 0
                raise KeyboardInterrupt  # CR, Ctrl-C, CR: the REPL's turn
            cc = 1 if c == _CR else 0
            data.append(c)
        self._cc = cc
        return bytes(data)

    def write(self, data):
        """Queue bytes and send what the host takes now."""
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
        """Send what the host takes now: whole pieces while it takes everything, else a
        byte at a time while there is room (see the module's docstring)."""
        box = self._box
        if not box:
            return
        if self.trusting:
            self._send_pieces(box)
            if not box or not self.trusting:
                return
        self._send_bytes(box)
        if not box and self._proof >= FIFO and self.writable():
            self.trusting = True  # a buffer's worth went, and there is room: it reads

    def _send_pieces(self, box):
        while box:
            if not self.writable():
                self._distrust()
                return
            piece = box[0]
            end = min(len(piece), self._at + PIECE)
            want = end - self._at
            chunk = piece if want == len(piece) else piece[self._at:end]
            sent = self._out.write(chunk) or 0
            self.queued -= sent
            self._at += sent
            if self._at == len(piece):
                box.pop(0)
                self._at = 0
            if sent < want:  # the host stopped taking it: careful from here
                self._distrust()
                return

    def _distrust(self):
        self.trusting = False
        self._proof = 0

    def _send_bytes(self, box):
        one = self._one
        write = self._out.write
        ipoll = self._wipoll
        while box:
            # Room for one more byte? (inline: this runs once a byte)
            if ipoll is not None:
                for _ in ipoll(0):
                    break
                else:
                    return
            elif not self.writable():
                return
            piece = box[0]
            one[0] = piece[self._at]
            if not write(one):
                return
            self.queued -= 1
            self._proof += 1
            self._at += 1
            if self._at == len(piece):
                box.pop(0)
                self._at = 0
