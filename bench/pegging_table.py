"""Make the pegging table shipped with the package: host/crib/analysis/pegging_table.txt.

    nice -n 19 python bench/pegging_table.py [--out PATH] [--hands N]

For each of the 1,820 rank patterns of 4 kept cards, as pone and as dealer, the points the
holder pegs and the points the opponent pegs, both playing the greedy policy
(crib.analysis.pegging.greedy), summed over every 4-card hand the opponent can hold from
the other 48 cards (C(48, 4) = 194,580, each counted once): exact totals, no sampling.
One row per pattern: 4 ranks (0 = ace .. 12 = king), then pone mine, pone theirs, dealer
mine, dealer theirs. 9 to 15 minutes on the shared 2-core machine under load; --hands N
makes only the first N rows (a quick look).
"""

import argparse
import time
from math import comb

from crib.analysis.pegging import TABLE_FILE, TABLE_HANDS, hand_totals, multisets4

HEADER = f"""\
# Expected pegging of every kept 4-card hand (2 players), made by bench/pegging_table.py.
# Both players lay by crib.analysis.pegging.greedy; the opponent's 4 cards are every hand
# of the 48 other cards, each once: the totals below are exact sums over {TABLE_HANDS}
# hands (divide by {TABLE_HANDS} for the average; there is no sampling error).
# ranks (0 = ace .. 12 = king), pone: mine theirs, dealer: mine theirs
"""


def main():
    """Write the table and print how long it took and the overall averages."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(TABLE_FILE))
    ap.add_argument("--hands", type=int, default=None)
    args = ap.parse_args()
    start = time.perf_counter()
    hands = multisets4()[:args.hands]
    lines = []
    sums = [0, 0, 0, 0]
    weight = 0
    for i, ranks in enumerate(hands):
        row = hand_totals(ranks)
        lines.append(" ".join(str(v) for v in ranks + row))
        w = 1
        for r in set(ranks):  # how many 4-card hands have these ranks
            w *= comb(4, ranks.count(r))
        weight += w
        sums = [s + w * v for s, v in zip(sums, row)]
        if i % 100 == 99:
            print(f"{i + 1} hands, {time.perf_counter() - start:.0f} s", flush=True)
    with open(args.out, "w") as f:
        f.write(HEADER + "\n".join(lines) + "\n")
    avg = [s / weight / TABLE_HANDS for s in sums]
    print(f"wrote {len(lines)} rows to {args.out} in {time.perf_counter() - start:.0f} s")
    print(f"average over dealt hands: pone pegs {avg[0]:.3f} (dealer {avg[1]:.3f});"
          f" as dealer pegs {avg[2]:.3f} (pone {avg[3]:.3f})")


if __name__ == "__main__":
    main()
