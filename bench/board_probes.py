"""The board's own server (firmware/boardweb under MicroPython's unix port, heap capped
as crib.web.unixboard.HEAP) played by the seat asked while 4 screens follow the state and
strangers probe it all along (issue 35): HEAD /events in a loop, heads trickled a line a
second, bodies that never finish, silent connections, event streams opened and never
read, keyless OPTIONS. Prints the answers taken and failed (an answer is posted again,
as the page does, while it gets no reply; failed: never taken), the live heap's peak and
the high-water mark, the most connections and streams seen, the connections refused,
and the screens' streams opened again.

    python bench/board_probes.py [--answers 300] [--heap 640K]
"""

import argparse
import os
import socket
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "web"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "webboth"))

import httpx2 as httpx  # noqa: E402
from both import HEADERS, KEY, NAMES, Q, Table  # noqa: E402

from crib.web.unixboard import HEAP, UnixBoard  # noqa: E402

TRIES = 20  # posts of one answer before it counts as failed


class Probes:
    """The strangers' threads, each looping until stop."""

    def __init__(self, host, port, url):
        self.host, self.port, self.url = host, port, url
        self.stop = threading.Event()
        self.done = {}  # probe -> rounds
        jobs = [self.head_events, self.trickle, self.trickle, self.endless, self.endless,
                self.silent, self.hog, self.options]
        self.threads = [threading.Thread(target=j, daemon=True) for j in jobs]

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
                    pass
                self._count("HEAD /events")

    def trickle(self):
        while not self.stop.is_set():
            try:
                s = self._conn()
                s.sendall(b"GET /state HTTP/1.1\r\n")
                for i in range(30):
                    if self.stop.wait(1):
                        break
                    s.sendall(b"X-Slow-%d: 1\r\n" % i)
            except OSError:
                pass
            self._count("trickled heads")

    def endless(self):
        while not self.stop.is_set():
            try:
                s = self._conn()
                s.sendall(("POST /api/answer HTTP/1.1\r\nX-Crib-Key: %s\r\nContent-Type:"
                           " application/json\r\nContent-Length: 500\r\n\r\n{" % KEY).encode())
                s.settimeout(30)
                while s.recv(4096):
                    pass
            except OSError:
                pass
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
                s = self._conn()
                s.sendall(("GET /events?k=%s HTTP/1.1\r\n\r\n" % KEY).encode())
                self.stop.wait(2)  # never read
                s.close()
            except OSError:
                pass
            self._count("unread streams")

    def options(self):
        with httpx.Client(base_url=self.url, timeout=10) as c:
            while not self.stop.is_set():
                try:
                    c.request("OPTIONS", "/state")
                except httpx.TransportError:
                    pass
                self._count("keyless OPTIONS")


def get(c, path):
    """GET path as the page does: again while the board closes the connection unread
    (its caps, or the heap short); the JSON."""
    for _ in range(TRIES):
        try:
            return c.get(path).json()
        except httpx.TransportError:
            time.sleep(0.2)
    raise SystemExit("GET %s never answered" % path)


def screens(url, stop, counts):
    """4 screens following /events, opening it again when it ends (as EventSource)."""
    def follow():
        with httpx.Client(base_url=url, headers=HEADERS, timeout=60) as c:
            while not stop.is_set():
                try:
                    with c.stream("GET", "/events") as r:
                        for _ in r.iter_lines():
                            if stop.is_set():
                                return
                except httpx.TransportError:
                    pass
                counts["reopened"] += 1
                stop.wait(0.5)
    threads = [threading.Thread(target=follow, daemon=True) for _ in range(4)]
    for t in threads:
        t.start()
    return threads


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--answers", type=int, default=300)
    ap.add_argument("--heap", default=HEAP)
    args = ap.parse_args()
    board = UnixBoard(KEY, names=NAMES, heap=args.heap, dealer=0)
    with board as url:
        host, port = url.rsplit("/", 1)[1].split(":")
        stop = threading.Event()
        counts = {"reopened": 0}
        follow = screens(url, stop, counts)
        probes = Probes(host, int(port), url)
        for t in probes.threads:
            t.start()
        taken = failed = resent = 0
        worst = {"live": 0, "peak": 0, "conns": 0, "streams": 0, "refused": 0}
        t0 = time.monotonic()
        with httpx.Client(base_url=url, headers=HEADERS, timeout=30) as c:
            table = Table(c)
            for n in range(args.answers):
                s = get(c, "/state")
                q = s["question"]
                if q is None:
                    break
                body = {"question": q["id"], "answer": table.players.answer(Q(q)),
                        **table.who(q)}
                for _ in range(TRIES):
                    try:
                        r = c.post("/api/answer", json=body)
                    except httpx.TransportError:
                        resent += 1
                        time.sleep(0.2)
                        continue
                    if r.status_code == 200:
                        taken += 1
                    else:
                        failed += 1
                        print("refused:", r.status_code, r.text[:200])
                    break
                else:
                    failed += 1
                if n % 25 == 0:
                    h = get(c, "/test/heap")
                    for k in worst:
                        worst[k] = max(worst[k], h[k])
        elapsed = time.monotonic() - t0
        stop.set()
        probes.stop.set()
        with httpx.Client(base_url=url, headers=HEADERS, timeout=30) as c:
            h = get(c, "/test/heap")
        for k in worst:
            worst[k] = max(worst[k], h[k])
        print("answers taken %d, failed %d, posted again %d, in %.0f s"
              % (taken, failed, resent, elapsed))
        print("heap: live peak %d, high-water mark %d (of %s)"
              % (worst["live"], worst["peak"], args.heap))
        print("most connections %d, streams %d; connections refused %d; screens' streams"
              " opened again %d" % (worst["conns"], worst["streams"], worst["refused"],
                                    counts["reopened"]))
        print("probes:", ", ".join("%s %d" % kv for kv in sorted(probes.done.items())))
        print("server alive at the end: %s; tracebacks: %d"
              % (board.alive(), board.output().count("Traceback")))
        del follow


if __name__ == "__main__":
    main()
