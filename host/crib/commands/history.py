"""The games played at the table: matches, games, winners, skunks; or one game entry by
entry (each card, go, show and peg with its reason and who made it). `crib history
import` copies a board's own finished games (a board that serves the table keeps them on
its flash) into the history over USB."""

import argparse
import json
from argparse import ArgumentParser, Namespace

from crib.connect import add_board_arguments, list_ports_text, open_board, wants_port_list
from crib.env import Env
from crib.history.boardgames import import_games
from crib.history.db import History
from crib.history.files import default_path
from crib.history.reports import game_entries, games
from crib.ui.cards import stored_symbols
from crib.words import agree

HELP = "list the games played (or one game, entry by entry); import a board's games"

def add_arguments(parser: ArgumentParser) -> None:
    """[--game ID [--all]] [--limit N] [--db PATH] [--json]."""
    parser.add_argument("--game", type=int, metavar="ID", help="one game, entry by entry")
    parser.add_argument("--all", action="store_true", help="with --game: undone entries too")
    parser.add_argument("--limit", type=_limit, default=20, metavar="N",
                        help="the latest N games (default 20; 0: every game)")
    parser.add_argument("--db", metavar="PATH", help=f"the history file ({default_path()})")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    imp = sub.add_parser("import", help="copy the board's finished games into the history"
                         " (a board that serves the table keeps them; importing twice adds"
                         " nothing)")
    add_board_arguments(imp)
    imp.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS,
                     help=f"the history file ({default_path()})")
    imp.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                     help="print JSON for scripts")


def _limit(text):
    """--limit: a count of games, 0 for all."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"a number of games (0: all), not {text!r}")
    return n


def _line(g) -> str:
    score = "-".join(str(s) for s in g["scores"])
    who = " v ".join(g["sides"])
    if g["status"] == "finished":
        w = g["sides"].index(g["winner"])  # the winner's score first, as players say it
        score = "-".join(str(s) for s in [g["scores"][w]] + g["scores"][:w] + g["scores"][w + 1:])
        end = f"{g['winner']} won {score}" + (f" ({g['skunk']})" if g["skunk"] else "")
    else:
        end = f"{g['status']} at {score}"
    return f"#{g['id']:<4} {g['started'][:10]}  {who} to {g['target']}  {end}"


def _entry_text(e, names, sides) -> str:
    """One entry as a line: seq, hand, who did what (in words that agree with the name:
    "Alice lays 5♦", "You lay 5♦"), the points pegged, where it came from."""
    who = names[e["player"]] if e["player"] is not None else None
    if e["kind"] in ("peg", "muggins") and e["side"] is not None:
        who = sides[e["side"]]
    what = _what(e, names)
    said = agree(who, what) if who else what
    pts = f"+{e['points']} {e['reason'] or ''}".rstrip()
    if e["points"] and e["kind"] == "go" and e["side"] is not None and e["player"] is not None:
        # the point of a go goes to the last to lay, not to whoever said go: name the side
        mine = e["player"] % len(sides) if len(sides) < len(names) else e["player"]
        if e["side"] != mine:
            pts += f" to {sides[e['side']]}"
    if not e["points"] and e["kind"] != "show":  # a show says what it counted, 0 too
        pts = ""
    by = e.get("answered_by")
    tail = "".join("  " + t for t in (pts, "" if e["source"] == "table" else
                                      f"[{e['source']}]",
                                      "" if by is None else f"[answered by {names[by]}]",
                                      "(undone)" if e["undone"] else "")
                   if t)
    return f"  {e['seq']:>4} h{e['hand'] + 1:<3} {said}{tail}"


def _what(e, names):
    """What the entry's player did (a verb said of one person), or a sentence of its own
    where nobody acted (the cut for deal, the end of the play, a note)."""
    info, kind = e["info"], e["kind"]
    if kind == "cut":
        cuts = info.get("cuts") or []
        return "cut for deal" + (": " + ", ".join(
            f"{n} {stored_symbols([c])}" for n, c in zip(names, cuts)) if cuts else "")
    if kind == "deal":
        return "deals"
    if kind == "discard":
        return "lays away " + (stored_symbols(info["discard"]) if info.get("discard")
                               else "its cards")
    if kind == "starter":
        return f"turns up the starter {info.get('text', '')}"  # the dealer does
    if kind == "lay":
        return f"lays {info.get('text', '')}"
    if kind == "go":
        return "says go"
    if kind == "end_play":
        return "the play ends"
    if kind == "show":
        what = "crib" if info.get("entry") == "crib" else "hand"
        if info.get("cards"):
            return f"shows {what} {stored_symbols(info['cards'])}"
        if info.get("ranks"):
            return f"shows {what} {' '.join(info['ranks'])}{_flags(info)}"
        return f"shows {what} (its total given, no cards)"
    if kind == "dealt":
        if info.get("cards"):
            return ("was dealt " + stored_symbols(info["cards"]) + " and laid away "
                    + stored_symbols(info["discard"]))
        return "did not give the cards dealt"
    if kind == "peg":
        return "pegs"
    if kind == "muggins":
        return "claims muggins"
    if kind == "note":
        why = info.get("why") or info.get("muggins")
        return "note" + (f": {why}" if why else "")
    return kind.replace("_", " ")


def _flags(info):
    """A hand known by ranks: the flush and nobs its player said."""
    said = [f"flush {info['flush']}"] if info.get("flush") else []
    said += ["nobs"] if info.get("nobs") else []
    return f" ({', '.join(said)})" if said else ""


def _import(args: Namespace, env: Env) -> int:
    """`crib history import`: 0 when every finished game on the board is in the history
    now, 1 when a damaged one was left out (each said)."""
    if wants_port_list(args):
        env.print(list_ports_text())
        return 0
    h = History.open(args.db or default_path(env.environ))
    try:
        board = open_board(args)
        try:
            report = import_games(board, h)
        finally:
            board.close()
    finally:
        h.close()
    if args.json:
        env.print(json.dumps(report.as_dict()))
    else:
        for n, i in report.imported:
            env.print(f"board game {n}: imported as #{i}")
        for n, why in report.damaged:
            env.error(f"crib: board game {n} not imported: {why}")
        name = f" (board record {report.record})" if report.record else ""
        env.print(f"{len(report.imported)} imported, {len(report.skipped)} already in the"
                  f" history, {len(report.damaged)} damaged{name}")
    return 1 if report.damaged else 0


def run(args: Namespace, env: Env) -> int:
    """Print the games (or one game) and return 0; or import a board's games."""
    if getattr(args, "action", None) == "import":
        return _import(args, env)
    h = History.open(args.db or default_path(env.environ), lock=False)
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
