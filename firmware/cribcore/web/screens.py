"""The fan-out of the state's versions to every screen that follows it (an event stream
each), the same on both servers: asyncio only, on CPython and MicroPython.

    screens = Screens()
    screens.changed()                     # a new version: every stream wakes
    v = await screens.next(sent, version, HEARTBEAT_S)
    # v: the version to send (not sent), HEARTBEAT (send a comment), or ENDED
    screens.end()                         # the server stops: every stream ends

A slow reader skips to the latest version: it is told the version now, never each one.
MicroPython has no async generators: a stream loops on next().
"""

import asyncio

HEARTBEAT = -1  # next(): nothing new within the heartbeat (a comment keeps the stream)
ENDED = -2  # next(): the server is stopping


class Screens:
    """The screens following the state (module docstring)."""

    def __init__(self):
        self._changed = asyncio.Event()
        self.ending = False
        self.streams = 0  # streams waiting now

    def changed(self):
        """Wake every stream: there is a new version."""
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    def end(self):
        """Every stream ends (the server is stopping)."""
        self.ending = True
        self.changed()

    async def next(self, sent, version, heartbeat):
        """The version to send after sent (version(): the version now), HEARTBEAT after
        heartbeat seconds without one, or ENDED."""
        while True:
            waiter = self._changed  # before reading the version: a change after it wakes
            if self.ending:
                return ENDED
            now = version()
            if now != sent:
                return now
            self.streams += 1
            try:
                await asyncio.wait_for(waiter.wait(), heartbeat)
            except asyncio.TimeoutError:
                return HEARTBEAT
            finally:
                self.streams -= 1
