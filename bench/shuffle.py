"""Cribbage Shuffle solver on 100 seeded deals: scores, wins, time, proofs and a check.

usage: python bench/shuffle.py [--deals N] [--time-limit S] [--check-deals N]
                               [--check-seconds S]
Deals are seeds 0..N-1 (crib.solitaire.shuffle.deal). For each, solve() gets the time limit; then,
as an independent check, random_search() (hill climbs from random shuffles, no bounds)
runs for --check-seconds on the first --check-deals deals and must never beat the solver.
"""

import argparse
import random
import statistics
import time

from crib.solitaire import shuffle
from crib.solitaire.solve import climb, random_search, solve, upper_bound


def _share(n, total):
    return "%d of %d (%.0f%%)" % (n, total, 100.0 * n / total if total else 0.0)


def main():
    """Run the bench and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--time-limit", type=float, default=1.0)
    ap.add_argument("--check-deals", type=int, default=100)
    ap.add_argument("--check-seconds", type=float, default=1.0)
    args = ap.parse_args()

    rows = []
    for seed in range(args.deals):
        grid, starter = shuffle.deal(seed)
        sol = solve(grid, starter, args.time_limit)
        rows.append((seed, grid, starter, sol))
    scores = [sol.score for _, _, _, sol in rows]
    times = [sol.seconds for _, _, _, sol in rows]
    worst = min(rows, key=lambda r: r[3].score)
    slowest = max(rows, key=lambda r: r[3].seconds)
    proved = [r for r in rows if r[3].optimal]
    n = len(rows)
    print("Cribbage Shuffle solver: %d deals (seeds 0..%d), time limit %.2f s per deal"
          % (n, n - 1, args.time_limit))
    print("  as dealt           average %.1f" % statistics.mean(
        [shuffle.total(g, s) for _, g, s, _ in rows]))
    print("  one hill climb     average %.1f" % statistics.mean(
        [climb(g, s)[1] for _, g, s, _ in rows]))
    print("  solver             average %.2f, worst %d (seed %d), best %d"
          % (statistics.mean(scores), worst[3].score, worst[0], max(scores)))
    print("  won (>= %d)        %s" % (shuffle.TARGET, _share(sum(s >= shuffle.TARGET
                                                               for s in scores), n)))
    print("  time per deal      average %.3f s, median %.3f s, worst %.3f s (seed %d)"
          % (statistics.mean(times), statistics.median(times), slowest[3].seconds,
             slowest[0]))
    print("  proved optimal     %s (upper bound met)" % _share(len(proved), n))
    open_gaps = [r[3].bound - r[3].score for r in rows if not r[3].optimal]
    if open_gaps:
        print("  unproved deals     bound - score: average %.1f, worst %d"
              % (statistics.mean(open_gaps), max(open_gaps)))
    print("  2 x best partition average %.1f (the plain bound, before orthogonality)"
          % statistics.mean([upper_bound(g, s) for _, g, s, _ in rows]))

    checked = rows[:args.check_deals]
    beaten, ties, found = [], 0, []
    started = time.perf_counter()
    for seed, grid, starter, sol in checked:
        _, got = random_search(grid, starter, random.Random(seed), args.check_seconds)
        found.append(got)
        if got > sol.score:
            beaten.append((seed, got, sol.score))
        ties += got == sol.score
    if checked:
        print("random search check: %d deals x %.1f s of hill-climb restarts (%.0f s)"
              % (len(checked), args.check_seconds, time.perf_counter() - started))
        print("  its average        %.2f; it equals the solver on %s"
              % (statistics.mean(found), _share(ties, len(checked))))
        print("  solver not beaten  %s" % _share(len(checked) - len(beaten), len(checked)))
        for seed, got, mine in beaten:
            print("  BEATEN: seed %d: random search %d > solver %d" % (seed, got, mine))


if __name__ == "__main__":
    main()
