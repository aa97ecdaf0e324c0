"""The games played at the table: matches, games, winners, skunks; or one game entry by
entry (each card, go, show and peg with its reason and who made it)."""

import argparse
import json

from crib.history.db import History, default_path
from crib.history.reports import game_entries, games
from cribcore.cards import card_symbol, parse_card

HELP = "list the games played (or one game, entry by entry) from the history"

def add_arguments(parser):
    """[--game ID [--all]] [--limit N] [--db PATH] [--json]."""
    parser.add_argument("--game", type=int, metavar="ID", help="one game, entry by entry")
    parser.add_argument("--all", action="store_true", help="with --game: undone entries too")
    parser.add_argument("--limit", type=_limit, default=20, metavar="N",
                        help="the latest N games (default 20; 0: every game)")
    parser.add_argument("--db", metavar="PATH", help=f"the history file ({default_path()})")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def _limit(text):
    """--limit: a count of games, 0 for all."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"a number of games (0: all), not {text!r}")
    return n


def _line(g):
    score = "-".join(str(s) for s in g["scores"])
    who = " v ".join(g["sides"])
    if g["status"] == "finished":
        w = g["sides"].index(g["winner"])  # the winner's score first, as players say it
        score = "-".join(str(s) for s in [g["scores"][w]] + g["scores"][:w] + g["scores"][w + 1:])
        end = f"{g['winner']} won {score}" + (f" ({g['skunk']})" if g["skunk"] else "")
    else:
        end = f"{g['status']} at {score}"
    return f"#{g['id']:<4} {g['started'][:10]}  {who} to {g['target']}  {end}"


def _entry_text(e, names, sides):
    who = names[e["player"]] if e["player"] is not None else ""
    info = e["info"]
    if e["kind"] == "lay":
        what = f"lays {info.get('text', '')}"
    elif e["kind"] == "show":
        cards = (_symbols(info["cards"]) if info.get("cards") else
                 " ".join(info["ranks"]) + _flags(info) if info.get("ranks") else "a total")
        what = f"shows {'crib' if info.get('entry') == 'crib' else 'hand'} {cards}"
    elif e["kind"] == "starter":
        what = f"deals; the starter is {info.get('text', '')}"
    elif e["kind"] == "dealt":
        what = ("was dealt " + _symbols(info["cards"]) + ", discards "
                + _symbols(info["discard"])) if info.get("cards") else "deal not given"
    elif e["kind"] == "peg":
        who = sides[e["side"]] if e["side"] is not None else who
        what = e["reason"] or "pegs"
    else:
        what = e["kind"].replace("_", " ")
    pts = f"  +{e['points']} {e['reason'] or ''}".rstrip() if e["points"] else ""
    src = "" if e["source"] == "table" else f"  [{e['source']}]"
    undone = "  (undone)" if e["undone"] else ""
    return f"  {e['seq']:>4} h{e['hand'] + 1:<3} {who} {what}{pts}{src}{undone}"


def _flags(info):
    """A hand known by ranks: the flush and nobs its player said."""
    said = [f"flush {info['flush']}"] if info.get("flush") else []
    said += ["nobs"] if info.get("nobs") else []
    return f" ({', '.join(said)})" if said else ""


def _symbols(names):
    return " ".join(card_symbol(parse_card(c)) for c in names)


def run(args, env):
    """Print the games (or one game) and return 0."""
    h = History.open(args.db or default_path(env.environ))
    try:
        if args.game is not None:
            entries = game_entries(h, args.game, args.all)
            g = [x for x in games(h, 1 << 30) if x["id"] == args.game][0]
            if args.json:
                env.print(json.dumps({"game": g, "entries": entries}))
                return 0
            env.print(_line(g))
            for e in entries:
                env.print(_entry_text(e, g["names"], g["sides"]))
            return 0
        rows = games(h, args.limit or -1)  # SQLite: LIMIT -1 is no limit
        if args.json:
            env.print(json.dumps({"games": rows}))
            return 0
        if not rows:
            env.print(f"no games yet in {h.path}")
        for g in rows:
            env.print(_line(g))
        return 0
    finally:
        h.close()
