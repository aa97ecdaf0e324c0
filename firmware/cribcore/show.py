"""The show: score 4 hand cards plus the starter, as a total or itemised (RULES.md)."""

from collections import namedtuple

from cribcore.cards import JACK, InvalidCardError, card_name, check_card

FIFTEEN = "fifteen"
PAIR = "pair"
RUN = "run"
FLUSH = "flush"
NOBS = "nobs"
# Counting order at the table: fifteens, pairs, runs, flush, nobs.
KINDS = (FIFTEEN, PAIR, RUN, FLUSH, NOBS)

Item = namedtuple("Item", ("kind", "cards", "points"))



def _check(hand, starter):
    """hand + [starter] as a new list of 5 distinct card ints, or raise InvalidCardError."""
    if len(hand) != 4:
        raise InvalidCardError(f"a hand has 4 cards, got {hand!r}")
    cards = [check_card(c) for c in hand]
    cards.append(check_card(starter))
    for i in range(4):
        for j in range(i + 1, 5):  # no slice of the cards made for each
            if cards[i] == cards[j]:
                raise InvalidCardError(f"card given twice: {card_name(cards[i])!r}")
    return cards


def _run(counts):
    """(lowest rank, length, multiplicity) of the run of 3+ in a 13-slot rank histogram."""
    r = 0
    while r < 13:
        start = r
        mult = 1
        while r < 13 and counts[r]:
            mult *= counts[r]
            r += 1
        if r - start >= 3:
            return start, r - start, mult  # five cards hold at most one run of 3+
        r += 1
    return 0, 0, 0


def points_by_rank(cards):
    """Fifteens + pairs + runs of any cards: the points that depend on ranks alone."""
    ways = [1] + [0] * 15  # ways[s]: subsets of the cards seen so far with value sum s
    counts = [0] * 13
    for c in cards:
        r = c >> 2
        counts[r] += 1
        v = r + 1 if r < 9 else 10
        s = 15
        while s >= v:
            ways[s] += ways[s - v]
            s -= 1
    pts = 2 * ways[15]
    for n in counts:
        pts += n * (n - 1)  # n of a kind: n*(n-1)/2 pairs of 2 points
    _, length, mult = _run(counts)
    return pts + length * mult


def _flush(cards, crib):
    """Flush points for cards = hand + [starter]; a crib counts only the 5-card flush."""
    h = cards[0] & 3
    if (cards[1] & 3) != h or (cards[2] & 3) != h or (cards[3] & 3) != h:
        return 0
    if (cards[4] & 3) == h:
        return 5
    return 0 if crib else 4


def points_by_suit(cards, crib=False):
    """Flush + nobs for cards = hand + [starter] (unchecked): the points suits decide."""
    nobs = (JACK << 2) | (cards[4] & 3)  # the jack of the starter's suit
    return _flush(cards, crib) + (1 if nobs in cards[:4] else 0)


def score_show(hand, starter, crib=False):
    """Points for 4 hand (or crib) cards with the starter."""
    cards = _check(hand, starter)
    return points_by_rank(cards) + points_by_suit(cards, crib)


# The choices of two to five of five cards, each a mask (bit i: card i), by size, each
# size in lexicographic order of the cards chosen: the fifteens of cards in ascending
# order come out in the order people count them (two-card fifteens first), with no list
# sorted or keyed. A bytes constant: in the frozen image it stays in flash, not the heap.
_CHOICES = (b"\x03\x05\x09\x11\x06\x0a\x12\x0c\x14\x18\x07\x0b\x13\x0d\x15\x19\x0e\x16"
            b"\x1a\x1c\x0f\x17\x1b\x1d\x1e\x1f")


def show_breakdown(hand, starter, crib=False):
    """The scoring items (kind, cards, points) in counting order; points sum to the total.

    Cards inside an item are sorted, and items of a kind sorted by their cards (fifteens by
    size first), so the breakdown depends only on the cards, not on their order.
    (Made from the cards sorted once: each item's cards are taken in that order, so no
    list is made, sorted or keyed for an item; a show allocated about 4-6 KB on the unix
    port before.)
    """
    cards = _check(hand, starter)
    asc = sorted(cards)
    values = bytearray(5)
    counts = bytearray(13)
    for i in range(5):
        r = asc[i] >> 2
        values[i] = r + 1 if r < 9 else 10
        counts[r] += 1
    items = []
    choices = _CHOICES
    for k in range(len(choices)):  # by index: no iterator made
        mask = choices[k]
        total = 0
        for i in range(5):
            if mask >> i & 1:
                total += values[i]
        if total == 15:
            items.append(Item(FIFTEEN, _picked(asc, mask), 2))
    for i in range(4):
        for j in range(i + 1, 5):
            if asc[i] >> 2 == asc[j] >> 2:  # asc[i] < asc[j]: in order, pairs sorted
                items.append(Item(PAIR, (asc[i], asc[j]), 2))
    low, length, mult = _run(counts)
    if length:
        _run_items(items, asc, low, length, mult)
    flush = _flush(cards, crib)
    if flush:
        items.append(Item(FLUSH, tuple(sorted(cards[:flush])), flush))
    nobs = (JACK << 2) | (cards[4] & 3)
    if nobs in cards[:4]:
        items.append(Item(NOBS, (nobs,), 1))
    return items


def _picked(cards, mask):
    """The cards whose bit is set in mask, in their order, as a tuple."""
    out = []
    for i in range(5):
        if mask >> i & 1:
            out.append(cards[i])
    return tuple(out)


def _run_items(items, cards, low, length, mult):
    """The run's items, appended to items: each choice of one card per rank
    low..low+length-1 (mult of them), in order, the last rank's card changing fastest;
    cards in ascending order (a rank's cards side by side). Each choice made once, as a
    tuple of its own: no tuple grown a card at a time, no comprehension."""
    first = bytearray(length)  # where each rank's cards start in cards
    many = bytearray(length)  # how many cards of each rank
    for i in range(5):
        k = (cards[i] >> 2) - low
        if 0 <= k < length:
            if not many[k]:
                first[k] = i
            many[k] += 1
    for m in range(mult):
        pick = [0] * length
        x = m  # m in mixed radix, the last rank's digit lowest
        for k in range(length - 1, -1, -1):
            pick[k] = cards[first[k] + x % many[k]]
            x //= many[k]
        items.append(Item(RUN, tuple(pick), length))
