"""The state pushed to every screen of the board's server: each event stream gets the
state now, then each new version (a slow reader skips to the latest:
cribcore.web.screens), a comment after HEARTBEAT_S without one, so a dead phone's
connection is noticed when the comment cannot be written.

    push = Push(room, app)        # app: boardweb.conn.Guarded (its streams capped)
    push.changed()                # the room has a new state: every stream wakes
    await push.stream(req, sse)   # microdot.sse's event function of GET /events

A stream that has the version before is sent its patch (cribcore.table.patch: the new
events and the fields that changed, about 1 KB), any other the whole state (6-8 KB); each
is made into an event once per version, the same bytes queued on every stream (microdot's
sse.send would copy the state three times per screen: large blocks that a fragmented
heap may not have). A stream that fails (MemoryError above all) ends: microdot then
closes its connection and the page's EventSource opens a new one; it is never left open
and silent.
"""

from cribcore.web.edge import HEARTBEAT_S
from cribcore.web.screens import ENDED, HEARTBEAT, Screens

NO_FRAME = (-1, b"")  # no state made into an event yet (or no patch)


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
        self._patch = NO_FRAME  # (version, its patch's event, b"" if none): made once
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
                # one still queued is not sent yet: the newer replaces it, whole (the
                # phone never had the version a patch would apply to)
                sent, frame = self.event(-1 if sse.queue else sent)
                del sse.queue[:]
                sse.queue.append(frame)
                sse.event.set()
        except Exception as e:
            del sse.queue[:]
            self._frame = self._patch = NO_FRAME  # the heap back
            said(e)

    def event(self, sent=-1):
        """(version, the event a stream that has version sent is sent): the patch from
        the version before if sent is that one and it has a patch, else the whole state;
        each made once per version."""
        version = self.room.version
        if sent == version - 1:
            if self._patch[0] != version:
                self._patch = NO_FRAME
                text = self.room.patch_text()
                self._patch = (version, b"" if text is None else
                               b"".join((b"data: ", text.encode(), b"\n\n")))
            if self._patch[1]:
                return self._patch
        if self._frame[0] != version:
            self._frame = NO_FRAME
            text = self.room.text().encode()
            self._frame = (version, b"".join((b"data: ", text, b"\n\n")))
        return self._frame
