"""The board's own web server (microdot, on MicroPython): the phone page, its state pushed
to every screen (server-sent events), and the answers, undos and seats posted back, the
same routes and rules as the laptop's `crib serve` (crib.web.app):

    GET  /            the page (no key)     GET /state      the state now (JSON)
    GET  /join.json   the joining address   GET /events     the state, pushed
    GET  /board.svg   404 (no picture here) GET /qr.svg     the joining code, if stored
    GET  /static/...  script and style      POST /api/join  {seat} -> {seat, token}
    POST /api/answer  {question, answer, seat, token, for}
    POST /api/undo, /api/redo  {question, seat, token}

Every request passes cribcore.webrules first (the key, cross-site and not-JSON writes, the
Host, the body's size); a body is checked field by field and a seat by its token
(cribcore.table.seats), then the room runs the engine once (cribcore.table.room). The
page's files are served as stored, gzipped at build time (crib.web.assets). A connection
that sends no whole request head within REQUEST_S is closed. Everything runs on one
asyncio loop: the App's frames, the requests and the event streams.

    server = BoardServer(room, board, key, files, join_url)
    await server.serve("0.0.0.0", 80)
"""

import asyncio
import gc

from microdot import Microdot, Request, Response
from microdot.sse import sse_response

from cribcore import webrules
from cribcore.table import seats

REQUEST_S = 5  # a connection sends a whole request head within this, or is closed
HEARTBEAT_S = 15  # a comment line on an idle event stream, so dead screens are noticed
FRAME_MS = 10  # the App draws a frame this often
GZ_TYPES = {"index.html": "text/html; charset=utf-8",
            "app.js": "text/javascript; charset=utf-8",
            "app.css": "text/css; charset=utf-8"}
NO_STORE = {"Cache-Control": "no-store"}
BAD_REQUEST = "bad request: its head, or its Content-Length, could not be read"


class Timed:
    """A connection's reader that gives up (as a reset connection) when the request's
    head or body does not come within seconds: an idle stranger holds nothing for long."""

    def __init__(self, reader, seconds):
        self.reader = reader
        self.seconds = seconds

    async def _within(self, waiting):
        try:
            return await asyncio.wait_for(waiting, self.seconds)
        except asyncio.TimeoutError:
            raise OSError(104) from None  # as a reset connection: microdot closes it quietly

    async def readline(self):
        return await self._within(self.reader.readline())

    async def readexactly(self, n):
        return await self._within(self.reader.readexactly(n))

    async def read(self, n=-1):
        return await self._within(self.reader.read(n))


class Gathered:
    """A connection's writer that sends a response's head with the first piece of its body
    in one write: microdot writes each header line by itself, and small packets wait for
    the phone's delayed ACK (about 40 ms each on loopback)."""

    def __init__(self, writer):
        self.writer = writer
        self.head = []  # the head's lines so far (None: sent)
        self.ended = False  # the head's blank line is in

    def get_extra_info(self, name):
        return self.writer.get_extra_info(name)

    async def awrite(self, data):
        if self.head is None:
            return await self.writer.awrite(data)
        self.head.append(data)
        if self.ended:
            await self._send()
        elif data == b"\r\n":
            self.ended = True

    async def _send(self):
        head, self.head = self.head, None
        await self.writer.awrite(b"".join(head))

    async def aclose(self):
        if self.head:
            try:
                await self._send()
            except OSError:
                pass  # gone already
        await self.writer.aclose()


class Guarded(Microdot):
    """microdot with every connection's request read under a time limit (Timed), and
    each response's head sent with its body (Gathered)."""

    async def handle_request(self, reader, writer):
        await super().handle_request(Timed(reader, REQUEST_S), Gathered(writer))


def refusal(status, message):
    """A refusal as the page reads it: {"ok": false, "error": message}."""
    return Response({"ok": False, "error": message}, status)


def body_of(req, fields, required):
    """The posted JSON object, checked field by field (seats.Refused if not)."""
    why = webrules.length_refusal(req.headers.get("Content-Length"),
                                  "Transfer-Encoding" in req.headers)
    if why is None:
        body, why = webrules.json_body(req.body or b"")
    if why is not None:
        raise seats.Refused(why[0], why[1])
    return seats.check_fields(body, fields, required)


class BoardServer:
    """The page's server around a room (module docstring). files: the folder of the
    page's gzipped files (index.html.gz, app.js.gz, app.css.gz) and qr.svg if made;
    hosts: the Host headers answered (None: any); hooks: the tests' /test/board and
    /test/heap routes."""

    def __init__(self, room, board, key, files, join_url, hosts=None, hooks=False):
        self.room = room
        self.board = board
        self.key = key
        self.files = files.rstrip("/") + "/"
        self.join_url = join_url
        self.hosts = hosts
        self.session = seats.seat_token(key, "session")[:12]  # names the seat a phone keeps
        self._changed = asyncio.Event()
        self.peak = 0  # the heap's high-water mark at the end of a request (hooks)
        self.app = self._routes(hooks)

    # -- the state every screen follows ------------------------------------------------------

    def changed(self):
        """Wake every event stream: the room has a new state."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def _stream(self, req, sse):
        """The state now, then each new one (a slow reader skips to the latest), a comment
        after HEARTBEAT_S without a change."""
        sent = -1
        while True:
            waiter = self._changed
            if self.room.version != sent:
                sent = self.room.version
                del sse.queue[:]  # not sent yet: the newer state replaces it
                await sse.send(self.room.text())
            try:
                await asyncio.wait_for(waiter.wait(), HEARTBEAT_S)
            except asyncio.TimeoutError:
                await sse.send("still here", comment=True)

    # -- the requests ---------------------------------------------------------------------------

    def _file(self, name):
        """A stored gzipped file of the page, as it is (404 if it is not there)."""
        try:
            f = open(self.files + name + ".gz", "rb")
        except OSError:
            return Response("not found", 404)
        headers = {"Content-Type": GZ_TYPES[name], "Content-Encoding": "gzip"}
        if name == "index.html":
            headers.update(webrules.PAGE_HEADERS)
        return Response(f, 200, headers)

    def _act(self, req, kind):
        fields = seats.ANSWER_FIELDS if kind == "answer" else seats.UNDO_FIELDS
        required = ("question", "answer") if kind == "answer" else ("question",)
        try:
            body = body_of(req, fields, required)
            seat = seats.check_seat(self.key, body.get("seat"), body.get("token"),
                                    len(self.room.names()))
            self.room.act(kind, body, seat)
        except seats.Refused as e:
            return refusal(e.status, e.message)
        finally:
            self.changed()  # a refusal may have caught the room up: every screen too
        return {"ok": True, "version": self.room.version}

    def _join(self, req):
        try:
            seat = body_of(req, seats.JOIN_FIELDS, ("seat",))["seat"]
            names = self.room.names()
            if seat != seats.TABLE and not (isinstance(seat, int) and
                                            not isinstance(seat, bool) and
                                            0 <= seat < len(names)):
                raise seats.Refused(400, "no such seat: %r" % (seat,))
        except seats.Refused as e:
            return refusal(e.status, e.message)
        name = "the table" if seat == seats.TABLE else names[seat]
        return {"ok": True, "seat": seat, "name": name,
                "token": seats.seat_token(self.key, seat)}

    def _routes(self, hooks):
        app = Guarded()
        Request.max_content_length = webrules.MAX_BODY
        Request.max_body_length = webrules.MAX_BODY

        @app.before_request
        async def rules(req):
            given = req.args.get("k") or req.headers.get("X-Crib-Key")
            why = webrules.refusal(req.method, req.path, req.headers.get, given, self.key,
                                   self.hosts)
            if why is not None:
                return Response(why[1], why[0])

        @app.errorhandler(400)
        async def bad(req):
            return refusal(400, BAD_REQUEST)

        @app.errorhandler(413)
        async def large(req):
            return refusal(413, webrules.TOO_LARGE)

        @app.get("/")
        async def index(req):
            return self._file("index.html")

        @app.get("/static/<name>")
        async def static(req, name):
            if name not in GZ_TYPES or name == "index.html":
                return Response("not found", 404)
            return self._file(name)

        @app.get("/join.json")
        async def joining(req):
            return Response({"url": self.join_url, "session": self.session}, 200, NO_STORE)

        @app.get("/state")
        async def state(req):
            return Response(self.room.text(), 200,
                            {"Content-Type": "application/json", "Cache-Control": "no-store"})

        @app.get("/events")
        async def events(req):
            stream, status, headers = sse_response(req, self._stream)
            headers.update(NO_STORE)
            return stream, status, headers

        @app.get("/board.svg")
        async def board_svg(req):
            return Response("no board picture (the board's own LEDs show it)", 404)

        @app.get("/qr.svg")
        async def qr(req):
            try:
                f = open(self.files + "qr.svg", "rb")
            except OSError:
                return Response("no joining code stored on this board", 404)
            return Response(f, 200, {"Content-Type": "image/svg+xml"})

        @app.post("/api/join")
        async def join(req):
            return self._join(req)

        @app.post("/api/answer")
        async def answer(req):
            return self._act(req, "answer")

        @app.post("/api/undo")
        async def undo(req):
            return self._act(req, "undo")

        @app.post("/api/redo")
        async def redo(req):
            return self._act(req, "redo")

        if hooks:
            self._hooks(app)
        return app

    def _hooks(self, app):
        """The tests' view of the board: its pegs and lit LEDs, and the heap."""

        @app.get("/test/board")
        async def board(req):
            """The pegs as the App holds them, the lane asked, whether a jump or the win
            chase is in motion, and with ?lit=1 the colour of the LED under each lane's
            front peg now."""
            renderer = self.board.app.renderer
            pegs = self.board.pegs()
            out = {"pegs": pegs, "turn": renderer.turn,
                   "animating": renderer.animating(self.board.clock())}
            if req.args.get("lit"):
                out["fronts"] = [list(renderer.pixel(renderer.hole_led(lane, peg[1])))
                                 for lane, peg in enumerate(pegs)]
            return out

        @app.get("/test/heap")
        async def heap(req):
            alloc = gc.mem_alloc()
            gc.collect()
            return {"alloc": alloc, "live": gc.mem_alloc(), "free": gc.mem_free(),
                    "peak": self.peak}

        @app.after_request
        async def measure(req, res):
            self.peak = max(self.peak, gc.mem_alloc())

    # -- running ------------------------------------------------------------------------------

    async def frames(self):
        """The App's loop: a step every FRAME_MS (its USB lines, a frame: pegs jump hole by
        hole, the turn pulses; its buttons); a press on the buttons is news for the engine,
        and every screen gets the state it made."""
        while True:
            self.board.tick()
            if self.board.news:
                self.news()
            await asyncio.sleep(FRAME_MS / 1000)

    def news(self):
        """The board's presses given to the engine (Room.poll); a failure is said on every
        screen, and the loop goes on (the record keeps what was taken)."""
        try:
            self.room.poll()
        except Exception as e:  # noqa: BLE001 - a flash error, a bug: the LEDs go on
            self.room.problem("the board's buttons: %r" % (e,))
        self.changed()

    async def serve(self, host, port):
        """Serve until the server is shut down."""
        ticking = asyncio.create_task(self.frames())
        try:
            await self.app.start_server(host=host, port=port)
        finally:
            ticking.cancel()
