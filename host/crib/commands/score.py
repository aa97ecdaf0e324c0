"""Score the show of a hand or the crib: each fifteen, pair, run, flush and nobs, and the total.

The last card is the starter unless --starter names it. Cards are forgiving: 5h, 10d, TD, 5♥.
"""

import json
from argparse import ArgumentParser, Namespace
from collections.abc import Sequence

from crib.env import Env
from crib.errors import CribError
from crib.ui.cards import show_lines
from crib.ui.lines import write_lines
from cribcore.cards import InvalidCardError, card_name, parse_card, parse_cards
from cribcore.show import show_breakdown

HELP = "score a hand or crib with its starter, itemised"


class CardCountError(CribError):
    """Not 4 hand cards and a starter."""


def add_arguments(parser: ArgumentParser) -> None:
    """CARD... [--starter CARD] [--crib] [--json]."""
    parser.add_argument("cards", nargs="+", metavar="CARD",
                        help="4 hand cards then the starter (or 4 cards with --starter)")
    parser.add_argument("--starter", metavar="CARD", help="the starter card")
    parser.add_argument("--crib", action="store_true",
                        help="score as the crib (only a 5-card flush counts)")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def parse_deal(texts: Sequence[str], starter: str | None = None) -> tuple[list[int], int]:
    """(hand, starter) from card texts; the last is the starter unless one is given."""
    want = 4 if starter is not None else 5
    cards = parse_cards(" ".join(texts))  # also splits "5h,5c" and refuses repeats
    if len(cards) != want:
        extra = "" if starter is None else f" with --starter {starter!r}"
        raise CardCountError(f"give 4 hand cards and a starter, got {texts!r}{extra}")
    if starter is not None:
        s = parse_card(starter)
        if s in cards:
            raise InvalidCardError(f"the starter {starter!r} is also in the hand")
        return cards, s
    return cards[:4], cards[4]


def run(args: Namespace, env: Env) -> int:
    """Print the itemised show (or JSON) and return 0."""
    hand, starter = parse_deal(args.cards, args.starter)
    items = show_breakdown(hand, starter, args.crib)
    total = sum(it.points for it in items)
    if args.json:
        env.print(json.dumps({
            "hand": [card_name(c) for c in hand],
            "starter": card_name(starter),
            "crib": bool(args.crib),
            "items": [{"kind": it.kind, "cards": [card_name(c) for c in it.cards],
                       "points": it.points} for it in items],
            "total": total,
        }))
        return 0
    write_lines(show_lines(hand, starter, args.crib, items, total), env.stdout,
                env.colour())
    return 0


