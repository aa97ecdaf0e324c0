"""Forgiving card entry for the play: a full card (`5h`, `10d`, `5♥`) or a rank alone (`5`,
`10`, `t`, `j`, `a`), and the suits the table lends to ranks so the play tracker can
track them.

The play scores ranks only, so at the table a rank is enough; the core's play tracker wants
distinct cards, so a rank alone borrows a suit no card of this hand has taken yet.
"""

from cribcore import CoreError
from cribcore.cards import CARD_NAMES, RANKS, InvalidCardError, card_symbol, parse_card

GO = "go"
_RANK_WORDS = {"1": 0, "10": 9, "ACE": 0, "JACK": 10, "QUEEN": 11, "KING": 12}


class RankTakenError(CoreError):
    """All four cards of a rank are already accounted for this hand."""


def parse_rank(text):
    """Rank 0..12 of a rank alone ('5', '10', 'T', 'j', 'ace'), or raise InvalidCardError."""
    s = text.strip().upper() if isinstance(text, str) else None
    if s in _RANK_WORDS:
        return _RANK_WORDS[s]
    if s and len(s) == 1 and s in RANKS:
        return RANKS.index(s)
    raise InvalidCardError("not a card or a rank: %r" % (text,))


def parse_play_card(text):
    """(card, None) for a full card, or (None, rank) for a rank alone; else InvalidCardError."""
    try:
        return parse_card(text), None
    except InvalidCardError:
        return None, parse_rank(text)


def free_names(taken, top, n):
    """The names of the cards below top not taken (taken[card] 1 when taken), n of them
    (the caller counted them as it marked the mask): a list of its exact size, filled in
    place. A comprehension grows its list by doubling (40 names took a table of 64)."""
    out = [None] * n
    i = 0
    for c in range(top):
        if not taken[c]:
            out[i] = CARD_NAMES[c]
            i += 1
    return out


def names_of(cards):
    """Card names, for the legal answers of a question (cards the game made: each a card,
    so looked up without card_name's check, a call a card: 52 a question on the chip)."""
    return [CARD_NAMES[c] for c in cards]


def rank_text(rank):
    """A rank as players say it: 'A', '5', '10', 'J'."""
    return "10" if rank == 9 else RANKS[rank]


def lend_suit(rank, taken):
    """The card of rank with the first suit not in taken (cards seen this hand)."""
    for suit in range(4):
        c = (rank << 2) | suit
        if c not in taken:
            return c
    raise RankTakenError("all four %ss are already accounted for" % rank_text(rank))


def play_text(card, lent):
    """How a laid card is shown: its symbol, or its rank alone when the suit was lent."""
    return rank_text(card >> 2) if lent else card_symbol(card)
