"""One game at the table: its entries (a Record), the cribcore Game rebuilt from those
that stand, the board mirrored, undo. The questions asked next are a function of the game
and the entries alone (cribcore.table.turns), which is what makes undo (and a resume)
exact.

`Table` talks to a Record and a Board (cribcore.table.record). The host's table
(crib.table.record) is a Table whose record is the SQLite history and whose pegs go to
the board with operation ids written first; it overrides the hooks `write`, `take_back`,
`hands_changed`, `send_new`, `undo_on_board`, `undone_on_board`, `on_board`, `reconcile`
and `review`.

The board's buttons (`board_event`) are recorded the same way on both: a peg as pegged on
the board, an undo takes back the entry whose jump it took back, a new game started on the
board is set up again from the record, asked first (Table.decisions).
"""

from cribcore import CoreError
from cribcore.cards import card_symbol
from cribcore.game import CUT, PLAY, SHOW, Game, Peg
from cribcore.rules import GAME_POINTS, skunk_lines
from cribcore.table.entries import AUTO, BARRIER, BOARD, PEGGED_ON_BOARD, TABLE, describe, replay
from cribcore.table.record import Entry
from cribcore.table.standing import Standing

SET_UP = "Set the board up with the record's scores"  # the decision reconcile may ask


class Table:
    """One game at the table: record, board mirror, undo (see module docstring)."""

    def __init__(self, record, board, view, names, target, partnerships=False,
                 first_dealer=None, options=None, game_id=1, game_points=GAME_POINTS):
        self.rec = record
        self.board = board
        self.view = view
        self.game_id = game_id
        self.names = list(names)
        self.players = len(self.names)
        self.target = target
        self.partnerships = bool(partnerships)
        self.first_dealer = first_dealer
        self.options = dict(options or {})
        self.game_points = game_points
        # Operation ids come of the record (op_id): unique for the life of the record's
        # store, so a board that remembers the ids it applied never mistakes a new
        # operation after a restart for a retry of an old one.
        self.op_prefix = getattr(record, "prefix", "t")
        self.op_seq = 0
        self._op_pos = None
        # Questions the board's news raise, (prompt, action on yes): the flow asks them.
        self.decisions = []
        # While an answer given for another player is applied: (who answered, for whom).
        self.answering = None
        self.offline = False  # the board stopped answering: pegs wait, pending
        self.rebuild()
        self.side_names = [" & ".join(self.names[p] for p in side) for side in self.game.sides]

    # -- the record ---------------------------------------------------------------------------

    @property
    def entries(self):
        """The entries that stand, in order: the record's (Record.entries). A board's
        record reads them back from flash (pegboard.flashrecord), so only a rebuild and
        the rare scans read them (an undo, the board's undo, a club's report), never an
        answer: what answers read is kept as the entries come (Table.standing)."""
        return self.rec.entries() if self.rec is not None else []

    def rebuild(self, standing=None):
        """The game from the entries that stand (what resume and undo both rely on), and
        what the answers read of them (Table.standing) folded again in the same pass.
        standing: those entries when the caller has just read them (an undo: a board's
        record reads them from flash, about half a second late in a game on the chip),
        else read from the record."""
        g = Game(self.players, self.target, self.partnerships, self.first_dealer)
        s = Standing(len(g.sides), self._every)
        for e in self.rec.entries() if standing is None else standing:
            replay(g, e.kind, e.args)
            s.add(e)
        self.game = g
        self._standing = s

    def refold(self):
        """What the answers read folded again from the record's entries (a Table whose
        write() does not go through took(): the host's, crib.table.record)."""
        s = Standing(len(self.game.sides), self._every)
        for e in self.rec.entries():
            s.add(e)
        self._standing = s

    def _every(self):
        return self.entries

    def took(self, entry):
        """An entry just appended to the record: folded into what the answers read."""
        self._standing.add(entry)

    def standing(self):
        """What the questions and the view read of the standing entries
        (cribcore.table.standing): the current hand's and a few folds, kept as entries
        are appended (took) and folded again by rebuild."""
        return self._standing

    def retire(self):
        """The game is over and the next one is set up (Session.games): its entries, record
        and game leave the heap. Nothing reads a finished game's table again, but a
        reference to it can outlive it: MicroPython's collector is conservative (a stale
        slot of a generator's frame keeps what it last held), and each retired table
        held this way would otherwise keep a whole game's entries."""
        self.rec = None
        self.game = None
        self._standing.forget()

    def hand_entries(self, hand=None):
        """The standing entries of a hand (default: the current one), in order: kept up to
        date as entries are added (Table.standing), so read the list, never change it."""
        hand = self.game.hand_no if hand is None else hand
        return self.standing().hand_entries(hand)

    def op_id(self):
        """A fresh operation id for the board: the record's prefix and game, its position
        (Record.position: the line the operation follows), and a count from there."""
        pos = self.rec.position() if self.rec is not None else 0
        if pos != self._op_pos:
            self._op_pos, self.op_seq = pos, 0
        self.op_seq += 1
        return "%s%d-%d-%d" % (self.op_prefix, self.game_id, pos, self.op_seq)

    def record(self, kind, args=(), info=None, player=None, source=TABLE, reason=None,
               announce=True):
        """Apply the entry's action to the game (cribcore.table.entries.REPLAY), write it
        to the record, then peg the board. Raises (and changes nothing) if the game
        refuses the action."""
        g = self.game
        hand = g.hand_no
        step = replay(g, kind, args)
        pegs = step.pegs if step else ()
        side = pegs[0].side if pegs else None
        points = step.points if step else 0
        if reason is None and pegs:
            reason = pegs[0].reason
        # a button peg, or a difference found on the board, is on the board already
        sent = pegs if pegs and source == TABLE else ()
        for p in sent:  # the pegs as they are when each pegs points (no list made)
            if p.points <= 0:
                sent = [p for p in pegs if p.points > 0]
                break
        entry = Entry(hand, kind, player, side, points, reason, source, args, info,
                      self.answered_by(player))  # info the entry's own: not copied
        if pegs:
            entry.info.setdefault("scorer", pegs[0].player)
        try:
            self.write(entry, sent)
        except BaseException:
            self.rebuild()  # nothing was written: the game must not run ahead of the record
            raise
        if announce and pegs and points:
            self.show_board(side)
        return step

    def write(self, entry, pegs):
        """Append the entry to the record, then peg the board (pegs: the core's Pegs)."""
        self.rec.append(entry)
        self.took(entry)
        for p in pegs:
            self.board.peg(p.side, p.points, self.op_id())

    def note(self, kind, info, auto=False, player=None):
        """A table-only entry (no game action, nothing pegged). info becomes the entry's
        own (Entry: not copied)."""
        if auto:
            info = dict(info)
            info[AUTO] = True
        self.write(Entry(self.game.hand_no, kind, player, info=info,
                         answered_by=self.answered_by(player)), ())

    def answered_by(self, player):
        """Who answered for player in the answer being applied (None: the player did)."""
        if self.answering is None or player is None or player != self.answering[1]:
            return None
        return self.answering[0]

    def hands_changed(self, numbers):
        """The hands whose entries changed (the host rewrites their summaries)."""

    def review(self, cards, discard, mine):
        """The discard advisor's line on a discard, or None (no advisor in the core)."""
        return None

    # -- the board ----------------------------------------------------------------------------

    def board_event(self, ev):
        """What the board's buttons did, or the link's news (ev: kind, lane, n, rev, as
        cribcore.table.record.BoardEvent); True if the open question may be stale (the game
        ended, entries were taken back, or a decision waits)."""
        kind = ev.kind
        if kind == "peg":
            return self.board_peg(ev.lane, ev.n)
        if kind == "undo":
            return self.board_undo(ev.lane)
        if kind == "new":
            self.view.problem("the board started a new game; this game goes on")
        elif kind == "lost":
            self.view.problem("lost the board: reconnecting (the game is saved)")
            return False
        elif kind == "back":
            self.view.note("the board is back")
            return False
        elif kind != "drift":
            return False  # other news (the win after its peg, a warning): not the game's
        self.reconcile()  # a new game on the board, or a board that drifted from the record
        return True

    def board_peg(self, lane, n):
        """Points pegged on the board's buttons: recorded as pegged on the board (taken
        back on the board before the first deal; a note outside the game). True if that
        ends the game."""
        g = self.game
        if type(n) is not int or n < 1:
            self.view.problem("board: a peg of %r not understood; not recorded" % (n,))
            return False
        if g.over or type(lane) is not int or not 0 <= lane < len(g.sides):
            self.view.note("board: %s pegged outside the game; not recorded" % (n,))
            return False
        if g.phase == CUT:  # nobody can score before the first deal: take it back
            self.view.problem("board: %s pegged before the first deal; taken back" % (n,))
            self.undo_on_board(lane, n)
            return False
        self.view.say(self.side_names[lane], PEGGED_ON_BOARD, n)
        self.record("peg", (lane, n, PEGGED_ON_BOARD), source=BOARD, info={"lane": lane})
        return self.game.over

    def board_undo(self, lane):
        """The board's undo button took back its last jump (on lane): the entry that made
        it goes too (a board peg alone; an answer's entry with what came after it). A jump
        the record cannot match: said, and the board set up again from the record (asked)."""
        every = self.entries  # read once (from flash on a board)
        jumps = self.jumps(every)
        if not jumps or jumps[-1].side != lane:
            self.view.problem("the board undid a jump the record cannot match")
            self.reconcile()
            return True
        e = jumps[-1]
        gone = [e] if e.source == BOARD else [x for x in every if x.seq >= e.seq]
        self.undone_on_board(gone)
        self.view.say(self.side_names[lane], "undone on the board: " + describe(self, e))
        self.rebuild([x for x in every if x not in gone])
        self.hands_changed(set(x.hand for x in gone))
        self.show_board()
        return True

    def jumps(self, every=None):
        """Standing entries that made a jump on the board, after the last barrier (of
        every: the standing entries, read from the record when not given)."""
        out = []
        for e in self.entries if every is None else every:
            if e.kind == "note" and e.info.get(BARRIER):
                out = []
            elif self.on_board(e):
                out.append(e)
        return out

    def on_board(self, e):
        """Whether an entry's points are on the board (a jump there to undo with it)."""
        return e.points > 0

    def undone_on_board(self, gone):
        """Mark entries undone whose jump the board took back itself (nothing to send)."""
        for x in reversed(gone):
            self.rec.undo(x)

    def undo_on_board(self, lane, n):
        """Take back the board's last jump (lane pegged n there). A board that refuses
        (nothing left to undo on it: set up anew, say) is said, and set up again (asked)."""
        try:
            self.board.undo(self.op_id())
        except (CoreError, OSError) as e:
            self.view.problem("the board refused undo: %s" % (e,))
            self.reconcile()

    def reconcile(self):
        """Make the board agree with the record. The core does not read what a board
        holds: it offers to set the board up again with the record's scores (the host
        compares lane by lane, crib.table.sync)."""
        self.decide(SET_UP, self.set_board_up)

    def decide(self, prompt, action):
        """Leave a change of the board to the flow to ask about (Table.decisions, once per
        prompt): the board is never changed silently. With no board at all there is
        nothing to ask about: it is done at once."""
        if self.board.kind == "none":
            action()
        elif all(p != prompt for p, _ in self.decisions):
            self.decisions.append((prompt, action))

    def set_board_up(self):
        """Set the board up again with the record's scores, after a barrier (its undo no
        longer mirrors the record before it)."""
        self.note("note", {BARRIER: True, "why": "board set up again"})
        self.send_new(0)
        for lane, score in enumerate(self.game.scores):
            if score:
                self.peg_board(lane, score)
        self.mark_dealer()

    def peg_board(self, lane, n):
        """Peg the board up to the record (behind by n on lane): a barrier note written
        with the peg (Table.write)."""
        info = {BARRIER: True, "lane": lane, "n": n, "why": "board behind"}
        self.write(Entry(self.game.hand_no, "note", info=info),
                   [Peg(lane, None, n, "board behind")])

    def start_board(self, match):
        """Set the board up for this game."""
        self.send_new(1 if match else 0)
        self.mark_dealer()

    def send_new(self, match):
        """A new game on the board."""
        self.board.new_game(self.target, len(self.game.sides), self.op_id(), match == 1)

    def mark_dealer(self):
        """Show the crib marker on the dealer's lane (not part of the record)."""
        if self.game.dealer >= 0 and not self.offline:
            self.board.set_dealer(self.game.side_of(self.game.dealer))

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
                self.view.note("count %d" % g.play.count)

    def show_board(self, fresh=None):
        """The compact board after a peg."""
        self.view.board(self.side_names, self.game.scores, self.target, fresh,
                        skunk_lines(self.target)[0])

    # -- undo ---------------------------------------------------------------------------------

    def undo(self):
        """Take back the last entry (and the automatic ones after it); False if none."""
        stack = []
        every = self.entries  # read once (from flash on a board)
        for e in every:
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
        standing = every
        for e in gone:  # the game read from the record once, however many go
            standing = [x for x in standing if x is not e]
            self.take_back(e, standing)
        self.view.note("undone: " + "; ".join(describe(self, e) for e in reversed(gone)))
        self.hands_changed(set(e.hand for e in gone))
        if any(e.points for e in gone):
            self.show_board()
        return True

    def take_back(self, e, standing=None):
        """Mark one entry undone in the record, and take its jump back on the board;
        standing: the entries that stand without it, if the caller has them (rebuild's)."""
        self.rec.undo(e)
        self.rebuild(standing)
        if self.on_board(e):
            self.undo_on_board(e.side, e.points)
