"""The engine's two small interfaces, and the in-memory kinds the core (and the board)
uses: a Record of entries and a Board that shows the pegs.

    Record   append(entry: Entry) -> None       (the host's also takes ops: its board's)
             entries() -> list[Entry]           those that stand, in order: may be read
                                                from storage (a board's flash), so only
                                                a rebuild and the rare scans call it; what
                                                answers read the Table keeps as entries
                                                come (cribcore.table.standing)
             undo(entry: Entry) -> None
             position() -> int                  moves on with every append and undo, and
                                                is the same after a restart (ids come of it)
    Board    peg(lane: int, n: int, op_id: str) -> state | None
             undo(op_id: str) -> state | None
             new_game(target: int, lanes: int, op_id: str, match: bool = False)
                 -> state | None
             set_dealer(lane: int) -> None
             set_turn(lane: int) -> bool        False: it cannot show whose turn it is
             state() -> state | None            (the host's: crib.board.state.BoardState)
             events() -> list[BoardEvent]       its buttons' presses, the link's news
             kind: str ("none", "sim", "pico"...), capacity: int (the most lanes)

An entry is one thing that happened at the table (crib.table keeps them in the SQLite
history, a board could keep them in a flash log); MemoryRecord keeps them in a list.
NoBoard is no board at all: every call does nothing. A BoardEvent is one piece of a
board's news (any object with these four fields will do); button_event makes one of the
board's `evt` line of a press on its buttons.
"""

from collections import namedtuple

# kind: "peg" (lane pegged n on the buttons), "undo" (the last jump, on lane, undone on the
# buttons), "new" (a new game started on the board); and a link's news: "lost", "back",
# "drift" (lane -1). rev: the board's revision after it (None: not known).
BoardEvent = namedtuple("BoardEvent", ("kind", "lane", "n", "rev"))
PRESSES = ("peg", "undo", "new")  # the `evt` lines of a press on the board's buttons
BUTTON = "button"  # their `src`


def button_event(verb, args):
    """The BoardEvent of an `evt` line the board sent (its verb and fields) when it is a
    press on its buttons; None for any other (a win after its peg, a warning, the board's
    answer to a command)."""
    if verb in PRESSES and args.get("src") == BUTTON:
        return BoardEvent(verb, args.get("p", -1), args.get("n", 0), args.get("rev"))
    return None


class Entry:
    """One entry of the record: who did what (and who answered for them), its points and
    the action it replays. info, when given, becomes the entry's own dict (not copied):
    give it one made for it, and change it no more."""

    # A field left at its default is read from the class, not kept on the entry: a game
    # keeps every entry in the heap, and MicroPython keeps an instance's attributes in a
    # table that grows with each one set (no __slots__ there): 12 set took a table of 17.
    # `id` is `seq` (every Record here numbers an entry by its line).
    player = side = reason = answered_by = seq = None
    points = 0
    source = "table"
    args = ()

    def __init__(self, hand, kind, player=None, side=None, points=0, reason=None,
                 source="table", args=(), info=None, answered_by=None):
        self.hand = hand
        self.kind = kind
        if player is not None:
            self.player = player
        if side is not None:
            self.side = side
        if points:
            self.points = points
        if reason is not None:
            self.reason = reason
        if source != "table":
            self.source = source
        if args:
            self.args = tuple(args)  # a tuple given is kept as it is (no copy)
        # the dict given is the entry's own from here on, not copied: every caller makes
        # one for the entry (the table's flow, a line read back), so a copy an entry was
        # a dict made and dropped an answer
        self.info = {} if info is None else info
        if answered_by is not None:
            self.answered_by = answered_by  # who answered for `player` (None: they did)

    @property
    def id(self):
        return self.seq

    @id.setter
    def id(self, value):
        self.seq = value

    def __repr__(self):
        return "<Entry %s %s %r>" % (self.seq, self.kind, self.args)


class MemoryRecord:
    """A Record in a list (the core's tests, a board without a log): an undone entry is
    dropped from the entries that stand. `entries()` hands out the one list it keeps
    (read it, never change it): on a small heap a fresh copy per answer fragments it."""

    def __init__(self):
        self._standing = []
        self._count = 0
        self._undone = 0

    def append(self, entry):
        """Add an entry (its id and seq are given here); returns it."""
        self._count += 1
        entry.id = entry.seq = self._count
        self._standing.append(entry)
        return entry

    def entries(self):
        """The entries that stand, in order."""
        return self._standing

    def undo(self, entry):
        """Take an entry back: it no longer stands."""
        self._standing = [e for e in self._standing if e.id != entry.id]
        self._undone += 1

    def position(self):
        """How many appends and undos the record has had."""
        return self._count + self._undone


class NoBoard:
    """No board at all (a game kept on paper and phones alone): every call does nothing."""

    kind = "none"
    capacity = 4

    def peg(self, lane, n, op_id):
        return None

    def undo(self, op_id):
        return None

    def new_game(self, target, lanes, op_id, match=False):
        return None

    def set_dealer(self, lane):
        return None

    def set_turn(self, lane):
        return False

    def state(self):
        return None

    def events(self):
        return []
