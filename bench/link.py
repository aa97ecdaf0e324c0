"""Round-trip time of `peg` through the link to the virtual board (median and p99).

usage: python bench/link.py [--pegs N] [--store DIR]
Each peg is one Link.peg(): encode, write to the pseudo terminal, the hub forwards the line
to the desktop runner (firmware/desk.py, real clock, state saved to a store on disk before
the reply), the reply comes back, the link matches it by id. The same over a TCP socket,
and straight to the runner's pipes without the hub or the link, for scale.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from crib.board.link import Link
from crib.sim.store import desk_path
from crib.sim.virtual import VirtualBoard


def _figures(name, times):
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(round(0.99 * len(times))) - 1)]
    print("%-28s median %6.3f ms   p99 %6.3f ms   mean %6.3f ms   (%d pegs)"
          % (name, statistics.median(times) * 1e3, p99 * 1e3, statistics.fmean(times) * 1e3,
             len(times)))


def _pegs(link, count):
    link.new(target=1000, players=3)
    out = []
    for i in range(count):
        t = time.perf_counter()
        link.peg(i % 3, 1)
        out.append(time.perf_counter() - t)
    return out


def bench_link(store, count, transport):
    """Times of `count` pegs through a Link over a pty or a socket."""
    sock = ("127.0.0.1", 0) if transport == "socket" else None
    with VirtualBoard(store, pty=transport == "pty", address=sock) as vb:
        with Link.open(vb.url) as link:
            _pegs(link, 20)  # warm up
            return _pegs(link, count)


def bench_direct(store, count):
    """Times of `count` pegs written straight to the runner's stdin (no hub, no link)."""
    proc = subprocess.Popen([sys.executable, str(desk_path()), "--store", store],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    out = []

    def ask(line):
        proc.stdin.write(line.encode() + b"\n")
        while True:
            got = proc.stdout.readline()
            if got.startswith((b"ok", b"err")):
                return got

    ask("new target=1000 players=3 id=bench0")
    for i in range(count):
        t = time.perf_counter()
        ask("peg p=%d n=1 id=b%d" % (i % 3, i))
        out.append(time.perf_counter() - t)
    proc.stdin.close()
    proc.wait()
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pegs", type=int, default=1000)
    p.add_argument("--store", default=None, help="state folder (default: a temporary one)")
    a = p.parse_args(argv)
    base = a.store or tempfile.mkdtemp(prefix="crib-bench-")
    print("peg round trip, %s, runner on CPython %s" % (sys.platform, sys.version.split()[0]))
    _figures("link over a pty", bench_link(os.path.join(base, "pty"), a.pegs, "pty"))
    _figures("link over a TCP socket", bench_link(os.path.join(base, "tcp"), a.pegs, "socket"))
    _figures("runner pipes, no hub/link", bench_direct(os.path.join(base, "raw"), a.pegs))


if __name__ == "__main__":
    main()
