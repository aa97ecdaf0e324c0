"""Rank every discard of a 6-card (2 players) or 5-card (3-4 players) deal by exact
expected points: the hand over every starter, the crib over every unseen card it could get,
and the net (hand + crib for the dealer, hand - crib for the pone). `crib docs advisor`
shows the guide."""

import json

from cribcore.cards import card_name, card_symbol, parse_cards

HELP = "rank every discard of a deal by exact expected hand, crib and net points"


def add_arguments(parser):
    """Cards dealt, whose crib it is, and --json."""
    parser.add_argument("cards", nargs="+", metavar="CARD",
                        help="the 6 (2 players) or 5 (3-4 players) cards dealt, e.g. 5H 5C 6D")
    side = parser.add_mutually_exclusive_group(required=True)
    side.add_argument("--dealer", dest="dealer", action="store_true",
                      help="the crib is yours (you, or your partner, dealt)")
    side.add_argument("--pone", dest="dealer", action="store_false",
                      help="the crib is an opponent's")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def _best(ranked):
    """Which entries are optimal (equal best net)."""
    return [e.net == ranked[0].net for e in ranked]


def _title(cards, dealer, name):
    side = "dealer: net = hand + crib" if dealer else "pone: net = hand - crib"
    return " ".join(name(c) for c in cards) + f"  ({side})"


def _print_plain(env, cards, dealer, ranked):
    """An aligned text table with canonical card names (pipes, logs, tests)."""
    env.print(_title(cards, dealer, card_name))
    env.print(f"  {'discard':7}  {'keep':11}  {'hand':>6}  {'crib':>6}  {'net':>6}  min  max")
    for e, best in zip(ranked, _best(ranked)):
        mark = "*" if best else " "
        dis = " ".join(card_name(c) for c in e.discard)
        keep = " ".join(card_name(c) for c in e.keep)
        env.print(f"{mark} {dis:7}  {keep:11}  {float(e.hand):6.2f}  {float(e.crib):6.2f}"
              f"  {float(e.net):6.2f}  {e.hand_min:3d}  {e.hand_max:3d}")
    env.print("* best discard (highest expected net)")


def _print_rich(env, cards, dealer, ranked):
    """A rich table with suit symbols, the best row highlighted (terminals)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=_title(cards, dealer, card_symbol))
    table.add_column("")
    for col in ("discard", "keep"):
        table.add_column(col)
    for col in ("hand", "crib", "net", "min", "max"):
        table.add_column(col, justify="right")
    for e, best in zip(ranked, _best(ranked)):
        table.add_row(
            "best" if best else "", " ".join(card_symbol(c) for c in e.discard),
            " ".join(card_symbol(c) for c in e.keep), f"{float(e.hand):.2f}",
            f"{float(e.crib):.2f}", f"{float(e.net):.2f}", str(e.hand_min), str(e.hand_max),
            style="bold green" if best else None)
    Console(file=env.stdout).print(table)


def run(args, env):
    """Print the ranked discards as a table or JSON."""
    # The advisor tabulates every hand at import: only when a discard is ranked, not when
    # the CLI imports every command module to build its parser.
    from crib.analysis.advise import rank_discards

    cards = parse_cards(" ".join(args.cards))
    ranked = rank_discards(cards, args.dealer)
    if args.json:
        rows = []
        for e, best in zip(ranked, _best(ranked)):
            row = e.as_dict()
            row["best"] = best
            rows.append(row)
        doc = {"cards": [card_name(c) for c in cards], "dealer": args.dealer, "discards": rows}
        env.print(json.dumps(doc, indent=2))
    elif env.colour():
        _print_rich(env, cards, args.dealer, ranked)
    else:
        _print_plain(env, cards, args.dealer, ranked)
    return 0
