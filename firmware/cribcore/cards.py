"""Cards as ints 0..51: rank = c >> 2 (0 = ace .. 12 = king), suit = c & 3."""

from cribcore import CoreError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SYMBOLS = "\u2663\u2666\u2665\u2660"  # clubs diamonds hearts spades, in SUITS order
# Forgiving input: the white (outline) suit symbols name the same suits.
_WHITE_SYMBOLS = "\u2667\u2662\u2661\u2664"
_RANKS_ANY = "A23456789TJQKa23456789tjqk"  # RANKS in either case (parse_card)
_SUITS_ANY = "CDHScdhs"
DECK = tuple(range(52))
JACK = 10  # the rank of a jack: nobs and his heels
# Each card's name and symbol, as literals: frozen into our image they stay in flash (no
# heap), and a name is a lookup, not a new string (card_name is called for every legal
# card of every question, every card of the view and of the record's entries).
CARD_NAMES = (
    "AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S",
    "4C", "4D", "4H", "4S", "5C", "5D", "5H", "5S", "6C", "6D", "6H", "6S",
    "7C", "7D", "7H", "7S", "8C", "8D", "8H", "8S", "9C", "9D", "9H", "9S",
    "TC", "TD", "TH", "TS", "JC", "JD", "JH", "JS", "QC", "QD", "QH", "QS",
    "KC", "KD", "KH", "KS",
)
CARD_SYMBOLS = (
    "A\u2663", "A\u2666", "A\u2665", "A\u2660",
    "2\u2663", "2\u2666", "2\u2665", "2\u2660",
    "3\u2663", "3\u2666", "3\u2665", "3\u2660",
    "4\u2663", "4\u2666", "4\u2665", "4\u2660",
    "5\u2663", "5\u2666", "5\u2665", "5\u2660",
    "6\u2663", "6\u2666", "6\u2665", "6\u2660",
    "7\u2663", "7\u2666", "7\u2665", "7\u2660",
    "8\u2663", "8\u2666", "8\u2665", "8\u2660",
    "9\u2663", "9\u2666", "9\u2665", "9\u2660",
    "10\u2663", "10\u2666", "10\u2665", "10\u2660",
    "J\u2663", "J\u2666", "J\u2665", "J\u2660",
    "Q\u2663", "Q\u2666", "Q\u2665", "Q\u2660",
    "K\u2663", "K\u2666", "K\u2665", "K\u2660",
)


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
    # read a character at a time, each case found in a text of both (no upper-case copy,
    # no slice: a card an answer, and one each card laid folded, on the chip)
    s = text.strip()
    n = len(s)
    if n == 2:
        r = s[0]
    elif n == 3 and s[0] == "1" and s[1] == "0":
        r = "T"
    else:
        raise InvalidCardError("not a card: %r" % (text,))
    u = s[n - 1]
    ri = _RANKS_ANY.find(r)
    si = _SUITS_ANY.find(u)
    if si < 0:
        si = SYMBOLS.find(u)
    elif si >= 4:
        si -= 4
    if si < 0:
        si = _WHITE_SYMBOLS.find(u)
    if ri < 0 or si < 0:
        raise InvalidCardError("not a card: %r" % (text,))
    return ((ri % 13) << 2) | si


def card_name(c):
    """Canonical name: '5H', 'TD', 'JC'."""
    check_card(c)
    return CARD_NAMES[c]


def card_symbol(c):
    """Display name with a suit symbol: '5\u2665', '10\u2666'."""
    check_card(c)
    return CARD_SYMBOLS[c]


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
