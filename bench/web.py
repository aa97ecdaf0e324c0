"""The phone companion under load: `crib serve` on the virtual board with 8 phones
listening (server-sent events), 1,000 answers and undos interleaved (every third answer
is undone and given again). Prints answer-to-every-screen latency (p50/p99: from the
request sent to the moment the last of the 8 screens has the new state), tap-to-LED
latency (from the request to the first board picture, read from the virtual board's LEDs,
whose pegs have moved: the jump animation starts; answers that peg only), and checks that
nothing was lost and nothing pegged twice (the scores and the board's pegs against a
reference game). The taps of a hand are bench/table.py's. Then, in this process (the app
on Starlette's test client, no board), the questions and views the engine builds and the
calls on its worker thread per answer (the one hop: 1 of each).

    python bench/web.py [--phones 8] [--ops 1000]

Two runs of their own (bench/web_faults.py): --board-killed (the virtual board killed
mid-game and restarted: answer latency while it is away, and the pegs that waited sent
when it is back) and --idle-sockets N (a player's answers while a stranger keeps N idle
sockets open against a server limited to 256 open files, against the same without them).
"""

import argparse
import json
import os
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "web"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "table"))

import httpx2 as httpx  # noqa: E402
from browser import Serve  # noqa: E402
from webtools import Players  # noqa: E402

NAMES = ["Alice", "Bob"]
UNDOABLE = ("starter", "play", "show", "crib")
HOLE = re.compile(r'data-lane="(\d+)" data-hole="(\d+)"[^>]*fill="#(..)(..)(..)"')
PEG_LEVEL = 0x68  # brighter than any hole mark or the turn pulse (tests/web/browser.py)


def pegs_lit(http):
    """The pegs of the board picture now: a set of (lane, hole, colour) of its bright holes
    (a jump shows at once: the front peg left behind turns to the back peg's colour)."""
    svg = http.get("/board.svg").text
    return {(int(m[0]), int(m[1]), m[2:]) for m in HOLE.findall(svg)
            if int(m[1]) > 0 and max(int(x, 16) for x in m[2:]) > PEG_LEVEL}


def led_moved(http, before, t0, deadline=5.0):
    """When the board picture first lit other pegs than before (polled)."""
    while time.monotonic() - t0 < deadline:
        if pegs_lit(http) != before:
            return time.monotonic()
        time.sleep(0.002)
    raise AssertionError("the board never showed the peg")


class Screen(threading.Thread):
    """A phone listening: the time each state version arrived, and its board picture rev."""

    def __init__(self, base, key):
        super().__init__(daemon=True)
        self.base, self.key = base, key
        self.seen = {}  # version -> (arrival time, board_rev)
        self.ready = threading.Event()
        self.stop = False

    def run(self):
        try:
            with httpx.Client(base_url=self.base, headers={"X-Crib-Key": self.key},
                              timeout=None) as c, c.stream("GET", "/events") as r:
                rev = None
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        s = json.loads(line[6:])  # a state, or a patch of the one before
                        rev = (s["set"] if "base" in s else s).get("board_rev", rev)
                        self.seen[s["version"]] = (time.monotonic(), rev)
                        self.ready.set()
                    if self.stop:
                        return
        except httpx.HTTPError:
            return  # the server stopped at the end

    def arrival(self, version, deadline=10.0):
        """When this screen first had a state at least as new as version."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            times = [t for v, (t, _) in list(self.seen.items()) if v >= version]
            if times:
                return min(times)
            time.sleep(0.001)
        raise AssertionError(f"a screen never got version {version}: lost")


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--ops", type=int, default=1000)
    parser.add_argument("--board-killed", action="store_true",
                        help="only the run with the board killed mid-game")
    parser.add_argument("--idle-sockets", type=int, metavar="N",
                        help="only the run with N idle sockets open")
    args = parser.parse_args()
    if args.board_killed or args.idle_sockets:
        import web_faults

        if args.board_killed:
            web_faults.board_killed()
        if args.idle_sockets:
            web_faults.idle_sockets(args.idle_sockets)
        return
    with tempfile.TemporaryDirectory() as d:
        serve = Serve(Path(d), NAMES, 121)
        try:
            result = run(serve, args.phones, args.ops)
        finally:
            serve.stop()
        result["board"] = board_fronts(os.path.join(d, "sim"))
    report(result, args)
    builds = builds_per_answer()
    print(f"per answer (in process, {builds['answers']} answers): {builds['question']:.2f}"
          f" questions and {builds['view']:.2f} views built, {builds['worker']:.2f} calls"
          " on the engine's worker")


def builds_per_answer(answers=200):
    """The questions and views the engine builds, and the calls on its worker, per answer
    through the app's route (in process, an in-memory board)."""
    from starlette.testclient import TestClient
    from webtools import KEY, make_hub

    import cribcore.table.engine as core_engine
    import cribcore.table.questions as questions
    from crib.web.app import create_app

    counts = {"question": 0, "view": 0, "worker": 0}
    question_init, view = questions.Question.__init__, core_engine.TableEngine.view

    def counting_init(self, *args):
        counts["question"] += 1
        question_init(self, *args)

    def counting_view(self):
        counts["view"] += 1
        return view(self)
    questions.Question.__init__ = counting_init
    core_engine.TableEngine.view = counting_view
    try:
        with tempfile.TemporaryDirectory() as d:
            hub = make_hub(os.path.join(d, "history.sqlite3"))
            app = create_app(hub, KEY, "http://127.0.0.1/?k=" + KEY, poll=False)
            with TestClient(app, headers={"X-Crib-Key": KEY}) as c:
                submit = hub._pool.submit

                def counting_submit(*args, **kwargs):
                    counts["worker"] += 1
                    return submit(*args, **kwargs)
                token = c.post("/api/join", json={"seat": "table"}).json()["token"]
                players = Players(2, 121, False, seed=1)
                hub._pool.submit = counting_submit
                for key in counts:
                    counts[key] = 0
                for _ in range(answers):
                    q = c.get("/state").json()["question"]
                    r = c.post("/api/answer", json={"question": q["id"], "seat": "table",
                                                    "token": token,
                                                    "answer": players.answer(_Q(q))})
                    assert r.status_code == 200, r.text
    finally:
        questions.Question.__init__, core_engine.TableEngine.view = question_init, view
    out = {k: v / answers for k, v in counts.items()}
    out["answers"] = answers
    return out


def board_fronts(store):
    """The front pegs the virtual board holds (asked over a fresh link after the server
    stopped)."""
    from crib.board.link import Link
    from crib.sim.virtual import VirtualBoard

    with VirtualBoard(store) as vb:
        link = Link.open(vb.port)
        try:
            return [p[1] for p in link.state().pegs]
        finally:
            link.close()


def run(serve, phones, ops):
    http = httpx.Client(base_url=serve.base, headers={"X-Crib-Key": serve.key}, timeout=30)
    screens = [Screen(serve.base, serve.key) for _ in range(phones)]
    for s in screens:
        s.start()
    for s in screens:
        s.ready.wait(10)
    table = http.post("/api/join", json={"seat": "table"}).json()  # answers for everyone
    seat = {"seat": "table", "token": table["token"]}
    games, players = 0, Players(2, 121, False, seed=1)
    screen_ms, led_ms, done, undos = [], [], 0, 0
    expected_scores = None

    def post(path, body, lit=False):
        state = http.get("/state").json()
        before = pegs_lit(http) if lit else None
        t0 = time.monotonic()
        r = http.post(path, json=dict(body, **seat))
        assert r.status_code == 200, r.text
        v = r.json()["version"]
        moved = None
        if lit and state["board_rev"] is not None:
            now = http.get("/state").json()
            if now["view"]["pegs"] != state["view"]["pegs"]:
                moved = led_moved(http, before, t0)
        screen_ms.append(1000 * (max(s.arrival(v) for s in screens) - t0))
        return state, t0, v, moved

    while done < ops:
        state = http.get("/state").json()
        q = state["question"]
        if q["kind"] == "another":  # a new game: Alice deals again, a new reference game
            expected_scores = list(state["view"]["scores"])
            post("/api/answer", {"question": q["id"], "answer": "y"})
            q = http.get("/state").json()["question"]
            post("/api/answer", {"question": q["id"], "answer": "Alice"})
            games += 1
            players = Players(2, 121, False, seed=1 + games)
            done += 2
            continue
        text = players.answer(_Q(q))
        before, t0, v, moved = post("/api/answer", {"question": q["id"], "answer": text},
                                    lit=True)
        after = http.get("/state").json()
        if moved is not None:
            led_ms.append(1000 * (moved - t0))
        done += 1
        if q["kind"] in UNDOABLE and done % 3 == 0 and after["question"]["undo"]:
            post("/api/undo", {"question": after["question"]["id"]})
            again = http.get("/state").json()["question"]
            assert again["prompt"] == q["prompt"], (q["prompt"], again["prompt"])
            post("/api/answer", {"question": again["id"], "answer": text})
            undos += 1
            done += 2
    final = http.get("/state").json()
    for s in screens:
        s.stop = True
    http.close()
    return {"screen_ms": screen_ms, "led_ms": led_ms, "undos": undos, "games": games,
            "ok_scores": final["view"]["scores"] == list(players.g.scores),
            "earlier": expected_scores, "final": final, "ops": done}


def report(r, args):
    final = r["final"]["view"]
    print(f"crib serve on the virtual board: {args.phones} phones listening, {r['ops']}"
          f" requests ({r['undos']} undone and answered again), {r['games']} games finished")
    s, led = r["screen_ms"], r["led_ms"]
    print(f"answer to every screen: p50 {pct(s, 50):.1f} ms, p99 {pct(s, 99):.1f} ms,"
          f" max {max(s):.1f} ms over {len(s)} requests (target p99 < 100 ms)")
    print(f"tap to LED (virtual board): p50 {pct(led, 50):.1f} ms, p99 {pct(led, 99):.1f} ms,"
          f" over {len(led)} pegs (target p99 < 150 ms)")
    board = r["board"][:len(final["scores"])]
    print(f"scores {final['scores']} match the reference game: {r['ok_scores']}; the board"
          f" pegs {board}: {board == final['scores']}; every screen got every answer: True"
          " (a miss stops the bench)")


class _Q:
    def __init__(self, d):
        self.__dict__.update(d)


if __name__ == "__main__":
    main()
