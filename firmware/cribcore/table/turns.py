"""The questions of a hand, each chosen from the game and the entries alone: the cut for
deal, the dealt cards (for the discard review), the starter, the play card by card or as
typed points; the show's questions are in cribcore.table.show.

`Turns(table).step()` hands out a generator: it yields the one Ask the state calls for,
receives the parsed answer and records it (cribcore.table.engine runs it). Because the
question is a function of the record, `undo` and `--resume` are exact: the flow is simply
asked again.
"""

from cribcore import CoreError
from cribcore.cards import card_name, card_symbol, parse_card, parse_cards, value
from cribcore.deal import DISCARDS, HAND_SIZES, first_dealer
from cribcore.game import CUT, DEAL, PLAY, SHOW
from cribcore.table.answers import AnswerError, UndoRequest, parse_int
from cribcore.table.cards import (
    GO,
    free_names,
    lend_suit,
    names_of,
    parse_play_card,
    play_text,
    rank_text,
)
from cribcore.table.entries import AUTO
from cribcore.table.questions import Ask
from cribcore.table.show import ShowTurns, confirm_ask  # noqa: F401 - confirm_ask: here too

TYPED = "points"  # the play answer that switches a hand to typed play points
HAND = 4  # cards each player keeps for the play, whatever the number of players
# What one card can peg in the play: a fifteen or 31 (2), the most a pair or a run can add
# (12, a double pair royal), and a go or the last card (1). A typed total past HAND times
# this is refused; one past SURPRISING is confirmed first.
CARD_MOST = 2 + 12 + 1
MAX_PLAY_POINTS = HAND * CARD_MOST
SURPRISING = 12
PLAY_HINT = "a card (5h) or a rank (5), go, points (type the play's points), undo"
ALL_CARDS = tuple(range(52))


class Turns:
    """The questions of a hand (see module docstring)."""

    def __init__(self, table):
        self.t = table
        self.view = table.view
        self.opts = table.options
        self.shows = ShowTurns(self)
        self._headed = set()

    def name(self, player):
        """A player's name."""
        return self.t.names[player]

    def context(self):
        """Cards known this hand: dealt (player -> (cards, discard)), laid (card -> lent).
        The same two dicts until an entry of the hand changes them (kept up to date as
        entries are added: cribcore.table.standing): read them, never change them."""
        return self.t.standing().context(self.t.game.hand_no)

    def step(self):
        """The generator that asks the next question and records the answer (a generator
        of Asks): the one the phase calls for, handed out as it is (no generator of its
        own around it: a frame less made per answer)."""
        g = self.t.game
        show = self.shows.open_muggins()
        if show is not None:
            return self.shows.ask_muggins(show)
        if g.phase == CUT:
            return self.ask_cut()
        if g.phase == DEAL:
            self.heading()
            p = self._next_dealt() if self.opts.get("review") else None
            if p is not None:
                return self.ask_dealt(p)
            return self.ask_starter()
        if g.phase == PLAY:
            self.heading()
            if self.opts.get("totals") or self.t.standing().typed_play(g.hand_no):
                return self.ask_typed()
            return self.ask_play()
        if g.phase == SHOW:
            return self.shows.ask_show()
        raise CoreError(f"no question in phase {g.phase!r}")

    def heading(self):
        """The hand's heading, once per hand (again after a resume)."""
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
        cuts = yield Ask("cut", f"Cut for deal ({' '.join(names)})", parse,
                         hint="one card per player, in the order named, e.g. 5h kd",
                         legal={"cards": names_of(ALL_CARDS), "count": len(names)})
        self.t.record("cut", (cuts,), info={"cuts": [card_name(c) for c in cuts]})
        self.view.say(self.name(self.t.game.dealer), "cuts lowest and deals")

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
        dealt, _ = self.context()
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
            cards = yield Ask("dealt", f"{self.name(p)}'s {size} cards (Enter to skip)",
                              parse_deal, default="", asks=p,
                              hint="the cards dealt, or Enter: no review",
                              legal={"cards": names_of(c for c in ALL_CARDS if c not in others),
                                     "count": size, "skip": True})
            if cards is None:
                return self._dealt(p, None, None)
            try:
                dis = yield Ask("discard", f"{self.name(p)} discards {drop}",
                                _discard_parser(cards, drop), asks=p,
                                legal={"cards": names_of(cards), "count": drop})
            except UndoRequest:
                continue  # back to this player's dealt cards
            return self._dealt(p, cards, dis)

    def _dealt(self, p, cards, discard):
        info = {"cards": None, "discard": None} if cards is None else {
            "cards": [card_name(c) for c in cards], "discard": [card_name(c) for c in discard]}
        self.t.note("dealt", info, player=p)

    def ask_starter(self):
        """The starter; a jack pegs his heels to the dealer at once."""
        g = self.t.game
        dealt, _ = self.context()
        known = [c for cards, _ in dealt.values() for c in cards]

        def parse(text):
            c = parse_card(text)
            if c in known:
                raise AnswerError(f"{card_symbol(c)} is in a dealt hand")
            return c
        c = yield Ask("starter", "Starter", parse, hint="the card turned up, e.g. 5h",
                      asks=g.dealer,
                      legal={"cards": names_of(c for c in ALL_CARDS if c not in known)})
        step = self.t.record("starter", (c,), player=g.dealer,
                             info={"dealer": g.dealer, "card": card_name(c),
                                   "text": card_symbol(c)}, announce=False)
        self.view.say("starter", card_symbol(c))
        if step.points:
            self.view.say(self.name(g.dealer), "his heels", step.points)
            self.t.show_board(self.t.game.side_of(g.dealer) if not g.over else None)

    # -- the play ---------------------------------------------------------------------------

    def ask_play(self):
        """The card the player to move lays, a go, or `points` to type the play's points:
        question after question while step() would hand out this generator again (the
        play goes on, nothing else to ask first), so one generator serves a hand's play,
        not one made an answer. (Each question is made by _play_ask, a plain call: this
        generator holds only what spans its yield.)"""
        while True:
            ask = self._play_ask()
            if ask is not None:
                p = ask.asks
                what, card, is_lent = yield ask
                if what == TYPED:
                    self.t.note("note", {"typed_play": True})
                elif what == GO:
                    self._go(p)
                else:
                    self._lay(p, card, is_lent)
            if not self._plays_on():
                return

    def _plays_on(self):
        """Whether the next question is the play's again, exactly as Session.play and
        step() would choose it: the game goes on in the play, no decision of the board's
        waits, no muggins is open and the play is not typed."""
        t = self.t
        g = t.game
        return not g.over and g.phase == PLAY and not t.decisions \
            and not self.opts.get("totals") and not t.standing().typed_play(g.hand_no) \
            and self.shows.open_muggins() is None

    def _play_ask(self):
        """The play's question (None: the player's known hand has no card that fits, a
        go said for them)."""
        play = self.t.game.play
        p = play.turn
        dealt, lent = self.context()
        default = None
        if p in dealt:
            cards, dis = dealt[p]
            left = [c for c in cards if c not in dis and c not in lent]
            room = 31 - play.count
            if play.can_go():
                for c in left:
                    if value(c) <= room:
                        break
                else:  # the hand is known: no card of it fits
                    self._go(p, auto=True)
                    return None
            if len(left) == 1:
                default = card_symbol(left[0])  # the last card: Enter lays it
        parse, legal = self._play_parser(p, dealt, lent)
        return Ask("play", f"{self.name(p)} plays (count {play.count})", parse, default,
                   hint=PLAY_HINT, asks=p, legal=legal)

    def _play_parser(self, p, dealt, lent):
        """(parser of the play prompt's answer -> (what, card, whether its suit is lent),
        the legal answers)."""
        g = self.t.game
        play = g.play
        mine = dealt.get(p)
        # the cards accounted for this hand, as a mask (taken[card] 1): no list of them
        # made and joined, and the legal cards read from it as they are
        taken = bytearray(52)
        if g.starter is not None:
            taken[g.starter] = 1
        for c in lent:
            taken[c] = 1
        for q, (cards, dis) in dealt.items():
            for c in dis:
                taken[c] = 1
            if q != p:
                for c in cards:
                    taken[c] = 1
        room = 31 - play.count
        if mine is not None:
            fits = [c for c in mine[0] if c not in mine[1] and c not in lent
                    and value(c) <= room]
            cards, ranks = names_of(fits), _ranks_of(fits)
        else:
            cards, ranks = _open_cards(taken, room)
        legal = {"cards": cards, "ranks": ranks,
                 "go": play.can_go(), "points": True, "count": play.count}
        # what the parser reads, in one tuple: the closure holds one cell, not a cell for
        # each of the six names (about 80 bytes less a play question on the chip)
        held = (self, p, play, mine, lent, taken)

        def parse(text):
            self, p, play, mine, lent, taken = held
            if not text:
                raise AnswerError("lay a card (5h) or a rank (5), or say go")
            # lower case made only for a text that can be a word (go, points): no copy of
            # a card's name (a ten, "th", is looked at twice, as it was)
            low = text.lower() if text[0] in "gGpPtT" else text
            # GO and TYPED's words as literals: a tuple of constants is the compiler's
            # own, where (GO, "g") was built at every answer
            if low in ("go", "g"):
                if not play.can_go():
                    raise AnswerError(f"{self.name(p)} can still play: a card fits at count"
                                      f" {play.count}")
                return GO, None, False
            if low in ("points", "pts", "typed"):
                return TYPED, None, False
            card, rank = parse_play_card(text)
            r = rank if card is None else card >> 2
            if play.count + value(r << 2) > 31:  # any card of the rank counts the same
                raise AnswerError(f"{rank_text(r)} would pass 31 (count {play.count})")
            if mine is not None:
                left = [c for c in mine[0] if c not in mine[1] and c not in lent]
                hits = [c for c in left if (card is None and c >> 2 == rank) or c == card]
                if not hits:
                    raise AnswerError(f"{self.name(p)} holds "
                                      f"{' '.join(map(card_symbol, left)) or 'no cards'}")
                return "lay", hits[0], False
            if card is None:
                return "lay", lend_suit(rank, [c for c in range(52) if taken[c]]), True
            if taken[card]:
                raise AnswerError(f"{card_symbol(card)} is already accounted for this hand")
            return "lay", card, False
        return parse, legal

    def _go(self, p, auto=False):
        step = self.t.record("go", (), player=p, announce=False,
                             info={AUTO: True} if auto else None)
        self.view.say(self.name(p), "go (no card fits)" if auto else "go")
        self._announce(step)

    def _lay(self, p, card, lent):
        count = self.t.game.play.count + value(card)
        text = play_text(card, lent)
        try:
            step = self.t.record("lay", (card,), player=p, announce=False,
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
            self.t.record("end_play", (), info={AUTO: True})
            return
        p = todo[0]
        while True:
            n = yield Ask("play_points", f"{self.name(p)}'s play points",
                          parse_int(0, MAX_PLAY_POINTS, "play points"), default=0, asks=p,
                          hint=f"the points {self.name(p)} pegged in the play (0-"
                               f"{MAX_PLAY_POINTS})",
                          legal={"min": 0, "max": MAX_PLAY_POINTS})
            if n <= SURPRISING:
                break
            try:
                if (yield from self.confirm(f"{n} play points for {self.name(p)}: that is a"
                                            " lot. Peg them", False)):
                    break
            except UndoRequest:
                pass  # back to the points
        step = self.t.record("peg", (g.side_of(p), n, "play"), player=p,
                             info={"typed": True, "scorer": p}, announce=False)
        if step.points:  # what was pegged: the game stops at its target
            self.view.say(self.name(p), "the play", step.points)
            self.t.show_board(g.side_of(p))
        if len(todo) == 1 and not self.t.game.over:
            self.t.record("end_play", (), info={AUTO: True})

    def confirm(self, prompt, default=True, undo=True):
        """A yes/no question (a generator: its value is the answer)."""
        return (yield confirm_ask(prompt, default, undo))


def _open_cards(out, room):
    """(names, ranks as players say them) of the cards not taken (out: a mask, out[card]
    1 when taken) whose value fits in room: the ranks ace up to the last that fits (a value
    is its rank's up to ten); one pass over the 52, no list searched a card. (Lists counted
    first and made of their exact size cost the chip about twice the time of this step, a
    fraction of a millisecond, and save a third of the list: s9.)"""
    top = 4 * room if room < 10 else 52
    n = top
    for c in range(top):  # counted first: the list made at its size (free_names)
        if out[c]:
            n -= 1
    names = free_names(out, top, n)
    ranks = [rank_text(r) for r in range(top >> 2)
             if not (out[4 * r] and out[4 * r + 1] and out[4 * r + 2] and out[4 * r + 3])]
    return names, ranks


def _ranks_of(cards):
    """The ranks of cards as players say them, ace up, each once."""
    seen = bytearray(13)
    for c in cards:
        seen[c >> 2] = 1
    return [rank_text(r) for r in range(13) if seen[r]]


def _discard_parser(cards, drop):
    """A parser of `drop` cards out of the dealt cards."""
    def parse(text):
        dis = parse_cards(text)
        if len(dis) != drop or any(c not in cards for c in dis):
            raise AnswerError(f"discard {drop} of {' '.join(map(card_symbol, cards))}")
        return dis
    return parse
