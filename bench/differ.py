"""Where the pro level's discard at full pegging weight and at half weight differ, what each
gains, by source and by seat: the advisor's expected hand and crib, the table's net play,
and what the real play and show give on the deal's cards.

    nice -n 19 python bench/differ.py [--deals 20000] [--seed 1] [--every 500] [--own-out]

The deals are bench/paired.py's (the same seed draws the same cards): two players get 6
cards and a starter is turned. For each seat, the discard at full weight (the one best
discard) and at half weight (crib.practice.levels.table_discard with the shipped table);
where they differ, the seat keeps one, then the other, against the opponent's full-weight
discard, and both sides lay by the pro level's search (bench/policy.py's search, each seat
seeing its own 6 cards). Per seat, over the hands that differ, full less half:

- hand, crib: the advisor's expected values (crib signed: + for the dealer's own crib);
- play (table): the table's net play (peg - opp) for the four kept;
- hand, crib, play (real): the show of the kept four and the crib with this starter and the
  opponent's real discard, and the seat's net play (its points less the opponent's);
- play (policy): the net play on the same cards with both sides laying by the table's own
  policy (crib.analysis.pegging.TABLE_POLICY) instead of the search;
- play (seat by policy), play (other by policy): the same with only this seat, or only
  the other, laying by the table's policy and the other searching: which side's play
  makes the search realise less of the table's difference than the table's policy does;
- play (own 6 out), with --own-out: the table's net play made as the table is (its policy,
  every opponent hand, exact) but with the opponent's 4 drawn from the 46 cards the seat was
  not dealt (the table lets the opponent hold the two laid away); about 0.3 s a hand;
- total: expected (hand + crib + table play) and real (what full weight gained in points).

The steps from "play (table)" to "play (real)" split the table's error on these hands: the
cards laid away (own 6 out), the opponent holding the four it kept rather than any four
(play (policy)), and the search's play rather than the table's policy (play (real)).

The intervals are 95% over the differing hands (independent deals). "realised" is the real
play's difference over the table's: the share of the table's net play the search's play
realises on the hands where the weight decides (1: all; 0.5: half weight is right there).
"""

import argparse
import math
import platform
import random
import statistics
import time
from fractions import Fraction

from policy import by_policy, play_points, search

from crib.analysis.advise import rank_discards
from crib.analysis.pegging import (
    TABLE_POLICY,
    _counts,
    multisets4,
    play_out,
    row_net,
    table,
    table_weights,
    ways,
)
from crib.practice.levels import table_discard
from cribcore.show import score_show

Z95 = 1.959964
KEYS = ("hand", "crib", "play (table)", "expected", "hand (real)", "crib (real)",
        "play (real)", "play (policy)", "play (seat by policy)", "play (other by policy)",
        "play (own 6 out)", "real")
LAY = by_policy(TABLE_POLICY)


def interval(xs):
    """(mean, 95% half-width) of xs."""
    m = statistics.fmean(xs)
    return m, (Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0)


def table_net(keep, dealer):
    """The shipped table's net play (peg - opp) for the four kept in this seat."""
    return row_net(table()[tuple(sorted(c >> 2 for c in keep))], dealer)


def own_out_net(keep, six, dealer):
    """The net play (peg - opp) of the four kept, both laying by the table's policy, over
    every opponent hand of the cards the seat was not dealt, each weighted as the shipped
    table weighs it (how often the opponent's seat keeps its ranks; exact, a Fraction)."""
    ranks = tuple(sorted(c >> 2 for c in keep))
    taken = _counts(c >> 2 for c in six)
    kept = table_weights()[1 if dealer else 0]
    net = total = 0
    for opp in multisets4():
        w = ways(opp, taken) * kept.get(opp, 0)
        if not w:
            continue
        if dealer:
            a, b = play_out((opp, ranks), 0, policy=TABLE_POLICY)
            net += w * (b - a)
        else:
            a, b = play_out((ranks, opp), 0, policy=TABLE_POLICY)
            net += w * (a - b)
        total += w
    return Fraction(net, total)


def outcome(cards, starter, p, dis, opp_dis):
    """(hand, crib signed for p, p's net play) when seat p (0 pone, 1 dealer) lays away dis
    and the other seat opp_dis, both laying by the search; then p's net play with both
    laying by the table's policy, with p alone laying by it, and with the other alone."""
    discards = [None, None]
    discards[p], discards[1 - p] = dis, opp_dis
    kept = [[c for c in cards[q] if c not in discards[q]] for q in (0, 1)]
    pts = play_points(kept, starter, (search, search), known=cards)
    crib = score_show(list(discards[0]) + list(discards[1]), starter, crib=True)
    nets = []
    for mine, theirs in ((LAY, LAY), (LAY, search), (search, LAY)):
        by = [theirs, theirs]
        by[p] = mine
        lay = play_points(kept, starter, by, known=cards)
        nets.append(lay[p] - lay[1 - p])
    return (score_show(kept[p], starter), crib if p else -crib, pts[p] - pts[1 - p], *nets)


def compare(cards, starter, p, own_out=False):
    """{key: full less half} for seat p, or None when the two discard alike."""
    dealer = p == 1
    full = table_discard(cards[p], dealer, table(), Fraction(1))
    half = table_discard(cards[p], dealer, table(), Fraction(1, 2))
    if full == half:
        return None
    opp = table_discard(cards[1 - p], not dealer, table(), Fraction(1))
    ranked = {e.discard: e for e in rank_discards(cards[p], dealer)}
    ef, eh = ranked[full], ranked[half]
    sign = 1 if dealer else -1
    d = {"hand": ef.hand - eh.hand, "crib": sign * (ef.crib - eh.crib),
         "play (table)": table_net(ef.keep, dealer) - table_net(eh.keep, dealer)}
    d["expected"] = d["hand"] + d["crib"] + d["play (table)"]
    of, oh = outcome(cards, starter, p, full, opp), outcome(cards, starter, p, half, opp)
    for i, k in enumerate(("hand (real)", "crib (real)", "play (real)", "play (policy)",
                           "play (seat by policy)", "play (other by policy)")):
        d[k] = of[i] - oh[i]
    d["real"] = sum(of[:3]) - sum(oh[:3])
    if own_out:
        d["play (own 6 out)"] = own_out_net(ef.keep, cards[p], dealer) - \
            own_out_net(eh.keep, cards[p], dealer)
    return {k: float(v) for k, v in d.items()}


def report(n, diffs, start):
    """Print the figures after n deals."""
    print(f"{n} deals, {time.perf_counter() - start:.0f} s")
    for p, who in ((0, "pone"), (1, "dealer")):
        rows = diffs[p]
        print(f"  {who}: {len(rows)} of {n} hands discard differently (full less half, 95%)")
        if len(rows) < 2:
            continue
        for k in KEYS:
            if k not in rows[0]:
                continue
            m, h = interval([r[k] for r in rows])
            print(f"    {k:<13} {m:+.3f} +-{h:.3f}")
        t = statistics.fmean(r["play (table)"] for r in rows)
        for k in ("play (real)", "play (policy)", "play (seat by policy)",
                  "play (other by policy)", "play (own 6 out)"):
            if k not in rows[0]:
                continue
            print(f"    realised      {statistics.fmean(r[k] for r in rows) / t:.2f}"
                  f" of the table's net play by {k}")


def main():
    """Screen the deals and print the differences per seat every --every deals."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=500)
    ap.add_argument("--own-out", action="store_true", help="also the table's net play with"
                    " the opponent's cards drawn from the 46 the seat was not dealt (slow)")
    args = ap.parse_args()
    print(f"python {platform.python_version()}; {args.deals} deals, seed {args.seed}")
    rng = random.Random(args.seed)
    diffs = {0: [], 1: []}
    start = time.perf_counter()
    for n in range(1, args.deals + 1):
        deck = rng.sample(range(52), 13)  # as bench/paired.py draws its deals
        cards = (sorted(deck[:6]), sorted(deck[6:12]))
        for p in (0, 1):
            d = compare(cards, deck[12], p, args.own_out)
            if d:
                diffs[p].append(d)
        if n % args.every == 0 or n == args.deals:
            report(n, diffs, start)


if __name__ == "__main__":
    main()
