"""Make the pegging tables shipped with the package: host/crib/analysis/pegging_table.txt
(2 players) and, with --multi, pegging_multi_table.txt (3 and 4 players).

    nice -n 19 python bench/pegging_table.py [--out PATH] [--hands N] [--policy NAME]
    nice -n 19 python bench/pegging_table.py --multi [--part K/N --out PART] [--hands N]
    python bench/pegging_table.py --multi --merge PART...

Two players: for each of the 1,820 rank patterns of 4 kept cards, as pone and as dealer,
the points the holder pegs and the points the opponent pegs, both playing the table's
policy (crib.analysis.pegging.TABLE_POLICY, the lookahead policy), summed over every
4-card hand the opponent can hold from the other 48 cards (C(48, 4) = 194,580, each
counted once): exact totals, no sampling. One row per pattern: 4 ranks (0 = ace .. 12 =
king), then pone mine, pone theirs, dealer mine, dealer theirs. About 10 minutes on the
shared 2-core machine under load (576 s; the defensive policy took 1045 s under a heavier
load, the greedy 9 to 15 minutes); --hands N makes only the first N rows (a quick look),
--policy NAME another policy of crib.analysis.pegging (with --out: a table to compare).

--multi: the 3- and 4-player table (crib.analysis.pegging_multi: SAMPLES drawn deals of the
other hands per pattern, the same draws for every pattern), one row per pattern: 4 ranks,
then mine and theirs for 3 players as pone, as dealer, 4 players as pone, as dealer. A long
run splits over processes: --part K/N makes every N-th pattern from the K-th into PART (the
rows and the sums of squares), and --merge writes the table from the parts. It prints the
averages and the 95% interval of the values (from the sums of squares).
"""

import argparse
import json
import math
import time
from math import comb

from crib.analysis import pegging, pegging_multi
from crib.analysis.pegging import TABLE_FILE, TABLE_HANDS, hand_totals, multisets4

HEADER = f"""\
# Expected pegging of every kept 4-card hand (2 players), made by bench/pegging_table.py.
# Both players lay by crib.analysis.pegging.{{policy}}; the opponent's 4 cards are every hand
# of the 48 other cards, each once: the totals below are exact sums over {TABLE_HANDS}
# hands (divide by {TABLE_HANDS} for the average; there is no sampling error).
# ranks (0 = ace .. 12 = king), pone: mine theirs, dealer: mine theirs
"""

MULTI_HEADER = """\
# Expected pegging of every kept 4-card hand for 3 and 4 players, made by
# bench/pegging_table.py --multi (crib.analysis.pegging_multi). Everyone lays by
# crib.analysis.pegging.greedy; the totals are over {samples} drawn deals of the other
# hands (divide by {samples}); 95% intervals: {errors}.
# ranks (0 = ace .. 12 = king), then mine theirs for: 3 players pone, 3 players dealer,
# 4 players pone side, 4 players dealer side
"""


def dealt_weight(ranks):
    """How many 4-card hands have these ranks."""
    w = 1
    for r in set(ranks):
        w *= comb(4, ranks.count(r))
    return w


def two_players(args):
    """Write the two-player table and print how long it took and the overall averages."""
    start = time.perf_counter()
    policy = getattr(pegging, args.policy or pegging.TABLE_POLICY.__name__)
    hands = multisets4()[:args.hands]
    lines = []
    sums = [0, 0, 0, 0]
    weight = 0
    for i, ranks in enumerate(hands):
        row = hand_totals(ranks, policy=policy)
        lines.append(" ".join(str(v) for v in ranks + row))
        w = dealt_weight(ranks)
        weight += w
        sums = [s + w * v for s, v in zip(sums, row)]
        if i % 100 == 99:
            print(f"{i + 1} hands, {time.perf_counter() - start:.0f} s", flush=True)
    out = args.out or str(TABLE_FILE)
    with open(out, "w") as f:
        f.write(HEADER.replace("{policy}", policy.__name__) + "\n".join(lines) + "\n")
    avg = [s / weight / TABLE_HANDS for s in sums]
    print(f"wrote {len(lines)} rows to {out} in {time.perf_counter() - start:.0f} s")
    print(f"average over dealt hands: pone pegs {avg[0]:.3f} (dealer {avg[1]:.3f});"
          f" as dealer pegs {avg[2]:.3f} (pone {avg[3]:.3f})")


def multi_part(args):
    """Compute this process's share of the multi-player rows into a JSON part file."""
    k, n = args.part
    start = time.perf_counter()
    rows = {}
    for i, ranks in enumerate(multisets4()[:args.hands]):
        if i % n != k:
            continue
        rows[" ".join(map(str, ranks))] = pegging_multi.row_totals(ranks)
        if len(rows) % 50 == 0:
            print(f"{len(rows)} rows, {time.perf_counter() - start:.0f} s", flush=True)
    with open(args.out, "w") as f:
        json.dump({"samples": pegging_multi.SAMPLES, "rows": rows}, f)
    print(f"wrote {len(rows)} rows to {args.out} in {time.perf_counter() - start:.0f} s")


def multi_merge(args):
    """Write the multi-player table from the parts; print its averages and errors."""
    rows = {}
    samples = None
    for path in args.merge:
        part = json.load(open(path))
        samples = samples or part["samples"]
        if part["samples"] != samples or samples != pegging_multi.SAMPLES:
            raise SystemExit(f"{path}: {part['samples']} samples, not {pegging_multi.SAMPLES}")
        rows.update({tuple(map(int, key.split())): v for key, v in part["rows"].items()})
    n = samples
    half = {}  # config -> [95% half-width of mine - theirs per row]
    spread = {}
    weight = 0
    sums = [0.0] * 8
    for ranks, (totals, squares) in rows.items():
        w = dealt_weight(list(ranks))
        weight += w
        sums = [s + w * v / n for s, v in zip(sums, totals)]
        for j, sq in enumerate(squares):
            mean = (totals[2 * j] - totals[2 * j + 1]) / n
            sd = math.sqrt(max(sq / n - mean * mean, 0) * n / (n - 1))
            half.setdefault(j, []).append(1.96 * sd / math.sqrt(n))
            spread.setdefault(j, []).append(mean)
    names = [f"{p} players {'dealer' if d else 'pone'}" for p, d in pegging_multi.CONFIGS]
    errors = "; ".join(f"{name} net (mine - theirs) +-{sum(half[j]) / len(half[j]):.2f} on"
                       f" average, +-{max(half[j]):.2f} at worst"
                       for j, name in enumerate(names))
    lines = [" ".join(str(v) for v in ranks + tuple(rows[ranks][0])) for ranks in sorted(rows)]
    header = MULTI_HEADER.format(samples=n, errors=errors)
    header = "\n".join("# " + line if not line.startswith("#") else line
                       for line in _wrap(header)) + "\n"
    with open(args.out or str(pegging_multi.TABLE_FILE), "w") as f:
        f.write(header + "\n".join(lines) + "\n")
    print(f"wrote {len(lines)} rows, {n} draws each")
    for j, name in enumerate(names):
        avg = sums[2 * j] / weight, sums[2 * j + 1] / weight
        print(f"{name}: pegs {avg[0]:.3f}, the others {avg[1]:.3f} (average over dealt hands);"
              f" 95% interval of the net per row +-{sum(half[j]) / len(half[j]):.3f} on"
              f" average, +-{max(half[j]):.3f} at worst; the net per row ranges"
              f" {min(spread[j]):+.2f} to {max(spread[j]):+.2f}")


def _wrap(text, width=92):
    """The header's lines, long ones broken at spaces (each stays a comment)."""
    out = []
    for line in text.splitlines():
        while len(line) > width:
            cut = line.rfind(" ", 0, width)
            out.append(line[:cut])
            line = line[cut + 1:]
        out.append(line)
    return out


def main():
    """Make the table asked for."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None)
    ap.add_argument("--hands", type=int, default=None)
    ap.add_argument("--policy", default=None,
                    help="a policy of crib.analysis.pegging (default its TABLE_POLICY)")
    ap.add_argument("--multi", action="store_true", help="the 3- and 4-player table")
    ap.add_argument("--part", type=lambda t: tuple(int(x) for x in t.split("/")),
                    default=None, help="K/N: the multi-player rows of share K of N")
    ap.add_argument("--merge", nargs="+", metavar="PART", help="write the multi table")
    args = ap.parse_args()
    if not args.multi:
        two_players(args)
    elif args.merge:
        multi_merge(args)
    else:
        if args.part is None or not args.out:
            ap.error("--multi needs --part K/N and --out PART (then --merge the parts)")
        multi_part(args)


if __name__ == "__main__":
    main()
