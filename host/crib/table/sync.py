"""The table flow and the board: what its buttons did during the game (pegs, undo, a new
game), and after a crash or a reconnect, which pending operations the board applied and
how it differs from the record. Each `Table` (crib.table.record) has a `BoardSync`.

Pending operations are settled from the board's pegs alone: a lane where the operation
leaves it means applied, a lane where it was before means not applied (sent again, with
the same id: the board applies an id once). Any other difference is reconciled by asking:
record the board's extra points as pegged on board, peg the board up to the record, or
set the board up again: each a decision the flow asks about (Table.decisions). The board
is never changed silently (no board at all: nothing to ask about, it is rebuilt from the
record).
"""

from collections.abc import Callable
from functools import partial
from typing import Any

from crib.board.state import BoardEvent, BoardState
from crib.errors import CribError
from cribcore.game import CUT
from cribcore.table.entries import (
    BARRIER,
    BOARD,
    PEGGED_ON_BOARD,
    RECONCILE,
    describe,
)
from cribcore.table.record import Entry

# A board operation as written to the history and sent: verb ("peg", "undo", "new"), lane
# (None for a new game), n (points; for "new", 1 to clear the match's tally), op id.
BoardOp = tuple[str, Any, int, str]


class BoardSync:
    """Board events, pending operations and reconciliation for a Table (module docstring):
    table is the crib.table.record.Table it belongs to (which imports this module)."""

    def __init__(self, table: Any) -> None:
        self.t = table

    def board_event(self, ev: BoardEvent) -> bool:
        """Record what the board's buttons did (one BoardEvent); True if that ends the game,
        takes back entries or needs a decision (the open question may no longer apply)."""
        g = self.t.game
        if ev.kind == "peg":
            if g.over or ev.lane >= len(g.sides):
                self.t.view.note(f"board: {ev.n} pegged outside the game; not recorded")
                return False
            if g.phase == CUT:  # nobody can score before the first deal: take it back
                self.t.view.problem(f"board: {ev.n} pegged before the first deal; taken back")
                op = ("undo", ev.lane, ev.n, self.t.op_id())
                self.t.h.add_ops(self.t.game_id, [op])
                self.t.send(op)
                return False
            self.t.view.say(self.t.side_names[ev.lane], PEGGED_ON_BOARD, ev.n)
            self.t.record("peg", [ev.lane, ev.n, PEGGED_ON_BOARD], source=BOARD,
                        info={"lane": ev.lane})
            return self.t.game.over
        if ev.kind == "undo":
            return self._board_undo(ev.lane)
        if ev.kind == "new":
            self.t.view.problem("the board started a new game; this game goes on")
            self.reconcile()
            return True
        if ev.kind == "lost":
            self.t.view.problem("lost the board: reconnecting (the game is saved)")
        elif ev.kind == "back":
            self.t.view.note("the board is back")
            if self.t.offline:
                return self.t.retry_board()
        elif ev.kind == "drift":
            self.reconcile()
            return True
        return False

    def _jumps(self) -> list[Entry]:
        """Standing entries that made a jump on the board, after the last barrier."""
        out: list[Entry] = []
        for e in self.t.entries:
            if e.kind == "note" and e.info.get(BARRIER):
                out = []
            elif self.t.on_board(e):
                out.append(e)
        return out

    def _board_undo(self, lane: int) -> bool:
        """The board's undo button took back its last jump: take back its entry too."""
        jumps = self._jumps()
        if not jumps or jumps[-1].side != lane:
            self.t.view.problem("the board undid a jump the record cannot match")
            self.reconcile()
            return True
        e = jumps[-1]
        gone = [e] if e.source == BOARD else [x for x in self.t.entries if x.seq >= e.seq]
        with self.t.h.batch():  # all of them or none, whatever stops us
            for x in reversed(gone):
                self.t.h.undo_entry(self.t.game_id, x.id)
        self.t.view.say(self.t.side_names[lane], f"undone on the board: {describe(self.t, e)}")
        self.t.rebuild()
        self.t.save_hands({x.hand for x in gone})
        self.t.show_board()
        return True

    # -- after a crash ------------------------------------------------------------------------

    def settle_pending(self) -> None:
        """Decide, from the board's state, whether each pending operation was applied; send
        those that were not (with the same id); leave other differences to reconcile. The
        board is asked once, then each operation sent answers with the state after: one
        round trip per peg sent (this runs on the engine's worker, before the next answer)."""
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
            self._decide(quiet, "Set the board up with the record's scores",
                         self._rebuild_board)
            return
        for lane in range(sides):
            b, r = st.fronts[lane], g.scores[lane]
            name = self.t.side_names[lane]
            if b == r or g.over:
                continue
            if b > r:
                text = f"the board shows {name} {b}, the record {r}"
                self.t.view.problem(text)
                self._decide(quiet, f"Record the {b - r} as {PEGGED_ON_BOARD}",
                             partial(self.t.record, "peg", [lane, b - r, PEGGED_ON_BOARD],
                                     source=RECONCILE, info={"lane": lane}))
            else:
                if not quiet:
                    self.t.view.problem(f"the board shows {name} {b}, the record {r}")
                self._decide(quiet, f"Peg {r - b} for {name} on the board",
                             partial(self._peg_difference, lane, r - b))

    def _decide(self, quiet: bool, prompt: str, action: Callable[[], Any]) -> None:
        """Do it at once with no board to ask about, else leave it to the flow to ask."""
        if quiet:
            action()
        elif all(p != prompt for p, _ in self.t.decisions):
            self.t.decisions.append((prompt, action))

    def _peg_difference(self, lane: int, n: int) -> None:
        """Peg the board up to the record (behind by n on lane), after a barrier."""
        op: BoardOp = ("peg", lane, n, self.t.op_id())
        self.t.note("note", {BARRIER: True, "lane": lane, "n": n, "why": "board behind"})
        self.t.h.add_ops(self.t.game_id, [op], self.t.entries[-1].id)
        self.t.send(op)

    def _rebuild_board(self) -> None:
        """Set the board up again with the record's scores, after a barrier."""
        op: BoardOp = ("new", None, 0, self.t.op_id())
        self.t.note("note", {BARRIER: True, "why": "board set up again"})
        self.t.h.add_ops(self.t.game_id, [op], self.t.entries[-1].id)
        self.t.send(op)
        for lane, score in enumerate(self.t.game.scores):
            if score:
                self._peg_difference(lane, score)
        self.t.mark_dealer()


def _delta(op: Any) -> int:
    """What a pending operation (a history row) changes its lane's score by."""
    return op["n"] if op["verb"] == "peg" else -op["n"] if op["verb"] == "undo" else 0
