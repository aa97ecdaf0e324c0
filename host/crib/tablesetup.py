"""A session at the table: resume or set up (players, partnerships, target, first dealer),
play each game to its end, record the result and the match tally, and offer another game."""

from crib.errors import CribError
from crib.history import HistoryError
from crib.table import StateChanged, Table, new_op_prefix
from crib.tableprompt import (
    AnswerError,
    InputEnded,
    QuitRequest,
    UndoRequest,
    parse_choice,
    parse_int,
)
from crib.tableturns import Turns
from cribcore.deal import sides_for
from cribcore.match import win_level
from cribcore.rules import GAME_POINTS, MAX_TARGET, MIN_TARGET

SKUNKS = ("", " (skunk)", " (double skunk)")


class Setup:
    """What a match needs before its first deal."""

    def __init__(self, names=None, partnerships=None, target=None, dealer=None):
        self.names = names
        self.partnerships = partnerships
        self.target = target
        self.dealer = dealer  # a player index, "cut", or None (ask)


def parse_names(text):
    """2-4 distinct player names, separated by commas or spaces."""
    parts = [p.strip() for p in (text.split(",") if "," in text else text.split())]
    parts = [p for p in parts if p]
    if not 2 <= len(parts) <= 4:
        raise AnswerError(f"name 2, 3 or 4 players, not {len(parts)}: {text!r}")
    low = [p.lower() for p in parts]
    if len(set(low)) != len(low):
        raise AnswerError(f"each player needs a different name: {text!r}")
    for p in parts:
        if p.isdigit() or p.lower() == "cut" or len(p) > 20:
            raise AnswerError(f"not a name: {p!r}")
    return parts


# 61, 121 or a custom target.
parse_target = parse_int(MIN_TARGET, MAX_TARGET, "target")


def dealer_parser(names):
    """A parser of the first dealer: a player, or Enter/`cut` to cut for it."""
    pick = parse_choice(names, "first dealer")

    def parse(text):
        return "cut" if text.lower() in ("", "cut") else pick(text)
    return parse


def ask_setup(ask, setup, lanes):
    """Ask what setup does not give yet (undo steps back a question); returns setup."""
    given = Setup(setup.names, setup.partnerships, setup.target, setup.dealer)
    steps = ("names", "partnerships", "target", "dealer")
    i = 0
    while i < len(steps):
        step = steps[i]
        try:
            if getattr(given, step) is not None:
                value = getattr(given, step)
            elif step == "names":
                value = ask.ask("Players, in seating order", parse_names,
                                hint="2-4 names, e.g. Alice Bob")
            elif step == "partnerships":
                if len(setup.names) == 4 and lanes < 4:
                    ask.view.note(f"this board has {lanes} lanes: four play in partnerships")
                value = len(setup.names) == 4 and (lanes < 4 or ask.yes(
                    "Partnerships (1st & 3rd v 2nd & 4th)"))
            elif step == "target":
                value = ask.ask("Target (61, 121 or any 1-1000)", parse_target, 121)
            else:
                value = ask.ask("First dealer (a name, or Enter to cut)",
                                dealer_parser(setup.names), "cut")
            if step == "dealer" and isinstance(value, str):
                value = dealer_parser(setup.names)(value)  # a name given as an option
        except UndoRequest:
            i -= 1
            while i >= 0 and not _asks(steps[i], given, setup, lanes):
                i -= 1
            i = max(i, 0)
            continue
        setattr(setup, step, value)
        if step == "names" and len(value) == 4 and lanes < 4 and given.partnerships is False:
            raise AnswerError(f"this board has {lanes} lanes: four players play in"
                              " partnerships (or use --board none)")
        i += 1
    return setup


def _asks(step, given, setup, lanes):
    """Whether a setup step is a question (not given, and not implied)."""
    if getattr(given, step) is not None:
        return False
    return step != "partnerships" or (len(setup.names or ()) == 4 and lanes >= 4)


def _describe(history, game):
    match = history.match(game["match_id"])
    t = Table(history, _NoBoard(), None, game["id"])
    scores = " ".join(f"{n} {s}" for n, s in zip(t.side_names, t.game.scores))
    return f"{' v '.join(t.side_names)} to {match['target']}, {scores}, started {game['started']}"


class _NoBoard:
    kind = "none"


class Session:
    """One `crib play`: history, board, prompts and view, game after game."""

    def __init__(self, history, board, ask, view, options, board_name):
        self.h = history
        self.board = board
        self.ask = ask
        self.view = view
        self.options = options
        self.board_name = board_name

    def start(self, setup, resume):
        """The Table to play: the unfinished game, or a new match from setup."""
        h = self.h
        old = h.unfinished()
        if resume and old is None:
            raise HistoryError("no unfinished game to resume")
        if old is not None and not resume:
            resume = self.ask.yes(f"Resume {_describe(h, old)}", True, undo=False)
            if not resume:
                h.abandon(old["id"])
                self.view.note("that game is kept in the history, marked abandoned")
        if resume:
            table = Table(h, self.board, self.view, old["id"])
            self.view.heading(f"Resuming: {_describe(h, old)}")
            table.settle_pending()
            table.reconcile(self.ask)
            table.mark_dealer()
            table.show_board()
            return table
        setup = ask_setup(self.ask, setup, getattr(self.board, "capacity", 4))
        sides = len(sides_for(len(setup.names), setup.partnerships))
        if sides > getattr(self.board, "capacity", 4):
            raise AnswerError(f"this board has {self.board.capacity} lanes, not {sides}")
        match = h.new_match(setup.names, setup.partnerships, setup.target, GAME_POINTS)
        return self._new_game(match, setup.dealer, True)

    def _new_game(self, match_id, dealer, first):
        dealer = None if dealer == "cut" else dealer
        game_id = self.h.new_game(match_id, dealer, self.options, self.board_name,
                                  new_op_prefix())
        table = Table(self.h, self.board, self.view, game_id)
        table.start_board(first)
        self.board.events()  # news from before this game (the board was just set up anew)
        n = self.h.game(game_id)["number"]
        self.view.heading(f"Game {n}: {' v '.join(table.side_names)} to {table.target}")
        return table

    def play(self, table):
        """Play the game to its end (undo and board events included)."""
        turns = Turns(table, self.ask)
        table.ask = self.ask
        self.ask.before = table.sync
        while not table.game.over:
            try:
                turns.step()
            except UndoRequest:
                table.undo()
            except StateChanged:
                continue

    def finish(self, table):
        """Record the result; returns the game points it is worth."""
        g = table.game
        level = win_level(g)
        points = table.match["game_points"][level]
        self.h.finish_game(table.game_id, g.winner, g.scores, level, points)
        loser = " ".join(f"{table.side_names[s]} {g.scores[s]}" for s in range(len(g.sides))
                         if s != g.winner)
        self.view.heading(f"{table.side_names[g.winner]} wins, {g.scores[g.winner]} to"
                          f" {loser}{SKUNKS[level]}")
        tally = [0] * len(g.sides)
        for row in self.h.match_games(table.row["match_id"]):
            tally[row["winner"]] += row["game_points"]
        self.view.line("  match: " + ", ".join(f"{n} {t}" for n, t in
                                                 zip(table.side_names, tally)))
        return points

    def run(self, setup, resume=False):
        """The whole session; returns the exit code."""
        table = None
        try:
            table = self.start(setup, resume)
            while True:
                self.play(table)
                self.ask.before = None  # the game is over: the board's news wait for the next
                self.finish(table)
                try:
                    again = self.ask.yes("Another game", False)
                except UndoRequest:
                    self.h.unfinish(table.game_id)
                    table.undo()
                    continue
                except InputEnded:
                    again = False
                if not again:
                    return 0
                table = self._new_game(table.row["match_id"], self._next_dealer(table), False)
        except QuitRequest:
            if table is not None and not table.game.over:
                self.view.note("stopped: the game is saved; `crib play --resume` goes on")
            return 0
        except CribError:  # input ended, the board lost: the record has every step
            if table is not None and not table.game.over:
                self.view.note("the game is saved; `crib play --resume` goes on from here")
            raise

    def _next_dealer(self, table):
        """The first dealer of the next game: the loser of two, else a cut (asked)."""
        g = table.game
        names = table.names
        default = "cut"
        if len(g.sides) == 2 and table.players == 2:
            default = names[1 - g.winner]
        while True:
            try:
                return self.ask.ask("First dealer (a name, or Enter to cut)",
                                    dealer_parser(names), default)
            except UndoRequest:
                self.view.problem("nothing to undo before the first deal")
