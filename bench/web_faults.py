"""bench/web.py's fault runs (python bench/web.py --board-killed | --idle-sockets N).

--board-killed: `crib serve --board sim` on a virtual board the user runs (`crib sim
--headless --no-pty --socket :0`); a few answers, then the board is killed (kill -9) and
60 answers are posted while it is away: their latency (request to response; target p99
under 200 ms). The board is started again (a new port), and the pegs that waited are sent:
the board's pegs against the record.

--idle-sockets N: `crib serve` with its open-file limit at 256 (macOS's default); a
player's answers, each on a new connection, without and then with a stranger keeping N
idle sockets open from another address (127.0.0.2, reopening each one the server closes):
p50/p99 of both (target: p99 with them within 2x of without).
"""

import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx2 as httpx
from browser import Serve
from webtools import Players

from crib.sim.store import running_sim

NAMES = ["Alice", "Bob"]
STRANGER = "127.0.0.2"  # the stranger's own address (on the loopback), as on the Wi-Fi


class _Q:
    def __init__(self, d):
        self.__dict__.update(d)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def _until(cond, what, timeout=60.0):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.05)


def _sim(store, old=None):
    proc = subprocess.Popen([sys.executable, "-m", "crib", "sim", "--headless", "--no-pty",
                             "--socket", "127.0.0.1:0", "--store", store],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _until(lambda: running_sim(store) not in (None, old), "the sim")
    return proc, running_sim(store)


class Player:
    """The shared screen answering every question from a reference game."""

    def __init__(self, base, key, fresh=False):
        self.base, self.key, self.fresh = base, key, fresh
        self.http = httpx.Client(base_url=base, headers={"X-Crib-Key": key}, timeout=30)
        token = self.http.post("/api/join", json={"seat": "table"}).json()["token"]
        self.seat = {"seat": "table", "token": token}
        self.players = Players(2, 121, False, seed=5)
        self.asked_again = 0

    def state(self):
        return self.http.get("/state").json()

    def answer(self):
        """Post the next answer; its latency in ms (a new connection each when fresh). A
        question asked again meanwhile (the board's news) is answered again: each post
        is a latency of its own."""
        q = self.state()["question"]
        text = self.players.answer(_Q(q))
        while True:
            body = {"question": q["id"], "answer": text, **self.seat}
            t0 = time.monotonic()
            if self.fresh:
                with httpx.Client(base_url=self.base, headers={"X-Crib-Key": self.key},
                                  timeout=30) as c:
                    r = c.post("/api/answer", json=body)
            else:
                r = self.http.post("/api/answer", json=body)
            ms = 1000 * (time.monotonic() - t0)
            if r.status_code != 409:
                break
            self.asked_again += 1
            q = self.state()["question"]
        assert r.status_code == 200, r.text
        return ms


def _figures(what, ms):
    return (f"{what}: p50 {pct(ms, 50):.1f} ms, p99 {pct(ms, 99):.1f} ms, max {max(ms):.1f} ms"
            f" over {len(ms)} answers")


def board_killed(away=60):
    with tempfile.TemporaryDirectory() as d:
        store = str(Path(d) / "sim")
        sim, url = _sim(store)
        serve = Serve(Path(d), NAMES, 121)
        try:
            p = Player(serve.base, serve.key)
            before = [p.answer() for _ in range(8)]
            sim.send_signal(signal.SIGKILL)
            sim.wait()
            t_kill = time.monotonic()
            during = [p.answer() for _ in range(away)]
            offline = p.state()["view"]["offline"]
            sim, _ = _sim(store, old=url)
            t_back = time.monotonic()
            _until(lambda: not p.state()["view"]["offline"], "the board back")
            found = time.monotonic() - t_back
            after = [p.answer() for _ in range(8)]
            time.sleep(1.0)
            scores = p.state()["view"]["scores"]
            pegs = p.state()["view"].get("pegs")
        finally:
            serve.stop()
            sim.terminate()
            sim.wait(10)
        print(f"board killed mid-game ({time.monotonic() - t_kill:.0f} s away; the table"
              f" saw it offline: {offline}):")
        print("  " + _figures("before the kill", before))
        print("  " + _figures("while the board is away", during) + " (target p99 < 200 ms)")
        print("  " + _figures("after it is back", after))
        print(f"  restarted on a new port and found again {found:.1f} s after it started;"
              f" the record {scores}, the board's pegs as the page shows them {pegs};"
              f" {p.asked_again} answers posted again (their question was asked again)")


def _limit(pid, n=256):
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (n, n))


class Stranger(threading.Thread):
    """Keeps n idle sockets open to 127.0.0.1:port from STRANGER (each one the server
    closes is opened again)."""

    def __init__(self, port, n):
        super().__init__(daemon=True)
        self.port, self.n = port, n
        self.stop = False
        self.reopened = 0

    def run(self):
        socks = []
        while not self.stop:
            while len(socks) < self.n and not self.stop:
                try:
                    socks.append(socket.create_connection(("127.0.0.1", self.port), 5,
                                                          source_address=(STRANGER, 0)))
                except OSError:
                    time.sleep(0.05)
            for s in list(socks):
                s.setblocking(False)
                try:
                    if s.recv(1) == b"":
                        socks.remove(s)
                        s.close()
                        self.reopened += 1
                except BlockingIOError:
                    pass
                except OSError:
                    socks.remove(s)
                    s.close()
                    self.reopened += 1
            time.sleep(0.5)  # a stranger that holds sockets, not one that floods the CPU
        for s in socks:
            s.close()


def idle_sockets(n, answers=80):
    with tempfile.TemporaryDirectory() as d:
        serve = Serve(Path(d), NAMES, 121)
        try:
            _limit(serve.proc.pid)
            p = Player(serve.base, serve.key, fresh=True)
            plain = [p.answer() for _ in range(answers)]
            stranger = Stranger(int(serve.base.rsplit(":", 1)[1]), n)
            stranger.start()
            time.sleep(1.0)
            idle = [p.answer() for _ in range(answers)]
            stranger.stop = True
            stranger.join(10)
        finally:
            serve.stop()
    print(f"a player's answers, each on a new connection, crib serve limited to 256 files"
          f" (pid {os.getpid()}'s bench):")
    print("  " + _figures("no idle sockets", plain))
    print("  " + _figures(f"{n} idle sockets kept open", idle)
          + f" ({stranger.reopened} closed by the server and opened again;"
          f" p99 ratio {pct(idle, 99) / pct(plain, 99):.2f}, target within 2x)")
