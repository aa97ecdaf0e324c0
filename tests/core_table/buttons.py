"""A board with buttons for the core's table engine (plain Python: CPython and MicroPython):
the pegs are the board's own model (cribcore.pegs.Board), each operation id is applied
once, and a player's presses on its buttons wait as news until the engine polls.

    board = PressBoard()
    engine = button_engine(board)             # Ann and Bob to 61, Ann deals first
    board.press(1, 3); board.press_undo(); board.press_new()
    engine.poll()                             # the presses reach the game
"""

from cribcore.pegs import Board
from cribcore.table.engine import TableEngine
from cribcore.table.questions import Events
from cribcore.table.record import BoardEvent
from cribcore.table.session import Session, Setup


class PressBoard:
    """The engine's Board over the board's own peg model, with buttons (module docstring)."""

    kind = "board"
    capacity = 4

    def __init__(self):
        self.pegs = Board(2, 121)
        self.applied = []  # operation ids, each applied once
        self.news = []

    def _once(self, op_id, change):
        if op_id not in self.applied:
            self.applied.append(op_id)
            change()

    def peg(self, lane, n, op_id):
        self._once(op_id, lambda: self.pegs.peg(lane, n))

    def undo(self, op_id):
        self._once(op_id, self.pegs.undo)

    def new_game(self, target, lanes, op_id, match=False):
        self._once(op_id, lambda: self.pegs.new_game(target, lanes, match))

    def set_dealer(self, lane):
        self.pegs.set_dealer(lane)

    def set_turn(self, lane):
        return True

    def state(self):
        return None

    def events(self):
        out, self.news = self.news, []
        return out

    def fronts(self):
        """Each lane's front peg."""
        return [self.pegs.front(i) for i in range(self.pegs.players)]

    # -- the buttons ------------------------------------------------------------------------

    def press(self, lane, n):
        """A player pegs n on a lane's button."""
        self.pegs.peg(lane, n)
        self.news.append(BoardEvent("peg", lane, n, self.pegs.rev))

    def press_undo(self):
        """The undo button: the board's last jump taken back."""
        lane = self.pegs.undo()
        self.news.append(BoardEvent("undo", lane, 0, self.pegs.rev))

    def press_new(self):
        """A new game started from the buttons (the same target and lanes)."""
        self.pegs.new_game()
        self.news.append(BoardEvent("new", -1, 0, self.pegs.rev))


def button_engine(board, dealer=0, target=61, names=("Ann", "Bob")):
    """A core engine for a game of names to target on the board (dealer: "cut" to cut)."""
    session = Session(board, Events(), {})
    return TableEngine(session, Setup(list(names), False, target, dealer))


def answer(engine, *texts):
    """Answer the open questions, one text each; the events of the last."""
    events = []
    for text in texts:
        events = engine.answer(engine.question().id, text)
    return events
