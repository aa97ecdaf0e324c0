"""The parts of the engine's view (cribcore.table.engine, TableEngine.view) made again
only when they changed since the view before: the scores and pegs, the names of each
player's cards laid, the pile, the hands shown. `Parts` keeps them for one game's table;
an unchanged part is the view before's own list, a changed one is made anew, its lists of
their exact size, filled in place (no comprehension or zip: on MicroPython each makes a
function, a closure or tuples of its own).

What the game holds of a hand's cards only grows: a player's cards laid, the pile and the
hands shown are lists appended to (cribcore.play, cribcore.counting), and new lists when
they start again (a new hand, the pile after a go or 31, the game rebuilt for an undo).
So a part is unchanged when its source is the same list with as many items: the check
looks at no card (a card's name, once laid, never changes: its suit was lent or not when
it was laid), and what it keeps is updated in place (no tuple a view). A view's lists are
shared with the views after it while they are unchanged: read them, never change them.
And so are its dicts (`Parts.view`): when nothing in the hand changed, the view's "hand"
is the view before's own dict, and when nothing in the view changed (about one answer in
five: a confirmation, a count said), the view is the view before itself. A screen's patch
(cribcore.table.patch) compares the two by value: the same object is equal at once.
"""

from cribcore.cards import CARD_NAMES
from cribcore.table.ranks import rank_name

NOTHING = ()  # the source of a hand's pile before its play (the same object each view)


class Parts:
    """The last view's parts of one table (module docstring)."""

    def __init__(self, table):
        self.table = table
        self.scores = self.pegs = None
        self.pile_of, self.pile_n, self.pile = None, 0, None
        self.laid_of, self.laid_n, self.laid = None, None, None
        self.shown_of, self.shown_n, self.shown = None, 0, None
        self.hand = self.last = None  # the view before's hand and the view itself

    def view(self, names, sides, g, starter, count, turn, result):
        """The view (cribcore.table.engine, TableEngine.view) of this table, the parts
        made (scored, cards, counted) and the rest given (names, sides: the game's own
        lists; g: its Game; starter: its name; result: None but once the game is over):
        the view before itself, or its hand, when nothing in it changed. Nothing is
        allocated to find that out (a look at each field)."""
        table = self.table
        hand = self.hand
        number, phase = g.hand_no + 1, g.phase
        if (hand is None or hand["pile"] is not self.pile or hand["laid"] is not self.laid
                or hand["shown"] is not self.shown or hand["count"] != count
                or hand["turn"] != turn or hand["number"] != number
                or hand["phase"] != phase or hand["starter"] != starter):
            hand = self.hand = {"number": number, "phase": phase, "starter": starter,
                                "count": count, "pile": self.pile, "laid": self.laid,
                                "turn": turn, "shown": self.shown}
        last = self.last
        if (result is None and last is not None and last["hand"] is hand
                and last["scores"] is self.scores and last["pegs"] is self.pegs
                and last["names"] is names and last["sides"] is sides
                and last["dealer"] == g.dealer and last["over"] == g.over
                and last["winner"] == g.winner and last["result"] is None
                and last["game"] == table.game_id and last["target"] == table.target
                and last["offline"] == table.offline):
            return last
        last = self.last = {
            "game": table.game_id, "names": names, "sides": sides, "target": table.target,
            "scores": self.scores, "pegs": self.pegs, "dealer": g.dealer, "over": g.over,
            "winner": g.winner, "result": result, "offline": table.offline, "hand": hand}
        return last

    def scored(self, backs, scores):
        """The scores and pegs ([[back, front] of each side]) as lists kept in self."""
        pegs = self.pegs
        n = min(len(backs), len(scores))
        if pegs is not None and len(pegs) == n and len(scores) == n:
            for i in range(n):
                if pegs[i][0] != backs[i] or pegs[i][1] != scores[i]:
                    break
            else:
                return
        out = [None] * n
        for i in range(n):
            out[i] = [backs[i], scores[i]]
        self.scores, self.pegs = list(scores), out

    def cards(self, pile, laid, lent, players):
        """The pile's names and each player's cards laid, kept in self; pile NOTHING and
        laid None before the play (players: how many empty lists)."""
        if self.pile_of is not pile or self.pile_n != len(pile):
            self.pile_of, self.pile_n, self.pile = pile, len(pile), names(pile, lent)
        if laid is None:
            if self.laid_of is not None or self.laid is None or len(self.laid) != players:
                out = [None] * players
                for i in range(players):
                    out[i] = []
                self.laid_of, self.laid_n, self.laid = None, None, out
            return
        n = len(laid)
        counts = self.laid_n
        old = self.laid if self.laid_of is laid and counts is not None else None
        if old is not None:
            for i in range(n):
                if counts[i] != len(laid[i]):
                    break
            else:
                return
        if old is None:
            counts = bytearray(n)  # how many each player had laid (at most 4): kept in place
        out = [None] * n
        for i in range(n):
            k = len(laid[i])
            if old is not None and counts[i] == k:
                out[i] = old[i]
            else:
                out[i] = names(laid[i], lent)
                counts[i] = k
        self.laid_of, self.laid_n, self.laid = laid, counts, out

    def counted(self, shown):
        """The hands counted so far this hand ({"entry", "cards", "points"} each), kept
        in self."""
        if self.shown_of is shown and self.shown_n == len(shown):
            return
        n = len(shown)
        out = [None] * n
        for i in range(n):
            entry, cards, points = shown[i]
            out[i] = {"entry": entry, "cards": names(cards or (), None), "points": points}
        self.shown_of, self.shown_n, self.shown = shown, n, out


def names(cards, lent):
    """The names of cards the game holds (CARD_NAMES: each is a card); one whose suit was
    lent (lent[card] true) by its rank alone. A list of its exact size, filled in place."""
    n = len(cards)
    out = [None] * n
    table = CARD_NAMES
    for i in range(n):
        c = cards[i]
        out[i] = rank_name(c) if lent and lent.get(c) else table[c]
    return out
