"""How well the pegging tables rank 5-card deals (3 and 4 players), against fresh play.

    nice -n 19 python bench/pegging_multi.py [--deals 40] [--samples 1000] [--seed 29]

`crib discard` ranks a 5-card deal with the 3- and 4-player pegging table
(crib.analysis.pegging_multi, docs/advisor.md). This checks it against play it did not
see: for seeded 5-card deals, as pone and as dealer, each of the 5 hands the player can
keep is played out (crib.analysis.pegging.play_out, everyone laying greedy, the tables'
policy) against `samples` fresh draws of the other players' hands from the 47 cards the
player has not seen (not the table's draws; the same draws for the 5 hands, so their
differences are sharp), with the table's seats and sides (peg: the player's points, or the
side's with 4 players; opp: the others').

It prints the levels (the table's peg and opp against the simulated), the table's error in
the net play (peg - opp) between the hands of a deal (each deal's mean difference taken
out: a shift that is the same for every hand does not change the ranking), and how often
the best discard by hand + crib + play agrees with the best by hand + crib + the simulated
play, and the simulated points a deal given up (regret), for three ways to count the play:
the 3-4 player table, the two-player table as if heads-up, and none (--no-pegging).
"""

import argparse
import random
import statistics
import time
from operator import sub

from crib.analysis.advise import rank_discards
from crib.analysis.pegging import expected_pegging, play_out
from crib.analysis.pegging_multi import expected_pegging_multi
from crib.analysis.pegging_multi import seats as table_seats
from crib.analysis.pegging_multi import side as table_side

Z95 = 1.959964


def simulate(deal, players, dealer, samples, rng):
    """{keep: (mean peg, mean opp, [peg - opp per draw])} for the 5 keeps of deal."""
    unseen = [c for c in range(52) if c not in deal]
    my_seats = table_seats(players, dealer)
    draws = []
    for i in range(samples):
        cards = rng.sample(unseen, 4 * (players - 1))
        draws.append((my_seats[i % len(my_seats)],
                      [[c >> 2 for c in cards[4 * k:4 * k + 4]] for k in range(players - 1)]))
    out = {}
    for dis in deal:
        keep = tuple(sorted(c for c in deal if c != dis))
        ranks = [c >> 2 for c in keep]
        pegs, opps, nets = [], [], []
        for seat, others in draws:
            hands = list(others)
            hands.insert(seat, ranks)
            pts = play_out(hands, 0)
            mine = sum(pts[s] for s in table_side(players, seat))
            theirs = sum(pts) - mine
            pegs.append(mine)
            opps.append(theirs)
            nets.append(mine - theirs)
        out[keep] = (statistics.fmean(pegs), statistics.fmean(opps), nets)
    return out


def measure(players, dealer, deals, samples, seed):
    """Print the figures for one player count and side."""
    rng = random.Random(f"{seed}/{players}/{dealer}")
    lvl = {"tpeg": [], "topp": [], "speg": [], "sopp": []}
    centred, halfwidths = [], []
    ways = ("the 3-4 player table", "the two-player table", "no play")
    agree = dict.fromkeys(ways, 0)
    regret: dict = {w: [] for w in ways}
    for _ in range(deals):
        deal = sorted(rng.sample(range(52), 5))
        sim = simulate(deal, players, dealer, samples, rng)
        rows = []
        for e in rank_discards(deal, dealer):  # hand and crib, exact
            ranks = [c >> 2 for c in e.keep]
            tpeg, topp = (float(v) for v in expected_pegging_multi(ranks, players, dealer))
            two = float(sub(*expected_pegging(ranks, dealer)))
            speg, sopp, nets = sim[e.keep]
            rows.append({"net": float(e.net), "table": tpeg - topp, "two": two,
                         "sim": speg - sopp, "nets": nets})
            lvl["tpeg"].append(tpeg)
            lvl["topp"].append(topp)
            lvl["speg"].append(speg)
            lvl["sopp"].append(sopp)
        diffs = [r["table"] - r["sim"] for r in rows]
        shift = statistics.fmean(diffs)
        centred += [abs(d - shift) for d in diffs]
        for r in rows[1:]:  # the draws are shared: the interval of a difference of hands
            d = [a - b for a, b in zip(r["nets"], rows[0]["nets"])]
            halfwidths.append(Z95 * statistics.stdev(d) / len(d) ** 0.5)
        true = [r["net"] + r["sim"] for r in rows]
        best = max(range(len(rows)), key=lambda i: true[i])
        picks = {ways[0]: max(range(len(rows)), key=lambda i: rows[i]["net"] + rows[i]["table"]),
                 ways[1]: max(range(len(rows)), key=lambda i: rows[i]["net"] + rows[i]["two"]),
                 ways[2]: 0}  # rank_discards without the play: its first entry
        for w, i in picks.items():
            agree[w] += i == best
            regret[w].append(true[best] - true[i])
    side = "dealer" if dealer else "pone"
    m = {k: statistics.fmean(v) for k, v in lvl.items()}
    print(f"{players} players, {side}: table peg {m['tpeg']:.2f} opp {m['topp']:.2f};"
          f" simulated peg {m['speg']:.2f} opp {m['sopp']:.2f}")
    print(f"  net play between the hands of a deal (shift taken out): table - simulated"
          f" mean |{statistics.fmean(centred):.2f}|, worst |{max(centred):.2f}|"
          f" (the simulation's own 95% interval on a difference: mean"
          f" +-{statistics.fmean(halfwidths):.2f}, worst +-{max(halfwidths):.2f})")
    for w in ways:
        print(f"  best discard with {w}: the simulated best in {agree[w]}/{deals} deals,"
              f" regret {statistics.fmean(regret[w]):.3f} simulated points a deal")


def main():
    """Print the figures for 3 and 4 players, as pone and as dealer."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=29)
    args = ap.parse_args()
    start = time.perf_counter()
    print(f"pegging table on 5-card deals: {args.deals} deals a side, {args.samples} drawn"
          f" deals of the other hands each, seed {args.seed}")
    for players in (3, 4):
        for dealer in (False, True):
            measure(players, dealer, args.deals, args.samples, args.seed)
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
