"""The state pushed to every screen of the board's server: each event stream gets the
state now, then each new version (a slow reader skips to the latest:
cribcore.web.screens), a comment after HEARTBEAT_S without one, so a dead phone's
connection is noticed when the comment cannot be written.

    push = Push(room, app)        # app: boardweb.conn.Guarded (its streams capped)
    push.changed()                # the room has a new state: every stream wakes
    await push.stream(req, sse)   # microdot.sse's event function of GET /events

Each version's event is made once, the same bytes queued on every stream (microdot's
sse.send would copy the state three times per screen: large blocks that a fragmented
heap may not have). A stream that fails (MemoryError above all) ends: microdot then
closes its connection and the page's EventSource opens a new one; it is never left open
and silent.
"""

from cribcore.web.edge import HEARTBEAT_S
from cribcore.web.screens import ENDED, HEARTBEAT, Screens

NO_FRAME = (-1, b"")  # no state made into an event yet


def said(error):
    """Say on the console (a board's USB) why an event stream ended."""
    try:
        print("boardweb: an event stream ended: %r" % (error,))
    except MemoryError:
        pass  # nothing to say it with


class Push:
    """The event streams of one room (module docstring)."""

    def __init__(self, room, app):
        self.room = room
        self.app = app
        self.screens = Screens()
        self._frame = NO_FRAME  # (version, its event on a stream): made once (event())
        app.wake = self.screens.changed

    def changed(self):
        """Wake every event stream: the room has a new state."""
        self.screens.changed()

    def version(self):
        return self.room.version

    async def stream(self, req, sse):
        """The state now, then each new one, a comment after HEARTBEAT_S without one; ends
        when the stream is dropped for a newer one (boardweb.conn)."""
        self.app.stream(req)
        sent = -1
        try:
            while not self.app.dropped(req):
                now = await self.screens.next(sent, self.version, HEARTBEAT_S)
                if now == ENDED or self.app.dropped(req):
                    break
                if now == HEARTBEAT:
                    await sse.send("still here", comment=True)
                    continue
                sent, frame = self.event()
                del sse.queue[:]  # not sent yet: the newer state replaces it
                sse.queue.append(frame)
                sse.event.set()
        except Exception as e:
            del sse.queue[:]
            self._frame = NO_FRAME  # the heap back
            said(e)

    def event(self):
        """(version, the state as an event on a stream), made once per version."""
        version = self.room.version
        if self._frame[0] != version:
            self._frame = NO_FRAME
            text = self.room.text().encode()
            self._frame = (version, b"".join((b"data: ", text, b"\n\n")))
        return self._frame
