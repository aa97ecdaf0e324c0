"""Make the pegging tables shipped with the package: host/crib/analysis/pegging_table.txt
(2 players) and, with --multi, pegging_multi_table.txt (3 and 4 players).

    nice -n 19 python bench/pegging_table.py --sample-keeps 200000 --seed 38 --out KEEPS
    nice -n 19 python bench/pegging_table.py --keeps KEEPS [--plays PLAYS] [--out PATH]
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

The shipped table (issue 38) is weighted by the hands a strong opponent keeps, in two steps:
--sample-keeps DEALS counts, over DEALS seeded deals (--seed; a shuffled deck's first 6
cards to the pone, the next 6 to the dealer), the 4 ranks the pro level keeps
(crib.analysis.advise.best_discard with the play counted, the shipped table of the time)
per seat, deal i in fold i % FOLDS (crib/analysis/pegging_keeps.txt: 200,000 deals, about
5 minutes under load). --keeps KEEPS then makes the table with each opponent hand weighted
by how often the opponent's seat keeps its ranks, the count shared among the pattern's
suit-ways in a full deck (crib.analysis.pegging.keep_weights): each row holds, per seat,
the weighted totals and the total weight, exact integers. It prints the sampling error of
the values from the spread over the folds, and the averages over dealt and kept hands.
--plays PLAYS saves every play-out (pattern against pattern, both seats: 13 MB, about 3
minutes) or reuses it, so a table weighted by other counts takes seconds. Without --keeps
the table counts every opponent hand once, as before (the same play-outs).

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
import random
import statistics
import textwrap
import time
from math import comb
from pathlib import Path

from crib.analysis import pegging, pegging_multi
from crib.analysis.pegging import (
    TABLE_FILE,
    TABLE_HANDS,
    _counts,
    dealt_ways,
    hand_totals,
    keep_weights,
    multisets4,
    play_out,
    row_net,
    row_values,
    ways,
)

HEADER = f"""\
# Expected pegging of every kept 4-card hand (2 players), made by bench/pegging_table.py.
# Both players lay by crib.analysis.pegging.{{policy}}; the opponent's 4 cards are every hand
# of the 48 other cards, each once: the totals below are exact sums over {TABLE_HANDS}
# hands (divide by {TABLE_HANDS} for the average; there is no sampling error).
# ranks (0 = ace .. 12 = king), pone: mine theirs, dealer: mine theirs
"""

Z95 = 1.959964

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


FOLDS = 10  # the kept-hand counts are kept per fold (deal i in fold i % FOLDS): the
# spread of the table's values over the folds gives their error from the sampling

KEEPS_HEADER = """\
# The 4 ranks the pro level keeps (crib.analysis.advise.best_discard, the play counted with
# the table of the time), made by bench/pegging_table.py --sample-keeps {deals} --seed {seed}:
# {deals} seeded 6-card deals per seat (deal i: a shuffled deck's first 6 cards to the pone,
# the next 6 to the dealer), deal i counted in fold i % {folds}.
# ranks (0 = ace .. 12 = king), then the pone's counts by fold, then the dealer's
"""


def sample_keeps(args):
    """Count the rank multisets the pro level keeps, per seat and fold, into args.out."""
    from crib.analysis.advise import best_discard

    start = time.perf_counter()
    rng = random.Random(args.seed)
    index = {k: i for i, k in enumerate(multisets4())}
    counts = [[[0] * FOLDS for _ in index] for _ in range(2)]  # seat (0 pone), hand, fold
    deck = list(range(52))
    for i in range(args.sample_keeps):
        rng.shuffle(deck)
        for seat in (0, 1):
            keep = best_discard(deck[6 * seat:6 * seat + 6], seat == 1, pegging=True).keep
            counts[seat][index[tuple(sorted(c >> 2 for c in keep))]][i % FOLDS] += 1
        if i % 5000 == 4999:
            print(f"{i + 1} deals, {time.perf_counter() - start:.0f} s", flush=True)
    with open(args.out, "w") as f:
        f.write(KEEPS_HEADER.format(deals=args.sample_keeps, seed=args.seed, folds=FOLDS))
        for k, i in index.items():
            f.write(" ".join(map(str, k + tuple(counts[0][i]) + tuple(counts[1][i]))) + "\n")
    print(f"wrote {args.out} in {time.perf_counter() - start:.0f} s")


def read_keep_folds(path):
    """{4 ranks: (pone counts by fold, dealer counts by fold)} from a --sample-keeps file."""
    out = {}
    for line in Path(path).read_text().splitlines():
        if line and not line.startswith("#"):
            v = [int(x) for x in line.split()]
            n = (len(v) - 4) // 2
            out[tuple(v[:4])] = (v[4:4 + n], v[4 + n:])
    return out


def plays(path, policy):
    """The play of every kept pattern against every opponent pattern it can meet, both
    seats: a bytearray of 4 values (pone mine, pone theirs, dealer mine, dealer theirs) per
    (kept index, opponent index) in multisets4() order, saved at path and read back when it
    exists (the play-outs are the table's cost: the weighted tables reuse them)."""
    hands = multisets4()
    n = len(hands)
    if path and Path(path).exists():
        data = bytearray(Path(path).read_bytes())
        if len(data) != n * n * 4:
            raise SystemExit(f"{path}: {len(data)} bytes, not {n * n * 4}")
        return data
    start = time.perf_counter()
    data = bytearray(n * n * 4)
    for i, ranks in enumerate(hands):
        taken = _counts(ranks)
        for j, opp in enumerate(hands):
            if ways(opp, taken):
                a, b = play_out((ranks, opp), 0, policy=policy)
                c, d = play_out((opp, ranks), 0, policy=policy)
                data[(i * n + j) * 4:(i * n + j) * 4 + 4] = bytes((a, b, d, c))
        if i % 100 == 99:
            print(f"{i + 1} hands played, {time.perf_counter() - start:.0f} s", flush=True)
    if path:
        Path(path).write_bytes(data)
    return data


WEIGHTED_HEADER = (
    "Expected pegging of every kept 4-card hand (2 players), made by bench/pegging_table.py"
    " --keeps {keeps}. Both players lay by crib.analysis.pegging.{policy}; the opponent's 4"
    " cards are every hand of the 48 other cards, each weighted by how often the opponent's"
    " seat keeps its ranks ({keeps}: {deals} deals a seat of the pro level's discard), the"
    " count shared among the pattern's suit-ways in a full deck"
    " (crib.analysis.pegging.keep_weights). Exact sums for those counts; their sampling"
    " error (95%, from {folds} folds of the deals): {errors}.")
WEIGHTED_COLUMNS = "# ranks (0 = ace .. 12 = king), pone: mine theirs weight, dealer: mine" \
    " theirs weight\n"


def weighted_rows(data, folds_of):
    """{ranks: [(mine, theirs, weight) per seat, per fold]} from the play-outs and the
    opponent's keep counts by fold: folds_of(seat) -> {ranks: counts by fold} of the seat's
    opponent (the dealer when the row is the pone's)."""
    from operator import mul

    hands = multisets4()
    n = len(hands)
    per_fold = []  # seat -> fold -> [weight of each opponent pattern's specific hand]
    for seat in (0, 1):
        counts = folds_of(seat)
        nf = len(next(iter(counts.values())))
        per_fold.append([[keep_weights({k: counts[k][f]})[k] for k in hands]
                         for f in range(nf)])
    rows = {}
    for i, ranks in enumerate(hands):
        taken = _counts(ranks)
        w = [ways(opp, taken) for opp in hands]
        block = data[i * n * 4:(i + 1) * n * 4]
        out = []
        for seat in (0, 1):
            mine = [w[j] * block[4 * j + 2 * seat] for j in range(n)]
            theirs = [w[j] * block[4 * j + 2 * seat + 1] for j in range(n)]
            out.append([(sum(map(mul, a, mine)), sum(map(mul, a, theirs)), sum(map(mul, a, w)))
                        for a in per_fold[seat]])
        rows[ranks] = out
    return rows


def weighted(args, policy):
    """Write the table weighted by --keeps (from the --plays play-outs, made if absent),
    print its averages and the sampling error of its values over the folds."""
    start = time.perf_counter()
    data = plays(args.plays, policy)
    keeps = read_keep_folds(args.keeps)
    deals = sum(sum(v[0]) for v in keeps.values())
    rows = weighted_rows(data, lambda seat: {k: v[1 - seat] for k, v in keeps.items()})
    lines = []
    errs = {}  # (seat, what) -> [95% half-width per row]
    for ranks, (pone, dealer) in rows.items():
        whole = []
        for seat, folds in ((0, pone), (1, dealer)):
            m, t, w = (sum(x[k] for x in folds) for k in range(3))
            whole += [m, t, w]
            for what, f in (("mine", lambda x: x[0] / x[2]), ("theirs", lambda x: x[1] / x[2]),
                            ("net", lambda x: (x[0] - x[1]) / x[2])):
                vals = [f(x) for x in folds if x[2]]
                errs.setdefault((seat, what), []).append(
                    Z95 * statistics.stdev(vals) / math.sqrt(len(vals)))
        lines.append(" ".join(map(str, ranks + tuple(whole))))
    errors = "; ".join(
        f"{['pone', 'dealer'][seat]} {what} +-{sum(v) / len(v):.3f} on average, +-{max(v):.3f}"
        f" at worst" for (seat, what), v in errs.items())
    out = args.out or str(TABLE_FILE)
    header = WEIGHTED_HEADER.format(keeps=Path(args.keeps).name, policy=policy.__name__,
                                    deals=deals, folds=FOLDS, errors=errors)
    with open(out, "w") as f:
        f.write(textwrap.fill(header, 92, initial_indent="# ", subsequent_indent="# ")
                + "\n" + WEIGHTED_COLUMNS + "\n".join(lines) + "\n")
    print(f"wrote {len(lines)} rows to {out} in {time.perf_counter() - start:.0f} s")
    print(f"sampling error (95%): {errors}")
    tab = {r: tuple(map(int, line.split()[4:])) for r, line in zip(rows, lines)}
    averages(tab, keeps)
    if args.compare:
        compare(data, keeps, read_keep_folds(args.compare), tab)


def compare(data, keeps, other, tab):
    """Print how far other counts (a second round: the keeps under the table they made) are
    from keeps: the share of kept hands that moved (half the summed absolute difference of
    the two distributions) per seat, the same between the two halves of keeps' folds (the
    sampling alone), and how much the table's values move when made from other."""
    def dist(a, b):
        na, nb = sum(a.values()), sum(b.values())
        return sum(abs(a[k] / na - b[k] / nb) for k in a) / 2
    for s, seat in ((0, "pone"), (1, "dealer")):
        one = {k: sum(v[s]) for k, v in keeps.items()}
        two = {k: sum(v[s]) for k, v in other.items()}
        half = len(next(iter(keeps.values()))[s]) // 2
        a = {k: sum(v[s][:half]) for k, v in keeps.items()}
        b = {k: sum(v[s][half:]) for k, v in keeps.items()}
        print(f"{seat}: {100 * dist(one, two):.2f}% of the kept hands move between the counts;"
              f" between the halves of the first, {100 * dist(a, b):.2f}% (sampling alone)")
    rows = weighted_rows(data, lambda seat: {k: [sum(v[1 - seat])] for k, v in other.items()})
    for s, seat in ((0, "pone"), (1, "dealer")):
        moved = [abs(float(row_net(tab[k], s == 1)) - (f[0][0] - f[0][1]) / f[0][2])
                 for k, pair in rows.items() for f in [pair[s]]]
        print(f"{seat}: the net play of a row moves {sum(moved) / len(moved):.3f} on average,"
              f" {max(moved):.3f} at worst")


def averages(tab, keeps=None):
    """Print a table's averages per seat over dealt hands and over the hands kept."""
    seats = ((0, "pone"), (1, "dealer"))
    for name, weight in (("dealt hands", lambda r, s: dealt_ways(r)),
                         ("the hands the pro keeps", lambda r, s: sum(keeps[r][s]))):
        if keeps is None and name != "dealt hands":
            continue
        parts = []
        for s, seat in seats:
            total = sum(weight(r, s) for r in tab)
            mine = sum(weight(r, s) * float(row_values(v, s == 1)[0]) for r, v in tab.items())
            theirs = sum(weight(r, s) * float(row_values(v, s == 1)[1]) for r, v in tab.items())
            parts.append(f"{seat} pegs {mine / total:.3f} (the other {theirs / total:.3f})")
        print(f"average over {name}: " + "; ".join(parts))


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
    ap.add_argument("--sample-keeps", type=int, default=0, metavar="DEALS",
                    help="count the ranks the pro level keeps over DEALS deals per seat")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keeps", default=None, metavar="FILE",
                    help="weight each opponent hand by how often its seat keeps its ranks")
    ap.add_argument("--compare", default=None, metavar="KEEPS",
                    help="with --keeps: how far other counts (a second round) move the table")
    ap.add_argument("--plays", default=None, metavar="FILE",
                    help="save (or reuse) every play-out here")
    args = ap.parse_args()
    if args.sample_keeps:
        if not args.out:
            ap.error("--sample-keeps needs --out FILE")
        sample_keeps(args)
    elif args.plays and args.hands is None and not args.keeps and not args.multi \
            and not Path(args.plays).exists():
        plays(args.plays, getattr(pegging, args.policy or pegging.TABLE_POLICY.__name__))
    elif args.keeps and not args.multi:
        weighted(args, getattr(pegging, args.policy or pegging.TABLE_POLICY.__name__))
    elif not args.multi:
        two_players(args)
    elif args.merge:
        multi_merge(args)
    else:
        if args.part is None or not args.out:
            ap.error("--multi needs --part K/N and --out PART (then --merge the parts)")
        multi_part(args)


if __name__ == "__main__":
    main()
