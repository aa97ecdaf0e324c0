"""Play the computer's levels against each other through the practice engine and print
win rates (with a 95% interval), average points per hand and the time per game.

    python bench/practice.py [--games 1000] [--seed 1] [--target 121] [--pairings pro:pro0,...]

Each pairing (default: pro v standard, standard v easy, pro v easy) plays --games games.
`pro0` is the pro level before the pegging search (crib.practice.levels.ClassicPro),
`pro-half` the pro level counting half the shipped pegging table. --old NAME=PATH[:WEIGHT]
adds a level NAME for --pairings: the pro level discarding with the pegging table at PATH
counted at WEIGHT (default 1/2; crib.practice.levels.TablePro), e.g. the pro of the issue's
day (issue 38), the greedy table of before at half weight:

    git show 65ee2fa:host/crib/analysis/pegging_table.txt > greedy_table.txt
    python bench/practice.py --old pro-then=greedy_table.txt:1/2 --pairings pro:pro-then
Games go in pairs on the same seed with the seats swapped, so both levels get the same
cards and the same first dealer once each (less luck in the comparison). The games run
through the table engine with the practice turns, as `crib practice` plays them, kept in
memory with no board (crib.practice.computer.memory_engine: the history's writes would
cost four times the game). Points per game: each level's final score; the margin's 95%
interval is over the pairs of games (the two games of a seed are not independent). Wins:
the Wilson interval (games taken as independent), and in brackets the interval over the
pairs of games.

A long run splits over processes: `--part 0/2 --save a.json` and `--part 1/2 --save
b.json` play the two halves of the seeds, `--merge a.json b.json` prints the whole. A
--save file is rewritten every 500 games too: a run stopped early merges what it played.

--play POLICY makes both levels lay their cards by a play policy of crib.analysis.pegging
(e.g. lookahead, the pegging table's own) instead of their own play, in the seats --play-as
names (pone, dealer or both, the default); they still discard as their level does. Where
the pegging table's play is the play, a pairing of two discards asks of the table alone
whether its differences between kept hands are real (issue 38: the pro level's search
realises less of them than the table's policy does).

--lays NAME=LEVEL:POLICY[:SEATS] adds a level NAME that discards as LEVEL and lays its
cards by POLICY in SEATS (pone, dealer or both, the default), e.g. the pro level laying
as pone by the table's policy against the pro level as it is:

    python bench/practice.py --lays pro-lp=pro:lookahead:pone --pairings pro-lp:pro

Two runs of a pairing with the same opponent on the same seeds (the first level changed:
another table, another weight) compare game by game: `--merge new.json --versus old1.json
old2.json` prints, for each pairing the two share, the first level's margin in the new run
less its margin in the old on the games both played (the same cards, the same seats), with
its 95% interval over the seeds' pairs of games.
"""

import argparse
import json
import math
import platform
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

from crib.analysis import pegging
from crib.analysis.pegging import read_rows
from crib.practice.computer import memory_engine, play_game
from crib.practice.levels import BENCH_LEVELS, TablePro, make
from cribcore.game import CRIB

PAIRINGS = (("pro", "standard"), ("standard", "easy"), ("pro", "easy"))
Z95 = 1.959964


def wilson(wins, n, z=Z95):
    """The Wilson score interval (low, high) for a proportion wins/n."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    mid = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    den = 1 + z * z / n
    return (mid - half) / den, (mid + half) / den


class Tally:
    """Points by where they came from, per level: pegging (the play), hand, crib, heels."""

    def __init__(self, levels):
        self.levels = levels  # the level of each seat, set before each game
        self.sums = {}

    def _add(self, level, key, n):
        d = self.sums.setdefault(level, {"hands": 0, "pegging": 0, "hand": 0, "crib": 0,
                                         "cribs": 0, "heels": 0})
        d[key] += n

    def game(self, entries):
        """Add up a game's entries (its record, as the table engine wrote it)."""
        for e in entries:
            if e.kind == "deal":
                for lv in self.levels:
                    self._add(lv, "hands", 1)
            elif e.points and e.kind in ("lay", "go"):
                self._add(self.levels[e.info["scorer"]], "pegging", e.points)
            elif e.points and e.kind == "starter":
                self._add(self.levels[e.info["scorer"]], "heels", e.points)
            elif e.kind == "show":
                level = self.levels[e.player]
                if e.info["entry"] == CRIB:
                    self._add(level, "crib", e.points)
                    self._add(level, "cribs", 1)
                else:
                    self._add(level, "hand", e.points)


class PolicyPlay:
    """A level whose cards are laid by a play policy of crib.analysis.pegging in the seats
    named (as pone, as dealer); its discard, and its play elsewhere, are the level's own
    (--play, --play-as)."""

    def __init__(self, seat, policy, as_=("pone", "dealer")):
        self.seat, self.policy, self.as_ = seat, policy, as_

    def discard(self, seen):
        """The level's own discard."""
        return self.seat.discard(seen)

    def play(self, seen):
        """In the seats named the policy's rank (its highest card), else the level's own."""
        if ("dealer" if seen.dealer else "pone") not in self.as_:
            return self.seat.play(seen)
        r = pegging.lay_rank(self.policy, sorted({c >> 2 for c in seen.playable}),
                             tuple(c >> 2 for c in seen.pile), seen.count,
                             [c >> 2 for c in seen.hand], seen.opp_left, seen.opp_gone)
        return max(c for c in seen.playable if c >> 2 == r)


SEATS = {"pone": ("pone",), "dealer": ("dealer",), "both": ("pone", "dealer")}
POLICIES = ("lookahead", "defensive", "greedy")  # crib.analysis.pegging's, for --play


def laid_by(play, play_as):
    """How a run's levels lay their cards, in words (--play, --play-as)."""
    if not play:
        return "each level lays its own cards"
    seats = "as pone and as dealer" if play_as in (None, "both") else f"as {play_as}"
    return f"both levels lay by {play} {seats}"


def duel(a, b, games, seed, target, part=(0, 1), extra=None, checkpoint=None, every=500,
         play=None, play_as=("pone", "dealer")):
    """Play games between levels a and b; returns (wins of a, seconds, Tally); the tally's
    `scores` holds (a's final score, b's) for each game. part (k, n): only the k-th of n
    shares of the seeds (the pairs of games), for runs split over processes. extra: {name:
    a function of an rng giving a strategy} for levels besides BENCH_LEVELS (--old, --lays).
    checkpoint(wins, seconds, tally): called every `every` games (even: whole pairs).
    play: a policy both levels lay by in the seats play_as names (PolicyPlay), or None."""
    extra = extra or {}
    tally = Tally((a, b))
    tally.scores = []
    wins = 0
    start = time.perf_counter()
    for i in range(games):
        if (i // 2) % part[1] != part[0]:
            continue
        deal_seed = seed * 1_000_003 + i // 2
        swap = i % 2 == 1
        levels = (b, a) if swap else (a, b)
        rngs = [random.Random(f"{deal_seed}/{k}/{lv}") for k, lv in enumerate(levels)]
        seats = [extra[lv](r) if lv in extra else make(lv, r) for lv, r in zip(levels, rngs)]
        if play:
            seats = [PolicyPlay(s, play, play_as) for s in seats]
        # the cards of a game: Dealing's seed drawn as the bench always drew it (the same
        # games as before the bench went through the engine)
        cards = random.Random(deal_seed).getrandbits(48)
        engine = memory_engine([f"{lv} {k + 1}" for k, lv in enumerate(levels)], levels[1],
                               target, cards)
        game = play_game(engine, seats)
        tally.levels = levels
        tally.game(engine.session.table.entries)
        wins += levels[game.winner] == a
        sa, sb = (game.scores[1], game.scores[0]) if swap else tuple(game.scores)
        tally.scores.append((sa, sb))
        if len(tally.scores) % every == 0:  # a long run shows how far it is (on stderr)
            print(f"  {a} v {b}: {len(tally.scores)} games, {wins} won by {a},"
                  f" {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
            if checkpoint:
                checkpoint(wins, time.perf_counter() - start, tally)
    return wins, time.perf_counter() - start, tally


def per_hand(d):
    """(pegging, hand, crib) averages: per hand played, per hand shown, per crib."""
    hands = max(d["hands"], 1)
    return d["pegging"] / hands, d["hand"] / hands, d["crib"] / max(d["cribs"], 1)


def paired_interval(values, z=Z95):
    """(mean of per-game values, half-width of its 95% interval over the pairs of games
    played on one seed: the two games of a seed share the cards, so they are not
    independent)."""
    pairs = [sum(values[i:i + 2]) / len(values[i:i + 2]) for i in range(0, len(values), 2)]
    mean = statistics.fmean(values)
    if len(pairs) < 2:
        return mean, float("inf")
    return mean, z * statistics.stdev(pairs) / math.sqrt(len(pairs))


def margin_interval(scores, z=Z95):
    """(mean margin of the first level per game, half-width of its 95% interval), the
    interval over the pairs of games played on one seed."""
    return paired_interval([a - b for a, b in scores], z)


def pairing(text):
    """'a:b' -> (a, b) (checked against the levels the bench knows by check_pairings)."""
    a, _, b = text.partition(":")
    return a, b


def old_level(spec):
    """(name, a function of an rng giving the strategy) for --old NAME=PATH[:WEIGHT]: the pro
    level discarding with the pegging table at PATH counted at WEIGHT (default 1/2)."""
    name, _, rest = spec.partition("=")
    path, _, w = rest.partition(":")
    if not name or name in BENCH_LEVELS or ":" in name or "," in name:
        raise argparse.ArgumentTypeError(f"--old {spec!r}: NAME must be new, without : or ,")
    rows = read_rows(Path(path))
    weight = Fraction(w or "1/2")
    return name, lambda rng: TablePro(rng, rows, weight)


def lays_level(spec):
    """(name, a function of an rng giving the strategy) for --lays NAME=LEVEL:POLICY[:SEATS]:
    LEVEL's discard, its cards laid by POLICY in SEATS (PolicyPlay)."""
    name, _, rest = spec.partition("=")
    level, _, rest = rest.partition(":")
    policy, _, seats = rest.partition(":")
    if not name or name in BENCH_LEVELS or ":" in name or "," in name:
        raise argparse.ArgumentTypeError(f"--lays {spec!r}: NAME must be new, without : or ,")
    if level not in BENCH_LEVELS or policy not in POLICIES or (seats or "both") not in SEATS:
        raise argparse.ArgumentTypeError(
            f"--lays {spec!r}: LEVEL is one of {', '.join(BENCH_LEVELS)}, POLICY one of"
            f" {', '.join(POLICIES)}, SEATS one of {', '.join(SEATS)}")
    play, as_ = getattr(pegging, policy), SEATS[seats or "both"]
    return name, lambda rng: PolicyPlay(make(level, rng), play, as_)


def check_pairings(ap, pairings, extra):
    """Refuse a pairing naming a level the bench does not know."""
    known = list(BENCH_LEVELS) + list(extra)
    for a, b in pairings:
        for lv in (a, b):
            if lv not in known:
                ap.error(f"{lv!r} is not one of {', '.join(known)}")


def main():
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per pairing (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", type=int, default=121, choices=(61, 121))
    ap.add_argument("--pairings", type=lambda t: [pairing(x) for x in t.split(",")],
                    default=PAIRINGS, help="level pairs a:b, comma separated (default: "
                    + ",".join(f"{a}:{b}" for a, b in PAIRINGS) + ")")
    ap.add_argument("--old", action="append", default=[], type=old_level,
                    metavar="NAME=PATH[:WEIGHT]", help="a level NAME for --pairings: the pro"
                    " level discarding with the pegging table at PATH at WEIGHT (default 1/2)")
    ap.add_argument("--part", type=lambda t: tuple(int(x) for x in t.split("/")),
                    default=(0, 1), help="K/N: play only the K-th of N shares of the seeds"
                    " (split a long run over processes; --save each, then --merge)")
    ap.add_argument("--lays", action="append", default=[], type=lays_level,
                    metavar="NAME=LEVEL:POLICY[:SEATS]", help="a level NAME for --pairings:"
                    " LEVEL's discard, its cards laid by POLICY in SEATS (default both)")
    ap.add_argument("--play", choices=POLICIES, help="both levels"
                    " lay their cards by this policy of crib.analysis.pegging")
    ap.add_argument("--play-as", choices=tuple(SEATS), default="both",
                    help="with --play: the seats in which they lay by it (default both)")
    ap.add_argument("--save", help="also write the raw results to this JSON file")
    ap.add_argument("--merge", nargs="+", metavar="JSON",
                    help="print the figures of saved runs (shares of one run) together")
    ap.add_argument("--versus", nargs="+", metavar="JSON",
                    help="with --merge: another run's saves, compared game by game")
    args = ap.parse_args()
    if args.versus and not args.merge:
        ap.error("--versus needs --merge")
    if args.versus:
        versus([json.load(open(f)) for f in args.merge], [json.load(open(f)) for f in args.versus])
        return
    if args.merge:
        runs = [json.load(open(f)) for f in args.merge]
        plays = {laid_by(r["args"].get("play"), r["args"].get("play_as")) for r in runs}
        if len(plays) > 1:
            ap.error(f"--merge: the runs lay their cards differently: {' / '.join(plays)}")
        results = merge(runs)
        args = runs[0]["args"]
        played = ", ".join(str(len(r["scores"])) for r in results)
        # The games asked of each seed (its parts share them): runs of several seeds add up.
        asked_of = {r["args"]["seed"]: r["args"]["games"] for r in runs}
        asked = sum(asked_of.values())
        seeds = ", ".join(str(s) for s in sorted(asked_of))
        print(f"practice bench: merged {len(runs)} saved runs, {played} games played of"
              f" {asked} per pairing to {args['target']}, seed {seeds},"
              f" {runs[0]['python']}"
              + (f"; {laid_by(args['play'], args['play_as'])}" if args.get("play") else ""))
    else:
        print(f"practice bench: {args.games} games per pairing to {args.target}, seed"
              f" {args.seed}, {platform.python_implementation()} {platform.python_version()}"
              + (f"; {laid_by(args.play, args.play_as)}" if args.play else ""))
        extra = dict(args.old + args.lays)
        check_pairings(ap, args.pairings, extra)
        results = []

        def save(more=()):
            """Write the results so far (with --save; every 500 games, so that a run stopped
            early can still be merged: its saves hold whole pairs of games)."""
            if not args.save:
                return
            with open(args.save + ".part", "w") as f:
                json.dump({"args": {"games": args.games, "target": args.target,
                                    "seed": args.seed, "part": args.part,
                                    "play": args.play, "play_as": args.play_as},
                           "python": f"{platform.python_implementation()} "
                                     f"{platform.python_version()}",
                           "results": results + list(more)}, f)
            Path(args.save + ".part").replace(args.save)

        for a, b in args.pairings:
            def checkpoint(wins, secs, tally, a=a, b=b):
                save([result(a, b, wins, secs, tally)])
            wins, secs, tally = duel(a, b, args.games, args.seed, args.target, args.part,
                                     extra, checkpoint,
                                     play=getattr(pegging, args.play) if args.play else None,
                                     play_as=SEATS[args.play_as])
            results.append(result(a, b, wins, secs, tally))
        save()
    report(results)


def result(a, b, wins, secs, tally):
    """A pairing's raw results, as --save writes them."""
    return {"a": a, "b": b, "wins": wins, "secs": secs, "sums": tally.sums,
            "scores": tally.scores}


def merge(runs):
    """The results of the shares of one run, pairing by pairing, as one."""
    out = []
    for parts in zip(*(r["results"] for r in runs)):
        sums = {}
        for p in parts:
            for lv, d in p["sums"].items():
                got = sums.setdefault(lv, dict.fromkeys(d, 0))
                for k, v in d.items():
                    got[k] += v
        out.append({"a": parts[0]["a"], "b": parts[0]["b"],
                    "wins": sum(p["wins"] for p in parts),
                    "secs": sum(p["secs"] for p in parts), "sums": sums,
                    "scores": [s for p in parts for s in p["scores"]]})
    return out


def by_game(runs):
    """{(pairing, seed, game index): (first's score, second's)} of saved runs: a share's
    scores are its games in order (those of --part's seeds, as duel plays them)."""
    out = {}
    for run in runs:
        a = run["args"]
        k, n = a.get("part") or (0, 1)
        games = [i for i in range(a["games"]) if (i // 2) % n == k]
        for r in run["results"]:
            for i, s in zip(games, r["scores"]):
                out[(r["a"], r["b"], a["seed"], i)] = s
    return out


def versus(new, old):
    """Print the first level's margin in new less its margin in old, pairing by pairing, on
    the games both runs played (whole pairs of games of a seed), with a 95% interval."""
    a, b = by_game(new), by_game(old)
    pairings = sorted({k[:2] for k in a} & {k[:2] for k in b})
    print("margin of the first, this run less the other, on the games both played (95%)")
    for x, y in pairings:
        per_seed = {}
        for key, s in a.items():
            if key[:2] == (x, y) and key in b:
                t = b[key]
                per_seed.setdefault((key[2], key[3] // 2), []).append(
                    (s[0] - s[1]) - (t[0] - t[1]))
        pairs = [sum(v) / 2 for v in per_seed.values() if len(v) == 2]
        if len(pairs) < 2:
            print(f"  {x} v {y}: {2 * len(pairs)} games in common")
            continue
        mean = statistics.fmean(pairs)
        half = Z95 * statistics.stdev(pairs) / math.sqrt(len(pairs))
        print(f"  {x + ' v ' + y:<20} {2 * len(pairs)} games: {mean:+.2f} ({mean - half:+.2f}"
              f" to {mean + half:+.2f})")


def report(results):
    """Print win rates, points per hand and points per game of each pairing."""
    print("pairing              wins of the first   95% interval     ms/game"
          "   (95% interval over the pairs)")
    tallies = []
    for r in results:
        a, b, wins, n = r["a"], r["b"], r["wins"], len(r["scores"])
        lo, hi = wilson(wins, n)
        mean, half = paired_interval([int(sa > sb) for sa, sb in r["scores"]])
        print(f"{a + ' v ' + b:<20} {wins:5d} = {100 * wins / n:5.1f}% of {n}"
              f"  {100 * lo:5.1f}-{100 * hi:5.1f}%   {1000 * r['secs'] / n:8.1f}"
              f"   ({100 * (mean - half):.1f}-{100 * (mean + half):.1f}%)")
        tally = Tally((a, b))
        tally.sums, tally.scores = r["sums"], r["scores"]
        tallies.append((a, b, tally))
    print()
    print("points per hand        pegging    hand    crib   (the first level, then the second)")
    for a, b, tally in tallies:
        for lv in (a, b):
            peg, hand, crib = per_hand(tally.sums[lv])
            label = f"{lv} (v {b if lv == a else a})"
            print(f"  {label:<20} {peg:7.2f} {hand:7.2f} {crib:7.2f}")
    print()
    print("points per game        first  second   margin of the first (95% interval)")
    for a, b, tally in tallies:
        mean, half = margin_interval(tally.scores)
        pa = statistics.fmean(s[0] for s in tally.scores)
        pb = statistics.fmean(s[1] for s in tally.scores)
        print(f"  {a + ' v ' + b:<20} {pa:6.2f} {pb:7.2f}   {mean:+6.2f} ({mean - half:+.2f}"
              f" to {mean + half:+.2f})")


if __name__ == "__main__":
    main()
