"""The table flow and the board after a crash or a reconnect: which pending operations
the board applied, and how it differs from the record (what its buttons did during the
game is the core's: cribcore.table.table). Each `Table` (crib.table.record) has a
`BoardSync`.

Pending operations are settled from the board's pegs alone: a lane where the operation
leaves it means applied, a lane where it was before means not applied (sent again, with
the same id: the board applies an id once). Any other difference is reconciled by asking:
record the board's extra points as pegged on board, peg the board up to the record, or
set the board up again: each a decision the flow asks about (Table.decisions). The board
is never changed silently (no board at all: nothing to ask about, it is rebuilt from the
record).
"""

from functools import partial
from typing import Any

from crib.board.state import BoardState
from crib.errors import CribError
from cribcore.table.entries import PEGGED_ON_BOARD, RECONCILE
from cribcore.table.table import SET_UP

# A board operation as written to the history and sent: verb ("peg", "undo", "new"), lane
# (None for a new game), n (points; for "new", 1 to clear the match's tally), op id.
BoardOp = tuple[str, Any, int, str]


class BoardSync:
    """Pending operations and reconciliation for a Table (module docstring):
    table is the crib.table.record.Table it belongs to (which imports this module)."""

    def __init__(self, table: Any) -> None:
        self.t = table

    # -- after a crash ------------------------------------------------------------------------

    def settle_pending(self) -> None:
        """Decide, from the board's state, whether each pending operation was applied; send
        those that were not (with the same id); leave other differences to reconcile. The
        board is asked once, then each operation sent answers with the state after: one
        round trip per peg sent (this runs on the engine's worker, before the next answer).
        A board that stops answering meanwhile is offline: what is left waits for it."""
        try:
            self._settle()
        except CribError as e:  # it crashed the companion (`crib play --resume`) before
            self.t.go_offline(e)

    def _settle(self) -> None:
        pending = self.t.h.pending_ops(self.t.game_id)
        if not pending:
            return
        st = self.t.board.state()
        for i, op in enumerate(pending):
            if op["verb"] == "new":
                fresh = st.target == self.t.target and st.lanes == len(self.t.game.sides) and (
                    not any(st.fronts)) and not any(e.points for e in self.t.entries)
                if fresh:
                    self.t.h.settle_op(op["op_id"], "done", None, st.rev)
                else:
                    st = self._sent(("new", None, op["n"], op["op_id"]))
                continue
            lane = op["lane"]
            later = sum(_delta(o) for o in pending[i + 1:] if o["lane"] == lane)
            after = self.t.game.scores[lane] - later
            before = after - _delta(op)
            front = st.fronts[lane] if lane < len(st.fronts) and (
                st.target == self.t.target) else None
            if front == after:  # the board is as it was: nothing to ask it again
                self.t.h.settle_op(op["op_id"], "done", front, st.rev)
                self.t.view.note(f"board: {op['verb']} {op['op_id']} was applied before the stop")
            elif front == before:
                self.t.view.note(f"board: {op['verb']} {op['op_id']} was not applied: sending it")
                st = self._sent((op["verb"], lane, op["n"], op["op_id"]))
            else:
                self.t.h.settle_op(op["op_id"], "skipped")

    def _sent(self, op: BoardOp) -> BoardState:
        """Send op; the board's state after (asked for if the reply did not say)."""
        st = self.t.send(op)
        return st if st is not None else self.t.board.state()

    def reconcile(self) -> None:
        """Make the board and the record agree, saying what differs; each change is a
        decision the flow asks about (self.t.decisions), so the board is never changed
        silently (with no board at all there is nothing to ask: it is done at once)."""
        if self.t.offline:
            return
        try:
            st = self.t.board.state()
        except CribError as e:  # no answer: it waits for the board to be back
            self.t.go_offline(e)
            return
        g = self.t.game
        sides = len(g.sides)
        quiet = self.t.board.kind == "none"
        if st.target != self.t.target or st.lanes != sides:
            if not quiet:
                self.t.view.problem(f"the board holds another game ({st.lanes} lanes to"
                                  f" {st.target}); the record has {sides} to {self.t.target}")
            self.t.decide(SET_UP, self.t.set_board_up)
            return
        for lane in range(sides):
            b, r = st.fronts[lane], g.scores[lane]
            name = self.t.side_names[lane]
            if b == r or g.over:
                continue
            if b > r:
                text = f"the board shows {name} {b}, the record {r}"
                self.t.view.problem(text)
                self.t.decide(f"Record the {b - r} as {PEGGED_ON_BOARD}",
                              partial(self.t.record, "peg", [lane, b - r, PEGGED_ON_BOARD],
                                      source=RECONCILE, info={"lane": lane}))
            else:
                if not quiet:
                    self.t.view.problem(f"the board shows {name} {b}, the record {r}")
                self.t.decide(f"Peg {r - b} for {name} on the board",
                              partial(self.t.peg_board, lane, r - b))


def _delta(op: Any) -> int:
    """What a pending operation (a history row) changes its lane's score by."""
    return op["n"] if op["verb"] == "peg" else -op["n"] if op["verb"] == "undo" else 0
