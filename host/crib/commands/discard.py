"""Rank every discard of a 6-card (2 players) or 5-card (3-4 players) deal by exact
expected points: the hand over every starter, the crib over every unseen card it could get,
the play (the points you, or your side, peg and the others peg with the four you keep),
and the net (hand + crib for the dealer, hand - crib for the pone, + your pegging - theirs).
`crib docs advisor` shows the guide."""

from __future__ import annotations  # Discard is imported for the type checker only

import json
from argparse import ArgumentParser, Namespace
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from crib.env import Env
from cribcore.cards import card_name, card_symbol, parse_cards

if TYPE_CHECKING:  # the advisor tabulates every hand at import: run() imports it
    from crib.analysis.advise import Discard

HELP = "rank every discard of a deal by expected hand, crib, pegging and net points"


def add_arguments(parser: ArgumentParser) -> None:
    """Cards dealt, whose crib it is, and --json."""
    parser.add_argument("cards", nargs="+", metavar="CARD",
                        help="the 6 (2 players) or 5 (3-4 players) cards dealt, e.g. 5H 5C 6D")
    side = parser.add_mutually_exclusive_group(required=True)
    side.add_argument("--dealer", dest="dealer", action="store_true",
                      help="the crib is yours (you, or your partner, dealt)")
    side.add_argument("--pone", dest="dealer", action="store_false",
                      help="the crib is an opponent's")
    parser.add_argument("--players", type=int, default=None, metavar="N",
                        help="players at the table: 2 with 6 cards; 3 (default) or 4 with 5"
                             " (it changes the play)")
    parser.add_argument("--no-pegging", dest="pegging", action="store_false",
                        help="leave the play out: rank by hand and crib alone")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def _best(ranked: Sequence[Discard]) -> list[bool]:
    """Which entries are optimal (equal best net)."""
    return [e.net == ranked[0].net for e in ranked]


def _pegged(ranked: Sequence[Discard]) -> bool:
    """Whether the ranking counts the play (unless --no-pegging)."""
    return ranked[0].peg is not None


def _title(cards: Sequence[int], dealer: bool, name: Callable[[int], str], pegged: bool,
           players: int) -> str:
    side = "dealer: net = hand + crib" if dealer else "pone: net = hand - crib"
    if pegged:
        side += " + peg - opp"
    if players > 2:
        side = f"{players} players, {side}"
    return " ".join(name(c) for c in cards) + f"  ({side})"


def _peg_note(players: int) -> str:
    """What peg and opp mean for the number of players."""
    if players == 2:
        return ("peg: points you are expected to peg with the four kept; opp: points your"
                " opponent pegs against them")
    who = ("you are", "the two others peg") if players == 3 else (
        "your side is", "the other side pegs")
    return (f"peg: points {who[0]} expected to peg with the four kept; opp: points"
            f" {who[1]} ({players}-player play over drawn deals: `crib docs advisor`"
            f" gives the error)")


RANGE_NOTE = ("hand range: the fewest and the most points the four kept score, over every"
              " starter")


def _range(e: Discard) -> str:
    """The kept hand's range over the starters, as one field: 8-17."""
    return f"{e.hand_min}-{e.hand_max}"


def _columns(e: Discard, pegged: bool) -> list[str]:
    """The number columns of a row: hand, crib, (peg, opp,) net, as text."""
    vals = [e.hand, e.crib]
    if pegged and e.peg is not None and e.peg_opp is not None:
        vals += [e.peg, e.peg_opp]
    vals.append(e.net)
    return [f"{float(v):.2f}" for v in vals]


def _print_plain(env: Env, cards: Sequence[int], dealer: bool,
                 ranked: Sequence[Discard]) -> None:
    """An aligned text table with canonical card names (pipes, logs, tests)."""
    pegged = _pegged(ranked)
    names = ["hand", "crib"] + (["peg", "opp"] if pegged else []) + ["net"]
    players = ranked[0].players
    env.print(_title(cards, dealer, card_name, pegged, players))
    env.print(f"  {'discard':7}  {'keep':11}  " + "  ".join(f"{n:>6}" for n in names)
              + "  hand range")
    for e, best in zip(ranked, _best(ranked)):
        mark = "*" if best else " "
        dis = " ".join(card_name(c) for c in e.discard)
        keep = " ".join(card_name(c) for c in e.keep)
        nums = "  ".join(f"{v:>6}" for v in _columns(e, pegged))
        env.print(f"{mark} {dis:7}  {keep:11}  {nums}  {_range(e):>10}")
    env.print("* best discard (highest expected net)")
    env.print(RANGE_NOTE)
    if pegged:
        env.print(_peg_note(players))


def _print_rich(env: Env, cards: Sequence[int], dealer: bool,
                ranked: Sequence[Discard]) -> None:
    """A rich table with suit symbols, the best row highlighted (terminals)."""
    from rich.console import Console
    from rich.table import Table

    pegged = _pegged(ranked)
    players = ranked[0].players
    notes = [RANGE_NOTE] + ([_peg_note(players)] if pegged and players > 2 else [])
    table = Table(title=_title(cards, dealer, card_symbol, pegged, players),
                  caption="\n".join(notes))
    table.add_column("")
    for col in ("discard", "keep"):
        table.add_column(col)
    names = ["hand", "crib"] + (["peg", "opp"] if pegged else []) + ["net", "hand range"]
    for col in names:
        table.add_column(col, justify="right")
    for e, best in zip(ranked, _best(ranked)):
        table.add_row(
            "best" if best else "", " ".join(card_symbol(c) for c in e.discard),
            " ".join(card_symbol(c) for c in e.keep), *_columns(e, pegged),
            _range(e), style="bold green" if best else None)
    Console(file=env.stdout).print(table)


def run(args: Namespace, env: Env) -> int:
    """Print the ranked discards as a table or JSON."""
    # The advisor tabulates every hand at import: only when a discard is ranked, not when
    # the CLI imports every command module to build its parser.
    from crib.analysis.advise import rank_discards

    cards = parse_cards(" ".join(args.cards))
    ranked = rank_discards(cards, args.dealer, pegging=args.pegging, players=args.players)
    if args.json:
        rows = []
        for e, best in zip(ranked, _best(ranked)):
            row = e.as_dict()
            row["best"] = best
            rows.append(row)
        doc = {"cards": [card_name(c) for c in cards], "dealer": args.dealer,
               "players": ranked[0].players, "pegging": _pegged(ranked), "discards": rows}
        env.print(json.dumps(doc, indent=2))
    elif env.colour():
        _print_rich(env, cards, args.dealer, ranked)
    else:
        _print_plain(env, cards, args.dealer, ranked)
    return 0
