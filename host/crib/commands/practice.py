"""Practice a game against the computer (easy, standard or pro), with the board pegging
both sides and the game kept in the history like `crib play`.

The cards are dealt at random (the same cards again with --seed). You lay away two cards,
then see the advisor's review of your discard; the starter is cut (a jack pegs his heels);
in the play you name a card (5h) or a rank (5) when it is your turn, a go is said for you
when nothing fits; the show is counted in order, itemised, until someone counts out.
Answers can come from a script on stdin; `quit` stops (the game is marked abandoned).
See docs/practice.md.
"""

import random
import sys

from crib.commands.play import (
    add_board_choice,
    add_history_and_colour,
    board_port,
    ports_listed,
)
from crib.errors import CribError
from crib.history import PRACTICE, History, default_path
from crib.practice import Listener, Practice, open_table_record, rngs
from crib.strategy import LEVELS, make
from crib.tableboard import open_board
from crib.tablecards import GO, parse_play_card
from crib.tableprompt import AnswerError, InputEnded, Prompter, QuitRequest, is_terminal
from crib.tableview import View
from cribcore.cards import card_symbol
from cribcore.game import CRIB
from cribcore.match import win_level

HELP = "practice a game against the computer (easy, standard, pro), pegged on the board"
SKUNKS = ("", " (skunk)", " (double skunk)")
MAX_NAME = 20


def add_arguments(parser):
    """Level, target, seed, the board and the history file."""
    parser.add_argument("--level", choices=LEVELS, default="standard",
                        help="the computer's level (default standard)")
    parser.add_argument("--target", type=int, choices=(61, 121), default=121,
                        help="play to 61 or 121 (default 121)")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="deal the same cards again (every game shows its seed)")
    parser.add_argument("--name", default="You", metavar="NAME",
                        help="your name in the history (default You)")
    add_board_choice(parser)
    add_history_and_colour(parser)


def _symbols(cards):
    return " ".join(card_symbol(c) for c in cards)


def _pick(text, cards, taken=()):
    """The card of cards named by text (a card, or a rank: the first of it not taken)."""
    card, rank = parse_play_card(text)
    for c in cards:
        if c not in taken and (c == card if card is not None else c >> 2 == rank):
            return c
    raise AnswerError(f"{text!r} is not one of your cards: {_symbols(cards)}")


class TerminalSeat:
    """The player at the terminal: asked for a discard and for each card to lay."""

    def __init__(self, ask, view, opponent):
        self.ask = ask
        self.view = view
        self.opponent = opponent

    def discard(self, seen):
        """Two of the dealt cards, named as cards (5h) or ranks (5)."""
        hand = seen.hand

        def parse(text):
            parts = text.replace(",", " ").split()
            if len(parts) != 2:
                raise AnswerError(f"name 2 of your cards ({_symbols(hand)}), not {text!r}")
            first = _pick(parts[0], hand)
            return first, _pick(parts[1], hand, (first,))
        self.view.line(f"  your cards: {_symbols(hand)}")
        whose = "your" if seen.dealer else f"{self.opponent}'s"
        return self.ask.ask(f"Lay away 2 for {whose} crib", parse, undo=False,
                            hint="two of your cards, e.g. 5h kd (or ranks: 5 k)")

    def play(self, seen):
        """A card that fits under 31 (a rank alone is enough)."""
        def parse(text):
            if text.lower() in (GO, "g"):
                raise AnswerError(f"no go: {_symbols(seen.playable)} fits (count"
                                  f" {seen.count})")
            c = _pick(text, seen.hand)
            if c not in seen.playable:  # cards of a rank count alike: none of them fits
                raise AnswerError(f"{card_symbol(c)} would pass 31 (count {seen.count})")
            return c
        return self.ask.ask(f"Your card (count {seen.count}; {_symbols(seen.hand)})", parse,
                            undo=False, hint="a card (5h) or a rank (5); quit stops")


class Narrator(Listener):
    """Tells the game on the terminal and shows the board after each peg."""

    def __init__(self, view, table, names, human=0):
        self.view = view
        self.table = table
        self.names = names
        self.human = human

    def _pegs(self, step):
        for peg in step.pegs:
            if peg.points:
                self.view.say(self.names[peg.player], peg.reason, peg.points)
                self.table.show_board(peg.side)

    def cut(self, cuts, dealer):
        text = ", ".join(f"{n} {card_symbol(c)}" for n, c in zip(self.names, cuts))
        tail = "a tie, cut again" if dealer < 0 else f"first deal to {self.names[dealer]}"
        self.view.line(f"Cut for deal: {text}: {tail}")

    def hand(self, game):
        d = game.dealer
        whose = "your crib" if d == self.human else f"{self.names[d]}'s crib"
        self.view.heading(f"Hand {game.hand_no + 1}: {self.names[d]} dealt ({whose})")
        self.table.mark_dealer()

    def discarded(self, player, dealt, discard, dealer):
        if player != self.human:
            self.view.say(self.names[player], "lays away 2 cards")
            return
        from crib.advise import review, review_line  # tabulates at import: only when used

        made, best = review(dealt, discard, dealer)
        self.view.note(review_line(made, best))

    def starter(self, card, step):
        g = self.table.game
        self.view.say(self.names[1 - g.dealer], f"cut, the starter is {card_symbol(card)}")
        self._pegs(step)
        if not g.over:
            self.view.heading("The play")

    def laid(self, player, card, count, step):
        self.view.say(self.names[player], f"{card_symbol(card)}  count {count}")
        self._pegs(step)

    def said_go(self, player, step):
        # A go that only ends the sayer's own run of cards is announced as its last card.
        if not any(peg.player == player for peg in step.pegs):
            self.view.say(self.names[player], "go")
        self._pegs(step)

    def shown(self, entry, player, cards, starter, items, step):
        g = self.table.game
        if entry != CRIB and entry != g.dealer:  # the pone's hand opens the show
            self.view.heading("The show")
        crib = entry == CRIB
        total = sum(it.points for it in items)
        self.view.show(cards, starter, crib, items, total)
        out = ", counts out" if step.over else ""
        self.view.say(self.names[player], f"{'crib' if crib else 'hand'} {total}{out}",
                      step.points)
        if step.points:
            self.table.show_board(step.pegs[0].side)

    def over(self, game):
        level = win_level(game)
        w = game.winner
        self.view.heading(f"{self.names[w]} won, {game.scores[w]} to"
                          f" {game.scores[1 - w]}{SKUNKS[level]}")


def check_name(name, computer):
    """The player's name: 1-20 characters, not the computer's."""
    name = name.strip()
    if not name or len(name) > MAX_NAME or name.lower() == computer.lower():
        raise CribError(f"a name is 1-{MAX_NAME} characters, not the computer's: {name!r}")
    return name


def run(args, inp=None, out=None, board=None):
    """Play one practice game; inp/out default to stdin/stdout, board to the one chosen."""
    inp = sys.stdin if inp is None else inp
    out = sys.stdout if out is None else out
    if ports_listed(args, out):
        return 0
    computer = f"Computer ({args.level})"
    names = [check_name(args.name, computer), computer]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10 ** 6)
    view = View(out, args.colour)
    history = History.open(args.db or default_path())
    try:
        if history.abandon_practice():  # a game whose companion was killed: never resumed
            view.note("a practice game left unfinished is kept in the history, marked"
                      " abandoned")
        port = board_port(args)
        if board is None:
            board = open_board(args.board, port, args.store, view.note)
        options = {PRACTICE: args.level, "seed": seed, "human": 0}
        record = open_table_record(history, board, view, names, args.target, options,
                                   port or board.kind)
        view.heading(f"Practice: {names[0]} v {computer} to {args.target} (seed {seed})")
        ask = Prompter(inp, view, echo=not is_terminal(inp))
        deal_rng, computer_rng = rngs(seed)
        seats = [TerminalSeat(ask, view, computer), make(args.level, computer_rng)]
        game = Practice(seats, args.target, deal_rng, record,
                        Narrator(view, record.table, names))
        try:
            game.run()
        except (QuitRequest, InputEnded) as e:
            record.abandon()
            view.note(f"stopped: the game is kept in the history, marked abandoned;"
                      f" `crib practice --seed {seed}` deals the same cards")
            if isinstance(e, InputEnded):
                raise
            return 0
        view.note(f"`crib practice --seed {seed}` deals the same cards again")
        return 0
    finally:
        if board is not None:
            board.close()
        history.close()
