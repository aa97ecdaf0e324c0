"""The play (pegging) of two players on ranks: a fast simulator, three play policies,
and the expected pegging of every kept four-card hand (docs/advisor.md).

Suits never score in the play, so everything here works on ranks 0..12. The points of a
card laid come from cribcore.play.score_play (the one source of truth), memoised by the
ranks of the pile since the count was last 0. `play_out` follows cribcore.play.Play's turn
order exactly (a go, the last card, 31, a new series led by the next player who holds
cards); the tests check it against Play.

The greedy policy (the practice level "standard" plays it, the 3-4 player table's policy
and the search's after its first card): lay the card that scores most now, less 2 when it
leaves the count at 5 or 21 (where a ten-card makes 15 or 31); ties go to the higher value,
then the higher rank. The defensive policy: the points now less the opponent's expected
best answer (reply_risk); it leads low and gives little away. The lookahead policy (the
two-player table's, issue 38) sees its own hand: one card of each side further (the
opponent's answer, then its own), at its first card and at every lead, defensive elsewhere.

The pegging table (`pegging_table.txt`, made by bench/pegging_table.py): for each of the
1,820 multisets of 4 ranks kept, as pone and as dealer, the points the holder pegs and the
points the opponent pegs, both playing TABLE_POLICY, over every 4-card hand the opponent can
hold from the 48 other cards. A table made with `--keeps` (the shipped one, issue 38) weighs
each opponent hand by how often a pro opponent in its seat keeps its ranks
(`pegging_keeps.txt`, keep_weights): a row holds, per seat, the weighted totals of mine
and theirs and the total weight (6 integers). A table without it (4 integers) counts each of
the C(48, 4) = 194,580 hands once (divide by TABLE_HANDS). Either way the values are exact
sums; row_values divides them.
"""

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from math import comb, lcm
from pathlib import Path

from cribcore.play import score_play

VALUE = tuple(r + 1 if r < 9 else 10 for r in range(13))
TABLE_HANDS = comb(48, 4)  # the opponent's hands each table entry averages over
TABLE_FILE = Path(__file__).with_name("pegging_table.txt")
KEEPS_FILE = Path(__file__).with_name("pegging_keeps.txt")  # the shipped table's weights

_POINTS: dict = {}


def pile_points(pile: tuple[int, ...]) -> int:
    """score_play for a pile of ranks (cards since the count was last 0), memoised."""
    pts = _POINTS.get(pile)
    if pts is None:
        seen = [0] * 13
        cards = []
        for r in pile:  # the k-th card of a rank gets suit k: distinct cards, same ranks
            cards.append(r << 2 | seen[r])
            seen[r] += 1
        pts = _POINTS[pile] = score_play(cards)
    return pts


_GREEDY: dict = {}


def greedy(fits: list[int], pile: tuple[int, ...], count: int) -> int:
    """The greedy policy's rank among fits (ranks that fit under 31 at count), memoised."""
    key = (tuple(fits), pile)  # the pile gives the count
    r = _GREEDY.get(key)
    if r is None:
        r = _GREEDY[key] = _greedy(fits, pile, count)
    return r


def _greedy(fits: Iterable[int], pile: tuple[int, ...], count: int) -> int:
    def key(r: int) -> tuple[int, int, int]:
        n = count + VALUE[r]
        return pile_points(pile + (r,)) - (2 if n in (5, 21) else 0), VALUE[r], r
    return max(fits, key=key)  # fits is never empty; keys differ (r is the last)


# The defensive policy's view of the opponent: REPLY_CARDS cards from a nominal full deck
# (4 of each rank). Its best reply is weighed, not its hand: the policy knows nothing of it.
REPLY_CARDS = 3
_DECK = 52
_REPLY: dict = {}


def reply_risk(pile: tuple[int, ...]) -> Fraction:
    """The opponent's expected best points in answer to pile (ranks since the count was 0):
    the average over REPLY_CARDS cards of a full deck of the most any of them scores."""
    risk = _REPLY.get(pile)
    if risk is None:
        count = sum(VALUE[r] for r in pile)
        if count == 31:
            risk = Fraction(0)  # a new series: nothing to answer
        else:
            n = _DECK - len(pile)  # the deck less the cards laid (unfit ones score 0)
            pts = sorted((pile_points(pile + (q,)) for q in range(13)
                          if count + VALUE[q] <= 31 for _ in range(4 - pile.count(q))),
                         reverse=True)
            # the i-th best card held and none better: C(n - 1 - i, k - 1) of the hands
            risk = Fraction(sum(v * comb(n - 1 - i, REPLY_CARDS - 1)
                                for i, v in enumerate(pts)), comb(n, REPLY_CARDS))
        _REPLY[pile] = risk
    return risk


_DEFENSIVE: dict = {}


def defensive(fits: list[int], pile: tuple[int, ...], count: int) -> int:
    """The defensive policy's rank among fits, memoised: the points the card makes now less
    the opponent's expected best reply to it (reply_risk). It leads low (under a 5 nothing
    makes 15), keeps off 5 and 21, and lays no card a run or a 15 answers cheaply; ties go to
    the higher value, then the higher rank (shed the cards that cannot lead safely)."""
    key = (tuple(fits), pile)
    r = _DEFENSIVE.get(key)
    if r is None:
        def score(q: int) -> tuple[Fraction, int, int]:
            grown = pile + (q,)
            return pile_points(grown) - reply_risk(grown), VALUE[q], q
        r = _DEFENSIVE[key] = max(fits, key=score)
    return r


_RISK: dict = {}


def _risk(pile: tuple[int, ...]) -> float:
    """reply_risk as a float, memoised (the lookahead's inner loop)."""
    v = _RISK.get(pile)
    if v is None:
        v = _RISK[pile] = float(reply_risk(pile))
    return v


_PREFER: dict = {}


def _prefer(pile: tuple[int, ...]) -> tuple[int, ...]:
    """The ranks that fit on pile in the defensive policy's order of preference, memoised."""
    order = _PREFER.get(pile)
    if order is None:
        count = sum(VALUE[r] for r in pile)
        order = _PREFER[pile] = tuple(sorted(
            (q for q in range(13) if count + VALUE[q] <= 31 and pile.count(q) < 4),
            key=lambda q: (pile_points(pile + (q,)) - _risk(pile + (q,)), VALUE[q], q),
            reverse=True))
    return order


def _opp_choices(pile: tuple[int, ...], shown: Sequence[int], k: int
                 ) -> list[tuple[float, int]]:
    """[(probability, rank)] of the opponent's answer to pile when it holds k cards drawn
    from a full deck less the ranks of pile and shown (the cards the player can see) and
    answers by the defensive policy's order; rank -1 is its go (no card fits)."""
    left = [4] * 13
    for r in pile:
        left[r] -= 1
    for r in shown:
        left[r] -= 1
    n = sum(left)
    whole = comb(n, k)
    out = []
    above = 0  # cards of the ranks the opponent prefers to q
    for q in _prefer(pile):
        if left[q]:
            out.append(((comb(n - above, k) - comb(n - above - left[q], k)) / whole, q))
            above += left[q]
    out.append((comb(n - above, k) / whole, -1))
    return out


def _run_alone(hand: Sequence[int], pile: tuple[int, ...]) -> int:
    """The points of laying hand's fitting cards greedily on pile while the opponent can
    lay nothing, and the last card's point (the series ends with them)."""
    count = sum(VALUE[r] for r in pile)
    rest = list(hand)
    pts = 0
    while True:
        fits = [r for r in rest if count + VALUE[r] <= 31]
        if not fits:
            return pts + (1 if count < 31 else 0)
        r = max(fits, key=lambda q: (pile_points(pile + (q,)), VALUE[q], q))
        rest.remove(r)
        pile += (r,)
        count += VALUE[r]
        pts += pile_points(pile)


_LOOKAHEAD: dict = {}
# The lookahead weighs a player's cards while it holds at least LOOK_CARDS of them (4: its
# first card, the lead or the first answer) and at every lead; elsewhere it lays
# defensive. Looking ahead on every card measured about as well on the play bench
# (bench/policy.py) but is ~40 times slower to tabulate (millions of positions: hours for
# the table); later leads are few positions (no pile), and the defensive policy lost there.
LOOK_CARDS = 4


def lookahead(fits: list[int], pile: tuple[int, ...], count: int, hand: Sequence[int] = (),
              opp_left: int = 4, opp_gone: bool = False) -> int:
    """The lookahead policy's rank among fits (two players), memoised: for each card, the
    points it makes now, less the opponent's answer (drawn as its opp_left cards from a full
    deck less what the player sees, laid by the defensive order), plus this player's best
    answer to that from the rest of hand (its points less reply_risk, or -1 for a go);
    after the opponent's go, the points of laying the rest alone. It sees its own hand,
    so it leads from a pair, keeps a card that answers the opponent's likely reply, and
    holds back what would set the opponent up (issue 38). Floats: the values only rank.
    With fewer than LOOK_CARDS cards held, and a pile, it lays as defensive does."""
    hand = tuple(hand) or tuple(fits)
    if len(hand) < LOOK_CARDS and pile:
        return defensive(fits, pile, count)
    key = (hand, pile, opp_left, opp_gone)
    r = _LOOKAHEAD.get(key)
    if r is None:
        if len(set(fits)) == 1:
            r = fits[0]
        else:
            r = max(set(fits), key=lambda q: (
                _look_value(q, hand, pile, count, opp_left, opp_gone), VALUE[q], q))
        _LOOKAHEAD[key] = r
    return r


lookahead.sees_hand = True  # type: ignore[attr-defined]


def lay_rank(policy: Callable, fits: list[int], pile: tuple[int, ...], count: int,
             hand: Sequence[int], opp_left: int, opp_gone: bool) -> int:
    """The rank policy lays among fits (two players): a policy that sees its hand (the
    table's, lookahead) is given the hand and the opponent's cards left and go, the others
    the pile alone. For the benches that lay a real play by a policy (play_out asks the
    policy itself, once told whether it sees its hand)."""
    if getattr(policy, "sees_hand", False):
        return policy(fits, pile, count, tuple(sorted(hand)), opp_left, opp_gone)
    return policy(fits, pile, count)


def _look_value(q: int, hand: tuple[int, ...], pile: tuple[int, ...], count: int,
                opp_left: int, opp_gone: bool) -> float:
    rest = list(hand)
    rest.remove(q)
    grown = pile + (q,)
    now = count + VALUE[q]
    value = float(pile_points(grown))
    if now == 31:
        return value
    if opp_gone or not opp_left:
        return value + _run_alone(rest, grown)
    for p, o in _opp_choices(grown, rest, opp_left):
        if not p:
            continue
        if o < 0:
            value += p * _run_alone(rest, grown)
            continue
        answered = grown + (o,)
        value -= p * pile_points(answered)
        total = now + VALUE[o]
        if total == 31:
            continue
        best = None
        for s in rest:
            if total + VALUE[s] <= 31:
                v = pile_points(answered + (s,)) - _risk(answered + (s,))
                if best is None or v > best:
                    best = v
        value += p * (-1 if best is None else best)  # a go: the point is likely theirs
    return value


_ORDER = {n: [[(p + i) % n for i in range(1, n + 1)] for p in range(n)] for n in (2, 3, 4)}


def _next(h: Sequence[Sequence[int]], gone: Sequence[bool], after: Sequence[int]) -> int:
    """The next player in `after` (those after p, p itself last) who holds cards and has
    not said go, or -1 (cribcore.play.Play's turn order)."""
    for q in after:
        if h[q] and not gone[q]:
            return q
    return -1


def play_out(hands: Sequence[Sequence[int]], turn: int, count: int = 0,
             pile: tuple[int, ...] = (), gone: Sequence[bool] | None = None, last: int = -1,
             first: int | None = None, policy: Callable = greedy) -> list[int]:
    """[points of each player] for the rest of a play of 2-4 players (len(hands)).

    hands: the ranks each player still holds (players in turn order, player 0 left of the
    dealer); turn: the player to act now; count, pile (ranks since the last reset), gone
    (who said go in this series, default nobody), last (who laid last) describe the series;
    first: the rank the player to act lays now (it must fit), then everyone follows
    policy(fits, pile, count) to the end.
    """
    h = [sorted(x) for x in hands]
    n = len(h)
    fresh = [False] * n
    order = _ORDER[n]
    gone = list(gone) if gone else list(fresh)
    left = sum(len(x) for x in h)
    points = [0] * n
    sees = n == 2 and getattr(policy, "sees_hand", False)
    while True:
        p = turn
        mine = h[p]
        if first is None:
            fits = [r for r in mine if count + VALUE[r] <= 31]
            if not fits:
                r = None
            elif sees:  # two players: the policy sees its hand and the other's card count
                r = policy(fits, pile, count, tuple(mine), len(h[1 - p]), gone[1 - p])
            else:
                r = policy(fits, pile, count)
        else:
            r, first = first, None
        if r is None:  # a go
            gone[p] = True
            turn = _next(h, gone, order[p])
            if turn >= 0:
                continue
            points[last] += 1  # nobody can lay: the last card
            count, pile, gone = 0, (), list(fresh)
            turn = _next(h, gone, order[last])  # the next who holds cards leads
            last = -1
            continue
        mine.remove(r)
        left -= 1
        pile = pile + (r,)
        count += VALUE[r]
        last = p
        points[p] += pile_points(pile)
        if not left:
            if count < 31:
                points[p] += 1
            return points
        turn = -1 if count == 31 else _next(h, gone, order[p])
        if turn < 0:
            if count < 31:
                points[p] += 1  # the last card of the series
            count, pile, gone = 0, (), list(fresh)
            turn = _next(h, gone, order[p])
            last = -1


TABLE_POLICY = lookahead  # the policy both seats play in the shipped two-player table


def multisets4() -> list[tuple[int, int, int, int]]:
    """Every sorted 4-tuple of ranks (the 1,820 rank patterns of a kept hand)."""
    return [(a, b, c, d) for a in range(13) for b in range(a, 13) for c in range(b, 13)
            for d in range(c, 13)]


def _counts(ranks: Iterable[int]) -> list[int]:
    n = [0] * 13
    for r in ranks:
        n[r] += 1
    return n


def ways(ranks: Sequence[int], taken: Sequence[int]) -> int:
    """Ways to hold the ranks as cards when taken[r] cards of each rank are already out."""
    w = 1
    n = _counts(ranks)
    for r in set(ranks):
        w *= comb(4 - taken[r], n[r])
    return w


def dealt_ways(ranks: Sequence[int]) -> int:
    """How many 4-card hands of a full deck have these ranks (its suit-ways)."""
    return ways(ranks, [0] * 13)


def read_keeps(path: Path = KEEPS_FILE) -> dict[tuple[int, ...], tuple[int, int]]:
    """{4 ranks: (times the pone kept them, times the dealer did)} from a keeps file made by
    bench/pegging_table.py --sample-keeps (its counts by fold, summed)."""
    out = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            v = [int(x) for x in line.split()]
            n = (len(v) - 4) // 2
            out[tuple(v[:4])] = (sum(v[4:4 + n]), sum(v[4 + n:]))
    return out


# Every rank pattern's suit-ways divides this (4^4, 6 x 4^2, 6^2, 4^2, 1): the weights stay
# integers when a pattern's count is shared among its specific hands.
KEEP_SCALE = lcm(*(dealt_ways(k) for k in multisets4()))


def keep_weights(counts: dict[tuple[int, ...], int]) -> dict[tuple[int, ...], int]:
    """{opponent ranks: the weight of each specific hand with them} from how often the
    opponent's seat keeps each rank pattern: the pattern's count shared equally among its
    suit-ways in a full deck (x KEEP_SCALE to stay an integer). The full deck, not the cards
    left: the opponent keeps a pattern at that rate before your cards are known, and each of
    its specific hands is equally likely; holding your cards removes the hands that use them
    (hand_totals multiplies by the ways left), which is the probability given your hand."""
    return {k: c * (KEEP_SCALE // dealt_ways(k)) for k, c in counts.items()}


def hand_totals(ranks: Sequence[int], others: Iterable[Sequence[int]] | None = None,
                policy: Callable | None = None,
                weights: tuple[dict, dict] | None = None) -> tuple[int, ...]:
    """(pone mine, pone theirs, dealer mine, dealer theirs) for 4 kept ranks, each the total
    points over every opponent hand (TABLE_HANDS of them), both playing policy (default
    TABLE_POLICY): one table row. With weights (the opponent's keep_weights when it is the
    dealer, then when it is the pone) each opponent hand counts its weight instead of once,
    and the row is (pone mine, theirs, weight, dealer mine, theirs, weight)."""
    policy = policy or TABLE_POLICY
    ranks = tuple(sorted(ranks))
    taken = _counts(ranks)
    out = [0] * 6
    for opp in others or multisets4():
        w = ways(opp, taken)
        if not w:
            continue
        wp, wd = (w * weights[0].get(tuple(opp), 0), w * weights[1].get(tuple(opp), 0)) \
            if weights else (w, w)
        a, b = play_out((ranks, opp), 0, policy=policy)  # as pone: the pone leads
        out[0] += wp * a
        out[1] += wp * b
        out[2] += wp
        a, b = play_out((opp, ranks), 0, policy=policy)  # as dealer: the opponent leads
        out[3] += wd * b
        out[4] += wd * a
        out[5] += wd
    return tuple(out) if weights else (out[0], out[1], out[3], out[4])


_WEIGHTS = None


def table_weights() -> tuple[dict, dict]:
    """The shipped table's opponent weights (hand_totals' weights): the dealer's keeps for
    the pone's row, the pone's for the dealer's, read once from KEEPS_FILE."""
    global _WEIGHTS
    if _WEIGHTS is None:
        counts = read_keeps()
        _WEIGHTS = (keep_weights({k: c[1] for k, c in counts.items()}),
                    keep_weights({k: c[0] for k, c in counts.items()}))
    return _WEIGHTS


def row_values(row: Sequence[int], dealer: bool) -> tuple[Fraction, Fraction]:
    """(points you peg, points the opponent pegs) from a table row for the seat: 4 integers
    (totals over TABLE_HANDS) or 6 (weighted totals and the weight of each seat)."""
    if len(row) == 4:
        c = 2 if dealer else 0
        return Fraction(row[c], TABLE_HANDS), Fraction(row[c + 1], TABLE_HANDS)
    c = 3 if dealer else 0
    return Fraction(row[c], row[c + 2]), Fraction(row[c + 1], row[c + 2])


def row_net(row: Sequence[int], dealer: bool) -> Fraction:
    """The net play (you less the opponent) a table row gives the seat."""
    mine, theirs = row_values(row, dealer)
    return mine - theirs


def read_rows(path: Path) -> dict[tuple[int, ...], tuple[int, ...]]:
    """{4 ranks: the row's integer totals} from a shipped pegging table ('#' comments)."""
    rows = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            v = [int(x) for x in line.split()]
            rows[tuple(v[:4])] = tuple(v[4:])
    return rows


_TABLE = None


def table() -> dict[tuple[int, ...], tuple[int, ...]]:
    """{sorted 4 ranks: the row's integer totals} read once from the shipped table
    (row_values divides them)."""
    global _TABLE
    if _TABLE is None:
        _TABLE = read_rows(TABLE_FILE)
    return _TABLE


def expected_pegging(ranks: Sequence[int], dealer: bool) -> tuple[Fraction, Fraction]:
    """(points you peg, points the opponent pegs) as exact Fractions for 4 kept ranks."""
    return row_values(table()[tuple(sorted(ranks))], dealer)
