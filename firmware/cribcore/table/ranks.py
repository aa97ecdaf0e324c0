"""A show known by ranks: the four ranks of a hand (or crib) and the starter's card, with
the one thing suits decide said in one answer: a flush, nobs, both or neither.

Fifteens, pairs and runs depend on ranks alone; a flush and nobs on suits alone. So a hand
is scored exactly from its ranks plus two flags: the suits, where they matter, come from
the flags (the flush and nobs of a stand-in hand that has them), never from a guess.

    choices = suit_choices(ranks, starter, crib)   # [(flush, nobs), ...] possible here
    items, total = score_ranks(ranks, starter, crib, flush, nobs)
"""

from cribcore.cards import JACK
from cribcore.show import Item, points_by_suit, show_breakdown
from cribcore.table.cards import rank_text

# How a choice of flags is said, and answered, in this order: (flush points, nobs) -> code.
ORDER = (((0, False), "y"), ((0, True), "nobs"), ((4, False), "flush"),
         ((5, False), "flush5"), ((5, True), "flush5 nobs"))
CODES = dict(ORDER)


_LAST = (None, None)  # ((ranks, starter), _stand_ins' answer): the last hand's, kept


def _stand_ins(ranks, starter):
    """Every way to give the ranks suits (4 distinct cards, none the starter), as a dict
    (flush points, nobs) -> the first hand found with them (in the order of `code`, each
    card's suit two bits of it, the first card's lowest), for crib False and True.
    The last hand's answer is kept: a show's confirmation asks it once for the choices
    and once for each choice's score. Read it, never change it.

    Only a hand of one suit (code a multiple of `unit`: four codes) can make a flush, so
    once every other code's flags (no flush; nobs or not) are found, the search goes
    straight to those four: the first hand of each pair of flags is the same as the
    whole search's (4**4 hands, each scored twice, cost the chip about as much as the
    rest of a show's answer)."""
    global _LAST
    asked = (tuple(ranks), starter)
    last = _LAST
    if last[0] == asked:
        return last[1]
    found = ({}, {})
    n = len(ranks)
    unit = 0
    for i in range(n):
        unit |= 1 << (2 * i)
    nobs_card = (JACK << 2) | (starter & 3)
    # the flags of a hand of more than one suit (no flush) still to find, in both dicts:
    # (0, False), and (0, True) when a jack of the starter's suit can be in the hand
    missing = 4 if JACK in ranks and nobs_card != starter else 2
    code, top = 0, 4 ** n
    while code < top:
        hand = []
        for i in range(n):
            hand.append((ranks[i] << 2) | (code >> (2 * i) & 3))
        if starter not in hand and len(set(hand)) == n:
            if unit == 0 or code % unit == 0:  # one suit: a flush, as flags_of says
                keys = (flags_of(hand, starter, False), flags_of(hand, starter, True))
            else:
                key = (0, nobs_card in hand)  # flags_of's, without its flush's count
                keys = (key, key)
            for crib in (0, 1):
                if keys[crib] not in found[crib]:
                    found[crib][keys[crib]] = hand
                    if keys[crib][0] == 0:
                        missing -= 1
        if missing <= 0 and unit:
            code = (code // unit + 1) * unit  # straight to the next hand of one suit
        else:
            code += 1
    _LAST = (asked, found)
    return found


def suit_choices(ranks, starter, crib):
    """The (flush points, nobs) these ranks can have with this starter, in the order of
    CODES (a hand with repeated ranks has no flush; only a jack can be nobs)."""
    found = _stand_ins(list(ranks), starter)[1 if crib else 0]
    return [key for key, _ in ORDER if key in found]


def stand_in(ranks, starter, crib, flush, nobs):
    """Four cards with these ranks whose flush and nobs are as given (ValueError if the
    ranks cannot have them)."""
    hand = _stand_ins(list(ranks), starter)[1 if crib else 0].get((flush, bool(nobs)))
    if hand is None:
        raise ValueError("ranks %r with the starter cannot have flush %r, nobs %r"
                         % (ranks, flush, nobs))
    return list(hand)


def rank_name(card):
    """A card said by its rank alone, as the page names it ('T' for ten): its suit is not
    known."""
    return "T" if card >> 2 == 9 else rank_text(card >> 2)


def score_ranks(ranks, starter, crib, flush, nobs):
    """(items, total) of the show: the items of the core's breakdown, each card by its
    rank alone (a str) except the starter (an int, its suit known); the flush and nobs as
    the flags say."""
    hand = stand_in(ranks, starter, crib, flush, nobs)
    items = [Item(it.kind, tuple(c if c == starter else rank_name(c) for c in it.cards),
                  it.points) for it in show_breakdown(hand, starter, crib)]
    return items, sum(it.points for it in items)


def flags_of(cards, starter, crib):
    """(flush points, nobs) of a hand known with its suits."""
    nobs = ((JACK << 2) | (starter & 3)) in cards
    return points_by_suit(list(cards) + [starter], crib) - nobs, nobs


def describe_flags(flush, nobs):
    """'flush +4, nobs +1', or '' for neither."""
    out = []
    if flush:
        out.append("flush +%d" % flush)
    if nobs:
        out.append("nobs +1")
    return ", ".join(out)
