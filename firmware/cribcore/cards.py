"""Cards as ints 0..51: rank = c >> 2 (0 = ace .. 12 = king), suit = c & 3."""

from cribcore import CoreError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SYMBOLS = "\u2663\u2666\u2665\u2660"  # clubs diamonds hearts spades, in SUITS order
# Forgiving input: the white (outline) suit symbols name the same suits.
_WHITE_SYMBOLS = "\u2667\u2662\u2661\u2664"
DECK = tuple(range(52))
JACK = 10  # the rank of a jack: nobs and his heels


class InvalidCardError(CoreError):
    """A card that cannot be parsed, is out of range, or is repeated."""


def card(rank, suit):
    """The card int for rank 0..12 and suit 0..3."""
    return (rank << 2) | suit


def rank(c):
    """0 for an ace .. 12 for a king."""
    return c >> 2


def suit(c):
    """0..3 in the order of SUITS."""
    return c & 3


def value(c):
    """Counting value: ace 1 .. ten 10, faces 10."""
    r = (c >> 2) + 1
    return r if r < 10 else 10


def check_card(c):
    """Return c if it is a card int, else raise InvalidCardError."""
    if type(c) is not int or c < 0 or c > 51:
        raise InvalidCardError("not a card: %r" % (c,))
    return c


def parse_card(text):
    """Parse '5h', '5H', '10d', 'TD', 'jc', 'As', '5\u2665' (spaces allowed) to a card int."""
    if type(text) is not str:
        raise InvalidCardError("not a card: %r" % (text,))
    s = text.strip().upper()
    if len(s) < 2:
        raise InvalidCardError("not a card: %r" % (text,))
    r, u = s[:-1], s[-1]
    if r == "10":
        r = "T"
    ri = RANKS.find(r) if len(r) == 1 else -1
    si = SUITS.find(u)
    if si < 0:
        si = SYMBOLS.find(u)
    if si < 0:
        si = _WHITE_SYMBOLS.find(u)
    if ri < 0 or si < 0:
        raise InvalidCardError("not a card: %r" % (text,))
    return (ri << 2) | si


def card_name(c):
    """Canonical name: '5H', 'TD', 'JC'."""
    check_card(c)
    return RANKS[c >> 2] + SUITS[c & 3]


def card_symbol(c):
    """Display name with a suit symbol: '5\u2665', '10\u2666'."""
    check_card(c)
    r = RANKS[c >> 2]
    return ("10" if r == "T" else r) + SYMBOLS[c & 3]


def parse_cards(text):
    """Parse cards separated by spaces or commas (or a list of texts); refuse repeats."""
    parts = text.replace(",", " ").split() if type(text) is str else list(text)
    out = []
    for p in parts:
        c = parse_card(p)
        if c in out:
            raise InvalidCardError("%s given twice" % card_name(c))
        out.append(c)
    return out


def names(cards):
    """Space-separated canonical names, for messages and the protocol."""
    return " ".join([card_name(c) for c in cards])
