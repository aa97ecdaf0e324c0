"""What every answer needs of a game's standing entries, kept up to date as entries are
added instead of made again from the whole record at each question (which grew with the
game: the last answers of a game were the slowest on the chip, docs/image.md). It holds
the current hand's entries and a few folds, never the whole game: a board's record keeps
the game's entries on flash, not in the heap (pegboard.flashrecord).

    s = Standing(sides, source)   # source: () -> every standing entry (the record's:
                                  # read only for a hand not the current one)
    s.add(entry)              # each entry as it is appended (Table.took), or all of them
                              # in order after an undo or a restart (Table.rebuild)
    s.update(entries)         # or: fold in the entries added to a list since the last call
    s.hand_entries(hand)      # the standing entries of a hand
    s.backs                   # each side's back peg: its score before its last jump
    s.context(hand)           # cards known this hand: (dealt, lent), as Turns.context
    s.typed_play(hand)        # whether the hand's play points are typed
    s.last_show, s.show_done  # the last show entry; whether an entry since names it
                              # (for_seq: its muggins claimed or passed)

update() folds in only the entries appended to the same list since the last call; any
other list (an undo's new one, another record's) is folded again from its first entry, so
what it holds is always what a fresh pass over the entries would give
(tests/core_table/test_standing.py checks that across undo, redo and restarts).
"""

from cribcore.cards import parse_card


class Standing:
    """The folds of a game's standing entries (module docstring). Read what it hands
    out, never change it: the lists and dicts are its own."""

    def __init__(self, sides=2, source=None):
        self.sides = sides
        self._source = source  # () -> every standing entry, for a hand not kept (rare)
        self._list = None  # the entries list update() folded, how many of it, its last
        self._n = 0
        self._last = None
        self._reset()

    def _reset(self):
        self.backs = [0] * self.sides
        self._totals = [0] * self.sides
        self._hand = -1  # the hand of the last entry folded
        self._ordered = True  # hands never went down (else hand_entries scans)
        self._entries = []  # the standing entries of hand self._hand
        self._dealt = {}  # player -> (cards, discard), of hand self._hand
        self._lent = {}  # card laid -> whether its suit was lent, of hand self._hand
        self._typed = False  # hand self._hand's play is typed as points (a note says so)
        self._context = None  # (self._dealt, self._lent) as context() last handed them out
        self.last_show = None  # the last show entry folded
        self.show_done = False  # an entry after it names it (for_seq): its muggins settled

    def forget(self):
        """Hold no entry (a retired table's)."""
        self._list, self._n, self._last = None, 0, None
        self._reset()

    def update(self, entries):
        """Fold in the entries added to `entries` since the last call (all of them when it
        is not the list folded before, or that list changed other than by appends)."""
        n, k = len(entries), self._n
        if entries is not self._list or n < k or (k and entries[k - 1] is not self._last):
            self._list = entries
            self._reset()
            k = 0
        for i in range(k, n):
            self.add(entries[i])
        self._n = n
        self._last = entries[n - 1] if n else None

    def add(self, e):
        """Fold in the next standing entry (in the record's order)."""
        side = e.side
        if e.points > 0 and side is not None:
            if side >= len(self.backs):  # more sides than said: grown to fit
                self.backs += [0] * (side + 1 - len(self.backs))
                self._totals += [0] * (side + 1 - len(self._totals))
            self.backs[side] = self._totals[side]
            self._totals[side] += e.points
        hand = e.hand
        if hand != self._hand:
            if hand < self._hand:
                self._ordered = False
            self._hand = hand
            self._entries = []
            self._dealt, self._lent = {}, {}
            self._typed = False
        self._entries.append(e)
        kind = e.kind
        if kind == "note" and e.info.get("typed_play"):
            self._typed = True
        if kind == "show":
            self.last_show, self.show_done = e, False
        elif self.last_show is not None and e.info.get("for_seq") == self.last_show.seq:
            self.show_done = True
        # changed in place (a new pair each hand): no copy of either dict a card laid. A
        # parser holds the dicts of the question it was made for, and only the open
        # question's parser is ever called (the engine refuses an answer to another), so
        # none reads them after an entry of its hand changed them
        if kind == "dealt" and e.info.get("cards"):
            _known(e, self._dealt, None)
        elif kind == "lay":
            _known(e, None, self._lent)

    def hand_entries(self, hand):
        """The standing entries of a hand, in order (a list of its own when the hand is
        not the last one folded)."""
        if self._ordered:
            if hand == self._hand:
                return self._entries
            if hand > self._hand:
                return []
        every = self._list if self._list is not None else \
            self._source() if self._source is not None else ()
        return [e for e in every if e.hand == hand]

    def typed_play(self, hand):
        """Whether a hand's play points are typed (a note of the hand says so)."""
        if hand == self._hand and self._ordered:
            return self._typed
        return any(e.kind == "note" and e.info.get("typed_play")
                   for e in self.hand_entries(hand))

    def context(self, hand):
        """(dealt, lent) of a hand (Turns.context): the same two dicts until an entry of
        the hand changes them."""
        if hand == self._hand and self._ordered:
            both = self._context  # the same pair while neither changed: no tuple a call
            if both is None or both[0] is not self._dealt or both[1] is not self._lent:
                both = self._context = (self._dealt, self._lent)
            return both
        dealt, lent = {}, {}
        for e in self.hand_entries(hand):
            _known(e, dealt, lent)
        return dealt, lent


def _known(e, dealt, lent):
    """What an entry tells of the cards of its hand, into dealt (a player's dealt cards
    and discard) or lent (a card laid: whether its suit was lent)."""
    if e.kind == "dealt" and e.info.get("cards") and dealt is not None:
        dealt[e.player] = ([parse_card(c) for c in e.info["cards"]],
                           [parse_card(c) for c in e.info["discard"]])
    elif e.kind == "lay" and lent is not None:
        lent[parse_card(e.info["card"])] = e.info["lent"]
