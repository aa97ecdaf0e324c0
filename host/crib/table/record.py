"""The table flow's engine: the game record (cribcore Game rebuilt from the entries that
stand), written to the history before anything is pegged, mirrored on the board, undone,
and reconciled with the board after a crash or while it was offline.

An entry is one thing that happened at the table: a cut, the starter, a card laid, a go, a
show, points pegged (typed, on the board's buttons, a muggins claim), or a note the flow
needs (dealt cards for the review, the switch to typed play points). Each is written with
its board operations (at most one peg) as pending, then the pegs are sent with their ids
and marked done. The questions asked next are a function of the game and the entries
alone (crib.table.turns), which is what makes `undo` and `--resume` exact.
"""


from crib.board.ids import op_id
from crib.board.memory import BoardError
from crib.errors import CribError
from crib.table.entries import AUTO, BARRIER, TABLE, describe, replay, summary
from crib.table.sync import BoardSync
from cribcore.cards import card_symbol
from cribcore.game import PLAY, SHOW, Game
from cribcore.rules import skunk_lines


class Table:
    """One game at the table: record, board mirror, undo, reconcile (see module docstring)."""

    def __init__(self, history, board, view, game_id):
        self.h = history
        self.board = board
        self.view = view
        self.game_id = game_id
        row = history.game(game_id)
        match = history.match(row["match_id"])
        self.row = row
        self.match = match
        self.names = match["names"]
        self.players = len(self.names)
        self.target = match["target"]
        self.partnerships = bool(match["partnerships"])
        self.options = row["options"]
        self.prefix = row["op_prefix"]
        self.op_seq = history.op_count(game_id)
        # Questions the board's news raise, (prompt, action on yes): the flow asks them.
        self.decisions = []
        # While an answer given for another player is applied: (who answered, for whom).
        self.answering = None
        self.offline = False  # the board stopped answering: pegs wait, pending
        self.sync = BoardSync(self)
        self.rebuild()
        self.side_names = [" & ".join(self.names[p] for p in side) for side in self.game.sides]

    # -- the record ---------------------------------------------------------------------------

    def rebuild(self):
        """The game from the entries that stand (what resume and undo both rely on)."""
        self.entries = self.h.entries(self.game_id)
        g = Game(self.players, self.target, self.partnerships, self.row["first_dealer"])
        for e in self.entries:
            replay(g, e.kind, e.args)
        self.game = g

    def hand_entries(self, hand=None):
        """The standing entries of a hand (default: the current one)."""
        hand = self.game.hand_no if hand is None else hand
        return [e for e in self.entries if e.hand == hand]

    def op_id(self):
        """A fresh operation id for the board."""
        self.op_seq += 1
        return op_id(self.prefix, self.op_seq)

    def record(self, kind, args=(), info=None, player=None, source=TABLE, reason=None,
               announce=True):
        """Apply the entry's action to the game (crib.table.entries.REPLAY), write it (and
        its peg) to the history, then peg the board. Raises (and changes nothing) if the
        game refuses the action."""
        g = self.game
        hand = g.hand_no
        step = replay(g, kind, args)
        info = dict(info or {})
        pegs = list(step.pegs) if step else []
        side = pegs[0].side if pegs else None
        if pegs:
            info.setdefault("scorer", pegs[0].player)
        points = step.points if step else 0
        if reason is None and pegs:
            reason = pegs[0].reason
        ops = []
        if source == TABLE:  # a button peg, or a difference found on the board, is there
            ops = [("peg", p.side, p.points, self.op_id()) for p in pegs if p.points > 0]
        try:
            self.h.add_entry(self.game_id, hand, kind, player=player, side=side,
                             points=points, reason=reason, source=source,
                             args=args, info=info, ops=ops, answered_by=self.answered_by(player))
        except BaseException:
            self.rebuild()  # nothing was written: the game must not run ahead of the record
            raise
        self.entries = self.h.entries(self.game_id)
        with self.h.batch():  # what the board answered and the hand summary: one commit
            for op in ops:
                self.send(op)
            self.save_hands({hand})
        if announce and pegs and points:
            self.show_board(side)
        return step

    def note(self, kind, info, auto=False, player=None):
        """A host-only entry (no game action, nothing pegged)."""
        info = dict(info)
        if auto:
            info[AUTO] = True
        self.h.add_entry(self.game_id, self.game.hand_no, kind, player=player, info=info,
                         answered_by=self.answered_by(player))
        self.entries = self.h.entries(self.game_id)

    def answered_by(self, player):
        """Who answered for player in the answer being applied (None: the player did)."""
        if self.answering is None or player is None or player != self.answering[1]:
            return None
        return self.answering[0]

    def on_board(self, e):
        """Whether an entry's points are on the board (a jump there to undo with it)."""
        return e.points > 0 and (e.source != TABLE or self.h.entry_applied(e.id))

    def save_hands(self, numbers):
        """Rewrite the summaries of the given hands from the entries that stand."""
        for number in sorted(numbers):
            es = [e for e in self.entries if e.hand == number]
            starter = [e for e in es if e.kind == "starter"]
            if not starter:
                self.h.save_hand(self.game_id, number, 0, None, None)
                continue
            s = starter[-1]
            self.h.save_hand(self.game_id, number, s.info["dealer"], s.info["card"],
                             summary(es, self.players))

    # -- the board ----------------------------------------------------------------------------

    def board_event(self, ev):
        """Record a BoardEvent (crib.table.sync); True if the open question may be stale."""
        return self.sync.board_event(ev)

    def settle_pending(self):
        """Settle the operations a stop left pending (crib.table.sync)."""
        self.sync.settle_pending()

    def reconcile(self):
        """Make the board and the record agree, by decisions (crib.table.sync)."""
        self.sync.reconcile()

    def send(self, op):
        """Send one written operation and mark it done; a refusal is settled by reconcile.
        A board that does not answer leaves it pending: the game goes on, and the pending
        operations are settled when the board is back (retry_board)."""
        verb, lane, n, op_id = op
        if self.offline:
            return
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
            return
        except CribError as e:  # no answer: a timeout, a port gone
            self.go_offline(e)
            return
        front = st.fronts[lane] if lane is not None and lane < len(st.fronts) else None
        self.h.settle_op(op_id, "done", front, st.rev)

    def start_board(self, match):
        """Set the board up for this game (written first, like every operation)."""
        op = ("new", None, 1 if match else 0, self.op_id())
        self.h.add_ops(self.game_id, [op])
        self.send(op)
        self.mark_dealer()

    def mark_dealer(self):
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

    def go_offline(self, why):
        """The board stopped answering: say so once; pegs wait as pending."""
        if not self.offline:
            self.offline = True
            self.view.problem(f"board offline ({why}): the game goes on, the pegs wait")

    def retry_board(self):
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

    def show_hand(self):
        """The hand so far, as after a resume: the starter and the cards laid."""
        g = self.game
        if g.starter is None:
            return
        self.view.say("starter", card_symbol(g.starter))
        if g.phase in (PLAY, SHOW) and g.play:
            for e in self.hand_entries():
                if e.kind == "lay":
                    self.view.say(self.names[e.player], e.info.get("text", "?"))
            if g.phase == PLAY:
                self.view.note(f"count {g.play.count}")

    def show_board(self, fresh=None):
        """The compact board after a peg."""
        self.view.board(self.side_names, self.game.scores, self.target, fresh,
                        skunk_lines(self.target)[0])

    # -- undo ---------------------------------------------------------------------------------

    def undo(self):
        """Take back the last entry (and the automatic ones after it); False if none."""
        stack = []
        for e in self.entries:
            if e.kind == "note" and e.info.get(BARRIER):
                stack = []
            else:
                stack.append(e)
        if not stack:
            self.view.problem("nothing to undo")
            return False
        gone = []
        while stack:
            e = stack.pop()
            gone.append(e)
            if not e.info.get(AUTO):
                break
        for e in gone:
            ops = [("undo", e.side, e.points, self.op_id())] if self.on_board(e) else []
            self.h.undo_entry(self.game_id, e.id, ops)
            self.rebuild()
            for op in ops:
                self.send(op)
        self.view.note("undone: " + "; ".join(describe(self, e) for e in reversed(gone)))
        self.save_hands({e.hand for e in gone})
        if any(e.points for e in gone):
            self.show_board()
        return True
