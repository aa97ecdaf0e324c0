"""The long mixed run of issue 35: the board's own server (firmware/boardweb under
MicroPython's unix port, heap capped as crib.web.unixboard.HEAP, its record in a store
folder) played to a game's end by the seat asked, while 4 screens follow the state (each
naming its seat, as the page does: seats 0 and 1, the shared screen, one not joined) and
strangers probe it all along: HEAD /events in a loop, heads trickled a line a second,
bodies that never finish, silent connections, event streams opened and never read,
keyless OPTIONS, and a phone undoing the open question and putting it back (redo) again
and again; the server killed (SIGKILL, a power cut) and started again on its store every
`restart` answers. bench/board_probes.py prints its figures; test_mixed_run runs a short
one (short(): every probe's rounds waited for, not timed).

    figures = run(answers=300, restart=60)   # a dict (keys: FIGURES)
    figures = short(answers=6)               # rounds, answers, a restart, answers, rounds

An answer is posted again, as the page does, while it gets no reply or finds its
question briefly taken back by the undoing phone; failed: refused otherwise, or never
taken. (A full flash is not mixed in: its board is another build, test_storage_full.)
"""

import json
import socket
import tempfile
import threading
import time
from contextlib import contextmanager

import httpx2 as httpx
from both import HEADERS, KEY, NAMES, Q, Table

from crib.web.unixboard import HEAP, UnixBoard

TRIES = 250  # tries of one answer (0.2 s apart) before it counts as failed (a loaded
# machine: the undoing phone may take a while to put a question back)
FIGURES = ("taken", "failed", "resent", "restarts", "live", "peak", "conns", "streams",
           "refused", "reopened", "seconds", "alive", "tracebacks", "probes", "held",
           "half_read", "caps")
GRACE_S = 2  # boardweb.conn.GRACE_MS: a request begun is never closed for a new one
HOG = 7  # unread event streams held at once (more than the board's cap on streams)
BURST = 20  # silent connections at once (more than the board's cap on connections)


class Probes:
    """The strangers' threads, each looping until stop."""

    JOBS = ("head_events", "trickle", "trickle", "endless", "endless", "silent", "hog",
            "options", "undo_redo", "half_sent")
    # what each job counts as one round done (Probes.done's keys)
    ROUNDS = {"head_events": "HEAD /events", "trickle": "trickled heads",
              "endless": "endless bodies", "silent": "%d silent connections" % BURST,
              "hog": "%d unread streams held" % HOG, "options": "keyless OPTIONS",
              "undo_redo": "redos", "half_sent": "requests half sent through a burst"}

    def __init__(self, host, port, url, jobs=JOBS, pause=0.0):
        self.host, self.port, self.url = host, port, url
        self.pause = pause  # between two HEADs (or OPTIONS): 0, a flood
        self.stop = threading.Event()
        self.done = {}  # probe -> rounds
        self.held = 0  # the most event streams the board had while the hog held HOG
        self.half_read = []  # a request closed half read within the board's grace
        self.restarts = 0  # the board's restarts begun (a round across one proves nothing)
        self.undoing = threading.Lock()  # held from an undo until its redo
        self.names = sorted({self.ROUNDS[j] for j in jobs})
        self.threads = [threading.Thread(target=getattr(self, j), daemon=True)
                        for j in jobs]

    def _count(self, name):
        self.done[name] = self.done.get(name, 0) + 1

    def marks(self):
        """Each probe's rounds so far."""
        return {n: self.done.get(n, 0) for n in self.names}

    def wait_rounds(self, marks, limit=120):
        """Until every probe has done a round more than marks (its rounds end with the
        board's answer or its deadline, so this waits for them, not for a time); the
        probes still short, after limit seconds (a stalled board)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            short = [n for n in self.names if self.done.get(n, 0) <= marks[n]]
            if not short:
                return []
            time.sleep(0.1)
        return short

    def _conn(self):
        return socket.create_connection((self.host, self.port), 10)

    def head_events(self):
        with httpx.Client(base_url=self.url, headers=HEADERS, timeout=10) as c:
            while not self.stop.is_set():
                try:
                    c.head("/events")
                    self.stop.wait(self.pause)
                except httpx.TransportError:
                    self.stop.wait(0.2)
                self._count("HEAD /events")

    def trickle(self):
        while not self.stop.is_set():
            try:
                with self._conn() as s:
                    s.sendall(b"GET /state HTTP/1.1\r\n")
                    s.settimeout(1)
                    for i in range(30):  # a line a second until the board closes it
                        try:
                            if not s.recv(4096) or self.stop.is_set():
                                break
                        except TimeoutError:
                            s.sendall(b"X-Slow-%d: 1\r\n" % i)
            except OSError:
                self.stop.wait(0.2)
            self._count("trickled heads")

    def endless(self):
        while not self.stop.is_set():
            try:
                with self._conn() as s:
                    s.sendall(("POST /api/answer HTTP/1.1\r\nX-Crib-Key: %s\r\nContent-Type:"
                               " application/json\r\nContent-Length: 500\r\n\r\n{"
                               % KEY).encode())
                    s.settimeout(30)
                    while s.recv(4096):
                        pass
            except OSError:
                self.stop.wait(0.2)
            self._count("endless bodies")

    def silent(self):
        while not self.stop.is_set():
            held = []
            try:
                for _ in range(BURST):
                    held.append(self._conn())
            except OSError:
                pass
            self.stop.wait(3)
            for s in held:
                s.close()
            self._count("%d silent connections" % BURST)

    def _heard(self, c, s):
        """Whether the board has begun to read the request on socket s (its /test/heap's
        `heard` lists s's port); False if it has not within a few tries."""
        port = s.getsockname()[1]
        for _ in range(TRIES):
            heap = self._heap(c)
            if heap is not None and port in heap.get("heard", ()):
                return True
            if self.stop.is_set():
                return False
            time.sleep(0.05)
        return False

    def _heap(self, c):
        """The board's /test/heap (None if it did not answer)."""
        try:
            return c.get("/test/heap").json()
        except (httpx.TransportError, ValueError):
            return None

    def hog(self):
        """HOG event streams (with the key, naming no seat) opened one after another and
        never read past their head; once HOG are answered as streams, the board's streams
        counted while they are held (Probes.held)."""
        with httpx.Client(base_url=self.url, headers=HEADERS, timeout=10) as c:
            while not self.stop.is_set():
                held = []
                try:
                    heads = 0
                    for _ in range(3 * HOG):  # (a connection closed unread: another)
                        s = self._conn()
                        held.append(s)
                        s.sendall(("GET /events?k=%s HTTP/1.1\r\n\r\n" % KEY).encode())
                        got = b""
                        while b"\r\n\r\n" not in got:  # its head: counted as a stream
                            part = s.recv(512)
                            if not part:
                                break
                            got += part
                        heads += got[9:12] == b"200" and b"\r\n\r\n" in got
                        if heads == HOG:
                            break
                    h = self._heap(c)
                    if h is not None and heads == HOG:
                        self.held = max(self.held, h["streams"])
                        self._count(self.ROUNDS["hog"])
                except OSError:
                    pass
                finally:
                    for s in held:
                        s.close()
                self.stop.wait(2)  # (while held, they take half the connections)

    @staticmethod
    def _closed(s):
        """Whether the board has closed s (nothing read from it)."""
        s.setblocking(False)
        try:
            return s.recv(1, socket.MSG_PEEK) == b""
        except BlockingIOError:
            return False
        except OSError:
            return True
        finally:
            s.setblocking(True)

    def _burst(self, c):
        """BURST silent connections, a few at a time (the board's listening queue is
        short: a connection past it waits a second for the next SYN), each few taken
        by the board before the next (a GET answered after them); None if a GET was
        not answered."""
        burst = []
        try:
            while len(burst) < BURST:
                burst += [self._conn() for _ in range(4)]
                if self._heap(c) is None:
                    return burst, False
            return burst, True
        except OSError:
            return burst, False

    def half_sent(self):
        """A phone's request sent in two parts (its head, then its body: a weak radio)
        with a burst of BURST silent connections between them: the board closes silent
        ones for the burst, never a request it has begun to read within its grace
        (boardweb.conn.GRACE_MS). A round proves it only when the span from the
        connection to the burst taken is within the grace, and crosses no restart: those
        are counted apart ("... within the grace")."""
        head = ("POST /api/undo HTTP/1.1\r\nX-Crib-Key: %s\r\nContent-Type:"
                " application/json\r\nContent-Length: 2\r\n\r\n" % KEY).encode()
        with httpx.Client(base_url=self.url, headers=HEADERS, timeout=10) as c:
            while not self.stop.is_set():
                restarts, burst = self.restarts, []
                try:
                    with self._conn() as s:
                        t0 = time.monotonic()
                        s.sendall(head)
                        # the board has begun to read this request (a GET answered after
                        # the head was sent did not prove it: the loop may serve the GET
                        # before this connection's first read, and a connection not yet
                        # heard is one the burst may close, by design: a phone sends again)
                        if not self._heard(c, s) or self._closed(s):
                            s.sendall(b"{}")  # (closed unread: by its admission)
                            continue
                        burst, taken = self._burst(c)
                        span = time.monotonic() - t0
                        s.sendall(b"{}")  # the body: refused (no question), nothing changed
                        s.settimeout(10)
                        try:
                            answer = s.recv(64)
                        except OSError:
                            answer = b""
                    self._count(self.ROUNDS["half_sent"])
                    if taken and self.restarts == restarts and span < GRACE_S:
                        self._count(self.ROUNDS["half_sent"] + " within the grace")
                        if not answer.startswith(b"HTTP/1."):
                            self.half_read.append("closed half read %.2f s after its"
                                                  " connection" % span)
                except OSError:
                    self.stop.wait(0.2)
                finally:
                    for b in burst:
                        b.close()

    def options(self):
        with httpx.Client(base_url=self.url, timeout=10) as c:
            while not self.stop.is_set():
                try:
                    c.request("OPTIONS", "/state")
                    self.stop.wait(self.pause)
                except httpx.TransportError:
                    self.stop.wait(0.2)
                self._count("keyless OPTIONS")

    def undo_redo(self):
        """A phone at the shared screen undoing the open question, then putting it back
        (redo) until it is back: the game goes on as it was. The board is not restarted
        while a question is taken back (Probes.undoing): the board keeps no redo across a
        power cut, so the game would stay taken back (a player at the table would simply
        answer again; the reference players here cannot)."""
        with httpx.Client(base_url=self.url, headers=HEADERS, timeout=30) as c:
            me = None
            while not self.stop.is_set():
                try:
                    if me is None:
                        me = {"seat": "table",
                              "token": c.post("/api/join", json={"seat": "table"})
                              .json()["token"]}
                    q = c.get("/state").json()["question"]
                    if q is None or not q["undo"]:
                        self.stop.wait(0.3)
                        continue
                    with self.undoing:  # no restart meanwhile: a redo is not kept
                        try:
                            r = c.post("/api/undo", json={"question": q["id"], **me})
                        except httpx.TransportError:
                            r = None  # taken or not: the state says
                        if r is not None and r.status_code != 200:
                            self._count("undos refused")
                            continue
                        self._count("undos")
                        while not self.stop.is_set():  # put back
                            try:
                                s = c.get("/state").json()
                                if not (s["undone"] and s["undone"]["redo"]):
                                    break
                                c.post("/api/redo", json={"question": s["question"]["id"],
                                                          **me})
                            except (httpx.TransportError, ValueError):
                                time.sleep(0.2)
                        self._count("redos")
                except (httpx.TransportError, ValueError):
                    pass
                self.stop.wait(0.5)


def get(c, path):
    """GET path as the page does: again while the board closes the connection unread
    (its caps, the heap short, a restart); the JSON."""
    for _ in range(TRIES):
        try:
            return c.get(path).json()
        except (httpx.TransportError, ValueError):
            time.sleep(0.2)
    raise AssertionError("GET %s never answered" % path)


def screens(url, stop, counts, seats):
    """4 screens following /events (each naming its seat), opening it again when it ends
    (as EventSource)."""
    def follow(params):
        with httpx.Client(base_url=url, headers=HEADERS, timeout=60) as c:
            while not stop.is_set():
                try:
                    with c.stream("GET", "/events", params=params) as r:
                        for _ in r.iter_lines():
                            if stop.is_set():
                                return
                except httpx.TransportError:
                    pass
                counts["reopened"] += 1
                stop.wait(0.5)
    named = [{"s": s["seat"], "t": s["token"]} for s in seats] + [None]
    threads = [threading.Thread(target=follow, args=(p,), daemon=True) for p in named]
    for t in threads:
        t.start()
    return threads


def where(s):
    """What a question is, as the undoing phone cannot change it: taken back and put
    back, it reads the same (its id is new)."""
    q, v = s["question"], s["view"]
    return json.dumps([q["kind"], q["prompt"], q["asks"], v.get("hand"), v.get("scores")],
                      sort_keys=True)


def play(c, table, answers, counts, board, restart):
    """The seat asked answers, up to answers times (the game's end first); the board
    (a Mixed) restarted every `restart` answers taken."""
    pending = None  # (where, the body) to post
    done = counts["where"]  # where each answer taken was: its body (an undo goes back)
    waits = 0
    while counts["taken"] < answers and waits < TRIES:
        s = get(c, "/state")
        q = s["question"]
        if q is None:
            break
        at = where(s)
        if pending is None:
            if at in done and s["undone"] and s["undone"]["redo"]:
                waits += 1  # taken back by the undoing phone: it puts it back
                time.sleep(0.2)
                continue
            if at in done:  # taken back for good (no redo after a restart): answered again
                pending = (at, done[at])
        if pending is None:
            try:
                pending = (at, {"answer": table.players.answer(Q(q)), **table.who(q)})
            except AssertionError:
                raise AssertionError("the reference players cannot answer %s (%d taken;"
                                     " the log: %s)" % (at, counts["taken"], s["log"][-6:])
                                     ) from None
        if at != pending[0]:
            if s["undone"] and s["undone"]["redo"]:
                waits += 1  # taken back meanwhile: the undoing phone puts it back
                time.sleep(0.2)
                continue
            # Taken back for good (a restart lost the redo: answered again above), or taken
            # with its reply lost to a restart (not counted: the next one is answered).
            pending = None
            continue
        try:
            r = c.post("/api/answer", json=dict(pending[1], question=q["id"]))
        except httpx.TransportError:
            counts["resent"] += 1
            waits += 1
            time.sleep(0.2)
            continue
        if r.status_code == 409 and "no longer open" in r.text:
            counts["resent"] += 1  # its question taken back a moment: again
            continue
        if r.status_code != 200:
            counts["failed"] += 1
            counts["said"].append("%d %s" % (r.status_code, r.text[:200]))
            waits += 1
            continue
        counts["taken"] += 1
        done[pending[0]] = pending[1]
        pending, waits = None, 0
        if restart and counts["taken"] % restart == 0:
            board.restart()
    if waits >= TRIES:
        counts["failed"] += 1
        counts["said"].append("never taken: %s (the state: %s)" % (pending, s))


class Mixed:
    """A mixed run under way (mixed()): the board, the player's client and table, the
    probes, the counts; measure() takes the heap's and the caps' worst so far."""

    def __init__(self, board, c, probes):
        self.board, self.c, self.probes = board, c, probes
        self.table = Table(c)
        self.counts = {"taken": 0, "failed": 0, "resent": 0, "restarts": 0, "reopened": 0,
                       "said": [], "where": {}}
        self.worst = {"live": 0, "peak": 0, "conns": 0, "streams": 0, "refused": 0}
        self.figures = {}

    def measure(self):
        h = get(self.c, "/test/heap")
        self.figures["caps"] = h["caps"]  # connections, streams, streams of a seat
        for k in self.worst:
            self.worst[k] = max(self.worst[k], h[k])

    def play(self, answers, restart=0):
        """The seat asked answers until answers are taken in all (play())."""
        try:
            play(self.c, self.table, answers, self.counts, self, restart)
            self.measure()
        except AssertionError as e:
            raise AssertionError("%s (%d taken; server alive: %s; its output's end:\n%s)"
                                 % (e, self.counts["taken"], self.board.alive(),
                                    self.board.output()[-3000:])) from None

    def restart(self):
        """The board killed (SIGKILL) and started again on its store."""
        if not self.probes.undoing.acquire(timeout=120):  # nothing taken back
            raise AssertionError("the undoing phone never put its question back")
        try:
            self.probes.restarts += 1
            self.board.restart()
        finally:
            self.probes.undoing.release()
        self.counts["restarts"] += 1


@contextmanager
def mixed(heap=HEAP, jobs=Probes.JOBS, pause=0.0):
    """The board (a store folder), the 4 screens and the probes started; on leaving, the
    probes stopped and the figures (FIGURES) put in the Mixed's figures."""
    store = tempfile.TemporaryDirectory(prefix="crib-mixed-")
    board = UnixBoard(KEY, names=NAMES, heap=heap, dealer=0, store=store.name)
    with store, board as url:
        host, port = url.rsplit("/", 1)[1].split(":")
        stop = threading.Event()
        probes = Probes(host, int(port), url, jobs, pause)
        t0 = time.monotonic()
        with httpx.Client(base_url=url, headers=HEADERS, timeout=30) as c:
            m = Mixed(board, c, probes)
            follow = screens(url, stop, m.counts, m.table.seats + [m.table.table])
            for t in probes.threads:
                t.start()
            try:
                yield m
            finally:
                stop.set()
                probes.stop.set()
            m.measure()
        counts = m.counts
        m.figures.update(m.worst, taken=counts["taken"], failed=counts["failed"],
                         resent=counts["resent"], restarts=counts["restarts"],
                         reopened=counts["reopened"], seconds=time.monotonic() - t0,
                         alive=board.alive(), tracebacks=board.output().count("Traceback"),
                         held=probes.held, half_read=probes.half_read, said=counts["said"])
    for t in follow + probes.threads:  # the board stopped: their connections ended
        t.join(40)
    m.figures["probes"] = dict(probes.done)


def run(answers=300, heap=HEAP, restart=60, every=25, jobs=Probes.JOBS):
    """The long mixed run (module docstring); its figures."""
    with mixed(heap, jobs) as m:
        counts = m.counts
        while counts["taken"] < answers:
            before = counts["taken"], counts["failed"]
            m.play(min(answers, counts["taken"] + every), restart)
            if (counts["taken"], counts["failed"]) == before or \
                    get(m.c, "/state")["question"] is None:
                break
    return m.figures


def short(answers=6, heap=HEAP, pause=0.1):
    """The short mixed run (tests/webboth/test_mixed_run.py): every probe's round waited
    for, then answers answers; the board killed and started again on its store; every
    probe's round again, answers more, and a round of each since: each probe ran while
    the answers were taken, before and after the restart. Its figures, and "short": the
    probes still without their round (none, unless the board stalled). pause: between
    two HEADs or OPTIONS (a few a second: the single-threaded board is not spent on them
    alone, so a loaded machine still runs it in seconds)."""
    with mixed(heap, pause=pause) as m:
        short = m.probes.wait_rounds(m.probes.marks())
        for n in (1, 2):
            if short:
                break
            marks = m.probes.marks()
            m.play(n * answers)
            if n == 1:
                m.restart()
            short = m.probes.wait_rounds(marks)
    m.figures["short"] = short
    return m.figures
