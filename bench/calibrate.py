"""How much of the pegging table's net play between kept hands the real play realises.

    nice -n 19 python bench/calibrate.py [--deals 3000] [--seed 5] [--old-table PATH]

Each deal gives both players 4 random cards and a starter and plays them out twice: both
seats laying by the pro level's search (crib.analysis.playsearch), then both by the
table's policy (crib.analysis.pegging.TABLE_POLICY). For each seat the observed net (its
points less the opponent's) is regressed on the table's net play (peg - opp) for the four
it holds; the slope says how much of the table's difference between two hands the play
realises (1: all of it; 0.5: half, which is what the pro level at half weight assumed).
With --old-table (a table of before, e.g. the greedy one: `git show 65ee2fa:host/crib/
analysis/pegging_table.txt`) its slopes are printed beside. The noise is the play's: a slope's
95% interval at 3,000 deals is about +-0.15.
"""

import argparse
import random
import statistics
import sys
from pathlib import Path

from policy import by_policy, play_points, search

from crib.analysis.pegging import TABLE_FILE, TABLE_POLICY, read_rows, row_net


def main():
    """Play the deals and print the slopes per seat, every --every deals."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--old-table", default=None)
    ap.add_argument("--every", type=int, default=500)
    args = ap.parse_args()
    tables = {"table": read_rows(TABLE_FILE)}
    if args.old_table:
        tables["old table"] = read_rows(Path(args.old_table))
    rng = random.Random(args.seed)
    xs = {(n, s): [] for n in tables for s in (0, 1)}
    policy = TABLE_POLICY.__name__
    ys = {(k, s): [] for k in ("search", policy) for s in (0, 1)}
    lay = by_policy(TABLE_POLICY)
    for i in range(1, args.deals + 1):
        d = rng.sample(range(52), 9)
        hands = (sorted(d[:4]), sorted(d[4:8]))
        for kind, chooser in (("search", search), (policy, lay)):
            a, b = play_points(hands, d[8], (chooser, chooser))
            ys[(kind, 0)].append(a - b)
            ys[(kind, 1)].append(b - a)
        for seat in (0, 1):
            key = tuple(sorted(c >> 2 for c in hands[seat]))
            for name, rows in tables.items():
                row = rows[key]
                xs[(name, seat)].append(float(row_net(row, seat == 1)))
        if i % args.every == 0 or i == args.deals:
            print(f"{i} deals")
            for seat, who in ((0, "pone"), (1, "dealer")):
                for name in tables:
                    x = xs[(name, seat)]
                    slopes = [statistics.linear_regression(x, ys[(k, seat)]).slope
                              for k in ("search", policy)]
                    print(f"  {who}, {name}: slope of the search's play {slopes[0]:.2f},"
                          f" of the {policy} play {slopes[1]:.2f}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
