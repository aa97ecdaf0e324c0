"""The host's game record: a cribcore Table (cribcore.table.table: the game rebuilt from
the entries that stand, undo) whose record is the SQLite history and whose board is the
link, with the board's news and reconciliation (crib.table.sync).

Each entry is written to the history with its board operations (at most one peg) as
pending, then the pegs are sent with their ids and marked done; a board that stops
answering leaves them pending until it is back, and a resumed game settles them.
"""

from collections.abc import Iterable, Sequence
from typing import Any

from crib.board.api import BoardError, GameBoard
from crib.board.ids import op_id
from crib.board.state import BoardEvent, BoardState
from crib.errors import CribError
from crib.history.db import Entry as HistoryEntry
from crib.history.db import History
from crib.table.sync import BoardOp, BoardSync
from cribcore.table.entries import AUTO, TABLE, summary
from cribcore.table.record import Entry
from cribcore.table.table import Table as CoreTable


class HistoryRecord:
    """The history's entries of one game, as the core's Record (append, entries, undo)."""

    def __init__(self, history: History, game_id: int) -> None:
        self.h = history
        self.game_id = game_id

    def append(self, entry: Entry, ops: Iterable[BoardOp] = ()) -> None:
        """Write an entry (and its board operations, pending) to the history."""
        self.h.add_entry(self.game_id, entry.hand, entry.kind, player=entry.player,
                         side=entry.side, points=entry.points, reason=entry.reason,
                         source=entry.source, args=entry.args, info=entry.info, ops=ops,
                         answered_by=entry.answered_by)

    def entries(self) -> list[HistoryEntry]:
        """The entries that stand, in order."""
        return self.h.entries(self.game_id)

    def undo(self, entry: Entry, ops: Iterable[BoardOp] = ()) -> None:
        """Mark an entry undone (and write the board operations that take it back)."""
        self.h.undo_entry(self.game_id, entry.id, ops)

    def position(self) -> int:
        """Where the record is (moves on with every append and undo)."""
        return self.h.position(self.game_id)


class Table(CoreTable):
    """One game at the table: the history's record, the board mirror (module docstring)."""

    def __init__(self, history: History, board: GameBoard, view: Any, game_id: int) -> None:
        self.h = history
        row = history.game(game_id)
        match = history.match(row["match_id"])
        self.row = row
        self.match = match
        self.prefix = row["op_prefix"]
        self.sync = BoardSync(self)
        super().__init__(HistoryRecord(history, game_id), board, view, match["names"],
                         match["target"], match["partnerships"], row["first_dealer"],
                         row["options"], game_id, match["game_points"])
        self.op_seq = history.op_count(game_id)

    # -- the record ---------------------------------------------------------------------------

    def op_id(self) -> str:
        """A fresh operation id for the board."""
        self.op_seq += 1
        return op_id(self.prefix, self.op_seq)

    def write(self, entry: Entry, pegs: Sequence[Any]) -> None:
        """Write the entry and its pegs (pending, with ids) to the history, then peg the
        board and mark each done; the hand's summary in the same commit."""
        ops = [("peg", p.side, p.points, self.op_id()) for p in pegs]
        self.rec.append(entry, ops)
        self.refold()  # what the answers read, from the history's entries
        with self.h.batch():  # what the board answered and the hand summary: one commit
            for op in ops:
                self.send(op)
            self.save_hands({entry.hand})

    def note(self, kind: str, info: dict[str, Any], auto: bool = False,
             player: int | None = None) -> None:
        """A host-only entry (no game action, nothing pegged)."""
        info = dict(info)
        if auto:
            info[AUTO] = True
        self.h.add_entry(self.game_id, self.game.hand_no, kind, player=player, info=info,
                         answered_by=self.answered_by(player))
        self.refold()

    def take_back(self, e: Entry, standing: list[Entry] | None = None) -> None:
        """Mark one entry undone, with the board operation that takes its jump back
        (standing: the core's Table.take_back's)."""
        ops = [("undo", e.side, e.points, self.op_id())] if self.on_board(e) else []
        self.rec.undo(e, ops)
        self.rebuild(standing)
        for op in ops:
            self.send(op)

    def hands_changed(self, numbers: Iterable[int]) -> None:
        """The hands whose entries changed: their summaries written again."""
        self.save_hands(numbers)

    def review(self, cards: Sequence[int], discard: Sequence[int], mine: bool) -> str:
        """The discard advisor's line (--review)."""
        from crib.analysis.advise import review, review_line  # its tables load only when reviewing

        made, best = review(cards, discard, mine, players=self.players)
        return review_line(made, best)

    def on_board(self, e: Entry) -> bool:
        """Whether an entry's points are on the board (a jump there to undo with it)."""
        return e.points > 0 and (e.source != TABLE or self.h.entry_applied(e.id))

    def save_hands(self, numbers: Iterable[int]) -> None:
        """Rewrite the summaries of the given hands from the entries that stand."""
        every = self.entries  # read once
        for number in sorted(numbers):
            es = [e for e in every if e.hand == number]
            starter = [e for e in es if e.kind == "starter"]
            if not starter:
                self.h.save_hand(self.game_id, number, 0, None, None)
                continue
            s = starter[-1]
            self.h.save_hand(self.game_id, number, s.info["dealer"], s.info["card"],
                             summary(es, self.players))

    # -- the board ----------------------------------------------------------------------------

    def board_event(self, ev: BoardEvent) -> bool:
        """Record a BoardEvent (the core's Table.board_event); an offline board that is back
        is tried again. True if the open question may be stale."""
        changed = super().board_event(ev)
        if ev.kind == "back" and self.offline:
            return self.retry_board()
        return changed

    def undo_on_board(self, lane: int, n: int) -> None:
        """Take back the board's last jump (written first, like every operation)."""
        op: BoardOp = ("undo", lane, n, self.op_id())
        self.h.add_ops(self.game_id, [op])
        self.send(op)

    def undone_on_board(self, gone: Sequence[Entry]) -> None:
        """Mark entries undone whose jump the board took back: all of them or none."""
        with self.h.batch():
            super().undone_on_board(gone)

    def settle_pending(self) -> None:
        """Settle the operations a stop left pending (crib.table.sync)."""
        self.sync.settle_pending()

    def reconcile(self) -> None:
        """Make the board and the record agree, by decisions (crib.table.sync)."""
        self.sync.reconcile()

    def send(self, op: BoardOp) -> BoardState | None:
        """Send one written operation and mark it done; the board's state after (None if it
        was not applied). A refusal is settled by reconcile. A board that does not answer
        leaves it pending: the game goes on, and the pending operations are settled when the
        board is back (retry_board)."""
        verb, lane, n, op_id = op
        if self.offline:
            return None
        try:
            if verb == "peg":
                st = self.board.peg(lane, n, op_id)
            elif verb == "undo":
                st = self.board.undo(op_id)
            else:
                st = self.board.new_game(self.target, len(self.game.sides), op_id, n == 1)
        except BoardError as e:
            self.h.settle_op(op_id, "skipped")
            self.view.problem(f"the board refused {verb}: {e}")
            self.reconcile()
            return None
        except CribError as e:  # no answer: a timeout, a port gone
            self.go_offline(e)
            return None
        front = st.fronts[lane] if lane is not None and lane < len(st.fronts) else None
        self.h.settle_op(op_id, "done", front, st.rev)
        return st

    def send_new(self, match: int) -> None:
        """A new game on the board (written first, like every operation)."""
        op: BoardOp = ("new", None, match, self.op_id())
        self.h.add_ops(self.game_id, [op])
        self.send(op)

    def mark_dealer(self) -> None:
        """Show the crib marker on the dealer's lane (not part of the record)."""
        if self.game.dealer >= 0:
            if self.offline:
                return
            try:
                self.board.set_dealer(self.game.side_of(self.game.dealer))
            except BoardError as e:
                self.view.problem(f"the board refused the dealer marker: {e}")
            except CribError as e:
                self.go_offline(e)

    def go_offline(self, why: object) -> None:
        """The board stopped answering: say so once; pegs wait as pending."""
        if not self.offline:
            self.offline = True
            self.view.problem(f"board offline ({why}): the game goes on, the pegs wait")

    def retry_board(self) -> bool:
        """Try an offline board again; when it answers, settle what waited (True)."""
        if not self.offline:
            return True
        try:
            self.board.state()
        except CribError:
            return False
        self.offline = False
        self.view.note("the board is back: sending the pegs that waited")
        self.settle_pending()
        self.reconcile()
        self.mark_dealer()
        return not self.offline
