"""The board's port and what reads it, under a Link (crib.board.link): no protocol here.

A SerialTransport holds one pyserial port at a time (a device path or a URL: socket://,
loop://, rfc2217://...), opened by its `opener`. A reader thread of its own splits what
arrives into lines and hands each to `on_line`; when the port goes away (unplugged, the
other end closed, a write failed) `on_lost` is told once. The reconnect is here too:
`reconnect` reopens a lost port and runs the caller's handshake until both work, backing
off, within a deadline; `watch` runs a caller's repair on a thread of its own whenever
`trouble()` is raised (between commands). Closing the transport closes the port and what
its opener started (a virtual board started for this link: its `close`).
"""

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import serial

from crib.errors import CribError
from cribcore.protocol import MAX_REPLY, LineReader

SLICE = 0.05  # the reader thread's read timeout: how soon it notices close()
_PAUSE = 0.2  # between two repairs that failed
T = TypeVar("T")


class LinkError(CribError):
    """The link failed: no answer, port lost, wrong firmware or a refused command."""


class Disconnected(LinkError):
    """The port went away and did not come back in time."""


class PortLost(Exception):
    """Internal: the port went away during an exchange (the link recovers from it)."""


def open_url(url: str, timeout: float = SLICE) -> Any:
    """Open a device path or pyserial URL; Disconnected if it cannot be opened."""
    try:
        return serial.serial_for_url(url, baudrate=115200, timeout=timeout, write_timeout=2)
    except (serial.SerialException, OSError, ValueError) as e:
        raise Disconnected("cannot open %r: %s" % (url, e)) from None


class SerialTransport:
    """One port at a time, its reader thread, and the reconnect (module docstring).

    opener: () -> an open pyserial-like port (LinkError if there is none now); an opener
    with a `close` is closed with the transport. on_line(str): each line read; on_lost():
    the port went away (once per port opened); on_open(): a new port is about to be read
    (nothing of the old one arrives after it)."""

    def __init__(self, opener: Callable[[], Any], name: str, on_line: Callable[[str], None],
                 on_lost: Callable[[], None],
                 on_open: Callable[[], None] | None = None) -> None:
        self.opener = opener
        self.name = name
        self._on_line = on_line
        self._on_lost = on_lost
        self._on_open = on_open
        self.lost = True  # no port open (never opened, gone, or shut)
        self.closed = False
        self._port: Any = None
        self._reader: threading.Thread | None = None
        self._gen = 0  # which port: a reader of an older one says nothing
        self._trouble = threading.Event()
        self._watcher: threading.Thread | None = None

    def open(self) -> None:
        """Open the port again (the old one shut first) and start reading it."""
        self.shut()
        if self._on_open is not None:
            self._on_open()
        port = self.opener()
        try:
            port.reset_input_buffer()  # stale bytes from before we opened it
        except (serial.SerialException, OSError):
            pass
        self._gen += 1
        self._port = port
        if self.closed:  # close() came meanwhile (from another thread): no port after it
            self.shut()
            raise Disconnected("the link to %s is closed" % self.name)
        self.lost = False
        self._reader = threading.Thread(target=self._read, args=(port, self._gen),
                                        daemon=True, name="crib-link-reader")
        self._reader.start()

    def write(self, line: str) -> bool:
        """Send one line; False (and the port counts as lost) if it could not be written."""
        try:
            self._port.write(line.encode() + b"\n")
            return True
        except (serial.SerialException, OSError, AttributeError, TypeError):
            self._gone(self._gen)
            return False

    def shut(self) -> None:
        """Close the port and stop its reader (the transport may open a port again)."""
        port, self._port = self._port, None
        reader, self._reader = self._reader, None
        self._gen += 1
        self.lost = True
        if port is None:
            return
        try:
            port.cancel_read()
        except (AttributeError, OSError, serial.SerialException):
            pass
        if reader is not None and reader is not threading.current_thread():
            # Its read must end before the port's file descriptor is closed: the OS may
            # give that number to the next port opened (mpremote's, say) at once.
            reader.join(5)
        try:
            port.close()
        except (OSError, serial.SerialException):
            pass

    def close(self) -> None:
        """Close the port, stop the threads, and close what the opener started."""
        self.closed = True
        self._trouble.set()
        self.shut()
        close = getattr(self.opener, "close", None)
        if close is not None:
            close()

    # -- the reconnect -------------------------------------------------------------------

    def reconnect(self, handshake: Callable[[bool], T], deadline: float, within: float,
                  retry_on: tuple[type[BaseException], ...] = ()) -> T:
        """Reopen the port if it is lost, then handshake(reopened); again, backing off,
        while either fails with Disconnected, PortLost or one of retry_on, until deadline
        (Disconnected then, saying the `within` seconds). handshake's result."""
        delay = 0.05
        while True:
            if self.closed:
                raise Disconnected("the link to %s is closed" % self.name)
            try:
                reopened = self.lost
                if reopened:
                    self.open()
                return handshake(reopened)
            except (PortLost, Disconnected) + tuple(retry_on) as e:
                if time.monotonic() + delay > deadline:
                    raise Disconnected("lost %s and it did not come back within %.0f s (%s)"
                                       % (self.name, within, e)) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.25)

    def watch(self, repair: Callable[[], bool]) -> None:
        """Run repair() on a thread of its own each time trouble() is raised, and again
        every _PAUSE s while it returns False, until the transport is closed."""
        self._watcher = threading.Thread(target=self._watch, args=(repair,), daemon=True,
                                         name="crib-link-supervisor")
        self._watcher.start()

    def trouble(self) -> None:
        """Ask the watcher for a repair (the port went away, the board rebooted)."""
        self._trouble.set()

    def _watch(self, repair: Callable[[], bool]) -> None:
        while not self.closed:
            self._trouble.wait()
            if self.closed:
                return
            self._trouble.clear()
            if not repair():
                self._trouble.set()  # try again (a board may take seconds to return)
                time.sleep(_PAUSE)

    # -- the reader thread ---------------------------------------------------------------

    def _gone(self, gen: int) -> None:
        if gen == self._gen and not self.lost:
            self.lost = True
            self._on_lost()
            if not self.closed:
                self._trouble.set()

    def _read(self, port: Any, gen: int) -> None:
        lines = LineReader(MAX_REPLY)
        while gen == self._gen and not self.closed:
            try:
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError, AttributeError, TypeError, ValueError):
                break  # unplugged, the other end closed, or we closed it
            if gen != self._gen:
                return
            for item in lines.feed(data) if data else ():
                if isinstance(item, str):
                    self._on_line(item)
        self._gone(gen)
