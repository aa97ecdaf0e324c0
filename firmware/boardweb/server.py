"""The board's own web server (microdot, on MicroPython): the phone page, its state pushed
to every screen (server-sent events), and the answers, undos and seats posted back, the
same routes and rules as the laptop's `crib serve` (crib.web.app):

    GET  /            the page (no key)     GET /state      the state now (JSON)
    GET  /join.json   the joining address   GET /events     the state, pushed
    GET  /board.svg   404 (no picture here) GET /qr.svg     the joining code, if stored
    GET  /static/...  script and style      POST /api/join  {seat, take, token} -> token
    POST /api/answer  {question, answer, seat, token, for}
    POST /api/undo, /api/redo  {question, seat, token}

Every request passes cribcore.web.rules first (the key, cross-site and not-JSON writes,
the Host, the body's size); its body, its seat and the bytes of every answer are the
request edge's (cribcore.web.edge, the same as crib serve's), then the room runs the
engine once (cribcore.table.room). The modules beside this one: conn (deadlines for a
request's head and body, caps on connections and streams, admission by free heap), push
(the event streams), routes (the URLs), hooks (the tests' routes). Everything runs on one
asyncio loop: the App's frames, the requests and the event streams.

    server = BoardServer(room, board, key, files, join_url)
    await server.serve("0.0.0.0", 80)
"""

import asyncio
import gc

from microdot import Response

try:
    from time import ticks_diff  # type: ignore[attr-defined]
except ImportError:  # CPython (the tests'): woken() is always so there
    ticks_diff = None  # type: ignore[assignment]

from boardweb.conn import length, ticks_ms
from boardweb.push import Push
from boardweb.routes import routes
from cribcore.table.seats import Refused
from cribcore.web.edge import Edge
from pegboard.ticks import elapsed

FRAME_MS = 10  # the App draws a frame this often
# While an answer is in hand (a request being served, or a new version not yet written to
# every screen) the App draws no frame; it waits for the answer at most HOLD_MS (then
# draws one all the same: a flood of requests never freezes the LEDs for longer).
HOLD_MS = 200
# A frame due lets the tasks already woken go first (a phone's connection accepted, then
# its request read and answered): it waits a millisecond while any is (the loop's tasks
# are queued by the millisecond, asyncio's ticks_ms, so every task woken before the wait
# or in its millisecond comes first), at most YIELDS times.
YIELDS = 4
# The heap is collected between answers (tidy) at least TIDY_AFTER_MS after an answer's
# work is done: not in the same pass of the loop as the answer's last step.
TIDY_AFTER_MS = 5
ADDRESS = "192.168.4.1"  # the board's own network's (pegboard.radio.ADDRESS)
ENOSPC = 28  # OSError: no space left on the device (the record's flash)
STORAGE_FULL = ("the board's storage is full: this answer was not kept. Free space on its"
                " flash (copy its games with `crib history import`, then remove old ones)"
                " and answer again")


def json(pair):
    """An answer the edge made, (status, bytes), as a response."""
    return Response(pair[1], pair[0], {"Content-Type": "application/json"})


def woken():
    """Whether a task of the loop is woken and waits to run (MicroPython's asyncio: the
    head of its queue is due; elsewhere, assumed so)."""
    queue = getattr(getattr(asyncio, "core", None), "_task_queue", None)
    if queue is None:
        return True
    task = queue.peek()
    return task is not None and ticks_diff(task.ph_key, ticks_ms()) <= 0


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
        self.edge = Edge(key)
        self.peak = 0  # the heap's high-water mark at the end of a request (hooks)
        self.radio = None  # a board's Wi-Fi (pegboard.radio), which frames() steps: follow()
        # On the board's own network: phones' captive-portal probes are sent to the page
        # (boardweb.routes) and the DNS responder answers every name with dns_address.
        self.probing = False
        self.dns_address = ADDRESS
        self.app = routes(self, hooks)
        self.app.hosts = hosts or ()
        self.push = Push(room, self.app)
        self.push.after = self.answer_done  # once every screen has the answer's state
        self.settled = asyncio.Event()  # set when an answer is out (frames() waits on it)
        self.app.idle = self.settled.set
        self.app.answered = self.answered
        self.hold_ms = HOLD_MS
        self.done_at = None  # ticks_ms when an answer's work was last done (answer_done)
        self.club = None  # a boardweb.clubreport.ClubReport: games reported to a club
        self.afters = []  # () -> None each, run by flush() after the App's pegs

    def follow(self, radio, port=80, also=()):
        """Step radio in the loop, and answer to the Host names (and also's) and give the
        joining address (by name on the home network) of the network it is on."""
        self.radio, self.port, self.also = radio, port, tuple(also)
        radio.listeners.append(self.moved)
        self.moved(radio)

    def moved(self, radio):
        """The radio changed network: the hosts and the joining address follow it."""
        self.hosts = self.app.hosts = radio.hosts(self.port) + list(self.also)
        self.probing = radio.state == "own"
        where = radio.address or ADDRESS
        if radio.state == "home" and radio.name:
            where = radio.name + ".local"
        if self.port != 80:
            where = "%s:%d" % (where, self.port)
        self.join_url = "http://%s/?k=%s" % (where, self.key)

    def flush(self):
        """What an answer left for after its reply and its screens (the App's pegs and
        light: boardweb.appboard's defer; then afters: the screens' log on flash, the record's
        full tail appended to its game's file: board.py);
        an App that refused one of them is made the record's again
        (boardweb.resume.resync), as after a restart."""
        board = self.board
        self.settled.set()  # the screens have the answer: the App's frames go on
        board.flush()
        for after in self.afters:
            after()
        if not board.behind:
            return
        board.behind = False
        try:
            from boardweb.resume import resync

            resync(self.room.engine, board)
        except Exception as e:  # noqa: BLE001 - a flash error, a bug: the game goes on
            self.room.problem("the board's LEDs: %r" % (e,))
        self.changed()

    def answer_done(self):
        """An answer's work all done (its reply sent, every screen has its state): what it
        left for after (flush), then the heap looked at for the next connection
        (boardweb.conn's note_heap), so that the next phone's answer does not wait for it."""
        self.flush()
        self.app.note_heap()
        self.done_at = ticks_ms()

    def answered(self):
        """A phone's post was answered (its reply sent): what it left for after the reply
        is done now, unless it waits for the screens (push's after does it then)."""
        if not self.push.behind():
            self.answer_done()

    def changed(self):
        """Wake every event stream: the room has a new state (and a game just over is
        queued for the club: sent by its own task, after this answer)."""
        if self.club is not None:
            self.club.seen(self.room.engine)
        self.push.changed()

    # -- the requests (routes) ------------------------------------------------------------

    def act(self, req, kind):
        """An answer, an undo or a redo through microdot (a request not plain enough for
        boardweb.quick): act_on's reply as a Response."""
        why = self.act_on(kind, length(req), "Transfer-Encoding" in req.headers, req.body)
        return json((200, self.edge.ok(self.room.version)) if why is None else why)

    def act_on(self, kind, size, chunked, raw):
        """An answer, an undo or a redo (its Content-Length as sent, whether chunked, its
        body): the edge's checks, then the room once; None once the room took it (the
        reply: edge.ok of the room's version, which boardweb.quick makes with its head in
        one piece), else the refusal's (status, JSON)."""
        edge = self.edge
        try:
            edge.head(size, chunked)
            body = edge.body(kind, raw)
            seat = edge.seat(body, self.room.names())
            self.room.act(kind, body, seat)
        except Refused as e:
            return edge.refused(e)
        except OSError as e:
            if e.args and e.args[0] == ENOSPC:  # the record could not be written
                return edge.refused(Refused(507, STORAGE_FULL))
            raise
        finally:
            self.changed()  # a refusal may have caught the room up: every screen too
        return None

    def join(self, req):
        """A seat joined, or taken from another phone (the edge's)."""
        edge = self.edge
        try:
            edge.head(length(req), "Transfer-Encoding" in req.headers)
            return json(edge.join(edge.body("join", req.body), self.room.names()))
        except Refused as e:
            return json(edge.refused(e))

    # -- running ------------------------------------------------------------------------------

    async def frames(self):
        """The App's loop: a step every FRAME_MS (its USB lines, a frame: pegs jump hole by
        hole, the turn pulses; its buttons); a press on the buttons is news for the engine,
        and every screen gets the state it made.

        An answer never waits on a frame: a frame due lets the tasks already woken go
        first (woken(): a phone's connection accepted, then its request read and
        answered), and while an answer is in hand (answering()) it waits until the
        answer is out (at most hold_ms). The App's animations go by the clock, so the
        frames not drawn meanwhile are never seen; its commands are not in the frames:
        the pegs an answer left wait for the screens (flush, push's after), in order."""
        while True:
            await asyncio.sleep(FRAME_MS / 1000)
            for _ in range(YIELDS):
                if not woken():
                    break
                await asyncio.sleep(0.001)
            await self._held()
            self.tidy()
            self.flush()
            self.board.tick()
            if self.radio is not None:
                self.radio.step(self.board.clock())
            if self.board.news:
                self.news()

    def tidy(self):
        """A heap the last look found short (boardweb.conn's TIDY_FREE) collected between
        answers: the next answer then has room and needs no collection of its own (one
        costs about 20 ms on an RP2040; players take seconds to answer). Only while no
        answer is in hand, and TIDY_AFTER_MS after the last answer's work."""
        app = self.app
        if not app.tidy or self.answering():
            return
        if self.done_at is not None and elapsed(ticks_ms(), self.done_at) < TIDY_AFTER_MS:
            return
        app.tidy = False
        gc.collect()

    def answering(self):
        """Whether an answer is in hand: a request being served (its body in), or a new
        version not yet written to every screen."""
        return self.app.serving > 0 or self.push.behind()

    async def _held(self):
        """Until no answer is in hand, or hold_ms have passed."""
        if not self.answering():
            return
        clock = self.board.clock
        start = clock()
        while self.answering():
            left = self.hold_ms - elapsed(clock(), start)
            if left <= 0:
                return
            self.settled.clear()
            try:
                await asyncio.wait_for(self.settled.wait(), left / 1000)
            except asyncio.TimeoutError:
                return

    def news(self):
        """The board's presses given to the engine (Room.poll); a failure is said on every
        screen, and the loop goes on (the record keeps what was taken)."""
        try:
            self.room.poll()
        except Exception as e:  # noqa: BLE001 - a flash error, a bug: the LEDs go on
            self.room.problem("the board's buttons: %r" % (e,))
        self.changed()

    async def serve(self, host, port, dns=None):
        """Serve until the server is shut down; dns: (host, port) where the own network's
        DNS responder listens (boardweb.dns), answering with the board's address while
        the board is on its own network (probing)."""
        ticking = asyncio.create_task(self.frames())
        answering = None
        if dns is not None:
            from boardweb.dns import listen, responder

            answering = asyncio.create_task(responder(listen(dns[0], dns[1]), self.own))
        club = self.club and asyncio.create_task(self.club.run(self.room.engine))
        try:
            await self.app.start_server(host=host, port=port)
        finally:
            ticking.cancel()
            if answering is not None:
                answering.cancel()
            if club:
                club.cancel()

    def own(self):
        """The address the DNS responder answers with: the board's own network's, or None
        off it."""
        return self.dns_address if self.probing else None
