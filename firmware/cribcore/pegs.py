"""The peg board model: two leapfrogging pegs per lane, win, skunk, tally, undo, compact text.

Pure and integer-only (runs on the Pico). The board is the authority for peg positions, so
every change bumps `rev` and can be undone; `dumps`/`loads` carry the whole state, undo
history included, as one line of ASCII with a checksum (the flash file and the protocol).
"""

from cribcore import CoreError
from cribcore.boardtext import FORMAT, HIGH, crc, entry, ints, worth
from cribcore.boardtext import checksum as checksum  # the app keys ids with it
from cribcore.rules import MAX_TARGET, MIN_TARGET, skunk_level

MIN_PLAYERS = 2
MAX_LANES = 4
MAX_POINTS = 1000  # one jump; bigger would only be clamped at the target anyway
# The deepest undo history: at 256 jumps a save's board line is about 300 characters,
# and a 1000-point game plays through and restarts in the desk runner's heap cap
# (tests/firmware/test_desk.py); at 500, saves failed for want of memory from about 580
# jumps on (the line, its checksum and the slot are each built whole in the heap).
MAX_UNDO = 256
# Ids of recent changes a board answers again from memory (a host retries only its last few):
# the firmware app and the host's in-memory board alike.
ID_MEMORY = 8


class PegError(CoreError):
    """A refused board change or a bad board text; `code` names the reason for the protocol."""

    def __init__(self, msg, code="bad_value"):
        super().__init__(msg)
        self.code = code


def _whole(value, low, high, what, code="bad_value"):
    if type(value) is not int or not low <= value <= high:
        raise PegError(f"{what} must be {low}..{high}, got {value!r}", code)
    return value


class Board:
    """Pegs of 2..4 lanes for one game to `target`, the games-won tally and the undo history."""

    def __init__(self, players=2, target=121, undo_depth=64):
        _whole(target, MIN_TARGET, MAX_TARGET, "target")
        self.players = _whole(players, MIN_PLAYERS, MAX_LANES, "players")
        self.target = target
        self.undo_depth = _whole(undo_depth, 0, MAX_UNDO, "undo_depth")
        self.dealer = -1
        self.winner = -1
        self.wins = [0] * MAX_LANES
        self.rev = 0
        self._front = [0] * MAX_LANES
        self._back = [0] * MAX_LANES
        # The undo history as dumps() writes it (v2, boardtext): an entry per jump, oldest
        # first, each the lane + 4 * how far undoing it moves the lane's back peg back. The
        # text is the only copy: a str is shared by copy() (the app's every change), where
        # a list of ints was copied whole (1000 jumps: 8K a change, and MemoryError), and
        # encoding the text afresh at every save cost the emulated Pico 3 ms a `peg`.
        self._htext = ""
        self._undos = 0  # entries in _htext

    def __repr__(self):
        return f"Board.loads({self.dumps()!r})"

    def _lane(self, lane):
        return _whole(lane, 0, self.players - 1, "lane", "bad_lane")

    def front(self, lane):
        """Score held by the front (leading) peg of a lane; 0 is the start hole."""
        return self._front[self._lane(lane)]

    def back(self, lane):
        """Score held by the back peg: the front's previous place."""
        return self._back[self._lane(lane)]

    def score(self, lane):
        """The lane's score (its front peg)."""
        return self.front(lane)

    def copy(self):
        """An independent copy (the app makes each change on one, kept once saved)."""
        b = Board(self.players, self.target, self.undo_depth)
        b.dealer, b.winner, b.rev = self.dealer, self.winner, self.rev
        b.wins, b._front, b._back = self.wins[:], self._front[:], self._back[:]
        b._htext, b._undos = self._htext, self._undos  # an immutable str: shared
        return b

    @property
    def undo_count(self):
        """How many jumps can be undone."""
        return self._undos

    def skunk(self, lane):
        """0, 1 (skunk) or 2 (double skunk) for a losing lane of a won game; else 0."""
        self._lane(lane)
        if self.winner < 0 or lane == self.winner:
            return 0
        return skunk_level(self.target, self._front[lane])

    def peg(self, lane, n):
        """Leapfrog: the back peg jumps n holes past the front one (stops at the target).

        Returns True when this jump wins the game. Refused once the game is won.
        """
        self._lane(lane)
        _whole(n, 1, MAX_POINTS, "points")
        if self.winner >= 0:
            raise PegError(f"game over: lane {self.winner} won", "game_over")
        old_front = self._front[lane]
        self._htext += entry(lane, self._back[lane], old_front)
        self._undos += 1
        if self._undos > self.undo_depth:
            self._undos -= 1
            self._htext = self._htext.lstrip(HIGH)[1:]  # an entry ends at its one low digit
        self._back[lane] = old_front
        self._front[lane] = min(old_front + n, self.target)
        self.rev += 1
        if self._front[lane] == self.target:
            self.winner = lane
            self.wins[lane] += 1
            return True
        return False

    def undo(self):
        """Undo the last jump (a winning one too: the win and its tally go); returns its lane."""
        if not self._undos:
            raise PegError("nothing to undo", "no_undo")
        text = self._htext
        self._htext = text[:-1].rstrip(HIGH)  # an entry: leading digits, one last digit
        self._undos -= 1
        rec = worth(text[len(self._htext):])
        lane = rec & 3
        if self.winner >= 0:
            self.wins[self.winner] -= 1
            self.winner = -1
        self._front[lane] = self._back[lane]
        self._back[lane] -= rec >> 2
        self.rev += 1
        return lane

    def set_dealer(self, lane):
        """Mark the dealer's lane (-1: unknown); returns True when it changed."""
        _whole(lane, -1, self.players - 1, "dealer", "bad_lane")
        if lane == self.dealer:
            return False
        self.dealer = lane
        self.rev += 1
        return True

    def new_game(self, target=None, players=None, match=False):
        """A fresh game (pegs home, no history, dealer unknown); the tally stays unless the
        number of players changes or `match` asks for a new match."""
        target = self.target if target is None else target
        players = self.players if players is None else players
        _whole(target, MIN_TARGET, MAX_TARGET, "target")
        _whole(players, MIN_PLAYERS, MAX_LANES, "players")
        if match or players != self.players:
            self.wins = [0] * MAX_LANES
        self.target = target
        self.players = players
        self.dealer = -1
        self.winner = -1
        self._front = [0] * MAX_LANES
        self._back = [0] * MAX_LANES
        self._htext = ""
        self._undos = 0
        self.rev += 1

    def dumps(self, check=True):
        """The whole state as one ASCII line without spaces, ending in a checksum (with
        check=False, none: for a file that checks its own bytes, the store's slots)."""
        body = self._body(FORMAT, self._htext)
        return body + "*" + crc(body) if check else body

    def _body(self, fmt, hist):
        p = self.players
        return "%s/t%d/n%d/d%d/r%d/w%s/f%s/b%s/u%d/h%s" % (
            fmt, self.target, p, self.dealer, self.rev, ints(self.wins),
            ints(self._front[:p]), ints(self._back[:p]), self.undo_depth, hist)

    @classmethod
    def loads(cls, text, framed=False):
        """Rebuild a board from dumps(); a corrupt, truncated or inconsistent text raises
        PegError (code bad_board). framed: the text comes from a file that checked its own
        bytes, so it may lack its checksum (dumps(check=False)); one it has is checked."""
        from cribcore.boardread import loads  # needed at boot only: the firmware drops it

        try:
            return loads(cls, text, framed)
        except ValueError as e:
            raise PegError(str(e), "bad_board") from None
