"""The in-memory board: a board on the core's peg model for `--board none` and the tests,
optionally kept in a file like the Pico's flash (the calls: crib.board.api.GameBoard).
"""

import json
import os
from collections.abc import Callable

from crib.board.api import BoardError
from crib.board.state import BoardEvent, BoardState
from cribcore.pegs import ID_MEMORY, Board, PegError


class MemoryBoard:
    """A board held in memory on the core's peg model: `--board none`, and the tests' board.

    With `path` its state (undo history and recent ids included) is kept in a file after
    every change, like the Pico's flash, so it survives the companion being killed.
    `press(lane, n)` and `press_undo()` play the board's buttons (they queue events).
    """

    def __init__(self, lanes: int = 4, path: str | None = None) -> None:
        # Without a file it is no board at all: nothing to ask about when it differs.
        self.kind = "none" if path is None else "file"
        self.capacity = lanes
        self.path = path
        self.board = Board(min(lanes, 4), 121)
        # (op_id, signature, state) of the last ID_MEMORY changes
        self.ids: list[tuple[str, str, BoardState]] = []
        self.queue: list[BoardEvent] = []
        # (signature, op_id) of every change applied, for tests
        self.sent: list[tuple[str, str | None]] = []
        if path and os.path.exists(path):
            with open(path) as f:
                saved = json.load(f)
            self.board = Board.loads(saved["board"])
            self.ids = [(i, s, BoardState.from_dict(st)) for i, s, st in saved["ids"]]

    def __repr__(self) -> str:
        return f"<MemoryBoard {self.board.dumps()!r}>"

    def _save(self) -> None:
        if not self.path:
            return
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"board": self.board.dumps(),
                       "ids": [[i, s, st.to_dict()] for i, s, st in self.ids]}, f)
        os.replace(tmp, self.path)

    def state(self) -> BoardState:
        """The board's lanes, target, pegs, winner and revision."""
        b = self.board
        lanes = range(b.players)
        return BoardState(b.rev, b.target, b.players, [(b.back(i), b.front(i)) for i in lanes],
                          winner=b.winner)

    def _change(self, signature: str, op_id: str | None,
                apply: Callable[[], object]) -> BoardState:
        for ident, sig, st in self.ids:
            if ident == op_id:
                if sig != signature:
                    raise BoardError(f"id {op_id!r} was used for another command", "id_reused")
                return st  # a retry: answered, not applied again
        try:
            apply()
        except PegError as e:
            raise BoardError(str(e), e.code) from None
        st = self.state()
        if op_id is not None:
            self.ids = (self.ids + [(op_id, signature, st)])[-ID_MEMORY:]
        self.sent.append((signature, op_id))
        self._save()
        return st

    def new_game(self, target: int, lanes: int, op_id: str | None,
                 match: bool = False) -> BoardState:
        """Start a game for lanes (sides) to target; match=True clears the games-won tally."""
        if lanes > self.capacity:
            raise BoardError(f"this board has {self.capacity} lanes, not {lanes}", "bad_lane")
        return self._change(f"new {target} {lanes} {int(match)}", op_id,
                            lambda: self.board.new_game(target, lanes, match))

    def set_dealer(self, lane: int) -> None:
        """Show the crib marker on a lane."""
        try:
            self.board.set_dealer(lane)
        except PegError as e:
            raise BoardError(str(e), e.code) from None
        self._save()

    def peg(self, lane: int, n: int, op_id: str | None) -> BoardState:
        """Lane scores n (once per op_id)."""
        return self._change(f"peg {lane} {n}", op_id, lambda: self.board.peg(lane, n))

    def undo(self, op_id: str | None) -> BoardState:
        """Undo the last jump (once per op_id)."""
        return self._change("undo", op_id, self.board.undo)

    def events(self) -> list[BoardEvent]:
        """Button events since the last call."""
        out, self.queue = self.queue, []
        return out

    def press(self, lane: int, n: int) -> None:
        """Play the lane's peg button: n points pegged on the board."""
        self.board.peg(lane, n)
        self._save()
        self.queue.append(BoardEvent("peg", lane, n, self.board.rev))

    def press_undo(self) -> None:
        """Play the board's undo button."""
        lane = self.board.undo()
        self._save()
        self.queue.append(BoardEvent("undo", lane, 0, self.board.rev))

    def set_turn(self, lane: int) -> bool:
        """Whose turn it is (a board with LEDs pulses that lane); kept for the tests."""
        self.turn = lane
        return True

    def close(self) -> None:
        """Nothing to release."""


