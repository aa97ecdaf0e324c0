"""The games played at the table: matches, games, winners, skunks; or one game entry by
entry (each card, go, show and peg with its reason and who made it)."""

import argparse
import json

from crib.errors import CribError
from crib.history.db import History, default_path
from cribcore.cards import card_symbol, parse_card

HELP = "list the games played (or one game, entry by entry) from the history"
SKUNKS = ("", "skunk", "double skunk")


class NoSuchGameError(CribError):
    """A game id that is not in the history."""


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


def side_names(names, partnerships):
    """The name of each side (lane): a player, or 'A & C' for a partnership."""
    if partnerships and len(names) == 4:
        return [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    return list(names)


def games(h, limit):
    """The latest games as dicts: id, match, names, sides, target, status, scores, winner."""
    rows = h.query("SELECT g.*, m.names, m.partnerships, m.target FROM games g JOIN matches m"
                   " ON m.id = g.match_id ORDER BY g.id DESC LIMIT ?", (limit,))
    out = []
    for r in rows:
        names = json.loads(r["names"])
        sides = side_names(names, r["partnerships"])
        if r["finished"]:
            status, scores = "finished", json.loads(r["scores"])
        else:
            status = "abandoned" if r["abandoned"] else "in progress"
            scores = _scores(h, r["id"], len(sides))
        out.append({
            "id": r["id"], "match": r["match_id"], "number": r["number"],
            "started": r["started"], "finished": r["finished"], "names": names,
            "sides": sides, "target": r["target"], "status": status, "scores": scores,
            "winner": None if r["winner"] is None else sides[r["winner"]],
            "skunk": SKUNKS[r["level"]] if r["level"] else None,
            "game_points": r["game_points"], "board": r["board"]})
    return out


def _scores(h, game_id, sides):
    scores = [0] * sides
    for r in h.query("SELECT side, SUM(points) AS n FROM entries WHERE game_id = ? AND"
                     " undone IS NULL AND side IS NOT NULL GROUP BY side", (game_id,)):
        scores[r["side"]] = r["n"]
    return scores


def game_entries(h, game_id, undone=False):
    """One game's entries as dicts, in order."""
    if not h.query("SELECT id FROM games WHERE id = ?", (game_id,)):
        raise NoSuchGameError(f"no game {game_id!r} in {str(h.path)!r}")
    where = "" if undone else " AND undone IS NULL"
    rows = h.query("SELECT * FROM entries WHERE game_id = ?" + where + " ORDER BY seq",
                   (game_id,))
    out = []
    for r in rows:
        r["args"] = json.loads(r["args"])
        r["info"] = json.loads(r["info"])
        out.append(r)
    return out


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
        cards = _symbols(info["cards"]) if info.get("cards") else "a total"
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


def _symbols(names):
    return " ".join(card_symbol(parse_card(c)) for c in names)


def run(args):
    """Print the games (or one game) and return 0."""
    h = History.open(args.db or default_path())
    try:
        if args.game is not None:
            entries = game_entries(h, args.game, args.all)
            g = [x for x in games(h, 1 << 30) if x["id"] == args.game][0]
            if args.json:
                print(json.dumps({"game": g, "entries": entries}))
                return 0
            print(_line(g))
            for e in entries:
                print(_entry_text(e, g["names"], g["sides"]))
            return 0
        rows = games(h, args.limit or -1)  # SQLite: LIMIT -1 is no limit
        if args.json:
            print(json.dumps({"games": rows}))
            return 0
        if not rows:
            print(f"no games yet in {h.path}")
        for g in rows:
            print(_line(g))
        return 0
    finally:
        h.close()
