"""Cribbage Shuffle (seed 000, RULES.md): 16 cards in a 4x4 grid plus a starter.

The grid is a tuple of 16 card ints, row by row; cell i is row i // 4, column i % 4. Cells
are named A1..D4: the letter is the row (A at the top), the digit the column (1 at the
left). Each row and each column scores as an ordinary (non-crib) hand with the starter; a
jack starter adds 2 (heels) to the total once. Any two grid cards may be swapped; 61 wins.
"""

import random
from typing import Callable, Sequence

from crib.board.api import GameBoard
from crib.board.ids import op_id
from crib.errors import CribError
from cribcore.cards import JACK
from cribcore.show import score_show

Grid = tuple[int, ...]  # 16 card ints, row by row
Scorer = Callable[[list[int], int], int]  # a line's 4 cards and the starter -> its points

SIDE = 4
CELLS = SIDE * SIDE
ROWS = tuple(tuple(range(r * SIDE, r * SIDE + SIDE)) for r in range(SIDE))
COLUMNS = tuple(tuple(range(c, CELLS, SIDE)) for c in range(SIDE))
LINES = ROWS + COLUMNS  # line scores are always listed rows first, then columns
# The two lines (its row and its column) through each cell.
LINES_OF = tuple((i // SIDE, SIDE + i % SIDE) for i in range(CELLS))
SWAPS = tuple((a, b) for a in range(CELLS) for b in range(a + 1, CELLS))  # all 120
ROW_NAMES = "ABCD"
TARGET = 61
HEELS = 2


class ShuffleError(CribError):
    """Bad input to the solitaire: a bad seed or a grid that is not 16 + 1 distinct cards."""


class CellError(ShuffleError):
    """A cell that is not A1..D4, or a swap of a cell with itself."""


def cell_name(i) -> str:
    """Canonical name of cell 0..15: 'A1' .. 'D4' (row letter, column digit)."""
    check_cell(i)
    return "%s%d" % (ROW_NAMES[i // SIDE], i % SIDE + 1)


def check_cell(i: object) -> int:
    """Return i if it is a cell index 0..15, else raise CellError."""
    if type(i) is not int or not 0 <= i < CELLS:
        raise CellError("not a cell: %r" % (i,))
    return i


def parse_cell(text: object) -> int:
    """Cell index from 'A1'..'D4' (any case) or 'r1c1'..'r4c4'; CellError otherwise."""
    s = text.strip().upper() if isinstance(text, str) else ""
    if len(s) == 4 and s[0] == "R" and s[2] == "C":
        row, col = "1234".find(s[1]), "1234".find(s[3])
    elif len(s) == 2:
        row, col = ROW_NAMES.find(s[0]), "1234".find(s[1])
    else:
        row = col = -1
    if row < 0 or col < 0:
        raise CellError("not a cell (use A1..D4): %r" % (text,))
    return row * SIDE + col


def check_seed(seed: object) -> int:
    """Return seed if it is an int >= 0, else raise ShuffleError."""
    # random.Random folds negative seeds onto positive ones: refuse them so no two seeds
    # that look different deal the same cards.
    if type(seed) is not int or seed < 0:
        raise ShuffleError("a seed is a whole number >= 0, got %r" % (seed,))
    return seed


def deal(seed: int) -> tuple[Grid, int]:
    """(grid, starter) for a seed: the same seed always deals the same 17 cards."""
    cards = random.Random(check_seed(seed)).sample(range(52), CELLS + 1)
    return tuple(cards[:CELLS]), cards[CELLS]


def check_deal(grid: Sequence[int], starter: int) -> tuple[Grid, int]:
    """Return (tuple(grid), starter) if they are 16 + 1 distinct cards, else raise."""
    cards = list(grid) + [starter]
    if len(cards) != CELLS + 1 or len(set(cards)) != CELLS + 1 or \
            not all([type(c) is int and 0 <= c < 52 for c in cards]):
        raise ShuffleError("a deal is 16 distinct grid cards and a starter, got %r + %r"
                           % (tuple(grid), starter))
    return tuple(cards[:CELLS]), starter


def heels(starter: int) -> int:
    """2 when the starter is a jack (his heels, counted once per deal), else 0."""
    return HEELS if starter >> 2 == JACK else 0


def line_scores(grid: Sequence[int], starter: int, score: Scorer = score_show) -> list[int]:
    """The 8 line scores: rows A..D, then columns 1..4."""
    return [score([grid[i] for i in line], starter) for line in LINES]


def total(grid: Sequence[int], starter: int, score: Scorer = score_show) -> int:
    """Rows + columns + heels."""
    return sum(line_scores(grid, starter, score)) + heels(starter)


def swapped(grid: Sequence[int], a: int, b: int) -> Grid:
    """A copy of grid with cells a and b exchanged."""
    g = list(grid)
    g[a], g[b] = g[b], g[a]
    return tuple(g)


def best_swap(grid: Sequence[int], starter: int,
              score: Scorer = score_show) -> tuple[int, int, int] | None:
    """(a, b, gain) of the swap that raises the total most, or None if none raises it.

    Ties go to the first swap in SWAPS order (a < b, by a then b), so a hint is repeatable.
    """
    lines = line_scores(grid, starter, score)
    g = list(grid)
    best = None
    for a, b in SWAPS:
        touched = set(LINES_OF[a] + LINES_OF[b])  # a swap changes only these lines
        before = sum([lines[k] for k in touched])
        g[a], g[b] = g[b], g[a]
        after = sum([score([g[i] for i in LINES[k]], starter) for k in touched])
        g[a], g[b] = g[b], g[a]
        if after - before > 0 and (best is None or after - before > best[2]):
            best = (a, b, after - before)
    return best


class Shuffle:
    """One game: the seed, the starter, the grid as it stands and the swaps made so far."""

    seed: int | None  # None for a game on given cards (Shuffle.from_cards)

    def __init__(self, seed: int = 0) -> None:
        self.new(seed)

    @classmethod
    def from_cards(cls, grid: Sequence[int], starter: int, seed: int | None = None) -> "Shuffle":
        """A game on a given deal (for known grids); seed is only a label, may be None."""
        game = cls.__new__(cls)
        game._deal = check_deal(grid, starter)
        game.seed = seed
        game.restart()
        return game

    def __repr__(self) -> str:
        return "Shuffle.from_cards(%r, %r, seed=%r)" % (self.grid, self.starter, self.seed)

    def new(self, seed: int | None = None) -> None:
        """Deal afresh: from seed, or from the seed after this game's (0 if it has none)."""
        if seed is None:
            last = getattr(self, "seed", None)  # None: a first deal, or a game on given cards
            seed = last + 1 if last is not None else 0
        self._deal = deal(seed)
        self.seed = seed
        self.restart()

    def restart(self) -> None:
        """Put the cards back as dealt and forget the swaps."""
        self._grid = list(self._deal[0])
        self.starter = self._deal[1]
        self.moves: list[tuple[int, int]] = []

    @property
    def dealt(self) -> Grid:
        """The grid as dealt (a tuple)."""
        return self._deal[0]

    @property
    def grid(self) -> Grid:
        """The grid as it stands (a tuple)."""
        return tuple(self._grid)

    def line_scores(self) -> list[int]:
        """The 8 line scores: rows A..D, then columns 1..4."""
        return line_scores(self._grid, self.starter)

    def total(self) -> int:
        """Rows + columns + heels."""
        return total(self._grid, self.starter)

    def won(self) -> bool:
        """True once the total reaches 61."""
        return self.total() >= TARGET

    def swap(self, a: int, b: int) -> None:
        """Exchange cells a and b (ints 0..15); a bad or repeated cell raises, changes nothing."""
        check_cell(a)
        check_cell(b)
        if a == b:
            raise CellError("cannot swap a cell with itself: %s" % cell_name(a))
        self._grid[a], self._grid[b] = self._grid[b], self._grid[a]
        self.moves.append((a, b))

    def undo(self) -> tuple[int, int] | None:
        """Take back the last swap and return it, or None when there is none."""
        if not self.moves:
            return None
        a, b = self.moves.pop()
        self._grid[a], self._grid[b] = self._grid[b], self._grid[a]
        return a, b

    def hint(self) -> tuple[int, int, int] | None:
        """(a, b, gain) of the single swap that raises the total most, or None."""
        return best_swap(self._grid, self.starter)


class BoardTotal:
    """on_total for the terminal game: the total pegged on lane 0 of a board (the calls of
    crib.board.memory: new_game, peg), so the board shows the solitaire's score.

    A peg only goes forward: a higher total pegs the difference (the back peg then marks
    the total before); a lower one starts a new game on the board and pegs it afresh. The
    board plays to 121, where its double-skunk line stands at 61, the solitaire's target.
    """

    LANE = 0
    LANES = 2  # a board game has 2 lanes at least; the second stays at 0
    TARGET = 121

    def __init__(self, board: GameBoard, op_prefix: str) -> None:
        self.board = board
        self.op_prefix = op_prefix  # ids never repeat across runs: the board remembers some
        self.ops = 0
        self.front: int | None = None  # where the lane's front peg stands, as the board last said

    def _op_id(self) -> str:
        self.ops += 1
        return op_id(self.op_prefix, self.ops)

    def __call__(self, total: int) -> None:
        """Move the lane to total (at most the board's target)."""
        want = min(total, self.TARGET)
        if self.front is None or want < self.front:
            state = self.board.new_game(self.TARGET, self.LANES, self._op_id())
            self.front = state.fronts[self.LANE]
        if want > self.front:
            state = self.board.peg(self.LANE, want - self.front, self._op_id())
            self.front = state.fronts[self.LANE]
