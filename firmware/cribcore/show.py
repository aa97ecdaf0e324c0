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
        if cards[i] in cards[i + 1:]:
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


def show_breakdown(hand, starter, crib=False):
    """The scoring items (kind, cards, points) in counting order; points sum to the total.

    Cards inside an item are sorted, and items of a kind sorted by their cards (fifteens by
    size first), so the breakdown depends only on the cards, not on their order.
    """
    cards = _check(hand, starter)
    values = [_sum_values((c,)) for c in cards]
    fifteens = []
    for mask in range(3, 32):
        total = n = 0  # summed in place: no list made for each of the 29 choices
        for i in range(5):
            if mask >> i & 1:
                total += values[i]
                n += 1
        if n > 1 and total == 15:
            fifteens.append(tuple(sorted([cards[i] for i in range(5) if mask >> i & 1])))
    fifteens.sort(key=lambda c: (len(c), c))  # the way people count: two-card fifteens first
    pairs = []
    counts = [0] * 13
    for i in range(5):
        counts[cards[i] >> 2] += 1
        for j in range(i + 1, 5):
            if cards[i] >> 2 == cards[j] >> 2:
                pairs.append(tuple(sorted((cards[i], cards[j]))))
    low, length, _ = _run(counts)
    items = [Item(FIFTEEN, c, 2) for c in fifteens]
    items += [Item(PAIR, c, 2) for c in sorted(pairs)]
    if length:
        items += [Item(RUN, c, length) for c in _run_combos(cards, low, length)]
    flush = _flush(cards, crib)
    if flush:
        items.append(Item(FLUSH, tuple(sorted(cards[:flush])), flush))
    nobs = (JACK << 2) | (cards[4] & 3)
    if nobs in cards[:4]:
        items.append(Item(NOBS, (nobs,), 1))
    return items


def _sum_values(cards):
    t = 0
    for c in cards:
        r = c >> 2
        t += r + 1 if r < 9 else 10
    return t


def _run_combos(cards, low, length):
    """Each choice of one card per rank low..low+length-1, sorted (no recursion)."""
    combos = [()]
    for r in range(low, low + length):
        group = sorted([c for c in cards if c >> 2 == r])
        combos = [prev + (c,) for prev in combos for c in group]
    return combos
