"""The pro level's discard at full pegging weight against half weight and against the pro
level of before (half weight, the greedy table), over paired deals, with 95% intervals.

    git show 65ee2fa:host/crib/analysis/pegging_table.txt > /tmp/greedy_table.txt
    git show ec98817:host/crib/analysis/pegging_table.txt > /tmp/defensive_table.txt
    nice -n 19 python bench/paired.py [--deals 20000] [--seed 1] [--log deals.txt]
        [--old "pro of before (half, greedy table)=/tmp/greedy_table.txt:1/2"]
        [--old "pro of ec98817 (full, defensive table)=/tmp/defensive_table.txt:1"]

Each deal gives two players 6 cards and turns a starter; it is played twice on the same
cards with the seats swapped (the level measured as pone, then as dealer with the other's
cards), and the level's margin for the pair is its points less the other's over both
hands: its hand, its crib when it deals, and the play. Both sides lay by the pro level's
search (crib.analysis.playsearch, each seat seeing its own 6 cards and what was laid), so
the levels differ only in their discard: a discard ranked by the advisor (hand and crib)
plus weight x the table's net play (peg - opp) for the four kept. At full weight with the
shipped table that is crib.analysis.advise.best_discard(pegging=True), the one best
discard (checked on every deal). Where both levels lay away the same cards in both seats
the two hands are the same hand with the seats swapped and the margin is exactly 0: the
deal is counted without being played (the play is deterministic). Heels is the same for
both and left out. The interval is over the deals (independent); a game is about 9 deals
(two-player averages), so a margin per deal times 9 is about a margin in points per game.

With --log each deal's margins are appended to a file as they come: a run stopped (or
--deals reached) is continued by running again with the same seed, pairings and log.

A margin per paired deal, not per paired game: a game of two pro levels plays the search
about 9 times as often, and the issue's 20,000 paired games did not fit the shared machine.
"""

import argparse
import math
import platform
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

from policy import play_points, search

from crib.analysis.advise import best_discard
from crib.analysis.pegging import TABLE_FILE, read_rows
from crib.practice.levels import table_discard
from cribcore.show import score_show

Z95 = 1.959964


def discarder(rows, weight):
    """A discard choice: the advisor's hand and crib plus weight x the net play of rows
    (crib.practice.levels.table_discard, as the practice bench's --old levels discard)."""
    def discard(hand, dealer):
        return table_discard(hand, dealer, rows, weight)
    return discard


def hand(cards, starter, discards):
    """[pone's points, dealer's] for one hand: cards[0] pone's 6, cards[1] the dealer's;
    discards[p]: the 2 cards p lays away."""
    kept = [[c for c in cards[p] if c not in discards[p]] for p in (0, 1)]
    pts = play_points(kept, starter, (search, search), known=cards)
    pts[0] += score_show(kept[0], starter)
    pts[1] += score_show(kept[1], starter)
    pts[1] += score_show(list(discards[0]) + list(discards[1]), starter, crib=True)
    return pts


def margin(cards, starter, a, b):
    """Level a's points less level b's over the two hands of a deal (seats swapped)."""
    da = (a(cards[0], False), a(cards[1], True))  # a's discard as pone, as dealer
    db = (b(cards[0], False), b(cards[1], True))
    if da == db:
        return 0, False
    first = hand(cards, starter, (da[0], db[1]))  # a is pone
    second = hand(cards, starter, (db[0], da[1]))  # a deals
    return first[0] - first[1] + second[1] - second[0], True


def old_level(spec):
    """(name, discarder) for --old NAME=PATH[:WEIGHT]: a pro level of before, its table and
    its weight (default 1/2)."""
    name, _, rest = spec.partition("=")
    path, _, w = rest.partition(":")
    return name, discarder(read_rows(Path(path)), Fraction(w or "1/2"))


def load_log(path, pairings):
    """{pairing index: [margins]} and played counts from a log of earlier deals, checking
    the log's pairings are these (a later run continues where it stopped)."""
    margins = {i: [] for i in range(len(pairings))}
    played = {i: 0 for i in range(len(pairings))}
    if not path or not Path(path).exists():
        return margins, played
    lines = Path(path).read_text().splitlines()
    names = [f"{an} v {bn}" for an, bn, _, _ in pairings]
    if not lines or lines[0] != "# " + " | ".join(names):
        raise SystemExit(f"{path}: not a log of these pairings ({' | '.join(names)})")
    for line in lines[1:]:
        v = [int(x) for x in line.split()]
        for i in range(len(pairings)):
            margins[i].append(v[1 + 2 * i])
            played[i] += v[2 + 2 * i]
    return margins, played


def main():
    """Play the paired deals and print each pairing's margin with its 95% interval."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--old", action="append", default=[], metavar="NAME=PATH[:WEIGHT]",
                    help="a pro level of before: its table and weight (default 1/2)")
    ap.add_argument("--log", default=None, help="append each deal's margins here; a later run"
                    " with the same seed and pairings continues after the deals it holds")
    ap.add_argument("--every", type=int, default=500, help="print the figures every N deals")
    args = ap.parse_args()
    new = read_rows(TABLE_FILE)
    full = discarder(new, Fraction(1))
    pairings = [("pro (full weight)", "pro (half weight)", full, discarder(new, Fraction(1, 2)))]
    for spec in args.old:
        name, level = old_level(spec)
        pairings.append(("pro (full weight)", name, full, level))
    if not args.old:
        print("no --old: the pro of before is left out", file=sys.stderr)
    margins, played = load_log(args.log, pairings)
    done = len(margins[0])
    log = open(args.log, "a") if args.log else None
    if log and not done:
        log.write("# " + " | ".join(f"{an} v {bn}" for an, bn, _, _ in pairings) + "\n")
    rng = random.Random(args.seed)
    start = time.perf_counter()
    print(f"python {platform.python_version()}; {args.deals} paired deals, seed {args.seed};"
          f" {done} from {args.log}")
    for n in range(1, args.deals + 1):
        deck = rng.sample(range(52), 13)
        if n <= done:
            continue  # in the log: the same cards, drawn to keep the seed's sequence
        cards = (sorted(deck[:6]), sorted(deck[6:12]))
        starter = deck[12]
        for p in (0, 1):  # the one best discard, as crib discard stars it
            assert full(cards[p], p == 1) == best_discard(cards[p], p == 1, pegging=True).discard
        row = [n]
        for i, (_, _, a, b) in enumerate(pairings):
            m, did = margin(cards, starter, a, b)
            margins[i].append(m)
            played[i] += did
            row += [m, int(did)]
        if log:
            log.write(" ".join(map(str, row)) + "\n")
            log.flush()
        if n % args.every == 0 or n == args.deals:
            el = time.perf_counter() - start
            print(f"{n} deals, {el:.0f} s this run")
            for i, (an, bn, _, _) in enumerate(pairings):
                xs = margins[i]
                m = statistics.fmean(xs)
                h = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
                print(f"  {an} v {bn}: {m:+.4f} +-{h:.4f} points a deal (95%);"
                      f" {played[i]} deals of {n} discarded differently", flush=True)


if __name__ == "__main__":
    main()
