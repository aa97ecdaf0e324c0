"""Show scoring throughput (deals/s): cribcore.show, crib.analysis.fastshow and the PyPI peer.

usage: python bench/show.py [--deals N] [--seconds S] [--no-micropython]
All scorers run in this one process on the same random deals (seeded); the peer,
cribbage-scorer, gets the deals pre-converted to its (rank, suit) tuples, so only scoring
is timed. The plain path also runs under the unix MicroPython when it is installed.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cribbage_scorer.cribbage_scorer import show_calc_score

from crib.analysis.fastshow import score_show_fast
from cribcore.show import score_show

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"

_MP_SCRIPT = """
import sys, time
sys.path.insert(0, %r)
from cribcore.show import score_show


def run(data):
    # Slices per deal, not a prebuilt list: 20,000 live lists make every GC pass slow.
    t = time.ticks_ms()
    total = 0
    for i in range(0, len(data), 6):
        total += score_show(list(data[i:i + 4]), data[i + 4], data[i + 5])
    return time.ticks_diff(time.ticks_ms(), t), total


data = open(%r, "rb").read()
ms, total = run(data)
print(len(data) // 6, ms, total)
"""


def make_deals(n, seed=2024):
    """n random (hand, starter, crib) deals, the same for every run with the same seed."""
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        cards = rnd.sample(range(52), 5)
        out.append((cards[:4], cards[4], rnd.random() < 0.5))
    return out


def _peer_card(c):
    return ((c >> 2) + 1, "CDHS"[c & 3])


def measure(score, deals, seconds):
    """(deals per second, total of the scores) over repeated passes for at least `seconds`."""
    passes = 0
    start = time.perf_counter()
    while True:
        total = 0
        for hand, starter, crib in deals:
            total += score(hand, starter, crib)
        passes += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return passes * len(deals) / elapsed, total


def peer_score(starter, hand, crib):
    """The peer's total (its own argument order and card format)."""
    return show_calc_score(starter, hand, crib)[0]


def micropython_rate(deals):
    """Deals/s of cribcore.show under the unix MicroPython, or None when it is missing."""
    exe = Path(sys.executable).parent / "micropython"
    exe = str(exe) if exe.exists() else shutil.which("micropython")
    if not exe:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "deals.bin")
        with open(data, "wb") as f:
            f.write(bytes(b for hand, s, crib in deals for b in hand + [s, int(crib)]))
        script = os.path.join(tmp, "bench_mp.py")
        with open(script, "w") as f:
            f.write(_MP_SCRIPT % (str(FIRMWARE), data))
        out = subprocess.run([exe, "-X", "heapsize=1M", script], capture_output=True,
                             text=True, check=True).stdout.split()
    n, ms, total = int(out[0]), int(out[1]), int(out[2])
    return n * 1000 / max(ms, 1), total


def main(argv=None):
    """Print deals/s for each scorer and the ratios to the peer."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seconds", type=float, default=1.0, help="minimum time per scorer")
    ap.add_argument("--no-micropython", action="store_true")
    args = ap.parse_args(argv)
    deals = make_deals(args.deals)
    peer_deals = [(_peer_card(s), [_peer_card(c) for c in h], crib) for h, s, crib in deals]

    rates = {}
    plain, totals_plain = measure(score_show, deals, args.seconds)
    fast, totals_fast = measure(score_show_fast, deals, args.seconds)
    peer, totals_peer = measure(peer_score, peer_deals, args.seconds)
    rates["cribcore.show.score_show (plain)"] = plain
    rates["crib.analysis.fastshow.score_show_fast"] = fast
    rates["cribbage-scorer 0.2.5 (peer)"] = peer
    print(f"show scoring, {len(deals)} random deals (hand and crib), "
          f"CPython {sys.version.split()[0]}")
    for name, rate in rates.items():
        print(f"  {name:<36} {rate:12.0f} deals/s  {rate / peer:6.1f}x peer")
    same = totals_plain == totals_fast == totals_peer
    print(f"  score totals agree (plain, fast, peer): {same} ({totals_plain})")
    if not args.no_micropython:
        mp = micropython_rate(deals)
        if mp is None:
            print("  micropython: not installed")
        else:
            name = "cribcore.show under unix MicroPython"
            print(f"  {name:<36} {mp[0]:12.0f} deals/s  {mp[0] / peer:6.1f}x peer"
                  f"  (totals agree: {mp[1] == totals_plain})")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
