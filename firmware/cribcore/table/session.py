"""A session at the table: set up (players, partnerships, target, first dealer), play each
game to its end, record the result and the match tally, and offer another game.

`Session.run(setup, resume)` is a generator of Asks (cribcore.table.engine runs it): the
questions of the setup, of every hand (cribcore.table.turns), of the board's news that need
a decision, and "Another game?". This Session keeps each game in a Record made by
`new_record` (a MemoryRecord by default); the host's session (crib.table.session) keeps
them in the history and adds the resume of an unfinished game.
"""

from cribcore.deal import sides_for
from cribcore.match import win_level
from cribcore.rules import MAX_TARGET, MIN_TARGET, SKUNKS, TARGETS
from cribcore.table.answers import AnswerError, UndoRequest, parse_choice, parse_int
from cribcore.table.entries import StateChanged
from cribcore.table.questions import Ask
from cribcore.table.record import MemoryRecord
from cribcore.table.table import Table
from cribcore.table.turns import Turns, confirm_ask
from cribcore.table.words import agree

CUT = "cut"
SETUP_STEPS = ("names", "partnerships", "target", "dealer")


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
        raise AnswerError("name 2, 3 or 4 players, not %d: %r" % (len(parts), text))
    low = [p.lower() for p in parts]
    if len(set(low)) != len(low):
        raise AnswerError("each player needs a different name: %r" % (text,))
    for p in parts:
        if p.isdigit() or p.lower() == CUT or len(p) > 20:
            raise AnswerError("not a name: %r" % (p,))
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
    i = 0
    while i < len(SETUP_STEPS):
        step = SETUP_STEPS[i]
        try:
            if getattr(given, step) is not None:
                value = getattr(given, step)
            elif step == "names":
                value = yield Ask("names", "Players, in seating order", parse_names,
                                  hint="2-4 names, e.g. Alice Bob", undo=False)
            elif step == "partnerships":
                if len(setup.names) == 4 and lanes < 4:
                    view.note("this board has %d lanes: four play in partnerships" % lanes)
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
            while i >= 0 and not _asks(SETUP_STEPS[i], given, setup, lanes):
                i -= 1
            i = max(i, 0)
            continue
        setattr(setup, step, value)
        if step == "names" and len(value) == 4 and lanes < 4 and given.partnerships is False:
            raise AnswerError("this board has %d lanes: four players play in partnerships"
                              " (or use --board none)" % lanes)
        i += 1
    return setup


def _asks(step, given, setup, lanes):
    """Whether a setup step is a question (not given, and not implied)."""
    if getattr(given, step) is not None:
        return False
    return step != "partnerships" or (len(setup.names or ()) == 4 and lanes >= 4)


def result(table):
    """A finished game's result, as plain data: the winner (a side's name), the scores
    (the winner's first, then the others in lane order), the skunk ("skunk", "double
    skunk" or ""), and all of it in a sentence ("Alice wins, 121 to Bob 85 (skunk)")."""
    g = table.game
    level = win_level(g)
    names = table.side_names
    others = [s for s in range(len(g.sides)) if s != g.winner]
    loser = " ".join("%s %d" % (names[s], g.scores[s]) for s in others)
    text = ("%s, %d to %s" % (agree(names[g.winner], "wins"), g.scores[g.winner], loser)
            + (" (%s)" % SKUNKS[level] if level else ""))
    return {"winner": names[g.winner],
            "scores": [[names[s], g.scores[s]] for s in [g.winner] + others],
            "skunk": SKUNKS[level], "text": text}


class Session:
    """One session at the table: board and events, game after game (module docstring)."""

    def __init__(self, board, view, options, turns=Turns, games=0, new_record=MemoryRecord):
        self.turns_class = turns  # the questions of a hand (the host's practice has its own)
        self.max_games = games  # 0: offer another game after each; 1: one game only
        self.board = board
        self.view = view
        self.options = options
        self.new_record = new_record
        self.table = None  # the game being played, once there is one
        self.turns = None
        self.playing = False  # inside a game's questions (board news may re-ask them)
        self.setup = None
        self.results = []  # (game id, winner, game points) of this match's games

    def position(self):
        """Where the record of the game in play is ("game.position"; "0" before a game):
        what a question's id is made of (cribcore.table.engine)."""
        t = self.table
        if t is None or t.rec is None:
            return "0"
        return "%d.%d" % (t.game_id, t.rec.position())

    def keep(self, pending):
        """Keep the answers taken that wrote no line yet (a dict: pos, n, answers), for a
        restart to give again (kept()). In memory nothing outlives a restart."""

    def kept(self):
        """What keep() kept before a restart (None: nothing)."""
        return None

    def keep_log(self, added, log):
        """Keep the log every screen shows (cribcore.table.room: added, the events just
        numbered; log, the last ones kept) for a restart to show again (kept_log())."""

    def kept_log(self):
        """The log keep_log() kept before a restart (a list of events; None: nothing)."""
        return None

    def capacity(self):
        """The lanes the board has."""
        return getattr(self.board, "capacity", 4)

    def start(self, setup, resume):
        """The Table to play: a new match from setup (a generator)."""
        if resume:
            raise AnswerError("no unfinished game to resume")
        setup = yield from ask_setup(self.view, setup, self.capacity())
        self.check_sides(setup)
        self.setup = setup
        return self.new_game(None, setup.dealer, True)

    def check_sides(self, setup):
        """A board with too few lanes for the sides is refused."""
        sides = len(sides_for(len(setup.names), setup.partnerships))
        if sides > self.capacity():
            raise AnswerError("this board has %d lanes, not %d" % (self.capacity(), sides))

    def new_game(self, last, dealer, first):
        """The next game's Table (last: the game before it, None for the first)."""
        dealer = None if dealer == CUT else dealer
        s = self.setup
        game_id = (last.game_id + 1) if last is not None else 1
        table = Table(self.new_record(), self.board, self.view, s.names, s.target,
                      s.partnerships, dealer, self.options, game_id)
        return self.open_game(table, game_id, first)

    def open_game(self, table, number, first):
        """Set the board up for a new game and say so."""
        table.start_board(first)
        self.board.events()  # news from before this game (the board was just set up anew)
        self.view.heading("Game %d: %s to %d" % (number, " v ".join(table.side_names),
                                                  table.target))
        return table

    def play(self, table):
        """Play the game to its end (undo and board events included): a generator."""
        self.table = table
        self.turns = self.turns_class(table)
        self.playing = True
        while not table.game.over:
            try:
                if table.decisions:  # no generator made for none (nearly every answer)
                    yield from self.decide(table)
                yield from self.turns.step()
            except UndoRequest:
                table.undo()
            except StateChanged:
                continue
        self.playing = False

    def decide(self, table):
        """Ask the questions the board's news left open (Table.decisions)."""
        while table.decisions:
            prompt, action = table.decisions[0]
            yes = yield confirm_ask(prompt, True, undo=False)
            table.decisions.pop(0)  # taken once answered: news meanwhile asks it again
            if yes:
                action()

    def finish(self, table):
        """Record the result; returns the game points it is worth."""
        g = table.game
        level = win_level(g)
        points = table.game_points[level]
        tally = self.keep_result(table, level, points)
        text = result(table)["text"]
        self.view.heading(text)
        self.view.over(g.winner, g.scores, level, text)
        self.view.line("  match: " + ", ".join("%s %d" % (n, t) for n, t in
                                                 zip(table.side_names, tally)))
        return points

    def keep_result(self, table, level, points):
        """Keep a game's result; the match tally (game points per side) after it."""
        self.results = [r for r in self.results if r[0] != table.game_id]
        self.results.append((table.game_id, table.game.winner, points))
        tally = [0] * len(table.game.sides)
        for _, winner, pts in self.results:
            tally[winner] += pts
        return tally

    def unfinish(self, table):
        """The game's result is taken back (an undo at "Another game")."""
        self.results = [r for r in self.results if r[0] != table.game_id]

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
                dealer = (yield from self._next_dealer(table)) if again else None
            except UndoRequest:
                self.unfinish(table)
                table.undo()
                continue
            except StateChanged:  # the board's undo button took back the winning peg
                self.unfinish(table)
                continue
            if not again:
                return
            last = table
            table = self.new_game(last, dealer, False)
            last.retire()
            last = None

    def _next_dealer(self, table):
        """The first dealer of the next game: the loser of two, else a cut (asked)."""
        g = table.game
        default = CUT
        if len(g.sides) == 2 and table.players == 2:
            default = table.names[1 - g.winner]
        while True:
            try:
                return (yield dealer_ask(table.names, default))
            except UndoRequest:
                self.view.problem("nothing to undo before the first deal")
