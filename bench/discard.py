"""Time the discard advisor on 6- and 5-card deals against a plain exact enumeration.

    python bench/discard.py [--hands 20] [--plain-hands 1] [--seed 7]

The advisor (crib.analysis.advise.rank_discards) is timed on a fixed set of seeded deals, one call
each after the tables are built (their build time is reported on its own), without the play
and with it (pegging=True, the default of `crib discard`: the pegging table is read at its
first use, timed on its own), then on as many seeded 5-card deals with the play of 3 and of 4
players (the 3-4 player table, read at its first use, timed on its own). The plain
enumeration scores every starter and every (opponent pair, starter) with
cribcore.show.score_show for all 15 discards; it takes seconds, so it runs on fewer deals,
and its answers are checked against the advisor's.
"""

import argparse
import platform
import random
import statistics
import time
from fractions import Fraction
from itertools import combinations

from cribcore.show import score_show


def plain(deal):
    """{discard: (hand EV, crib EV)} by scoring every outcome (the straightforward way)."""
    out = {}
    unseen = [c for c in range(52) if c not in deal]
    for dis in combinations(sorted(deal), 2):
        keep = [c for c in deal if c not in dis]
        hand = sum(score_show(keep, s) for s in unseen)
        crib = n = 0
        for pair in combinations(unseen, 2):
            cards = list(dis) + list(pair)
            for s in unseen:
                if s not in pair:
                    crib += score_show(cards, s, crib=True)
                    n += 1
        out[dis] = (Fraction(hand, len(unseen)), Fraction(crib, n))
    return out


def main():
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--plain-hands", type=int, default=1)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    deals = [rnd.sample(range(52), 6) for _ in range(max(args.hands, args.plain_hands))]

    start = time.perf_counter()
    from crib.analysis.advise import (
        rank_discards,  # imports crib.analysis.fastshow, which tabulates at import
    )
    from crib.analysis.advise_tables import tables

    imported = time.perf_counter() - start
    t = tables()
    print(f"discard advisor bench, {platform.python_implementation()} "
          f"{platform.python_version()}")
    print(f"import crib.analysis.advise (with fastshow's rank table): {imported * 1e3:.1f} ms; "
          f"advisor tables built at first use: {t.build_seconds * 1e3:.1f} ms")

    fast = []
    for i, deal in enumerate(deals[:args.hands]):
        start = time.perf_counter()
        rank_discards(deal, i % 2 == 0)
        fast.append(time.perf_counter() - start)
    med = statistics.median(fast)
    print(f"advisor: {len(fast)} deals, median {med * 1e3:.2f} ms per deal "
          f"(min {min(fast) * 1e3:.2f}, max {max(fast) * 1e3:.2f}); target <= 20 ms")

    from crib.analysis.pegging import table

    start = time.perf_counter()
    table()
    print(f"pegging table read at first use: {(time.perf_counter() - start) * 1e3:.1f} ms")
    pegged = []
    for i, deal in enumerate(deals[:args.hands]):
        start = time.perf_counter()
        rank_discards(deal, i % 2 == 0, pegging=True)
        pegged.append(time.perf_counter() - start)
    pmed = statistics.median(pegged)
    print(f"advisor with pegging: {len(pegged)} deals, median {pmed * 1e3:.2f} ms per deal "
          f"(min {min(pegged) * 1e3:.2f}, max {max(pegged) * 1e3:.2f}); target < 10 ms")

    from crib.analysis.pegging_multi import table as multi_table

    start = time.perf_counter()
    multi_table()
    print(f"3-4 player pegging table read at first use: "
          f"{(time.perf_counter() - start) * 1e3:.1f} ms")
    fives = [rnd.sample(range(52), 5) for _ in range(args.hands)]
    for players in (3, 4):
        times = []
        for i, deal in enumerate(fives):
            start = time.perf_counter()
            rank_discards(deal, i % 2 == 0, pegging=True, players=players)
            times.append(time.perf_counter() - start)
        print(f"advisor, 5 cards, {players} players, with pegging: {len(times)} deals, median"
              f" {statistics.median(times) * 1e3:.2f} ms per deal (min {min(times) * 1e3:.2f},"
              f" max {max(times) * 1e3:.2f}); target < 10 ms")

    slow = []
    for deal in deals[:args.plain_hands]:
        start = time.perf_counter()
        want = plain(deal)
        slow.append(time.perf_counter() - start)
        got = {e.discard: (e.hand, e.crib) for e in rank_discards(deal, True)}
        if got != want:
            raise SystemExit(f"MISMATCH on deal {sorted(deal)}")
    if slow:
        smed = statistics.median(slow)
        print(f"plain enumeration: {len(slow)} deal(s), median {smed:.2f} s per deal "
              f"(answers identical)")
        print(f"speedup: {smed / med:.0f}x")


if __name__ == "__main__":
    main()
