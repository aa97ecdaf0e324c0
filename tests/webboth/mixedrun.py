"""The long mixed run of issue 35: the board's own server (firmware/boardweb under
MicroPython's unix port, heap capped as crib.web.unixboard.HEAP, its record in a store
folder) played to a game's end by the seat asked, while 4 screens follow the state (each
naming its seat, as the page does: seats 0 and 1, the shared screen, one not joined) and
strangers probe it all along: HEAD /events in a loop, heads trickled a line a second,
bodies that never finish, silent connections, event streams opened and never read,
keyless OPTIONS, and a phone undoing the open question and putting it back (redo) again
and again; the server killed (SIGKILL, a power cut) and started again on its store every
`restart` answers. bench/board_probes.py prints its figures.

    figures = run(answers=300, restart=60)   # a dict (keys: FIGURES)

An answer is posted again, as the page does, while it gets no reply or finds its
question briefly taken back by the undoing phone; failed: refused otherwise, or never
taken. (A full flash is not mixed in: its board is another build, test_storage_full.)
"""

import json
import socket
import tempfile
import threading
import time

import httpx2 as httpx
from both import HEADERS, KEY, NAMES, Q, Table

from crib.web.unixboard import HEAP, UnixBoard

TRIES = 100  # tries of one answer (0.2 s apart) before it counts as failed
FIGURES = ("taken", "failed", "resent", "restarts", "live", "peak", "conns", "streams",
           "refused", "reopened", "seconds", "alive", "tracebacks", "probes")


class Probes:
    """The strangers' threads, each looping until stop."""

    JOBS = ("head_events", "trickle", "trickle", "endless", "endless", "silent", "hog",
            "options", "undo_redo")

    def __init__(self, host, port, url, jobs=JOBS):
        self.host, self.port, self.url = host, port, url
        self.stop = threading.Event()
        self.done = {}  # probe -> rounds
        self.threads = [threading.Thread(target=getattr(self, j), daemon=True)
                        for j in jobs]

    def _count(self, name):
        self.done[name] = self.done.get(name, 0) + 1

    def _conn(self):
        return socket.create_connection((self.host, self.port), 10)

    def head_events(self):
        with httpx.Client(base_url=self.url, headers=HEADERS, timeout=10) as c:
            while not self.stop.is_set():
                try:
                    c.head("/events")
                except httpx.TransportError:
                    self.stop.wait(0.2)
                self._count("HEAD /events")

    def trickle(self):
        while not self.stop.is_set():
            try:
                with self._conn() as s:
                    s.sendall(b"GET /state HTTP/1.1\r\n")
                    for i in range(30):
                        if self.stop.wait(1):
                            break
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
                for _ in range(20):
                    held.append(self._conn())
            except OSError:
                pass
            self.stop.wait(3)
            for s in held:
                s.close()
            self._count("20 silent connections")

    def hog(self):
        while not self.stop.is_set():
            try:
                with self._conn() as s:
                    s.sendall(("GET /events?k=%s HTTP/1.1\r\n\r\n" % KEY).encode())
                    self.stop.wait(2)  # never read
            except OSError:
                self.stop.wait(0.2)
            self._count("unread streams")

    def options(self):
        with httpx.Client(base_url=self.url, timeout=10) as c:
            while not self.stop.is_set():
                try:
                    c.request("OPTIONS", "/state")
                except httpx.TransportError:
                    self.stop.wait(0.2)
                self._count("keyless OPTIONS")

    def undo_redo(self):
        """A phone at the shared screen undoing the open question, then putting it back
        (redo) until it is back: the game goes on as it was."""
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
                    r = c.post("/api/undo", json={"question": q["id"], **me})
                    if r.status_code != 200:
                        self._count("undos refused")
                        continue
                    self._count("undos")
                    while not self.stop.is_set():  # put back, even across a restart
                        try:
                            s = c.get("/state").json()
                            if not (s["undone"] and s["undone"]["redo"]):
                                break
                            c.post("/api/redo", json={"question": s["question"]["id"], **me})
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
    restarted every `restart` answers taken."""
    pending = None  # (where, the body) to post
    done = counts["where"]  # where every answer taken was (an undo goes back to one)
    waits = 0
    while counts["taken"] < answers and waits < TRIES:
        s = get(c, "/state")
        q = s["question"]
        if q is None:
            break
        at = where(s)
        if pending is None:
            if at in done:  # the undoing phone took it back: it puts it back
                waits += 1
                time.sleep(0.2)
                continue
            try:
                pending = (at, {"answer": table.players.answer(Q(q)), **table.who(q)})
            except AssertionError:
                raise AssertionError("the reference players cannot answer %s (%d taken;"
                                     " the log: %s)" % (at, counts["taken"], s["log"][-6:])
                                     ) from None
        if at != pending[0]:  # taken back meanwhile: wait for it
            waits += 1
            time.sleep(0.2)
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
        done.add(pending[0])
        pending, waits = None, 0
        if restart and counts["taken"] % restart == 0:
            board.restart()
            counts["restarts"] += 1
    if waits >= TRIES:
        counts["failed"] += 1
        counts["said"].append("never taken: %s" % (pending,))


def run(answers=300, heap=HEAP, restart=60, every=25, jobs=Probes.JOBS):
    """The mixed run (module docstring); its figures."""
    store = tempfile.TemporaryDirectory(prefix="crib-mixed-")
    board = UnixBoard(KEY, names=NAMES, heap=heap, dealer=0, store=store.name)
    counts = {"taken": 0, "failed": 0, "resent": 0, "restarts": 0, "reopened": 0,
              "said": [], "where": set()}
    worst = {"live": 0, "peak": 0, "conns": 0, "streams": 0, "refused": 0}

    def measure(c):
        h = get(c, "/test/heap")
        for k in worst:
            worst[k] = max(worst[k], h[k])

    with store, board as url:
        host, port = url.rsplit("/", 1)[1].split(":")
        stop = threading.Event()
        probes = Probes(host, int(port), url, jobs)
        t0 = time.monotonic()
        with httpx.Client(base_url=url, headers=HEADERS, timeout=30) as c:
            table = Table(c)
            follow = screens(url, stop, counts, table.seats + [table.table])
            for t in probes.threads:
                t.start()
            while counts["taken"] < answers:
                before = counts["taken"], counts["failed"]
                try:
                    play(c, table, min(answers, counts["taken"] + every), counts, board,
                         restart)
                    measure(c)
                except AssertionError as e:
                    raise AssertionError("%s (%d taken; server alive: %s; its output's end:"
                                         "\n%s)" % (e, counts["taken"], board.alive(),
                                                    board.output()[-3000:])) from None
                if (counts["taken"], counts["failed"]) == before or \
                        get(c, "/state")["question"] is None:
                    break
            stop.set()
            probes.stop.set()
            measure(c)
        seconds = time.monotonic() - t0
        for t in follow + probes.threads:
            t.join(40)
        out = dict(worst, taken=counts["taken"], failed=counts["failed"],
                   resent=counts["resent"], restarts=counts["restarts"],
                   reopened=counts["reopened"], seconds=seconds, alive=board.alive(),
                   tracebacks=board.output().count("Traceback"), probes=dict(probes.done),
                   said=counts["said"])
    return out
