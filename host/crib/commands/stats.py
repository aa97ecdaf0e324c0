"""Figures from the history: games, matches, wins and skunks, and per player the average
hand, crib and pegging against the usual averages, and the best hands shown.

The usual averages, and where they come from:
- hand 4.77: the mean show of every (4-card hand, starter) pair, 12,994,800 of them (RULES.md;
  exactly 60759/12740 = 4.7692 by cribcore's scoring). Random cards, no discard choice.
- crib 4.73: the same mean with the crib's rule (only a 5-card flush), exactly
  1025467/216580 = 4.7348 computed here over the same pairs: a crib of random cards.
- in real play (John Chambers, cribbage.org tips #6, 2-player averages): hand about 8.0,
  crib 4.7, pegging 3.5 per hand for the dealer and 2.0 for the pone.
"""

import json
from fractions import Fraction

from crib.history.db import History, default_path

HELP = "games, wins, skunks, average hand / crib / pegging per player, best hands"

RANDOM_HAND = Fraction(60759, 12740)
RANDOM_CRIB = Fraction(1025467, 216580)
PLAYED = {"hand": 8.0, "crib": 4.7, "pegging_dealer": 3.5, "pegging_pone": 2.0}
BEST = 5


def add_arguments(parser):
    """[--db PATH] [--json]."""
    parser.add_argument("--db", metavar="PATH", help=f"the history file ({default_path()})")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def _avg(values):
    return round(sum(values) / len(values), 2) if values else None


class _Player:
    def __init__(self, name):
        self.name = name
        self.games = self.wins = self.skunks_won = self.skunked = 0
        self.hands, self.cribs = [], []
        self.peg_dealer, self.peg_pone = [], []

    def as_dict(self):
        return {"name": self.name, "games": self.games, "wins": self.wins,
                "skunks_won": self.skunks_won, "skunked": self.skunked,
                "hands": len(self.hands), "hand_avg": _avg(self.hands),
                "cribs": len(self.cribs), "crib_avg": _avg(self.cribs),
                "pegging_avg": _avg(self.peg_dealer + self.peg_pone),
                "pegging_dealer_avg": _avg(self.peg_dealer),
                "pegging_pone_avg": _avg(self.peg_pone)}


def collect(h):
    """Every figure as one dict (what --json prints)."""
    players = {}

    def player(name):
        return players.setdefault(name.lower(), _Player(name))
    rows = h.query("SELECT g.*, m.names, m.partnerships FROM games g JOIN matches m"
                   " ON m.id = g.match_id WHERE g.abandoned = 0")
    names_of = {}
    finished = skunks = 0
    for g in rows:
        names = json.loads(g["names"])
        names_of[g["id"]] = names
        if not g["finished"]:
            continue
        finished += 1
        skunks += 1 if g["level"] else 0
        sides = 2 if g["partnerships"] and len(names) == 4 else len(names)
        for p, name in enumerate(names):
            pl = player(name)
            pl.games += 1
            won = p % sides == g["winner"]
            pl.wins += won
            pl.skunks_won += won and g["level"] > 0
            pl.skunked += (not won) and g["level"] > 0
    for r in h.query("SELECT * FROM hands"):
        names = names_of.get(r["game_id"])
        s = json.loads(r["summary"])
        if names is None or all(v is None for v in s["hand"]):
            continue  # abandoned, or the play not yet over
        for p, name in enumerate(names):
            (player(name).peg_dealer if p == r["dealer"] else
             player(name).peg_pone).append(s["play"][p])
    best = []
    for e in h.query("SELECT e.*, g.id AS gid FROM entries e JOIN games g ON g.id = e.game_id"
                     " WHERE e.kind = 'show' AND e.undone IS NULL AND g.abandoned = 0"):
        names = names_of[e["gid"]]
        info = json.loads(e["info"])
        value = info["actual"] if info.get("actual") is not None else e["points"]
        pl = player(names[e["player"]])
        (pl.cribs if info.get("entry") == "crib" else pl.hands).append(value)
        if info.get("cards"):
            best.append({"name": pl.name, "cards": info["cards"], "points": value,
                         "crib": info.get("entry") == "crib", "game": e["gid"],
                         "starter": _starter(h, e["game_id"], e["hand"])})
    best.sort(key=lambda b: (-b["points"], b["game"]))
    matches = h.query("SELECT COUNT(DISTINCT match_id) AS n FROM games WHERE abandoned = 0")
    return {
        "matches": matches[0]["n"], "games": len(rows), "finished": finished,
        "skunks": skunks,
        "players": [p.as_dict() for p in sorted(players.values(), key=lambda p: p.name)],
        "best": best[:BEST],
        "usual": {"hand_random": round(float(RANDOM_HAND), 4),
                  "crib_random": round(float(RANDOM_CRIB), 4), "played": PLAYED},
    }


def _starter(h, game_id, hand):
    rows = h.query("SELECT starter FROM hands WHERE game_id = ? AND number = ?",
                   (game_id, hand))
    return rows[0]["starter"] if rows else None


def _num(x):
    return "    -" if x is None else f"{x:5.2f}"


def run(args):
    """Print the figures (or JSON) and return 0."""
    h = History.open(args.db or default_path())
    try:
        st = collect(h)
    finally:
        h.close()
    if args.json:
        print(json.dumps(st))
        return 0
    print(f"{st['matches']} matches, {st['games']} games ({st['finished']} finished),"
          f" {st['skunks']} skunks")
    print(f"{'player':<12} {'games':>5} {'wins':>4} {'skunks':>6} {'hand':>5} {'crib':>5}"
          f" {'pegs':>5} {'deal':>5} {'pone':>5}")
    for p in st["players"]:
        print(f"{p['name']:<12} {p['games']:5d} {p['wins']:4d} {p['skunks_won']:6d}"
              f" {_num(p['hand_avg'])} {_num(p['crib_avg'])} {_num(p['pegging_avg'])}"
              f" {_num(p['pegging_dealer_avg'])} {_num(p['pegging_pone_avg'])}")
    u = st["usual"]
    print(f"usual: hand {u['hand_random']:.2f} and crib {u['crib_random']:.2f} with random"
          " cards (exact);")
    print(f"       in real 2-player play about hand {PLAYED['hand']:.1f},"
          f" crib {PLAYED['crib']:.1f}, pegging {PLAYED['pegging_dealer']:.1f} dealing and"
          f" {PLAYED['pegging_pone']:.1f} as pone (J. Chambers, cribbage.org)")
    if st["best"]:
        print("best hands:")
    for b in st["best"]:
        what = "crib" if b["crib"] else "hand"
        print(f"  {b['points']:2d}  {b['name']:<12} {what} {' '.join(b['cards'])}"
              f"  starter {b['starter'] or '?'}  (game #{b['game']})")
    return 0
