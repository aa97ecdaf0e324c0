"""What a game needs from a board, whatever kind it is: the calls the table, practice and
the solitaire make. `crib.board.memory.MemoryBoard` is the reference kind (no board, and the
tests' board); `crib.table.linkboard.LinkBoard` adapts a Pico or the virtual board behind a
serial link; `crib.connect.open_table_board` chooses one.

Errors are CribError (BoardError, here, for a refusal the board reports, whatever its kind).
"""

from typing import List, Protocol

from crib.board.state import BoardEvent, BoardState
from crib.errors import CribError


class BoardError(CribError):
    """The board refused an operation (the code names why: game_over, no_undo, bad_lane)."""

    def __init__(self, msg: str, code: str | None = "refused") -> None:
        super().__init__(msg)
        self.code = code


class GameBoard(Protocol):
    """A board a game pegs. Every change carries an operation id (crib.board.ids) and is
    applied once per id, however often it is sent."""

    kind: str  # "none", "file", "sim" or "pico" (for messages and the record)
    capacity: int  # the most lanes a game on it may have

    def state(self) -> BoardState:
        """The board's lanes, target, pegs, winner and revision, now."""

    def new_game(self, target: int, lanes: int, op_id: str, match: bool = False) -> BoardState:
        """A new game of lanes to target (match: clear the games-won tally)."""

    def set_dealer(self, lane: int) -> None:
        """The crib marker (not part of the record)."""

    def peg(self, lane: int, n: int, op_id: str) -> BoardState:
        """Lane scores n."""

    def undo(self, op_id: str) -> BoardState:
        """Undo the last jump."""

    def set_turn(self, lane: int) -> bool:
        """Whose turn it is: that lane pulses (-1 none). False when the board cannot show it
        (older firmware); a game goes on without it."""

    def events(self) -> List[BoardEvent]:
        """What the board's buttons did (and what its link noticed) since the last call."""

    def close(self) -> None:
        """Release the board."""
