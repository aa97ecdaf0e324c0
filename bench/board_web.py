"""The board's own web server (firmware/boardweb: microdot under MicroPython's unix port,
heap capped as crib.web.unixboard.HEAP) with 4 phones listening (server-sent events) and
ANSWERS answers posted by the seat asked, game after game to 121. Prints answer-to-every-
screen latency (p50/p99: from the request sent to the moment the last of the 4 screens
has the new state; target p99 < 150 ms on loopback), the cap, the live heap (after a
collection) at the same two points of every game (its first question, once the dealer is
named, and its "Another game?") so that games compare like with like, the live heap's
peak (sampled every 25 answers and at every mark) and the high-water mark at a request's
end, and what that says of a Pico W and a Pico 2 W.

    python bench/board_web.py [--phones 4] [--answers 1000] [--heap 640K]
    python bench/board_web.py --budget [--games 1]

--budget: instead, the 32-bit figure: the same games through the room over the App
without the server (tests/pico/roomgame.py) on the emulated Pico (rp2 port, 32-bit) and
on the unix port (64-bit), the live heap at the same marks, and the ratio (slow: about
ten minutes a game to 61 on the emulator).
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
# A Pico 2 W's free heap under MicroPython with Wi-Fi: no measured figure was found (docs/
# boardweb.md); the rp2 port's heap is the RAM its firmware leaves, about 246 KB on a
# plain Pico (the emulated RPI_PICO's gc total), and the RP2350 has 256 KB more RAM, less
# what Wi-Fi takes on a Pico W (246 - 150 KB): about 400 KB, an estimate.
PICO2_W_FREE = 400_000
# Live heap of the same game on the rp2 port (32-bit) over the unix port's (64-bit),
# measured by --budget (0.62 at "Another game?", 0.64 at a game's first question).
RATIO_32 = 0.64
MARK_EVERY = 25  # answers between samples of the live heap (its peak)


class Screens:
    """The phones listening: when each saw each state version."""

    def __init__(self, url, phones):
        self.seen = {}  # version -> arrival times
        self.cond = threading.Condition()
        self.threads = [threading.Thread(target=self._listen, args=(url,), daemon=True)
                        for _ in range(phones)]
        self.phones = phones
        self.over = False  # the run is over: no stream is opened again
        self.reopened = 0  # streams opened again after the server closed them
        for t in self.threads:
            t.start()

    def _listen(self, url):
        """A phone's event stream, opened again when the server closes it (as the page's
        EventSource does), until the run is over."""
        while not self.over:
            try:
                with httpx.Client(base_url=url, headers={"X-Crib-Key": KEY},
                                  timeout=None) as c, c.stream("GET", "/events") as r:
                    lines = r.iter_lines()
                    while True:
                        s = next_state(lines)
                        with self.cond:
                            self.seen.setdefault(s["version"], []).append(time.monotonic())
                            self.cond.notify_all()
            except (AssertionError, httpx.HTTPError):
                pass  # the stream ended
            if not self.over:
                self.reopened += 1
                time.sleep(0.05)

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
    ap.add_argument("--budget", action="store_true",
                    help="the 32-bit figure from the emulated Pico instead (slow)")
    ap.add_argument("--games", type=int, default=1, help="--budget: games to 61")
    ap.add_argument("--store", metavar="DIR",
                    help="the board's store (its game record, the answers and the log kept"
                         " for a restart) in DIR, as on a board's flash; default: in memory")
    args = ap.parse_args(argv)
    if args.budget:
        return budget(args.games)
    board = UnixBoard(KEY, names=NAMES, target=121, dealer=0, heap=args.heap, store=args.store)
    with board:
        try:
            return run(board, args)
        except RuntimeError:
            print("the server said:\n" + board.output()[-3000:])
            raise


def run(board, args):
    """The answers, timed; the figures printed."""
    with httpx.Client(base_url=board.url, headers={"X-Crib-Key": KEY}, timeout=30) as c:
        screens = Screens(board.url, args.phones)
        table = Table(c)
        marks, lat, games = [], [], 0
        peak = 0
        s = c.get("/state").json()
        t_all = time.monotonic()
        mark_next = "first"
        for n in range(1, args.answers + 1):
            q = s["question"]
            if mark_next or n % MARK_EVERY == 0:
                h = heap(c)
                peak = max(peak, h["live"])
                if mark_next:
                    marks.append((mark_next, games, n - 1, h["live"]))
                    mark_next = None
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
                mark_next = "first"
            elif s["question"] is not None and s["question"]["kind"] == "another":
                mark_next = "another"
        took = time.monotonic() - t_all
        end = heap(c)
        alive = board.alive()
        said = board.output()
        screens.over = True
    report(args, lat, games, took, marks, max(peak, end["live"]), end, alive, said,
           screens.reopened)


def report(args, lat, games, took, marks, peak, end, alive, said, reopened):
    lat_ms = sorted(x * 1000 for x in lat)
    p99 = lat_ms[min(len(lat_ms) - 1, int(len(lat_ms) * 0.99))]
    print("board_web: %d answers (%d games finished) with %d phones listening, heap cap %s"
          " (MicroPython unix port, 64-bit), %.0f s" % (len(lat), games, args.phones,
                                                         args.heap, took))
    print("  answer to every screen: p50 %.0f ms, p99 %.0f ms (target p99 < 150 ms)"
          % (statistics.median(lat_ms), p99))
    print("  live heap at each game's marks (after a collection):")
    for at, game, n, live in marks:
        label = "game %d's first question" % (game + 1) if at == "first" else \
            "game %d's \"Another game?\"" % (game + 1)
        print("    %-30s after %4d answers: %6d bytes" % (label, n, live))
    firsts = [live for at, game, _, live in marks if at == "first" and game >= 1]
    ends = [live for at, _, _, live in marks if at == "another"]
    if len(firsts) >= 2:
        print("  growth over the session, at each new game's first question (game 2 on:"
              " game 1's modules load at first use): %+d bytes (%d to %d)"
              % (firsts[-1] - firsts[0], firsts[0], firsts[-1]))
    if ends:
        print("  at \"Another game?\" (a whole game's record held): %d to %d bytes"
              % (min(ends), max(ends)))
    print("  live heap peak (sampled every %d answers and at each mark): %d bytes of %s;"
          " high-water at a request's end: %d bytes" % (MARK_EVERY, peak, args.heap,
                                                        end["peak"]))
    print("  event streams the server ended: %d (phones' streams opened again: %d);"
          " server alive at the end: %s" % (said.count("event stream ended"), reopened,
                                            alive))
    est = int(peak * RATIO_32)
    print("  32-bit estimate of the peak (x%.2f, bench/board_web.py --budget): %d bytes;"
          " Pico W (about %d free): %s; Pico 2 W (about %d free, estimated): %s"
          % (RATIO_32, est, PICO_W_FREE, verdict(est, PICO_W_FREE), PICO2_W_FREE,
             verdict(est, PICO2_W_FREE)))


def verdict(need, free):
    if need > free:
        return "does not fit (%d bytes short)" % (need - free)
    return "fits, %d bytes (%d%%) to spare" % (free - need, 100 * (free - need) // free)


def budget(games):
    """The room's games on the emulated Pico and on the unix port: the marks side by
    side, and the ratio."""
    sys.path.insert(0, os.path.join(HERE, "..", "tests", "pico"))
    from roomheap import pico_marks, unix_marks

    from crib.web.unixboard import micropython

    t0 = time.monotonic()
    unix = unix_marks(micropython(), games)
    pico = pico_marks(games)
    print("board_web --budget: %d game(s) to 61 through the room over the App, no server"
          " (tests/pico/roomgame.py), %.0f s" % (games, time.monotonic() - t0))
    print("  %-14s %4s %8s %14s %14s %6s" % ("mark", "game", "answers", "unix 64-bit",
                                             "rp2 32-bit", "ratio"))
    for u, p in zip(unix, pico):
        assert (u["at"], u["answers"]) == (p["at"], p["answers"]), (u, p)
        print("  %-14s %4d %8d %14d %14d %6.2f" % (u["at"], u["game"] + 1, u["answers"],
                                                   u["live"], p["live"],
                                                   p["live"] / u["live"]))
    print("  the emulated Pico's heap: %d bytes in all (rp2 port, RPI_PICO)"
          % (pico[0]["live"] + pico[0]["free"]))


if __name__ == "__main__":
    main()
