"""Score a play (pegging) sequence card by card: fifteens, 31, pairs, runs, go, last card.

Give ranks (`5 10 5 J`) or cards (`5h 10d 5c JS`), with `go` where a player says go.
Player 1 leads, then play passes round the table (player N dealt). A `go` is only legal
past a count of 21 (below that any card fits). With --last the sequence is the whole play:
its final card takes the last-card point when nobody played after it.
"""

import json
from argparse import ArgumentParser, Namespace
from collections.abc import Sequence
from typing import Any

from crib.env import Env
from crib.errors import CribError
from cribcore import CoreError
from cribcore.cards import card_name, value
from cribcore.play import LAST_CARD, Event, Play, PlayItem, announce
from cribcore.table.cards import GO, lend_suit, parse_play_card, play_text, rank_text

HELP = "score a play (pegging) sequence card by card, for 2-4 players"


class PegSequenceError(CribError):
    """A play sequence the rules do not allow (the position and the reason in the message)."""


def add_arguments(parser: ArgumentParser) -> None:
    """TOKEN... [--players N] [--last] [--json]."""
    parser.add_argument("tokens", nargs="+", metavar="CARD",
                        help="ranks or cards in the order laid, and `go` (5 10 5, 5h 10d go)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4),
                        help="players at the table (default 2)")
    parser.add_argument("--last", action="store_true",
                        help="the sequence is the whole play: score the last card")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def _cards(tokens: Sequence[str]) -> list[tuple[int | None, bool]]:
    """[(card or None for go, lent)] with suits lent to bare ranks, avoiding given cards."""
    parsed = []
    for t in tokens:
        parsed.append(None if t.strip().lower() == GO else parse_play_card(t))
    taken = [p[0] for p in parsed if p is not None and p[0] is not None]
    out: list[tuple[int | None, bool]] = []
    for p in parsed:
        if p is None:
            out.append((None, False))
        elif p[0] is not None:
            out.append((p[0], False))
        else:
            c = lend_suit(p[1], taken)
            taken.append(c)
            out.append((c, True))
    return out


def score_sequence(tokens: Sequence[str], players: int = 2,
                   last: bool = False) -> tuple[list[dict[str, Any]], Play]:
    """The rows of a play sequence: one dict per card or go, and the tracker at the end."""
    split = []
    for t in tokens:
        split += t.replace(",", " ").split()
    play = Play(players, players - 1)
    rows = []
    for i, (card, lent) in enumerate(_cards(split)):
        who, count = play.turn, play.count
        if card is not None and count + value(card) > 31:
            raise PegSequenceError(f"{split[i]!r} (item {i + 1}) would pass 31"
                                   f" (count {count})")
        if card is None and not play.can_go():  # named as the table below names players
            raise PegSequenceError(f"{split[i]!r} (item {i + 1}): {player_name(who)} can"
                                   f" still play at count {count}")
        try:
            events = play.go() if card is None else play.lay(card)
        except CoreError as e:  # IllegalPlayError: say where in the sequence
            raise PegSequenceError(f"{split[i]!r} (item {i + 1}): {e}") from None
        if card is not None:
            count += value(card)
        rows.append(_row(who, card, lent, count, events))
    if last and rows and not play.over and play.last >= 0 and play.count < 31:
        # The sequence ends the play: whoever laid last takes the point nobody else can.
        rows.append(_row(play.last, None, False, play.count,
                         [Event(play.last, 1, (PlayItem(LAST_CARD, 1),))], kind="end"))
        play.points[play.last] += 1
    return rows, play


def player_name(p: int) -> str:
    """A player as the table of `crib peg` names them: P1 leads."""
    return "P%d" % (p + 1)


def _row(who: int, card: int | None, lent: bool, count: int, events: Sequence[Event],
         kind: str | None = None) -> dict[str, Any]:
    items = [it for e in events for it in e.reasons]
    scorer = events[0].player if events else who
    return {"kind": kind or (GO if card is None else "card"), "player": who, "card": card,
            "lent": lent, "count": count, "scorer": scorer,
            "points": sum(e.points for e in events), "items": items}


def _json_row(r: dict[str, Any]) -> dict[str, Any]:
    card = None
    if r["card"] is not None:
        card = rank_text(r["card"] >> 2) if r["lent"] else card_name(r["card"])
    return {"kind": r["kind"], "player": r["player"] + 1, "card": card, "count": r["count"],
            "scorer": r["scorer"] + 1, "points": r["points"],
            "items": [{"kind": it.kind, "points": it.points} for it in r["items"]]}


def run(args: Namespace, env: Env) -> int:
    """Print the sequence scored card by card (or JSON) and return 0."""
    rows, play = score_sequence(args.tokens, args.players, args.last)
    if args.json:
        env.print(json.dumps({
            "players": args.players, "rows": [_json_row(r) for r in rows],
            "points": play.points, "count": play.count, "over": play.over or bool(args.last),
            "next": None if play.over or args.last else play.turn + 1}))
        return 0
    out = env.stdout
    out.write(f"{'':3}{'player':<8}{'card':<6}{'count':>5}  {'pts':>3}  for\n")
    for i, r in enumerate(rows):
        if r["kind"] == "card":
            what = play_text(r["card"], r["lent"])
        else:
            what = r["kind"]
        pts = f"{r['points']:3d}" if r["points"] else "   "
        text = announce(r["items"])
        if r["points"] and r["scorer"] != r["player"]:
            text = f"{player_name(r['scorer'])}: {text}"
        out.write(f"{i + 1:>2} {player_name(r['player']):<8}{what:<6}{r['count']:>5}  "
                  f"{pts}  {text}".rstrip() + "\n")
    totals = "  ".join(f"{player_name(p)} {n}" for p, n in enumerate(play.points))
    out.write(f"points   {totals}\n")
    if not play.over and not args.last:
        out.write(f"next     {player_name(play.turn)} to play at count {play.count}\n")
    return 0
