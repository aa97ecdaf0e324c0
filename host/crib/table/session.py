"""A session at the table: resume or set up (players, partnerships, target, first dealer),
play each game to its end, record the result and the match tally, and offer another game.

`Session.run(setup, resume)` is a generator of Asks (crib.table.engine runs it): the
questions of the setup, of every hand (crib.table.turns), of the board's news that need a
decision (crib.table.sync), and "Another game?".
"""

from crib.board.ids import new_prefix
from crib.history.db import HistoryError
from crib.history.reports import SKUNKS
from crib.table.answers import AnswerError, UndoRequest, parse_choice, parse_int
from crib.table.entries import StateChanged
from crib.table.questions import Ask
from crib.table.record import Table
from crib.table.turns import Turns, confirm_ask
from crib.words import agree, when
from cribcore.deal import sides_for
from cribcore.match import win_level
from cribcore.rules import GAME_POINTS, MAX_TARGET, MIN_TARGET, TARGETS

CUT = "cut"


class Setup:
    """What a match needs before its first deal (None: ask)."""

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
        if p.isdigit() or p.lower() == CUT or len(p) > 20:
            raise AnswerError(f"not a name: {p!r}")
    return parts


# 61, 121 or a custom target.
parse_target = parse_int(MIN_TARGET, MAX_TARGET, "target")


def dealer_parser(names):
    """A parser of the first dealer: a player, or Enter/`cut` to cut for it."""
    pick = parse_choice(names, "first dealer")

    def parse(text):
        return CUT if text.lower() in ("", CUT) else pick(text)
    return parse


def dealer_ask(names, default=CUT):
    """The question of the first dealer."""
    return Ask("dealer", "First dealer (a name, or Enter to cut)", dealer_parser(names),
               default, legal={"choices": list(names) + [CUT]})


def ask_setup(view, setup, lanes):
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
                value = yield Ask("names", "Players, in seating order", parse_names,
                                  hint="2-4 names, e.g. Alice Bob", undo=False)
            elif step == "partnerships":
                if len(setup.names) == 4 and lanes < 4:
                    view.note(f"this board has {lanes} lanes: four play in partnerships")
                value = len(setup.names) == 4 and (lanes < 4 or (yield confirm_ask(
                    "Partnerships (1st & 3rd v 2nd & 4th)", kind="partnerships")))
            elif step == "target":
                value = yield Ask("target", "Target (61, 121 or any 1-1000)", parse_target,
                                  121, legal={"choices": list(TARGETS), "min": MIN_TARGET,
                                              "max": MAX_TARGET})
            else:
                value = yield dealer_ask(setup.names)
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


def describe_game(history, game):
    """An unfinished game in a line: sides, target, scores, when it started."""
    match = history.match(game["match_id"])
    t = Table(history, _NoBoard(), None, game["id"])
    scores = " ".join(f"{n} {s}" for n, s in zip(t.side_names, t.game.scores))
    return (f"{' v '.join(t.side_names)} to {match['target']}, {scores}, started"
            f" {when(game['started'])}")


LATER = "later"


def parse_resume(text):
    """The answer to an unfinished game: True go on, False a new game, None later."""
    low = text.strip().lower()
    if low in ("", "y", "yes"):
        return True
    if low in ("n", "no", "new"):
        return False
    if low in (LATER, "l"):
        return None
    raise AnswerError(f"answer y (go on with it), n (a new game) or later, not {text!r}")


def resume_ask(text, names):
    """The one question of an unfinished game met by a new session: go on with it, start a
    new game (names: its players, when given) or neither (stop, keep it for later)."""
    new = "New game" + (f": {' v '.join(names)}" if names else "")
    return Ask("resume", f"Unfinished: {text}. Go on with it (Y/n/{LATER})", parse_resume,
               "y", hint="y: go on with it; n: a new game (that one stays in the history,"
               " abandoned); later: stop and keep it", undo=False,
               legal={"choices": ["y", "n", LATER],
                      "labels": {"y": "Go on with it", "n": new, LATER: "Keep it for later"}})


def result(table):
    """A finished game's result, as plain data: the winner (a side's name), the scores
    (the winner's first, then the others in lane order), the skunk ("skunk", "double
    skunk" or ""), and all of it in a sentence ("Alice wins, 121 to Bob 85 (skunk)")."""
    g = table.game
    level = win_level(g)
    others = [s for s in range(len(g.sides)) if s != g.winner]
    loser = " ".join(f"{table.side_names[s]} {g.scores[s]}" for s in others)
    text = (f"{agree(table.side_names[g.winner], 'wins')}, {g.scores[g.winner]} to"
            f" {loser}" + (f" ({SKUNKS[level]})" if level else ""))
    return {"winner": table.side_names[g.winner],
            "scores": [[table.side_names[s], g.scores[s]] for s in [g.winner] + others],
            "skunk": SKUNKS[level], "text": text}


class _NoBoard:
    kind = "none"


class Session:
    """One session at the table: history, board and events, game after game."""

    def __init__(self, history, board, view, options, board_name, turns=Turns, games=0,
                 offer_resume=True):
        self.offer_resume = offer_resume  # False: a game of another kind (practice)
        self.turns_class = turns  # the questions of a hand (crib.practice.turns for practice)
        self.max_games = games  # 0: offer another game after each; 1: one game only
        self.h = history
        self.board = board
        self.view = view
        self.options = options
        self.board_name = board_name
        self.table = None  # the game being played, once there is one
        self.turns = None
        self.playing = False  # inside a game's questions (board news may re-ask them)

    def start(self, setup, resume):
        """The Table to play: the unfinished game, or a new match from setup (generator)."""
        h = self.h
        old = h.unfinished()
        if not self.offer_resume:
            if old is not None and getattr(self.board, "kind", "none") != "none":
                keep = yield confirm_ask(
                    f"The board holds {describe_game(h, old)}. Play on it anyway (`crib play"
                    " --resume` sets that game up again)", False, undo=False, kind="resume")
                if not keep:
                    self.view.note("the board keeps its game")
                    return None
            old = None
        if resume and old is None:
            raise HistoryError("no unfinished game to resume")
        if old is not None and not resume:
            resume = yield resume_ask(describe_game(h, old), setup.names)
            if resume is None:
                self.view.note("kept: `crib play --resume` goes on with it")
                return None
            if not resume:
                h.abandon(old["id"])
                self.view.note("that game is kept in the history, marked abandoned")
        if resume:
            table = Table(h, self.board, self.view, old["id"])
            self.view.heading(f"Resuming: {describe_game(h, old)}")
            table.settle_pending()
            table.reconcile()
            table.mark_dealer()
            table.show_board()
            table.show_hand()
            return table
        setup = yield from ask_setup(self.view, setup, getattr(self.board, "capacity", 4))
        sides = len(sides_for(len(setup.names), setup.partnerships))
        if sides > getattr(self.board, "capacity", 4):
            raise AnswerError(f"this board has {self.board.capacity} lanes, not {sides}")
        match = h.new_match(setup.names, setup.partnerships, setup.target, GAME_POINTS)
        return self._new_game(match, setup.dealer, True)

    def _new_game(self, match_id, dealer, first):
        dealer = None if dealer == CUT else dealer
        game_id = self.h.new_game(match_id, dealer, self.options, self.board_name,
                                  new_prefix())
        table = Table(self.h, self.board, self.view, game_id)
        table.start_board(first)
        self.board.events()  # news from before this game (the board was just set up anew)
        n = self.h.game(game_id)["number"]
        self.view.heading(f"Game {n}: {' v '.join(table.side_names)} to {table.target}")
        return table

    def play(self, table):
        """Play the game to its end (undo and board events included): a generator."""
        self.table = table
        self.turns = self.turns_class(table)
        self.playing = True
        while not table.game.over:
            try:
                yield from self.decide(table)
                yield from self.turns.step()
            except UndoRequest:
                table.undo()
            except StateChanged:
                continue
        self.playing = False

    def decide(self, table):
        """Ask the questions the board's news left open (crib.table.sync decisions)."""
        while table.decisions:
            prompt, action = table.decisions.pop(0)
            if (yield confirm_ask(prompt, True, undo=False)):
                action()

    def finish(self, table):
        """Record the result; returns the game points it is worth."""
        g = table.game
        level = win_level(g)
        points = table.match["game_points"][level]
        self.h.finish_game(table.game_id, g.winner, g.scores, level, points)
        text = result(table)["text"]
        self.view.heading(text)
        self.view.over(g.winner, g.scores, level, text)
        tally = [0] * len(g.sides)
        for row in self.h.match_games(table.row["match_id"]):
            tally[row["winner"]] += row["game_points"]
        self.view.line("  match: " + ", ".join(f"{n} {t}" for n, t in
                                                 zip(table.side_names, tally)))
        return points

    def run(self, setup, resume=False):
        """The whole session (a generator of Asks); ends when no other game is wanted."""
        table = yield from self.start(setup, resume)
        if table is None:
            return
        yield from self.games(table)

    def games(self, table):
        """This game to its end, then game after game while another is wanted."""
        while True:
            yield from self.play(table)
            self.finish(table)
            if self.max_games == 1:
                return
            try:
                again = yield confirm_ask("Another game", False, kind="another")
            except UndoRequest:
                self.h.unfinish(table.game_id)
                table.undo()
                continue
            if not again:
                return
            table = self._new_game(table.row["match_id"], (yield from self._next_dealer(table)),
                                   False)

    def _next_dealer(self, table):
        """The first dealer of the next game: the loser of two, else a cut (asked)."""
        g = table.game
        names = table.names
        default = CUT
        if len(g.sides) == 2 and table.players == 2:
            default = names[1 - g.winner]
        while True:
            try:
                return (yield dealer_ask(names, default))
            except UndoRequest:
                self.view.problem("nothing to undo before the first deal")
