"""Figures from the history: games, matches, wins and skunks, and per player the average
hand, crib and pegging against the usual averages, and the best hands shown.

The usual averages, and where they come from:
- hand 4.77: the mean show of every (4-card hand, starter) pair, 12,994,800 of them (the
  project's rules document; exactly 60759/12740 = 4.7692 by cribcore's scoring). Random
  cards, no discard choice.
- crib 4.73: the same mean with the crib's rule (only a 5-card flush), exactly
  1025467/216580 = 4.7348 computed here over the same pairs: a crib of random cards.
- in real play (John Chambers, cribbage.org tips #6, 2-player averages): hand about 8.0,
  crib 4.7, pegging 3.5 per hand for the dealer and 2.0 for the pone.
"""

import json
from argparse import ArgumentParser, Namespace

from crib.env import Env
from crib.history.db import History
from crib.history.files import default_path
from crib.history.reports import PLAYED, stats
from crib.ui.cards import stored_symbols
from crib.words import count

HELP = "games, wins, skunks, average hand / crib / pegging per player, best hands"


def add_arguments(parser: ArgumentParser) -> None:
    """[--db PATH] [--json]."""
    parser.add_argument("--db", metavar="PATH", help=f"the history file ({default_path()})")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


PEGGING_NOTE = ("pegging: points pegged in the play, a hand; dealing: the same in the hands"
                " the player dealt; as pone: in those the opponent dealt")


def _num(x: float | None) -> str:
    return "    -" if x is None else f"{x:5.2f}"


def run(args: Namespace, env: Env) -> int:
    """Print the figures (or JSON) and return 0."""
    h = History.open(args.db or default_path(env.environ), lock=False)
    try:
        st = stats(h)
    finally:
        h.close()
    if args.json:
        env.print(json.dumps(st))
        return 0
    env.print(f"{count(st['matches'], 'match')}, {count(st['games'], 'game')}"
              f" ({st['finished']} finished), {count(st['skunks'], 'skunk')}")
    width = max([len("player")] + [len(p["name"]) for p in st["players"]])
    env.print(f"{'player':<{width}} {'games':>5} {'wins':>4} {'skunks':>6} {'hand':>5}"
              f" {'crib':>5} {'pegging':>7} {'dealing':>7} {'as pone':>7}")
    for p in st["players"]:
        env.print(f"{p['name']:<{width}} {p['games']:5d} {p['wins']:4d} {p['skunks_won']:6d}"
              f" {_num(p['hand_avg'])} {_num(p['crib_avg'])} {_num(p['pegging_avg']):>7}"
              f" {_num(p['pegging_dealer_avg']):>7} {_num(p['pegging_pone_avg']):>7}")
    if st["players"]:
        env.print(PEGGING_NOTE)
    u = st["usual"]
    env.print(f"usual: hand {u['hand_random']:.2f} and crib {u['crib_random']:.2f} with random"
          " cards (exact);")
    env.print(f"       in real 2-player play about hand {PLAYED['hand']:.1f},"
          f" crib {PLAYED['crib']:.1f}, pegging {PLAYED['pegging_dealer']:.1f} dealing and"
          f" {PLAYED['pegging_pone']:.1f} as pone (J. Chambers, cribbage.org)")
    if st["best"]:
        env.print("best hands:")
    width = max([len(b["name"]) for b in st["best"]], default=0)
    for b in st["best"]:
        what = "crib" if b["crib"] else "hand"
        starter = stored_symbols([b["starter"]]) if b["starter"] else "?"
        env.print(f"  {b['points']:2d}  {b['name']:<{width}}  {what} {stored_symbols(b['cards'])}"
              f"  starter {starter}  (game #{b['game']})")
    return 0
