"""The questions of a practice game, for the table engine: the companion deals (the cut,
each hand's cards and starter from crib.practice.game.Dealing), each seat lays away two
cards and plays its cards, and the show counts itself, itemised.

`PracticeTurns` stands where cribcore.table.turns.Turns stands for a game at the table
(TableEngine(..., turns=PracticeTurns)). Only the two seats' choices are questions: the
player's are answered at the terminal, the computer's by its level (`seen(p)` is what a
seat can see). Every action the player did not choose is an automatic entry, so `undo`
takes back the player's last choice and all that followed it. The option "human" is the
player's seat (None: the computer sits in both, as in bench/practice.py).

In the play the player can type `best` to hear the card with the best expected net
pegging now (crib.analysis.playsearch, the pro level's search), and when the show starts
the play is reviewed: each card the player chose, the best card and what the choice cost.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from crib.analysis.playsearch import best_card
from crib.practice.game import PLAYERS, Dealing, seen
from crib.practice.levels import play_values
from cribcore.cards import card_name, card_symbol, value
from cribcore.game import CRIB, CUT, DEAL, DISCARD, PLAY, SHOW
from cribcore.show import show_breakdown
from cribcore.table.answers import AnswerError
from cribcore.table.cards import parse_play_card
from cribcore.table.entries import AUTO
from cribcore.table.questions import Ask
from cribcore.table.turns import names_of

if TYPE_CHECKING:
    from crib.practice.game import Seen
    from cribcore.game import Step
    from cribcore.table.table import Table

# What a step of the flow yields: a question; it is sent the parsed answer.
Asking = Generator[Ask, Any, None]


def _symbols(cards: Sequence[int]) -> str:
    return " ".join(card_symbol(c) for c in cards)


def pick(text: str, cards: Sequence[int], taken: Sequence[int] = ()) -> int:
    """The card of cards named by text (a card, or a rank: the first of it not taken)."""
    card, rank = parse_play_card(text)
    for c in cards:
        if c not in taken and (c == card if card is not None else c >> 2 == rank):
            return c
    raise AnswerError(f"{text!r} is not one of your cards: {_symbols(cards)}")


class PracticeTurns:
    """The questions of a practice game (module docstring)."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.view = table.view
        self.human = table.options.get("human", 0)
        self.dealing = Dealing(table.options.get("seed", 0))
        # (hand number, lays before it) -> (card laid, count, {rank: expected net}) for each
        # card the player chose; an undo lays again at the same key, replacing it.
        self.choices: dict[tuple[int, int], tuple[int, int, dict[int, Fraction]]] = {}

    def name(self, p: int) -> str:
        """A seat's name."""
        return self.t.names[p]

    def _auto(self, p: int) -> dict[str, bool]:
        """Entries the player did not choose are automatic: undo passes over them."""
        return {AUTO: True} if p != self.human else {}

    def hand_cards(self, p: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(the 6 cards dealt to seat p this hand, the 2 it laid away)."""
        g = self.t.game
        for e in self.t.hand_entries():
            if e.kind == "discard" and e.player == p:
                return tuple(sorted(e.args[1]) + sorted(g.hands[p])), tuple(e.args[1])
        if g.phase == DISCARD:
            return tuple(sorted(g.hands[p])), ()
        return (), ()

    def seen(self, p: int) -> Seen:
        """What seat p can see now (crib.practice.game.Seen)."""
        dealt, discard = self.hand_cards(p)
        return seen(self.t.game, p, sorted(dealt), discard)

    def step(self) -> Asking:
        """Ask the next question, or do the next thing the companion does itself."""
        g = self.t.game
        if g.phase == CUT:
            self._cut()
        elif g.phase == DEAL:
            self._deal()
        elif g.phase == DISCARD:
            yield from self._discard()
        elif g.starter is None:
            self._starter()
        elif g.phase == PLAY:
            yield from self._play()
        elif g.phase == SHOW:
            self._show()
        return
        yield  # a generator, even on the paths that ask nothing

    def _cut(self) -> None:
        names = self.t.names
        for cuts, dealer in self.dealing.cuts():
            text = ", ".join(f"{n} {card_symbol(c)}" for n, c in zip(names, cuts))
            tail = "a tie, cut again" if dealer < 0 else f"first deal to {names[dealer]}"
            self.view.line(f"Cut for deal: {text}: {tail}")
        self.t.record("cut", [cuts], info={"cuts": [card_name(c) for c in cuts], AUTO: True})

    def _deal(self) -> None:
        g = self.t.game
        deck = self.dealing.deck(g.hand_no)
        self.t.record("deal", [None, deck], player=g.dealer, info={AUTO: True})
        d = g.dealer
        whose = "your crib" if d == self.human else f"{self.name(d)}'s crib"
        self.view.heading(f"Hand {g.hand_no + 1}: {self.name(d)} dealt ({whose})")
        self.t.mark_dealer()

    def _discard(self) -> Asking:
        g = self.t.game
        done = {e.player for e in self.t.hand_entries() if e.kind == "discard"}
        p = next(q for q in ((g.dealer + 1) % PLAYERS, g.dealer) if q not in done)
        hand = tuple(sorted(g.hands[p]))

        def parse(text: str) -> tuple[int, int]:
            if p == self.human and text.strip().lower() == "hint":  # asks, changes nothing
                from crib.analysis.advise import hint_line  # tabulates at import

                raise AnswerError(hint_line(hand, p == g.dealer))
            parts = text.replace(",", " ").split()
            if len(parts) != 2:
                raise AnswerError(f"name 2 of your cards ({_symbols(hand)}), not {text!r}")
            first = pick(parts[0], hand)
            return first, pick(parts[1], hand, (first,))
        if p == self.human:
            self.view.line(f"  your cards: {_symbols(hand)}")
        mine = p == g.dealer
        whose = "your" if mine else f"{self.name(g.dealer)}'s"
        dis = yield Ask("discard", f"Lay away 2 for {whose} crib", parse, asks=p,
                        hint="two of your cards, e.g. 5h kd (or ranks: 5 k); hint: the best",
                        legal={"cards": names_of(hand), "count": 2})
        dis = sorted(dis)
        self.t.record("discard", [p, dis], player=p, info=dict(
            {"cards": [card_name(c) for c in hand], "discard": [card_name(c) for c in dis]},
            **self._auto(p)))
        if p != self.human:
            self.view.say(self.name(p), "lays away 2 cards")
            return
        from crib.analysis.advise import review, review_line  # tabulates at import: only when used

        made, best = review(hand, dis, mine)
        self.view.note(review_line(made, best))

    def _starter(self) -> None:
        g = self.t.game
        card = self.dealing.starter(g.hand_no, g.stock)
        step = self.t.record("starter", [card], player=g.dealer, announce=False, info={
            "dealer": g.dealer, "card": card_name(card), "text": card_symbol(card), AUTO: True})
        self.view.say(self.name(1 - g.dealer), f"cut, the starter is {card_symbol(card)}")
        self._pegs(step)
        if not self.t.game.over:
            self.view.heading("The play")

    def _play(self) -> Asking:
        g = self.t.game
        play = g.play
        p = play.turn
        fits = sorted(play.playable())
        if not fits:
            step = self.t.record("go", [], player=p, announce=False, info={AUTO: True})
            if not any(peg.player == p for peg in step.pegs):
                self.view.say(self.name(p), "go")
            self._pegs(step)
            return
        hand = tuple(sorted(play.hands[p]))
        human = p == self.human
        values = play_values(self.seen(p)) if human else None

        def parse(text: str) -> int:
            if text.lower() in ("go", "g"):
                raise AnswerError(f"no go: {_symbols(fits)} fits (count {play.count})")
            if values is not None and text.strip().lower() == "best":  # the player's turn
                raise AnswerError(best_text(values, fits))
            c = pick(text, hand)
            if c not in fits:  # cards of a rank count alike: none of them fits
                raise AnswerError(f"{card_symbol(c)} would pass 31 (count {play.count})")
            return c
        prompt = (f"Your card (count {play.count}; {_symbols(hand)})" if p == self.human
                  else f"{self.name(p)} plays (count {play.count})")
        card = yield Ask("play", prompt, parse, asks=p,
                         hint="a card (5h) or a rank (5); best: the best card now; quit stops",
                         legal={"cards": names_of(fits), "count": play.count})
        if values is not None:  # the player's choice
            laid = sum(1 for a in play.actions if a[0] == "lay")
            self.choices[(g.hand_no, laid)] = (card, play.count, values)
        count = play.count + value(card)
        step = self.t.record("lay", [card], player=p, announce=False, info=dict(
            {"card": card_name(card), "lent": False, "text": card_symbol(card)},
            **self._auto(p)))
        self.view.say(self.name(p), f"{card_symbol(card)}  count {count}")
        self._pegs(step)

    def _show(self) -> None:
        g = self.t.game
        entry = g.show_next()
        crib = entry == CRIB
        who = g.dealer if crib else entry
        cards = g.known_cards(entry)
        if not crib and entry != g.dealer:
            for line in self.play_review():
                self.view.note(line)
            self.view.heading("The show")
        items = show_breakdown(cards, g.starter, crib)
        total = sum(it.points for it in items)
        self.view.show(cards, g.starter, crib, items, total)
        step = self.t.record("show", [], player=who, announce=False, info={
            "entry": entry, "cards": [card_name(c) for c in cards], "actual": total,
            AUTO: True})
        out = ", counts out" if step.over else ""
        self.view.say(self.name(who), f"{'crib' if crib else 'hand'} {total}{out}", step.points)
        if step.points:
            self.t.show_board(step.pegs[0].side)

    def play_review(self) -> list[str]:
        """Lines reviewing the cards the player chose in this hand's play: the best card
        where it was another and what the choice cost in expected net pegging."""
        g = self.t.game
        lays = [e for e in self.t.hand_entries() if e.kind == "lay"]
        lines = []
        cost = Fraction(0)
        for i, e in enumerate(lays):
            got = self.choices.get((g.hand_no, i))
            if e.player != self.human or got is None or got[0] != e.args[0]:
                continue
            card, count, values = got
            if len(values) < 2:
                continue  # one rank fitted: no choice
            best = best_card(values)
            lost = values[best] - values[card >> 2]
            cost += lost
            if lost:
                lines.append(f"play review: {card_symbol(card)} at count {count} cost"
                             f" {float(lost):.2f}: the best was {_rank_symbol(best)}"
                             f" ({_net(values[best])} against {_net(values[card >> 2])})")
        if lines:
            lines.append(f"play review: your choices cost {float(cost):.2f} points of"
                         " expected net pegging in all")
        elif any(k[0] == g.hand_no for k in self.choices):
            lines.append("play review: every card you chose was the best")
        return lines

    def _pegs(self, step: Step) -> None:
        for peg in step.pegs:
            if peg.points:
                self.view.say(self.name(peg.player), peg.reason, peg.points)
                self.t.show_board(peg.side)


def _net(v: Fraction) -> str:
    return f"{float(v):+.2f}"


def _rank_symbol(r: int) -> str:
    """A rank as the player names it (7, 10, J...)."""
    return card_symbol(r << 2)[:-1]


def best_text(values: dict[int, Fraction], fits: Sequence[int]) -> str:
    """The answer to `best`: the card with the best expected net pegging, then the others."""
    if len(values) < 2:
        return f"only one rank fits ({_symbols(fits)}): no choice to make"
    order = sorted(values, key=lambda r: (values[r], r), reverse=True)
    best = best_card(values)
    order.remove(best)
    rest = ", ".join(f"{_rank_symbol(r)} {_net(values[r])}" for r in order)
    return (f"best card now: {_rank_symbol(best)} (expected net pegging to the end of the"
            f" play {_net(values[best])}); {rest}")
