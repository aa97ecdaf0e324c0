"""The show: score 4 hand cards plus the starter, as a total or itemised (RULES.md)."""

from cribcore.cards import InvalidCardError, check_card

try:
    from collections import namedtuple
except ImportError:  # pragma: no cover - every MicroPython port we target has it
    from ucollections import namedtuple

FIFTEEN = "fifteen"
PAIR = "pair"
RUN = "run"
FLUSH = "flush"
NOBS = "nobs"
# Counting order at the table: fifteens, pairs, runs, flush, nobs.
KINDS = (FIFTEEN, PAIR, RUN, FLUSH, NOBS)

Item = namedtuple("Item", ("kind", "cards", "points"))

_JACK = 10


def _check(hand, starter):
    if len(hand) != 4:
        raise InvalidCardError("a hand has 4 cards, got %d" % len(hand))
    cards = [check_card(c) for c in hand]
    cards.append(check_card(starter))
    for i in range(4):
        if cards[i] in cards[i + 1:]:
            raise InvalidCardError("card given twice: %r" % (cards[i],))
    return cards


def _run_points(counts):
    """Runs from a 13-slot rank histogram: (length, multiplicity) of the maximal run."""
    r = 0
    while r < 13:
        if counts[r] == 0:
            r += 1
            continue
        start = r
        mult = 1
        while r < 13 and counts[r]:
            mult *= counts[r]
            r += 1
        if r - start >= 3:
            return r - start, mult  # five cards hold at most one run of 3+
    return 0, 0


def _flush_nobs(cards, crib):
    """Flush and nobs points for cards = hand + [starter]."""
    s = cards[4] & 3
    pts = 0
    h = cards[0] & 3
    if (cards[1] & 3) == h and (cards[2] & 3) == h and (cards[3] & 3) == h:
        if h == s:
            pts = 5
        elif not crib:
            pts = 4
    for c in cards[:4]:
        if c >> 2 == _JACK and (c & 3) == s:
            pts += 1
    return pts


def score_show(hand, starter, crib=False):
    """Points for 4 hand (or crib) cards with the starter."""
    cards = _check(hand, starter)
    ways = [1] + [0] * 15
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
    length, mult = _run_points(counts)
    return pts + length * mult + _flush_nobs(cards, crib)


def show_breakdown(hand, starter, crib=False):
    """The scoring items (kind, cards, points) in counting order; points sum to the total."""
    cards = _check(hand, starter)
    items = []
    for mask in range(3, 32):
        subset = [cards[i] for i in range(5) if mask >> i & 1]
        if len(subset) > 1 and _sum_values(subset) == 15:
            items.append(Item(FIFTEEN, tuple(subset), 2))
    for i in range(5):
        for j in range(i + 1, 5):
            if cards[i] >> 2 == cards[j] >> 2:
                items.append(Item(PAIR, (cards[i], cards[j]), 2))
    counts = [0] * 13
    for c in cards:
        counts[c >> 2] += 1
    length, _ = _run_points(counts)
    if length:
        for combo in _run_combos(cards, length):
            items.append(Item(RUN, combo, length))
    fn = _flush_nobs(cards, crib)
    nobs = [c for c in cards[:4] if c >> 2 == _JACK and (c & 3) == (cards[4] & 3)]
    if fn - len(nobs):
        flush = cards if fn - len(nobs) == 5 else cards[:4]
        items.append(Item(FLUSH, tuple(flush), fn - len(nobs)))
    for c in nobs:
        items.append(Item(NOBS, (c,), 1))
    return items


def _sum_values(cards):
    t = 0
    for c in cards:
        r = c >> 2
        t += r + 1 if r < 9 else 10
    return t


def _run_combos(cards, length):
    """Each choice of one card per rank of the run, sorted by rank (no recursion)."""
    ranks = sorted(set([c >> 2 for c in cards]))
    low = 0
    for i in range(len(ranks)):
        if ranks[i:i + length] == list(range(ranks[i], ranks[i] + length)):
            low = ranks[i]
            break
    combos = [()]
    for r in range(low, low + length):
        group = sorted([c for c in cards if c >> 2 == r])
        combos = [prev + (c,) for prev in combos for c in group]
    return combos
