"""What a restart of the board's server (a power cut, a kill) must not lose, beyond the
game record itself (pegboard.gamelog, pegboard.recordsession): the answers taken that
wrote no line yet, and LEDs that agree with the record.

    session = KeptSession(log, board, view, options)   # a RecordSession that keeps them
                                                       # and the log the screens show
    resync(engine, board)     # after the engine's start: the App's pegs made the record's

The record is written before the board is pegged (cribcore.table.table), so a cut between
the two leaves the App one operation behind the record (a peg not made, an undo not
done). resync makes that one operation again, and anything else it finds different is
set up anew from the record (a barrier: the board's undo no longer reaches before it),
each lane's back and front peg where the game has them. Its operations' ids come of the
record's position like every other (Table.op_id), so none repeats one the App remembers.
"""

import json

from cribcore.pegs import PegError
from cribcore.table.entries import BARRIER
from cribcore.table.room import LOG_KEEP
from pegboard.recordsession import RecordSession

LOG = "/l"  # and the log every screen shows, a JSON line an event (Session.keep_log)
OLDER = "/m"  # the log's lines before those in LOG (LOG renamed once it held LOG_KEEP)


class KeptSession(RecordSession):
    """The board's RecordSession, with the answers that wrote no line kept on flash."""

    def keep(self, pending):
        self.log.keep(json.dumps(pending).encode())  # in a segment's folder (GameLog.keep)

    def kept(self):
        raw = self.log.kept()
        if not raw:
            return None
        try:
            got = json.loads(raw)
        except ValueError:
            return None  # a write cut short (not on LittleFS): nothing to give again
        return got if isinstance(got, dict) else None

    waiting = None  # the events keep_log() keeps for flush_log(): a list once deferred

    def keep_log(self, added, log):
        """The events just numbered appended to `l` (one small flash write an answer, never
        the whole log at once: a 7 KB block late in a game, that a fragmented heap may not
        have); once `l` holds what a screen is shown, it becomes `m` (a rename, replacing
        the one before: atomic on LittleFS) and `l` starts again, so the two hold the last
        LOG_KEEP events or more, and at most about twice that. Deferred (defer_log(), the
        board's server), they are written by flush_log() after the answer's reply: the
        log is what the screens show again after a restart, not what resumes the game (the
        record), so a cut before it loses the last answer's lines of it at most."""
        if self.waiting is not None:
            self.waiting.extend(added)
            return
        self._append(added)

    def defer_log(self):
        """keep_log()'s writes wait for flush_log() from now on."""
        self.waiting = []

    def flush_log(self):
        """The events keep_log() kept, appended now (one write); a store that fails is
        said nowhere, as Room's keep_log (the game goes on)."""
        added = self.waiting
        if not added:
            return
        try:
            self._append(added)
        except (OSError, ValueError, MemoryError):
            pass
        added.clear()  # the same list for the next answer's events

    _logged = 0  # the events in LOG (kept_log() counts them at boot)
    _name = None  # LOG's path, made once

    def _append(self, added):
        name = self._name
        if name is None:
            name = self._name = self.log.path + LOG
        files = self.log.files
        if self._logged >= LOG_KEEP:
            files.rename(name, self.log.path + OLDER)
            self._logged = 0
        files.dump(name, added)  # each event's JSON written into the file: no text made
        self._logged += len(added)

    def kept_log(self):
        """The log kept before the restart: its last events, the older file's then the
        newer's (a torn line is dropped)."""
        out = []
        files = self.log.files
        for path in (OLDER, LOG):
            self._logged = 0
            for raw in files.lines(self.log.path + path):
                self._logged += 1
                try:
                    out.append(json.loads(raw))
                except ValueError:
                    continue
                if len(out) > LOG_KEEP:
                    out.pop(0)
        return out


def resync(engine, board):
    """Make the App's pegs the record's (module docstring); True if anything was sent."""
    table = engine.session.table
    if table is None or table.game is None:
        return False
    want = engine.view()["pegs"]
    app = board.app.board
    same_game = app.players == len(want) and app.target == table.target
    have = board.pegs()
    if same_game and have == want:
        return False
    if same_game:
        off = [i for i in range(len(want)) if have[i] != want[i]]
        if len(off) == 1:
            lane = off[0]
            front = have[lane][1]
            if want[lane][0] == front and want[lane][1] > front:  # the last peg not made
                board.peg(lane, want[lane][1] - front, table.op_id())
                return True
        trial = app.copy()
        try:
            trial.undo()
            if [[trial.back(i), trial.front(i)] for i in range(trial.players)] == want:
                board.undo(table.op_id())  # the last undo not done
                return True
        except PegError:
            pass
    if table.game.over:
        return False  # a finished game's board is left as it is: the next game sets it up
    table.note("note", {BARRIER: True, "why": "board set up again after a restart"})
    table.send_new(0)
    for lane, (back, front) in enumerate(want):
        for n in (back, front - back):
            if n:
                table.peg_board(lane, n)
    table.mark_dealer()
    return True
