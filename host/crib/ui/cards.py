"""Cards on the terminal: suit symbols, hearts and diamonds in red, and the itemised show
(`crib score`, the show at the table)."""

from typing import List, Sequence

from crib.ui.lines import Line, Segment
from cribcore.cards import SYMBOLS, card_symbol, parse_card

RED = "bold red"
BLACK = "bold"


def is_red(card: int) -> bool:
    """Hearts and diamonds."""
    return SYMBOLS[card & 3] in "\u2665\u2666"


def _text(card) -> str:
    """A card's symbol; a card known by its rank alone (a str, 'T' for ten) as its rank."""
    if isinstance(card, str):
        return "10" if card == "T" else card
    return card_symbol(card)


def card_segment(card) -> Segment:
    """One card's symbol in its suit's colour (a rank alone: no colour, no suit)."""
    if isinstance(card, str):
        return (_text(card), BLACK)
    return (card_symbol(card), RED if is_red(card) else BLACK)


def card_segments(cards: Sequence) -> List[Segment]:
    """Cards separated by spaces, each in its suit's colour."""
    out: List[Segment] = []
    for i, c in enumerate(cards):
        if i:
            out.append((" ", ""))
        out.append(card_segment(c))
    return out


def stored_symbols(names: Sequence[str]) -> str:
    """Cards as the history stores them ("5H", "JS") in symbols: "5♥ J♠"."""
    return " ".join(card_symbol(parse_card(c)) for c in names)


def _width(cards: Sequence) -> int:
    return len(" ".join(_text(c) for c in cards))


def show_lines(hand, starter, crib, items, total) -> List[Line]:
    """The show as lines of segments: cards, items with their points (+3) and the running
    total, total."""
    lines: List[Line] = [[("crib     " if crib else "hand     ", "cyan")] + card_segments(hand)
             + [("   starter ", "cyan")] + card_segments([starter])]
    width = max([_width(it.cards) for it in items] + [0])
    running = 0
    for it in items:
        running += it.points
        pad = " " * (width - _width(it.cards))
        lines.append([(f"{it.kind:<8} ", "")] + card_segments(it.cards)
                     + [(f"{pad}  +{it.points:<2d} {running:3d}", "")])  # +3: not a card
    lines.append([("total    ", "bold"), (str(total), "bold green")])
    return lines
