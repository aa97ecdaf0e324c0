"""The play (pegging): score each card as it is laid, and track a whole play for 2-4 players.

Scoring (RULES.md), for the card just laid on `pile` (the cards since the last reset, oldest
first): count 15 -> 2; count 31 -> 2; pairs by the longest equal-rank suffix (2, 6, 12);
runs by the longest suffix of 3+ distinct consecutive ranks, 1 per card. The last-card
point is not part of `score_play`; the tracker adds it.

    score_play(pile) -> int
    play_breakdown(pile) -> [PlayItem(kind, points)]       sums to score_play(pile)
    announce(items) -> "fifteen for 2, run of 3 for 5"     running totals, for a UI

`Play(players, dealer, hands=None, starter=None)` tracks one play. With `hands` (4 cards per
player) it knows every card, lists `playable()` cards and refuses a go while one fits.
Without hands (real cards at a table) it records each card as laid, refuses a card that
would pass 31, was already laid this hand or is the starter, and refuses a go at a count of
21 or less (any card would fit). Read-only state: `turn` (-1 once over), `count`, `pile`,
`gone` (per player: said go in this series), `last` (last to lay in this series, -1 after
a reset), `leader` (who led this series), `resets`, `over`, `points` (per player),
`laid` (cards per player, in order), `actions` ((LAY, player, card) or (GO, player, -1)).
`hands` (known: cards still held, else None). Queries: `cards_left(player)`, `can_go()`,
`playable()` (None for unknown hands), `state()` (a comparable tuple).
Actions return the scoring events as a list of `Event(player, points, reasons)` (reasons
are PlayItems; kinds FIFTEEN, THIRTY_ONE, PAIR, PAIR_ROYAL, DOUBLE_PAIR_ROYAL, RUN,
LAST_CARD): `lay(card, player=None)`, `go(player=None)` (a given player must be the one to
move); `undo()` takes back the last action exactly and returns it. A reset (31, or nobody
able to play) shows as `count == 0` with `turn == leader` leading anew. Misuse raises
IllegalPlayError (or InvalidCardError for a non-card) and changes nothing.

    p = Play(2, dealer=1)                   # unknown hands; player 0 (left of dealer) leads
    p.lay(parse_card("7H"))                 # [] (count 7)
    p.lay(parse_card("8S"))                 # [Event(1, 2, (PlayItem("fifteen", 2),))]
    announce(p.lay(parse_card("9C"))[0].reasons)      # "run of 3 for 3" (count 24)
    p.go()                                  # [] player 1 says go (count 24 > 21)
    p.go()                                  # [Event(0, 1, (PlayItem("last card", 1),))]
    p.count, p.turn                         # (0, 1): reset, player 1 leads
"""

from collections import namedtuple

from cribcore import CoreError
from cribcore.cards import card_name, check_card

FIFTEEN = "fifteen"
THIRTY_ONE = "thirty-one"
PAIR = "pair"
PAIR_ROYAL = "pair royal"
DOUBLE_PAIR_ROYAL = "double pair royal"
RUN = "run"
LAST_CARD = "last card"
# Pair kinds by the number of equal ranks at the end of the pile.
_PAIR_KINDS = (None, None, PAIR, PAIR_ROYAL, DOUBLE_PAIR_ROYAL)

LAY = "lay"
GO = "go"
HAND_CARDS = 4

PlayItem = namedtuple("PlayItem", ("kind", "points"))
LAST = PlayItem(LAST_CARD, 1)  # the last card's point: one item, shared (read, never changed)
Event = namedtuple("Event", ("player", "points", "reasons"))


class IllegalPlayError(CoreError):
    """A card or go that the rules (or the turn) do not allow here."""


def _value(c):
    r = c >> 2
    return r + 1 if r < 9 else 10


def _items(pile, count):
    """PlayItems for the last card of a valid, non-empty pile whose values sum to count: a
    list, or the empty tuple when the card scores nothing (most cards: no list made)."""
    items = ()
    if count == 15:
        items = [PlayItem(FIFTEEN, 2)]
    elif count == 31:
        items = [PlayItem(THIRTY_ONE, 2)]
    n = len(pile)
    last = pile[-1] >> 2
    same = 1
    while same < n and pile[n - 1 - same] >> 2 == last:
        same += 1
    if same > 1:
        # the last two ranks are equal: no run can end here
        return _plus(items, PlayItem(_PAIR_KINDS[same], same * (same - 1)))
    # Grow the suffix leftwards; a repeated rank ends every longer suffix's chance of a run.
    seen = 0
    lo = hi = last
    run = 0
    k = 0
    for i in range(n - 1, -1, -1):
        r = pile[i] >> 2
        if seen >> r & 1:
            break
        seen |= 1 << r
        lo = r if r < lo else lo
        hi = r if r > hi else hi
        k += 1
        if k >= 3 and hi - lo == k - 1:
            run = k
    if run:
        return _plus(items, PlayItem(RUN, run))
    return items


def _plus(items, item):
    """items (a list, or the empty tuple) with item added at the end: a list."""
    if items:
        items.append(item)
        return items
    return [item]


def _check_pile(pile):
    """Return the count of a pile of distinct cards, refusing one that passes 31."""
    count = 0
    for i in range(len(pile)):
        c = check_card(pile[i])
        if c in pile[i + 1:]:
            raise IllegalPlayError("card laid twice: %s" % card_name(c))
        count += _value(c)
    if count > 31:
        raise IllegalPlayError("pile counts %d, past 31: %r" % (count, list(pile)))
    return count


def play_breakdown(pile):
    """The scoring items (kind, points) of the last card of pile, in announcing order."""
    count = _check_pile(pile)
    return list(_items(pile, count)) if len(pile) else []


def score_play(pile):
    """Points for the last card of pile (cards since the last reset, oldest first)."""
    t = 0
    for item in play_breakdown(pile):
        t += item.points
    return t


def label(item):
    """How a player names an item: 'fifteen', 'pair royal', 'run of 4', 'go' (the point of
    the last card laid before a reset: players call it a go, the play's end included)."""
    if item.kind == RUN:
        return "run of %d" % item.points
    return "go" if item.kind == LAST_CARD else item.kind


def announce(items):
    """Running announcement of scoring items: 'fifteen for 2, run of 3 for 5'."""
    out = []
    t = 0
    for item in items:
        t += item.points
        out.append("%s for %d" % (label(item), t))
    return ", ".join(out)


def _check_player_count(players):
    if type(players) is not int or not 2 <= players <= 4:
        raise IllegalPlayError("players must be 2, 3 or 4, got %r" % (players,))


def _check_hands(hands, players, starter):
    if len(hands) != players:
        raise IllegalPlayError("need %d hands, got %r" % (players, hands))
    seen = [] if starter is None else [starter]
    for h in hands:
        if len(h) != HAND_CARDS:
            raise IllegalPlayError("a hand has 4 cards in the play, got %r" % (h,))
        for c in h:
            if check_card(c) in seen:
                raise IllegalPlayError("card dealt twice: %s" % card_name(c))
            seen.append(c)
    return tuple([tuple(h) for h in hands])


class Play:
    """One play (pegging) for 2-4 players, with known or unknown hands (module docstring)."""

    def __init__(self, players, dealer, hands=None, starter=None):
        _check_player_count(players)
        if type(dealer) is not int or not 0 <= dealer < players:
            raise IllegalPlayError("dealer must be 0..%d, got %r" % (players - 1, dealer))
        if starter is not None:
            check_card(starter)
        self.players = players
        self.dealer = dealer
        self.starter = starter
        self.known = hands is not None
        self._dealt = _check_hands(hands, players, starter) if self.known else None
        self._reset()

    def _reset(self):
        n = self.players
        self.hands = [list(h) for h in self._dealt] if self.known else None
        self.turn = self.leader = (self.dealer + 1) % n
        self.count = 0
        self.pile = []
        self.gone = [False] * n
        self.last = -1
        self.resets = 0
        self.over = False
        self.points = [0] * n
        self.laid = [[] for _ in range(n)]
        self.actions = []

    def __repr__(self):
        return "<Play players=%d turn=%d count=%d pile=%r over=%r>" % (
            self.players, self.turn, self.count, self.pile, self.over)

    def state(self):
        """Everything that defines the position, as a tuple (for comparisons and tests)."""
        hands = tuple([tuple(h) for h in self.hands]) if self.known else None
        return (self.turn, self.leader, self.count, tuple(self.pile), tuple(self.gone),
                self.last, self.resets, self.over, tuple(self.points),
                tuple([tuple(c) for c in self.laid]), tuple(self.actions), hands)

    def cards_left(self, player):
        """How many cards player still holds."""
        if self.known:
            return len(self.hands[player])
        return HAND_CARDS - len(self.laid[player])

    def playable(self):
        """Known hands: the current player's cards that fit under 31. Unknown hands: None."""
        if not self.known:
            return None
        if self.over:
            return []
        room = 31 - self.count
        return [c for c in self.hands[self.turn] if _value(c) <= room]

    def can_go(self):
        """Whether the player to move may say go now (no card of theirs fits)."""
        if self.over:
            return False
        if self.known:
            return not self.playable()
        return self.count > 21  # at 21 or less any card (10 at most) fits

    def _check_turn(self, player):
        if self.over:
            raise IllegalPlayError("the play is over")
        if player is not None and player != self.turn:
            raise IllegalPlayError("not player %r's turn (player %d's)" % (player, self.turn))

    def lay(self, card, player=None):
        """The player to move lays card; returns the scoring events (a list of Event)."""
        return self._lay(card, player) or []

    def _lay(self, card, player=None):
        """lay(), its events the empty tuple when the card scores nothing (the game's own
        call, cribcore.game: no empty list made a card)."""
        self._check_turn(player)
        check_card(card)
        p = self.turn
        if self.count + _value(card) > 31:
            raise IllegalPlayError("%s would pass 31 (count %d)" % (card_name(card), self.count))
        if self.known:
            if card not in self.hands[p]:
                raise IllegalPlayError("%s is not in player %d's hand" % (card_name(card), p))
            self.hands[p].remove(card)
        else:
            if card == self.starter:
                raise IllegalPlayError("%s is the starter" % card_name(card))
            for cards in self.laid:
                if card in cards:
                    raise IllegalPlayError("%s was already laid this hand" % card_name(card))
        self.actions.append((LAY, p, card))
        self.laid[p].append(card)
        self.pile.append(card)
        self.count += _value(card)
        self.last = p
        items = _items(self.pile, self.count)
        if self._all_laid():
            if self.count < 31:
                items = _plus(items, LAST)  # 31 is 2 in all, never 2 + 1
            self.over = True
            self.turn = -1
        elif self.count == 31:
            self._new_series(p)
        else:
            nxt = self._next(p)
            if nxt < 0:
                items = _plus(items, LAST)
                self._new_series(p)
            else:
                self.turn = nxt
        return self._event(p, items)

    def go(self, player=None):
        """The player to move says go; returns the events (the last-card point, if due)."""
        return self._go(player) or []

    def _go(self, player=None):
        """go(), its events the empty tuple when nothing is pegged (the game's own call)."""
        self._check_turn(player)
        if not self.can_go():
            raise IllegalPlayError("player %d can still play at count %d" % (
                self.turn, self.count))
        p = self.turn
        self.actions.append((GO, p, -1))
        self.gone[p] = True
        nxt = self._next(p)
        if nxt >= 0:
            self.turn = nxt
            return ()
        # Nobody can play: the last to lay takes the point (31 resets before any go).
        q = self.last
        self._new_series(q)
        return self._event(q, [LAST])

    def undo(self):
        """Take back the last lay or go, restoring exactly the state before it."""
        if not self.actions:
            raise IllegalPlayError("nothing to undo")
        actions = self.actions
        self._reset()
        # Replaying the earlier actions rebuilds every derived field the same way.
        for kind, p, card in actions[:-1]:
            if kind == LAY:
                self.lay(card, p)
            else:
                self.go(p)
        return actions[-1]

    def _all_laid(self):
        for cards in self.laid:
            if len(cards) < HAND_CARDS:
                return False
        return True

    def _next(self, p):
        """The next player after p (p itself last) who holds cards and has not said go."""
        n = self.players
        for i in range(1, n + 1):
            q = (p + i) % n
            if not self.gone[q] and self.cards_left(q):
                return q
        return -1

    def _new_series(self, last):
        self.count = 0
        self.pile = []
        self.gone = [False] * self.players
        self.last = -1
        self.resets += 1
        self.turn = self.leader = self._next(last)

    def _event(self, p, items):
        if not items:
            return ()
        t = 0
        for item in items:
            t += item.points
        self.points[p] += t
        return [Event(p, t, tuple(items))]
