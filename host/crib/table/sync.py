"""The table flow and the board: what its buttons did during the game (pegs, undo, a new
game), and after a crash or a reconnect, which pending operations the board applied and
how it differs from the record. `Table` (crib.table.record) inherits `BoardSync`.

Pending operations are settled from the board's pegs alone: a lane where the operation
leaves it means applied, a lane where it was before means not applied (sent again, with
the same id: the board applies an id once). Any other difference is reconciled by asking:
record the board's extra points as pegged on board, peg the board up to the record, or
set the board up again: each a decision the flow asks about (Table.decisions). The board
is never changed silently (no board at all: nothing to ask about, it is rebuilt from the
record).
"""

from crib.errors import CribError
from crib.table.entries import (
    BARRIER,
    BOARD,
    PEGGED_ON_BOARD,
    RECONCILE,
    describe,
)
from cribcore.game import CUT


class BoardSync:
    """Board events, pending operations and reconciliation for Table (module docstring)."""

    def board_event(self, ev):
        """Record what the board's buttons did (one BoardEvent); True if that ends the game,
        takes back entries or needs a decision (the open question may no longer apply)."""
        g = self.game
        if ev.kind == "peg":
            if g.over or ev.lane >= len(g.sides):
                self.view.note(f"board: {ev.n} pegged outside the game; not recorded")
                return False
            if g.phase == CUT:  # nobody can score before the first deal: take it back
                self.view.problem(f"board: {ev.n} pegged before the first deal; taken back")
                op = ("undo", ev.lane, ev.n, self.op_id())
                self.h.add_ops(self.game_id, [op])
                self.send(op)
                return False
            self.view.say(self.side_names[ev.lane], PEGGED_ON_BOARD, ev.n)
            self.record("peg", [ev.lane, ev.n, PEGGED_ON_BOARD], source=BOARD,
                        info={"lane": ev.lane})
            return self.game.over
        if ev.kind == "undo":
            return self._board_undo(ev.lane)
        if ev.kind == "new":
            self.view.problem("the board started a new game; this game goes on")
            self.reconcile()
            return True
        if ev.kind == "lost":
            self.view.problem("lost the board: reconnecting (the game is saved)")
        elif ev.kind == "back":
            self.view.note("the board is back")
            if self.offline:
                return self.retry_board()
        elif ev.kind == "drift":
            self.reconcile()
            return True
        return False

    def _jumps(self):
        """Standing entries that made a jump on the board, after the last barrier."""
        out = []
        for e in self.entries:
            if e.kind == "note" and e.info.get(BARRIER):
                out = []
            elif self.on_board(e):
                out.append(e)
        return out

    def _board_undo(self, lane):
        """The board's undo button took back its last jump: take back its entry too."""
        jumps = self._jumps()
        if not jumps or jumps[-1].side != lane:
            self.view.problem("the board undid a jump the record cannot match")
            self.reconcile()
            return True
        e = jumps[-1]
        gone = [e] if e.source == BOARD else [x for x in self.entries if x.seq >= e.seq]
        with self.h.batch():  # all of them or none, whatever stops us
            for x in reversed(gone):
                self.h.undo_entry(self.game_id, x.id)
        self.view.say(self.side_names[lane], f"undone on the board: {describe(self, e)}")
        self.rebuild()
        self.save_hands({x.hand for x in gone})
        self.show_board()
        return True

    # -- after a crash ------------------------------------------------------------------------

    def settle_pending(self):
        """Decide, from the board's state, whether each pending operation was applied; send
        those that were not (with the same id); leave other differences to reconcile."""
        pending = self.h.pending_ops(self.game_id)
        if not pending:
            return
        st = self.board.state()
        for i, op in enumerate(pending):
            if op["verb"] == "new":
                fresh = st.target == self.target and st.lanes == len(self.game.sides) and (
                    not any(st.fronts)) and not any(e.points for e in self.entries)
                if fresh:
                    self.h.settle_op(op["op_id"], "done", None, st.rev)
                else:
                    self.send(("new", None, op["n"], op["op_id"]))
                st = self.board.state()
                continue
            lane = op["lane"]
            later = sum(_delta(o) for o in pending[i + 1:] if o["lane"] == lane)
            after = self.game.scores[lane] - later
            before = after - _delta(op)
            front = st.fronts[lane] if lane < len(st.fronts) and (
                st.target == self.target) else None
            if front == after:
                self.h.settle_op(op["op_id"], "done", front, st.rev)
                self.view.note(f"board: {op['verb']} {op['op_id']} was applied before the stop")
            elif front == before:
                self.view.note(f"board: {op['verb']} {op['op_id']} was not applied: sending it")
                self.send((op["verb"], lane, op["n"], op["op_id"]))
            else:
                self.h.settle_op(op["op_id"], "skipped")
            st = self.board.state()

    def reconcile(self):
        """Make the board and the record agree, saying what differs; each change is a
        decision the flow asks about (self.decisions), so the board is never changed
        silently (with no board at all there is nothing to ask: it is done at once)."""
        if self.offline:
            return
        try:
            st = self.board.state()
        except CribError as e:  # no answer: it waits for the board to be back
            self.go_offline(e)
            return
        g = self.game
        sides = len(g.sides)
        quiet = self.board.kind == "none"
        if st.target != self.target or st.lanes != sides:
            if not quiet:
                self.view.problem(f"the board holds another game ({st.lanes} lanes to"
                                  f" {st.target}); the record has {sides} to {self.target}")
            self._decide(quiet, "Set the board up with the record's scores",
                         self._rebuild_board)
            return
        for lane in range(sides):
            b, r = st.fronts[lane], g.scores[lane]
            name = self.side_names[lane]
            if b == r or g.over:
                continue
            if b > r:
                text = f"the board shows {name} {b}, the record {r}"
                self.view.problem(text)
                self._decide(quiet, f"Record the {b - r} as {PEGGED_ON_BOARD}",
                             lambda lane=lane, n=b - r: self.record(
                                 "peg", [lane, n, PEGGED_ON_BOARD], source=RECONCILE,
                                 info={"lane": lane}))
            else:
                if not quiet:
                    self.view.problem(f"the board shows {name} {b}, the record {r}")
                self._decide(quiet, f"Peg {r - b} for {name} on the board",
                             lambda lane=lane, n=r - b: self._peg_difference(lane, n))

    def _decide(self, quiet, prompt, action):
        """Do it at once with no board to ask about, else leave it to the flow to ask."""
        if quiet:
            action()
        elif all(p != prompt for p, _ in self.decisions):
            self.decisions.append((prompt, action))

    def _peg_difference(self, lane, n):
        op = ("peg", lane, n, self.op_id())
        self.note("note", {BARRIER: True, "lane": lane, "n": n, "why": "board behind"})
        self.h.add_ops(self.game_id, [op], self.entries[-1].id)
        self.send(op)

    def _rebuild_board(self):
        op = ("new", None, 0, self.op_id())
        self.note("note", {BARRIER: True, "why": "board set up again"})
        self.h.add_ops(self.game_id, [op], self.entries[-1].id)
        self.send(op)
        for lane, score in enumerate(self.game.scores):
            if score:
                self._peg_difference(lane, score)
        self.mark_dealer()


def _delta(op):
    return op["n"] if op["verb"] == "peg" else -op["n"] if op["verb"] == "undo" else 0
