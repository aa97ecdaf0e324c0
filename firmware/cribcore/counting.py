"""The show stage of a Game: counting order, known cards, and each entry counted in turn.

`Game` (cribcore.game) inherits `ShowStage`; this module holds the counting half of its
flow so each module stays small enough to compile on the device. Entries are players in
`show_order()` then CRIB; an entry is counted from its cards, a stated total, or the cards
the game knows (dealt here, or all 4 revealed by the play). The crib ends the hand.
"""

from cribcore.cards import check_card
from cribcore.deal import SHOW, GameError
from cribcore.show import score_show

CRIB = "crib"  # the last entry of show_order()
IMPOSSIBLE_SHOWS = (19, 25, 26, 27)


def show_order(players, dealer):
    """Counting order: left of the dealer first, around to the dealer, then CRIB."""
    return [(dealer + k) % players for k in range(1, players + 1)] + [CRIB]


def check_total(points):
    """Return points if a hand or crib can score it (0..29 but 19, 25, 26, 27)."""
    if type(points) is not int or not 0 <= points <= 29 or points in IMPOSSIBLE_SHOWS:
        raise GameError("no hand scores %r" % (points,))
    return points


def check_show_cards(cards, known, taken):
    """Return cards as a list if they are 4 distinct cards, match known (unless None) and
    avoid taken (cards already accounted for elsewhere this hand)."""
    cards = [check_card(c) for c in cards]
    if len(cards) != 4:
        raise GameError("a hand or crib has 4 cards, got %r" % (cards,))
    if known is not None and sorted(cards) != sorted(known):
        raise GameError("%r does not match the known cards %r" % (cards, known))
    for i in range(4):
        if cards[i] in taken or cards[i] in cards[i + 1:]:
            raise GameError("%r is already accounted for this hand" % (cards[i],))
    return cards


class ShowStage:
    """The show methods of Game (uses its phase, dealer, hands, play, pegging)."""

    def show_order(self):
        """Counting order: left of the dealer first, around to the dealer, then CRIB."""
        return show_order(self.players, self.dealer)

    def show_next(self):
        """The next entry of show_order() to count, or None outside the show (read from
        the dealer and the entries counted: no list of the order made a call)."""
        if self.phase != SHOW:
            return None
        k = len(self.shown)
        if k < self.players:
            return (self.dealer + 1 + k) % self.players
        if k == self.players:
            return CRIB
        raise IndexError("the show is over: %d entries counted" % k)

    def known_cards(self, entry):
        """The 4 cards of a show entry (player or CRIB) if the game knows them, else None."""
        if entry == CRIB:
            return list(self.crib) if self.crib is not None and len(self.crib) == 4 else None
        self._check_player(entry, self.players)
        if self.hands is not None:
            return list(self.hands[entry])
        if self.play is not None and len(self.play.laid[entry]) == 4:
            return list(self.play.laid[entry])  # unknown hands: the play revealed them all
        return None

    def show(self, cards=None, points=None):
        """Count the next entry of show_order(): its cards, a stated total, or known cards."""
        if self.phase != SHOW:
            self._not_now()
        entry = self.show_next()
        if cards is not None and points is not None:
            raise GameError("give the cards or the points, not both")
        if points is not None:
            n = check_total(points)  # the cards known are not read (no copy of them made)
        else:
            known = self.known_cards(entry)
            if cards is None:
                if known is None:
                    raise GameError("the cards of %r are not known: give cards or points"
                                    % (entry,))
                cards = known
            cards = self._check_show(entry, list(cards), known)
            n = score_show(cards, self.starter, entry == CRIB)
        player = self.dealer if entry == CRIB else entry
        self._history[-1].append(("show", cards if cards is None else tuple(cards), points))
        self.shown.append((entry, cards, n))
        rec = self._peg(self.side_of(player), player, n, "crib" if entry == CRIB else "hand")
        if self.winner < 0 and entry == CRIB:
            self._next_hand()
        return self._step([rec])

    def _check_show(self, entry, cards, known):
        # Cards seen elsewhere this hand (starter, shown, laid by others) cannot be here.
        taken = [self.starter]
        for _entry, shown, _points in self.shown:
            taken += shown or []
        if self.play is not None:
            for p in range(self.players):
                if p != entry:
                    taken += self.play.laid[p]
        cards = check_show_cards(cards, known, taken)
        if entry != CRIB and self.play is not None:
            for c in self.play.laid[entry]:
                if c not in cards:
                    raise GameError("%r was laid by player %d in the play" % (c, entry))
        return cards

