"""The questions of a hand, each chosen from the game and the entries alone: the cut for
deal, the dealt cards (for the discard review), the starter, the play card by card or as
typed points, the show in counting order, and muggins claims.

`Turns(table, prompter).step()` asks the one question the state calls for and records the
answer; the loop in crib.tablesetup calls it until the game is over.
"""

from crib.errors import CribError
from crib.table import AUTO
from crib.tablecards import GO, lend_suit, parse_play_card, play_text, rank_text
from crib.tableprompt import AnswerError, UndoRequest, parse_int
from crib.tableshow import ShowTurns
from cribcore.cards import card_name, card_symbol, parse_card, parse_cards
from cribcore.deal import DISCARDS, HAND_SIZES, first_dealer
from cribcore.game import CUT, DEAL, PLAY, SHOW

TYPED = "points"  # the play answer that switches a hand to typed play points
MAX_PLAY_POINTS = 200  # typed play points per player: any sane number


class Turns(ShowTurns):
    """Ask what the state calls for next (see module docstring)."""

    def __init__(self, table, ask):
        self.t = table
        self.ask = ask
        self.view = table.view
        self.opts = table.options
        self._headed = set()

    # -- helpers ----------------------------------------------------------------------------

    def name(self, player):
        """A player's name."""
        return self.t.names[player]

    def _context(self):
        """Cards known this hand: dealt (player -> (cards, discard)), laid (card -> lent)."""
        dealt, lent = {}, {}
        for e in self.t.hand_entries():
            if e.kind == "dealt" and e.info.get("cards"):
                dealt[e.player] = ([parse_card(c) for c in e.info["cards"]],
                                   [parse_card(c) for c in e.info["discard"]])
            elif e.kind == "lay":
                lent[parse_card(e.info["card"])] = e.info["lent"]
        return dealt, lent

    def step(self):
        """Ask the next question and record the answer."""
        g = self.t.game
        show = self._open_muggins()
        if show is not None:
            return self.ask_muggins(show)
        if g.phase == CUT:
            return self.ask_cut()
        if g.phase == DEAL:
            self._heading()
            if self.opts.get("review"):
                p = self._next_dealt()
                if p is not None:
                    return self.ask_dealt(p)
            return self.ask_starter()
        if g.phase == PLAY:
            self._heading()
            if any(e.kind == "note" and e.info.get("typed_play") for e in self.t.hand_entries()):
                return self.ask_typed()
            return self.ask_play()
        if g.phase == SHOW:
            return self.ask_show()
        raise CribError(f"no question in phase {g.phase!r}")

    def _heading(self):
        g = self.t.game
        if g.hand_no in self._headed:
            return
        self._headed.add(g.hand_no)
        self.view.heading(f"Hand {g.hand_no + 1}: {self.name(g.dealer)} deals"
                          f" (crib to {self.t.side_names[g.side_of(g.dealer)]})")
        self.t.mark_dealer()

    # -- the cut and the deal ---------------------------------------------------------------

    def ask_cut(self):
        """Each player's cut card; the lowest deals (a tie for lowest cuts again)."""
        names = self.t.names

        def parse(text):
            cuts = parse_cards(text)
            if len(cuts) != len(names):
                raise AnswerError(f"give {len(names)} cards, one per player in order,"
                                  f" not {text!r}")
            if first_dealer(cuts) < 0:
                raise AnswerError("a tie for the lowest card: cut again")
            return cuts
        cuts = self.ask.ask(f"Cut for deal ({' '.join(names)})", parse,
                            hint="one card per player, in the order named, e.g. 5h kd")
        self.t.record("cut", "cut_for_deal", [cuts],
                      info={"cuts": [card_name(c) for c in cuts]})
        d = self.t.game.dealer
        self.view.say(self.name(d), "cuts lowest and deals")

    def _next_dealt(self):
        g = self.t.game
        asked = {e.player for e in self.t.hand_entries() if e.kind == "dealt"}
        for k in range(1, self.t.players + 1):
            p = (g.dealer + k) % self.t.players
            if p not in asked:
                return p
        return None

    def ask_dealt(self, p):
        """A player's dealt cards and discard, for the review after their show (optional)."""
        size, drop = HAND_SIZES[self.t.players], DISCARDS[self.t.players]
        dealt, _ = self._context()
        others = [c for q, (cards, _) in dealt.items() if q != p for c in cards]

        def parse_deal(text):
            if not text:
                return None
            cards = parse_cards(text)
            if len(cards) != size:
                raise AnswerError(f"give the {size} cards dealt, not {len(cards)}")
            for c in cards:
                if c in others:
                    raise AnswerError(f"{card_symbol(c)} was dealt to someone else")
            return cards
        while True:
            cards = self.ask.ask(f"{self.name(p)}'s {size} cards (Enter to skip)", parse_deal,
                                 default="", hint="the cards dealt, or Enter: no review")
            if cards is None:
                return self._dealt(p, None, None)

            try:
                dis = self.ask.ask(f"{self.name(p)} discards {drop}",
                                   _discard_parser(cards, drop))
            except UndoRequest:
                continue  # back to this player's dealt cards
            return self._dealt(p, cards, dis)

    def _dealt(self, p, cards, discard):
        info = {"cards": None, "discard": None} if cards is None else {
            "cards": [card_name(c) for c in cards], "discard": [card_name(c) for c in discard]}
        self.t.h.add_entry(self.t.game_id, self.t.game.hand_no, "dealt", player=p, info=info)
        self.t.entries = self.t.h.entries(self.t.game_id)

    def ask_starter(self):
        """The starter; a jack pegs his heels to the dealer at once."""
        g = self.t.game
        dealt, _ = self._context()
        known = [c for cards, _ in dealt.values() for c in cards]

        def parse(text):
            c = parse_card(text)
            if c in known:
                raise AnswerError(f"{card_symbol(c)} is in a dealt hand")
            return c
        c = self.ask.ask("Starter", parse, hint="the card turned up, e.g. 5h")
        step = self.t.record("starter", "turn_starter", [c], player=g.dealer,
                             info={"dealer": g.dealer, "card": card_name(c),
                                   "text": card_symbol(c)}, announce=False)
        self.view.say("starter", card_symbol(c))
        if step.points:
            self.view.say(self.name(g.dealer), "his heels", step.points)
            self.t.show_board(self.t.game.side_of(g.dealer) if not g.over else None)

    # -- the play ---------------------------------------------------------------------------

    def ask_play(self):
        """The card the player to move lays, a go, or `points` to type the play's points."""
        play = self.t.game.play
        p = play.turn
        dealt, lent = self._context()
        default = None
        if p in dealt:
            cards, dis = dealt[p]
            left = [c for c in cards if c not in dis and c not in lent]
            if play.can_go() and all(_value(c) > 31 - play.count for c in left):
                return self._go(p, auto=True)  # the hand is known: no card of it fits
            if len(left) == 1:
                default = card_symbol(left[0])  # the last card: Enter lays it
        hint = "a card (5h) or a rank (5), go, points (type the play's points), undo"
        what, card, is_lent = self.ask.ask(f"{self.name(p)} plays (count {play.count})",
                                           self._play_parser(p, dealt, lent), default,
                                           hint=hint)
        if what == TYPED:
            self.t.note("note", {"typed_play": True})
        elif what == GO:
            self._go(p)
        else:
            self._lay(p, card, is_lent)

    def _play_parser(self, p, dealt, lent):
        """A parser of the play prompt's answer: (what, card, whether its suit is lent)."""
        g = self.t.game
        play = g.play
        mine = dealt.get(p)
        taken = [g.starter] + list(lent)
        for q, (cards, dis) in dealt.items():
            taken += dis + ([] if q == p else cards)

        def parse(text):
            low = text.lower()
            if not low:
                raise AnswerError("lay a card (5h) or a rank (5), or say go")
            if low in (GO, "g"):
                if not play.can_go():
                    raise AnswerError(f"{self.name(p)} can still play: a card fits at count"
                                      f" {play.count}")
                return GO, None, False
            if low in (TYPED, "pts", "typed"):
                return TYPED, None, False
            card, rank = parse_play_card(text)
            r = rank if card is None else card >> 2
            if play.count + min(r + 1, 10) > 31:
                raise AnswerError(f"{rank_text(r)} would pass 31 (count {play.count})")
            if mine is not None:
                left = [c for c in mine[0] if c not in mine[1] and c not in lent]
                fits = [c for c in left if (card is None and c >> 2 == rank) or c == card]
                if not fits:
                    raise AnswerError(f"{self.name(p)} holds "
                                      f"{' '.join(map(card_symbol, left)) or 'no cards'}")
                return "lay", fits[0], False
            if card is None:
                return "lay", lend_suit(rank, taken), True
            if card in taken:
                raise AnswerError(f"{card_symbol(card)} is already accounted for this hand")
            return "lay", card, False
        return parse

    def _go(self, p, auto=False):
        step = self.t.record("go", "go", [], player=p, announce=False,
                             info={AUTO: True} if auto else None)
        self.view.say(self.name(p), "go (no card fits)" if auto else "go")
        self._announce(step)

    def _lay(self, p, card, lent):
        count = self.t.game.play.count + _value(card)
        text = play_text(card, lent)
        try:
            step = self.t.record("lay", "lay", [card], player=p, announce=False,
                                 info={"card": card_name(card), "lent": lent, "text": text})
        except ValueError as e:  # the play tracker refused it (IllegalPlayError)
            self.view.problem(str(e))
            return
        self.view.say(self.name(p), f"{text}  count {count}")
        self._announce(step)

    def _announce(self, step):
        for peg in step.pegs:
            if peg.points:
                self.view.say(self.name(peg.player), peg.reason, peg.points)
                self.t.show_board(peg.side)

    def ask_typed(self):
        """Each player's play points, typed (left of the dealer first), then the show."""
        g = self.t.game
        typed = {e.player for e in self.t.hand_entries() if e.info.get("typed")}
        order = [(g.dealer + k) % self.t.players for k in range(1, self.t.players + 1)]
        todo = [p for p in order if p not in typed]
        if not todo:
            self.t.record("end_play", "end_play", [], info={AUTO: True})
            return
        p = todo[0]
        n = self.ask.ask(f"{self.name(p)}'s play points", parse_int(0, MAX_PLAY_POINTS,
                                                                     "play points"), default=0)
        self.t.record("peg", "peg", [g.side_of(p), n, "play"], player=p,
                      info={"typed": True, "scorer": p}, announce=False)
        if n:
            self.view.say(self.name(p), "the play", n)
            self.t.show_board(g.side_of(p))
        if len(todo) == 1 and not self.t.game.over:
            self.t.record("end_play", "end_play", [], info={AUTO: True})


def _value(card):
    return min((card >> 2) + 1, 10)


def _discard_parser(cards, drop):
    """A parser of `drop` cards out of the dealt cards."""
    def parse(text):
        dis = parse_cards(text)
        if len(dis) != drop or any(c not in cards for c in dis):
            raise AnswerError(f"discard {drop} of {' '.join(map(card_symbol, cards))}")
        return dis
    return parse
