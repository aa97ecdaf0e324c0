"""Measure a play policy against the pro level's search, seat by seat, over paired deals.

    nice -n 19 python bench/policy.py [--deals 20000] [--seed 1] [--policies greedy,defensive]
        [--situations] [--look-cards 4] [--search greedy]

Each deal gives both players 4 random cards and turns a starter (the play alone: no
discard). Both seats lay by the search (crib.analysis.playsearch.card_values, the pro
level's play: each card weighed over the opponent's possible hands, both sides laying by
crib.analysis.pegging.greedy after it); then, on the same cards, one seat lays by the
policy measured while the other keeps the search. What the policy costs a seat is the
seat's net (its points less the opponent's) with the policy less its net with the search,
averaged over the deals, with a 95% interval (the deals are independent; the pairing takes
the luck of the cards out). The play runs through cribcore.play.Play. A policy a strong
player accepts costs under 0.05 points a deal in either seat (issue 38). --situations
splits the cost by where the policy first lays a card the search would not (its first
lead, a later lead, an answer with or without points to take, after the opponent's go).

A policy is one of crib.analysis.pegging's (greedy, defensive, lookahead), or NAME-search:
the search itself with its play-outs laid by the policy NAME instead of greedy
(`--policies lookahead-search`: the search laying its play-outs by the table's policy,
tried for issue 38; docs/advisor.md has what it measured). `--search NAME` makes that
search the one both seats lay by and the others are measured against.
"""

import argparse
import math
import platform
import random
import statistics
import time

from crib.analysis import pegging
from crib.analysis.playsearch import best_card, card_values
from cribcore.play import Play

Z95 = 1.959964
SEARCH = {"policy": pegging.greedy}  # how the search's play-outs lay (--search)


def search(play, p, dealt, starter, policy=None):
    """The search's card for player p: the pro level's choice (card_values) on ranks;
    dealt[p]: the cards p has seen of its own (its hand, and its discard when it made one);
    policy: how its play-outs lay after the card (default SEARCH's: greedy, the pro
    level's)."""
    mine = set(dealt[p])
    laid = {c for h in play.laid for c in h}
    unseen = [c >> 2 for c in range(52) if c not in mine and c not in laid and c != starter]
    r = best_card(card_values([c >> 2 for c in play.hands[p]], [c >> 2 for c in play.pile],
                              play.count, unseen, play.cards_left(1 - p), play.gone[1 - p],
                              policy=policy or SEARCH["policy"]))
    return r


def chooser(name):
    """The chooser a --policies name lays by: a policy of crib.analysis.pegging, or
    NAME-search, the search with its play-outs laid by the policy NAME."""
    if name.endswith("-search"):
        policy = getattr(pegging, name.removesuffix("-search"))
        return lambda play, p, dealt, starter: search(play, p, dealt, starter, policy)
    return by_policy(getattr(pegging, name))


def by_policy(policy):
    """A chooser laying by a policy of crib.analysis.pegging (lay_rank)."""
    def choose(play, p, dealt, starter):
        return pegging.lay_rank(policy, sorted({c >> 2 for c in play.playable()}),
                                tuple(c >> 2 for c in play.pile), play.count,
                                [c >> 2 for c in play.hands[p]], play.cards_left(1 - p),
                                play.gone[1 - p])
    return choose


def play_points(hands, starter, choosers, known=None):
    """[pone's points, dealer's] when player 0 (pone) and 1 (dealer) lay hands by choosers;
    known[p]: the cards of its own p has seen (default its hand)."""
    play = Play(2, dealer=1, hands=[list(h) for h in hands], starter=starter)
    known = known or hands
    while not play.over:
        fits = play.playable()
        if not fits:
            play.go()
            continue
        p = play.turn
        r = choosers[p](play, p, known, starter)
        play.lay(max(c for c in fits if c >> 2 == r))
    return list(play.points)


def situation(play, p):
    """Which kind of decision player p faces: its lead, a later lead, an answer where some
    card scores now (15, 31, a pair, a run), one where none does, or after a go."""
    if play.count == 0:
        return "first lead" if not any(play.laid) else "later lead"
    if play.gone[1 - p]:
        return "after the opponent's go"
    pile = tuple(c >> 2 for c in play.pile)
    if any(pegging.pile_points(pile + (c >> 2,)) for c in play.playable()):
        return "answer, points to take"
    return "answer, no points"


def spotting(chooser, seen):
    """chooser, noting in seen[0] the situation of its first card unlike the search's."""
    def choose(play, p, dealt, starter):
        r = chooser(play, p, dealt, starter)
        if seen[0] is None and len({c >> 2 for c in play.playable()}) > 1 \
                and r != search(play, p, dealt, starter):
            seen[0] = situation(play, p)
        return r
    return choose


def play_deal(dealt, starter, choosers):
    """(pone net, dealer net) when player 0 (pone) and 1 (dealer) lay by choosers."""
    a, b = play_points(dealt, starter, choosers)
    return a - b, b - a


def interval(xs):
    """(mean, 95% half-width) of xs."""
    m = statistics.fmean(xs)
    sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
    return m, Z95 * sd / math.sqrt(len(xs))


def main():
    """Play the deals and print each policy's cost per seat against the search."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policies", default="greedy,defensive")
    ap.add_argument("--every", type=int, default=500, help="print the figures every N deals")
    ap.add_argument("--situations", action="store_true",
                    help="split each policy's cost by the situation of its first card unlike"
                         " the search's")
    ap.add_argument("--look-cards", type=int, default=pegging.LOOK_CARDS,
                    help="the lookahead weighs cards while holding at least this many")
    ap.add_argument("--search", default="greedy", help="the policy the search's play-outs"
                    " lay by (default greedy, the pro level's)")
    args = ap.parse_args()
    pegging.LOOK_CARDS = args.look_cards
    SEARCH["policy"] = getattr(pegging, args.search)
    names = args.policies.split(",")
    policies = {n: chooser(n) for n in names}
    rng = random.Random(args.seed)
    cost = {(n, seat): [] for n in names for seat in (0, 1)}
    where = {}  # (policy, seat, situation) -> [deals, total cost]
    base = []
    start = time.perf_counter()
    print(f"python {platform.python_version()}; the search's play-outs lay {args.search}")

    def report(done):
        el = time.perf_counter() - start
        print(f"{done} deals, {el:.0f} s ({1000 * el / done:.0f} ms a deal)")
        m, h = interval(base)
        print(f"  search v search: pone net {m:+.3f} +-{h:.3f} a deal")
        for n in names:
            for seat, who in ((0, "pone"), (1, "dealer")):
                m, h = interval(cost[(n, seat)])
                print(f"  {n} as {who}: {m:+.3f} +-{h:.3f} points a deal against the search")
                for (pn, ps, kind), (k, tot) in sorted(where.items()):
                    if (pn, ps) == (n, seat):
                        print(f"    first unlike the search at {kind}: {k} deals,"
                              f" {tot / done:+.3f} a deal of all ({tot / k:+.3f} each)")
    for i in range(args.deals):
        deck = rng.sample(range(52), 9)
        dealt = (sorted(deck[:4]), sorted(deck[4:8]))
        starter = deck[8]
        both = play_deal(dealt, starter, (search, search))
        base.append(both[0])
        for n, pol in policies.items():
            for seat in (0, 1):
                ch = [search, search]
                seen = [None]
                ch[seat] = spotting(pol, seen) if args.situations else pol
                c = play_deal(dealt, starter, ch)[seat] - both[seat]
                cost[(n, seat)].append(c)
                if seen[0]:
                    tally = where.setdefault((n, seat, seen[0]), [0, 0])
                    tally[0] += 1
                    tally[1] += c
        if (i + 1) % args.every == 0 or i + 1 == args.deals:
            report(i + 1)


if __name__ == "__main__":
    main()
