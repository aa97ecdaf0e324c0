"""The board's own web server (firmware/boardweb: microdot under MicroPython's unix port,
heap capped as crib.web.unixboard.HEAP) with 4 phones listening (server-sent events) and
ANSWERS answers posted by the seat asked, game after game. Prints answer-to-every-screen
latency (p50/p99: from the request sent to the moment the last of the 4 screens has the
new state; target p99 < 150 ms on loopback), the heap (live after a collection, and the
high-water mark at the end of a request) at the start, its peak, and after every 250
answers (no growth: fragmentation is the usual failure), and what that says of a Pico W.

    python bench/board_web.py [--phones 4] [--answers 1000] [--heap 512K]
"""

import argparse
import os
import statistics
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "web"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "table"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "webboth"))

import httpx2 as httpx  # noqa: E402
from both import KEY, NAMES, Q, Table, next_state  # noqa: E402

from crib.web.unixboard import HEAP, UnixBoard  # noqa: E402
from cribcore.game import Game  # noqa: E402

PICO_W_FREE = 150_000  # bytes free on a Pico W (RP2040 + Wi-Fi), the figure usually quoted


class Screens:
    """The phones listening: when each saw each state version."""

    def __init__(self, url, phones):
        self.seen = {}  # version -> arrival times
        self.cond = threading.Condition()
        self.threads = [threading.Thread(target=self._listen, args=(url,), daemon=True)
                        for _ in range(phones)]
        self.phones = phones
        for t in self.threads:
            t.start()

    def _listen(self, url):
        try:
            with httpx.Client(base_url=url, headers={"X-Crib-Key": KEY}, timeout=None) as c, \
                    c.stream("GET", "/events") as r:
                lines = r.iter_lines()
                while True:
                    s = next_state(lines)
                    with self.cond:
                        self.seen.setdefault(s["version"], []).append(time.monotonic())
                        self.cond.notify_all()
        except (AssertionError, httpx.HTTPError):
            return  # the server stopped: the run is over

    def wait(self, version, timeout=30):
        """When the last phone had a state of at least this version."""
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                times = [t for v, ts in self.seen.items() if v >= version for t in ts]
                if len(times) >= self.phones:
                    return sorted(times)[self.phones - 1]
                left = end - time.monotonic()
                if left <= 0:
                    raise RuntimeError("a phone never got version %d" % version)
                self.cond.wait(left)


def heap(c):
    return c.get("/test/heap").json()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phones", type=int, default=4)
    ap.add_argument("--answers", type=int, default=1000)
    ap.add_argument("--heap", default=HEAP)
    args = ap.parse_args(argv)
    board = UnixBoard(KEY, names=NAMES, target=121, dealer=0, heap=args.heap)
    try:
        return run(board, args)
    except RuntimeError:
        print("the server said:\n" + board.output()[-3000:])
        raise


def run(board, args):
    """The answers, timed; the figures printed."""
    with board as url, httpx.Client(base_url=url, headers={"X-Crib-Key": KEY},
                                    timeout=30) as c:
        screens = Screens(url, args.phones)
        table = Table(c)
        start = heap(c)
        marks, lat, games = [(0, start)], [], 0
        peak_live = start["live"]
        s = c.get("/state").json()
        t_all = time.monotonic()
        for n in range(1, args.answers + 1):
            q = s["question"]
            if q["kind"] == "another":
                text, games = "y", games + 1
            elif q["kind"] == "dealer":
                text = ""  # the loser of the last game deals first (the default)
            else:
                text = table.players.answer(Q(q))
            t0 = time.monotonic()
            r = c.post("/api/answer", json={"question": q["id"], "answer": text,
                                            **table.who(q)})
            if r.status_code != 200:
                raise RuntimeError("answer %d refused: %s" % (n, r.text))
            lat.append(screens.wait(r.json()["version"]) - t0)
            s = c.get("/state").json()
            if q["kind"] == "dealer":  # a new game: the people at the table start again
                table.players = type(table.players)(2, 121, False, seed=11 + games)
                table.players.g = Game(2, 121, False, s["view"]["dealer"])
            if n % 50 == 0:
                h = heap(c)
                peak_live = max(peak_live, h["live"])
                if n % 250 == 0:
                    marks.append((n, h))
        took = time.monotonic() - t_all
        end = heap(c)
        alive = board.alive()
    lat_ms = sorted(x * 1000 for x in lat)
    p99 = lat_ms[min(len(lat_ms) - 1, int(len(lat_ms) * 0.99))]
    print("board_web: %d answers (%d games finished) with %d phones listening, heap cap %s"
          " (MicroPython unix port, 64-bit), %.0f s" % (len(lat), games, args.phones,
                                                         args.heap, took))
    print("  answer to every screen: p50 %.0f ms, p99 %.0f ms (target p99 < 150 ms)"
          % (statistics.median(lat_ms), p99))
    for n, h in marks:
        print("  heap after %4d answers: live %6d bytes, free %6d" % (n, h["live"], h["free"]))
    print("  live heap peak (sampled every 50 answers): %d bytes; high-water at a request's"
          " end: %d bytes" % (peak_live, end["peak"]))
    growth = marks[-1][1]["live"] - marks[1][1]["live"] if len(marks) > 2 else 0
    print("  growth from answer 250 to the last mark: %+d bytes" % growth)
    print("  Pico W (RP2040 + Wi-Fi, about %d bytes free): the server's live heap here is"
          " %d bytes with 64-bit objects; even at half that on a 32-bit port it %s"
          % (PICO_W_FREE, peak_live, "would not fit" if peak_live // 2 > PICO_W_FREE * 0.8
             else "might fit, with no room to spare"))
    print("  server process alive at the end: %s" % alive)


if __name__ == "__main__":
    main()
