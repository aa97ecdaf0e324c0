"""Club night: pairings round by round (nobody meets anyone twice; with an odd number of
players one sits out each round, scored as a win), results from the phones (two taps,
confirmed by the opponent), from the tables by themselves and from here, the director's
corrections (what they replace is kept), the standings (2 game points a win, 3 a skunk
win, ranked by points, wins, spread), special hands, skunk pot, prizes one in four, the
scorecards (PDF), the night as CSV and a season's standings. Kept in the history.
`crib docs club` is the guide.

    crib club new NAME --players A,B,... --games N
    crib club pairings --round N --json     crib club standings --json
    crib club result --round N --table T --winner NAME --loser-score S
    crib club serve                         the director's page and the players' phones
"""

import argparse
import json
from argparse import ArgumentParser, Namespace
from typing import Any

from crib.commands._options import port_number
from crib.env import Env
from crib.history.db import History
from crib.history.files import default_path

HELP = "a club night: pairings, results from the phones and tables, standings, prizes"


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError("a whole number from 1, not %r" % text)
    return n


def _score(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a loser's score is a number 0 to 120, not %r"
                                         % text) from None


def _amount(text: str) -> int:
    from crib.club.money import parse_money

    try:
        return parse_money(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_arguments(parser: ArgumentParser) -> None:
    """ACTION and its options; --db, --night and --json on each."""
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def action(name: str, text: str, json_too: bool = True) -> ArgumentParser:
        p = sub.add_parser(name, help=text, description=text)
        p.add_argument("--db", metavar="PATH", help=f"the history file ({default_path()})")
        if name != "new":
            p.add_argument("--night", metavar="NAME", help="the night (default: the latest)")
        if json_too:
            p.add_argument("--json", action="store_true", help="print JSON for scripts")
        return p

    p = action("new", "start a night: its players and games (round 1 is paired at once)")
    p.add_argument("name", metavar="NAME", help="the night's name, e.g. 2026-11-28")
    p.add_argument("--players", required=True, metavar="A,B,...", help="the players' names")
    p.add_argument("--games", required=True, type=_count, metavar="N",
                   help="the rounds (at most players - 1, or the players if odd)")
    p.add_argument("--season", metavar="NAME", help="the season (default: this year)")
    p.add_argument("--entry", type=_amount, default=0, metavar="AMOUNT",
                   help="each player's entry fee: the prize fund, paid one in four")
    p.add_argument("--skunk-pot", type=_amount, default=0, metavar="AMOUNT",
                   help="each player's skunk pot fee: to the most skunk wins")
    p.add_argument("--hands-pool", type=_amount, default=0, metavar="AMOUNT",
                   help="each player's special-hands fee: shared by the 24, 28, 29 hands")
    p.add_argument("--seed", type=int, help="the draw of the seating (default: random)")

    p = action("pairings", "who plays whom at which table in a round (the next round is"
               " paired once every result of the last is in)")
    p.add_argument("--round", type=_count, metavar="N", help="the round (default: latest)")

    for name, text in (("result", "enter a table's result (it stands at once)"),
                       ("correct", "the director's result for a table: it replaces the one"
                                   " entered, which is kept")):
        p = action(name, text)
        p.add_argument("--round", type=_count, required=True, metavar="N")
        p.add_argument("--table", type=_count, required=True, metavar="T")
        p.add_argument("--winner", required=True, metavar="NAME")
        p.add_argument("--loser-score", type=_score, required=True, metavar="S")
        if name == "correct":
            p.add_argument("--note", help="why (kept with the correction)")

    p = action("hand", "a special hand (24, 28 or 29) for the pool")
    p.add_argument("--round", type=_count, required=True, metavar="N")
    p.add_argument("--player", required=True, metavar="NAME")
    p.add_argument("--points", type=int, required=True, choices=(24, 28, 29))

    action("standings", "the night's standings, ranked")
    action("results", "every result entered, corrections and what they replaced too")
    action("money", "the prizes (one in four), the skunk pot and the special-hands pool")
    p = action("csv", "the night as CSV (a row a result)", json_too=False)
    p.add_argument("--out", metavar="FILE", help="write it there (default: print it)")
    p = action("scorecards", "a printable scorecard a player (PDF; needs the hardware"
               " extra's fpdf2)", json_too=False)
    p.add_argument("--out", required=True, metavar="PDF", help="the PDF file to write")
    p.add_argument("--player", action="append", metavar="NAME", help="only this player")
    p = action("season", "a season's standings over its nights")
    p.add_argument("--season", metavar="NAME", help="the season (default: the latest night's)")
    p = action("serve", "the director's page and the players' phones, in a browser",
               json_too=False)
    p.add_argument("--lan", action="store_true",
                   help="serve the local network (phones on the same Wi-Fi)")
    p.add_argument("--web-port", type=port_number, default=8141, metavar="N",
                   help="the TCP port (default %(default)s; 0: any free)")
    p.add_argument("--no-qr", dest="qr", action="store_false",
                   help="do not draw the QR code in the terminal")


def run(args: Namespace, env: Env) -> int:
    """Do the action; a refusal is a ClubError (crib: error: ..., exit 1), nothing written."""
    from crib.club.night import Club

    if args.action == "serve":  # the server is the night's one writer: it opens the history
        from crib.web.clubapp import serve

        return serve(args.db or str(default_path(env.environ)), args.night, args.lan,
                     args.web_port, args.qr, env.stdout)
    history = History.open(args.db or default_path(env.environ),
                           lock=args.action not in ("standings", "results",
                                                    "money", "csv", "scorecards", "season"))
    try:
        club = Club(history)
        if args.action == "new":
            return _new(club, args, env)
        if args.action == "season":
            return _season(club.season(args.season), args, env)
        night = club.night(args.night)
        return ACTIONS[args.action](night, args, env)
    finally:
        history.close()


def _out(env: Env, args: Namespace, data: Any, text: str) -> int:
    env.print(json.dumps(data) if getattr(args, "json", False) else text)
    return 0


def _new(club: Any, args: Namespace, env: Env) -> int:
    from crib.club.night import players_list

    night = club.new(args.name, players_list(args.players), args.games, args.season,
                     {"entry": args.entry, "skunk": args.skunk_pot, "hands": args.hands_pool},
                     args.seed)
    data = {"night": night.name, "season": night.season, "players": night.players,
            "games": night.games}
    return _out(env, args, data, "night %r: %d players, %d games; round 1:\n%s"
                % (night.name, len(night.players), night.games,
                   _pairing_text(night.pairings(1))))


def _pairing_text(p: dict[str, Any]) -> str:
    lines = ["  table %d: %s v %s" % (i + 1, a, b) for i, (a, b) in enumerate(p["tables"])]
    if p["bye"]:
        lines.append("  bye: %s" % p["bye"])
    return "\n".join(lines)


def _pairings(night: Any, args: Namespace, env: Env) -> int:
    number = args.round or night.paired()
    fresh = number == night.paired() + 1
    p = night.open_or_pair(number)  # the next round is paired once the last is complete
    return _out(env, args, p, "round %d%s:\n%s" % (number, " (paired now)" if fresh else "",
                                                   _pairing_text(p)))


def _result(night: Any, args: Namespace, env: Env) -> int:
    from crib.club.night import describe

    if args.action == "correct":
        r = night.correct(args.round, args.table, args.winner, args.loser_score, args.note)
    else:
        r = night.result(args.round, args.table, args.winner, args.loser_score)
    return _out(env, args, r, "round %d table %d: %s" % (r["round"], r["table_no"],
                                                         describe(r)))


def _hand(night: Any, args: Namespace, env: Env) -> int:
    h = night.hand(args.round, args.player, args.points)
    return _out(env, args, h, "%s: a %d hand in round %d" % (h["player"], h["points"],
                                                            h["round"]))


def standings_text(rows: list[dict[str, Any]]) -> str:
    """The standings as a table of text."""
    lines = ["%-4s %-16s %6s %4s %4s %6s %6s" % ("", "player", "points", "won", "lost",
                                                 "spread", "skunks")]
    for r in rows:
        lines.append("%-4s %-16s %6d %4d %4d %+6d %6d" % (
            "%d." % r["rank"], r["player"][:16], r["points"], r["wins"], r["losses"],
            r["spread"], r["skunks"]))
    return "\n".join(lines)


def _standings(night: Any, args: Namespace, env: Env) -> int:
    rows = night.standings()
    return _out(env, args, rows, "%s, after round %d (%d waiting):\n%s" % (
        night.name, night.paired(), len(night.waiting(night.paired())), standings_text(rows)))


def _results(night: Any, args: Namespace, env: Env) -> int:
    from crib.club.night import describe

    rows = night.results(every=True)
    text = "\n".join("round %d table %d: %s [%s]%s" % (
        r["round"], r["table_no"], describe(r), r["source"],
        "  (%s)" % r["note"] if r["note"] else "") for r in rows) or "no results yet"
    return _out(env, args, rows, text)


def _money(night: Any, args: Namespace, env: Env) -> int:
    from crib.club.money import money

    m = night.money()
    lines = ["prizes (from %s):" % money(m["fund"]["entry"])]
    lines += ["  %d. %s %s" % (p["place"], p["player"], money(p["cents"])) for p in m["prizes"]]
    lines.append("skunk pot (%s): %s" % (money(m["fund"]["skunk"]), ", ".join(
        "%s %s" % (s["player"], money(s["cents"])) for s in m["skunk_pot"]) or "carried over"))
    lines.append("special hands (%s): %s" % (money(m["fund"]["hands"]), ", ".join(
        "%s's %d %s" % (h["player"], h["points"], money(h["cents"])) for h in m["hands"])
        or "carried over"))
    return _out(env, args, m, "\n".join(lines))


def _csv(night: Any, args: Namespace, env: Env) -> int:
    text = night.csv()
    if args.out:
        with open(args.out, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        env.print("wrote %s" % args.out)
    else:
        env.stdout.write(text)
    return 0


def _scorecards(night: Any, args: Namespace, env: Env) -> int:
    from crib.club.scorecard import scorecards

    data = scorecards(night, args.player)
    with open(args.out, "wb") as f:
        f.write(data)
    env.print("wrote %s" % args.out)
    return 0


def _season(season: dict[str, Any], args: Namespace, env: Env) -> int:
    return _out(env, args, season, "season %s (%d nights):\n%s" % (
        season["season"], len(season["nights"]), standings_text(season["standings"])))


ACTIONS = {"pairings": _pairings, "result": _result, "correct": _result, "hand": _hand,
           "standings": _standings, "results": _results, "money": _money, "csv": _csv,
           "scorecards": _scorecards}
