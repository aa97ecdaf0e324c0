"""The flow of one game for 2, 3 or 4 players: a state machine the companion drives.

Phases, in order: CUT (first dealer not given) -> DEAL -> DISCARD -> STARTER -> PLAY ->
SHOW -> DEAL (next hand, the deal passes left) ... and OVER the moment a side reaches the
target (his heels, the play, or counting out mid-show: later hands are not counted).
At a real table the cards are unknown until shown: skip `deal` and turn the starter in
DEAL; in simulation or practice `deal` makes every hand known and the show scores itself.

    g = Game(players=2, target=121, partnerships=True, dealer=None)
    g.cut_for_deal(cuts) -> dealer, or -1 to recut         CUT -> DEAL
    g.deal(rng) or g.deal(deck=cards) -> the hands          DEAL -> DISCARD
    g.discard(player, cards) -> Step                        DISCARD -> STARTER (all in)
    g.turn_starter(card=None) -> Step                       DEAL/STARTER -> PLAY (heels: 2)
    g.lay(card) / g.go() -> Step                            PLAY -> SHOW once all are laid
    g.end_play() -> Step                                    PLAY -> SHOW (play pegged by hand)
    g.show(cards=None, points=None) -> Step                 SHOW: next of show_order()
    g.peg(side, n, reason) -> Step                          by hand, any phase but CUT/OVER
    g.undo() -> the undone action, state exactly as before it

Step(points, over, pegs): points pegged by the action, whether the game is over, and the
Peg(side, player, points, reason) records (player -1 for a peg by hand; a card laid that
pegs nothing has the empty tuple, shared: read pegs, never change them). All points go
through one place (`_peg`), which stops at the target and ends the game. Read-only state:
`phase`, `dealer`, `scores` (per side), `sides`, `winner` (-1 until over), `starter`,
`hands`/`crib` (known hands), `play` (the cribcore.play.Play tracker), `shown` (entries
counted this hand), `hand_no`. `undo()` returns the action taken back: a card laid, -1 for
a go, else (method name, arguments...). Misuse raises GameError (or the play's
IllegalPlayError) and changes nothing.

    g = Game(2, 121, dealer=0)
    g.deal(random.Random(7)); g.discard(0, g.hands[0][:2]); g.discard(1, g.hands[1][:2])
    g.turn_starter()                   # Step(points=2, ...) when the starter is a jack
    while g.phase == PLAY: g.lay(g.play.playable()[0]) if g.play.playable() else g.go()
    while g.phase == SHOW: g.show()    # counts 1's hand, 0's hand, then 0's crib
"""

from collections import namedtuple

from cribcore.cards import JACK, check_card
from cribcore.counting import CRIB, ShowStage  # noqa: F401 - CRIB is part of this API
from cribcore.deal import (
    CUT,
    DEAL,
    DISCARD,
    DISCARDS,
    OVER,
    PLAY,
    SHOW,
    STARTER,
    GameError,
    check_deck,
    check_players,
    deal_cards,
    first_dealer,
    shuffle,
    sides_for,
)
from cribcore.play import Play, announce
from cribcore.rules import check_target

HEELS = "his heels"

Peg = namedtuple("Peg", ("side", "player", "points", "reason"))
Step = namedtuple("Step", ("points", "over", "pegs"))
# What an action that pegs nothing while the game goes on returns: one Step, shared (it is
# read, never changed), not a new one each card laid or go said
NOTHING = Step(0, False, ())


class Game(ShowStage):
    """One game: deal, starter, play, show, hand after hand until a side reaches target."""

    def __init__(self, players=2, target=121, partnerships=True, dealer=None):
        check_players(players)
        try:
            check_target(target)
        except ValueError:
            raise GameError("target must be 1..1000, got %r" % (target,)) from None
        if dealer is not None:
            self._check_player(dealer, players)
        self.players = players
        self.target = target
        self.sides = sides_for(players, partnerships)
        self.partnerships = len(self.sides) == 2 and players == 4
        self._first = dealer
        self._reset()

    def _reset(self):
        self.scores = [0] * len(self.sides)
        self.winner = -1
        self.hand_no = 0
        self.dealer = -1 if self._first is None else self._first
        self.phase = CUT if self._first is None else DEAL
        # Every action, for undo, in one short list per hand (long lists need long free
        # blocks, scarce in a fragmented MicroPython heap): a card laid, -1 for a go, else
        # (method name, arguments...).
        self._history = [[]]
        self._new_hand()

    def _new_hand(self):
        self.starter = None
        self.hands = None
        self.crib = None
        self.stock = None
        self.play = None
        self.shown = []  # (entry, cards or None, points) counted so far this hand
        self._waiting = []  # players yet to discard

    def __repr__(self):
        return "<Game players=%d target=%d phase=%s dealer=%d scores=%r>" % (
            self.players, self.target, self.phase, self.dealer, self.scores)

    @staticmethod
    def _check_player(p, players):
        if type(p) is not int or not 0 <= p < players:
            raise GameError("player must be 0..%d, got %r" % (players - 1, p))

    def _need(self, *phases):
        if self.phase not in phases:
            self._not_now()

    def _not_now(self):
        raise GameError("not now: the game is in phase %r" % (self.phase,))

    def side_of(self, player):
        """The side (score lane) player belongs to."""
        self._check_player(player, self.players)
        return player % 2 if self.partnerships else player

    @property
    def over(self):
        """Whether a side has reached the target."""
        return self.winner >= 0

    # -- the one place scores change -------------------------------------------------
    def _peg(self, side, player, n, reason):
        room = self.target - self.scores[side]
        if n >= room:
            n = room  # the peg stops in the game hole
            self.winner = side
            self.phase = OVER
        self.scores[side] += n
        rec = Peg(side, player, n, reason)
        return rec

    def _step(self, pegs):
        if not pegs and self.winner < 0:
            return NOTHING  # nothing pegged, the game goes on (most cards laid): shared
        t = 0
        for rec in pegs:
            t += rec.points
        return Step(t, self.winner >= 0, pegs)

    # -- actions -----------------------------------------------------------------------
    def cut_for_deal(self, cuts):
        """Record one cut card per player; the lowest rank deals. Returns the dealer or -1."""
        self._need(CUT)
        if len(cuts) != self.players:
            raise GameError("need one cut per player, got %r" % (cuts,))
        d = first_dealer(cuts)
        if d >= 0:
            self._history[-1].append(("cut_for_deal", tuple(cuts)))
            self.dealer = d
            self.phase = DEAL
        return d

    def deal(self, rng=None, deck=None):
        """Deal known hands from a shuffled deck (rng) or a given deck order; returns them."""
        self._need(DEAL)
        if (rng is None) == (deck is None):
            raise GameError("deal needs either rng or deck")
        deck = shuffle(list(range(52)), rng) if deck is None else check_deck(deck)
        self.hands, self.crib, self.stock = deal_cards(deck, self.players, self.dealer)
        self._waiting = list(range(self.players))
        self._history[-1].append(("deal", None, bytes(deck)))  # 52 bytes, not a tuple
        self.phase = DISCARD
        return [list(h) for h in self.hands]

    def discard(self, player, cards):
        """Player puts cards (2 with 2 players, else 1) from their dealt hand in the crib."""
        self._need(DISCARD)
        self._check_player(player, self.players)
        if player not in self._waiting:
            raise GameError("player %d has already discarded" % (player,))
        cards = list(cards)
        hand = self.hands[player]
        if len(cards) != DISCARDS[self.players]:
            raise GameError("discard %d card(s), got %r" % (DISCARDS[self.players], cards))
        for i in range(len(cards)):
            if cards[i] not in hand or cards[i] in cards[i + 1:]:
                raise GameError("%r is not a discard from %r" % (cards[i], hand))
        self._history[-1].append(("discard", player, tuple(cards)))
        for c in cards:
            hand.remove(c)
            self.crib.append(c)
        self._waiting.remove(player)
        if not self._waiting:
            self.phase = STARTER
        return self._step([])

    def turn_starter(self, card=None):
        """Record the starter (known deck: None takes the cut card); a jack pegs his heels."""
        self._need(DEAL, STARTER)
        if self.phase == STARTER:
            card = self.stock[0] if card is None else check_card(card)
            if card not in self.stock:
                raise GameError("%r is not in the stock" % (card,))
        elif card is None:
            raise GameError("name the starter: the hands were not dealt here")
        else:
            check_card(card)
        self._history[-1].append(("turn_starter", card))
        if self.stock is not None:
            self.stock.remove(card)
        self.starter = card
        self.play = Play(self.players, self.dealer, self.hands, card)
        self.phase = PLAY
        pegs = []
        if card >> 2 == JACK:
            pegs.append(self._peg(self.side_of(self.dealer), self.dealer, 2, HEELS))
        return self._step(pegs)

    def lay(self, card):
        """The player to move (play.turn) lays card; pegs what it scores."""
        if self.phase != PLAY:  # not _need(PLAY): its *phases is a tuple made a call
            self._not_now()
        events = self.play._lay(card)  # () when it scores nothing: no list made
        self._history[-1].append(card)  # plain ints: a play has many lays
        return self._play_step(events)

    def go(self):
        """The player to move says go; pegs the last-card point when it falls due."""
        if self.phase != PLAY:
            self._not_now()
        events = self.play._go()
        self._history[-1].append(-1)
        return self._play_step(events)

    def _play_step(self, events):
        pegs = [] if events else ()  # nothing pegged (most cards laid): no list made
        for e in events:
            pegs.append(self._peg(self.side_of(e.player), e.player, e.points,
                                  announce(e.reasons)))
        if self.winner < 0 and self.play.over:
            self.phase = SHOW
        return self._step(pegs)

    def end_play(self):
        """Go on to the show although the play tracker is not finished (pegged by hand)."""
        self._need(PLAY)
        self._history[-1].append(("end_play",))
        self.phase = SHOW
        return self._step([])

    def _next_hand(self):
        """After the crib: the deal passes to the left and a new hand begins."""
        self.hand_no += 1
        self.dealer = (self.dealer + 1) % self.players
        self.phase = DEAL
        self._new_hand()
        self._history.append([])

    def peg(self, side, n, reason="by hand"):
        """Peg n points to side by hand (typed play points, a correction)."""
        self._need(DEAL, DISCARD, STARTER, PLAY, SHOW)
        if type(side) is not int or not 0 <= side < len(self.sides):
            raise GameError("side must be 0..%d, got %r" % (len(self.sides) - 1, side))
        if type(n) is not int or n < 0:
            raise GameError("points must be a whole number >= 0, got %r" % (n,))
        self._history[-1].append(("peg", side, n, reason))
        return self._step([self._peg(side, -1, n, reason)])

    def undo(self):
        """Take back the last action (a peg by hand too), restoring the state before it."""
        history = self._history
        last = len(history) - 1
        while last >= 0 and not history[last]:
            last -= 1
        if last < 0:
            raise GameError("nothing to undo")
        self._reset()
        # Replaying the earlier actions rebuilds every derived field exactly.
        for i in range(last + 1):
            chunk = history[i]
            for j in range(len(chunk) - 1 if i == last else len(chunk)):
                a = chunk[j]
                if type(a) is int:
                    self.lay(a) if a >= 0 else self.go()
                else:
                    getattr(self, a[0])(*a[1:])
        return history[last][-1]

    def state(self):
        """Everything that defines the game, as a tuple (for comparisons and tests)."""
        return (self.phase, self.dealer, tuple(self.scores), self.winner, self.hand_no,
                self.starter, repr(self.hands), repr(self.crib), repr(self.stock),
                repr(self.shown), tuple(self._waiting),
                None if self.play is None else self.play.state(), repr(self._history))
