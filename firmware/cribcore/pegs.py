"""The peg board model: two leapfrogging pegs per lane, win, skunk, tally, undo, compact text.

Pure and integer-only (runs on the Pico). The board is the authority for peg positions, so
every change bumps `rev` and can be undone; `dumps`/`loads` carry the whole state, undo
history included, as one line of ASCII with a checksum (the flash file and the protocol).
"""

from binascii import crc32  # in C: MicroPython's rp2 and unix ports have it

from cribcore.errors import CoreError
from cribcore.rules import MAX_TARGET, MIN_TARGET, skunk_level

MIN_PLAYERS = 2
MAX_LANES = 4
MAX_POINTS = 1000  # one jump; bigger would only be clamped at the target anyway
MAX_UNDO = 1000
FORMAT = "v2"  # dumps() writes v2; loads() reads v1 too (a deploy keeps the game)
# v2's history: one entry per jump, the lane and how far the lane's back peg goes back on
# undo, in base 32: "0".."v" is the last digit, "A".."Z", "(", ")", "<", ">", "[", "]" one
# before it (so most entries are one character; v1 spelled each as a number and a comma).
DIGITS = "0123456789abcdefghijklmnopqrstuv"
HIGH = "ABCDEFGHIJKLMNOPQRSTUVWXYZ()<>[]"


class PegError(CoreError):
    """A refused board change or a bad board text; `code` names the reason for the protocol."""

    def __init__(self, msg, code="bad_value"):
        super().__init__(msg)
        self.code = code


def crc(text):
    """CRC-32 of an ASCII text as 8 hex digits (binascii's, in C: an Adler-32 in Python
    cost the Pico about 20 ms a board line)."""
    return "%08x" % (crc32(text.encode()) & 0xFFFFFFFF)


def checksum(text):
    """Adler-32 of an ASCII text as 8 hex digits (two 16-bit halves: no big ints on the Pico).

    text may also be a list of lines: summed as if joined by newlines, without joining them.
    """
    a, b = 1, 0
    nl = False
    for line in [text] if type(text) is str else text:
        if nl:
            a = (a + 10) % 65521
            b = (b + a) % 65521
        nl = True
        for ch in line:
            a = (a + ord(ch)) % 65521
            b = (b + a) % 65521
    return f"{b:04x}{a:04x}"


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
        # One int per jump, oldest first: lane + 4 * (where the back peg stood before it).
        self._hist = []

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

    @property
    def undo_count(self):
        """How many jumps can be undone."""
        return len(self._hist)

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
        self._hist.append(lane + 4 * self._back[lane])
        if len(self._hist) > self.undo_depth:
            self._hist.pop(0)
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
        if not self._hist:
            raise PegError("nothing to undo", "no_undo")
        rec = self._hist.pop()
        lane = rec & 3
        if self.winner >= 0:
            self.wins[self.winner] -= 1
            self.winner = -1
        self._front[lane] = self._back[lane]
        self._back[lane] = rec >> 2
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
        self._hist = []
        self.rev += 1

    def dumps(self):
        """The whole state as one ASCII line without spaces, ending in a checksum."""
        body = self._body(FORMAT)
        return body + "*" + crc(body)

    def _body(self, fmt):
        p = self.players
        hist = _ints(self._hist) if fmt == "v1" else _encode_hist(self)
        return "/".join((
            fmt, "t" + str(self.target), "n" + str(p), "d" + str(self.dealer),
            "r" + str(self.rev), "w" + _ints(self.wins), "f" + _ints(self._front[:p]),
            "b" + _ints(self._back[:p]), "u" + str(self.undo_depth), "h" + hist))

    @classmethod
    def loads(cls, text):
        """Rebuild a board from dumps() (or an earlier firmware's v1 text); a corrupt,
        truncated or inconsistent text raises PegError (code bad_board)."""
        if type(text) is not str:
            raise PegError(f"board text must be a str, got {text!r}", "bad_board")
        body, _, check = text.partition("*")
        fmt = body[:2]
        if check != (checksum(body) if fmt == "v1" else crc(body)):
            raise PegError(f"board text fails its checksum: {text!r}", "bad_board")
        fields = body.split("/")
        if len(fields) != 10 or fmt not in ("v1", FORMAT) or fields[0] != fmt:
            raise PegError(f"not a {FORMAT} board text: {text!r}", "bad_board")
        try:
            vals = [_parse_ints(f[1:]) for f in fields[1:9]]
            b = cls(vals[1][0], vals[0][0], vals[7][0])
            b.wins = vals[4]
            b._front = vals[5] + [0] * (MAX_LANES - b.players)
            b._back = vals[6] + [0] * (MAX_LANES - b.players)
            h = fields[9][1:]
            b._hist = _parse_ints(h) if fmt == "v1" else _decode_hist(b, h)
            b.set_dealer(vals[2][0])
            b.rev = vals[3][0]
            b._check()
        except (ValueError, IndexError) as e:  # PegError is a ValueError too
            raise PegError(f"bad board text {text!r}: {e}", "bad_board") from None
        # Field letters, ranges and int spellings ("05", "+5", "1_0") in one go.
        if b._body(fmt) != body:
            raise PegError(f"board text is not canonical: {text!r}", "bad_board")
        return b

    def _check(self):
        """Raise ValueError unless positions, winner, tally and history are consistent."""
        p, t = self.players, self.target
        f, b = self._front, self._back
        if len(self.wins) != MAX_LANES or min(self.wins) < 0 or len(f) != MAX_LANES:
            raise ValueError("bad tally or lanes")
        at_target = [i for i in range(p) if f[i] == t]
        for i in range(p):
            if not (0 <= b[i] < f[i] <= t or f[i] == b[i] == 0):
                raise ValueError(f"lane {i} pegs {b[i]},{f[i]}")
        if len(at_target) > 1 or len(self._hist) > self.undo_depth or self.rev < 0:
            raise ValueError("two winners, long history or negative rev")
        self.winner = at_target[0] if at_target else -1
        if self.winner >= 0 and self.wins[self.winner] < 1:
            raise ValueError("winner without a tally")
        if self.winner >= 0 and self._hist and self._hist[-1] & 3 != self.winner:
            raise ValueError("a jump after the win")
        f, b = f[:], b[:]
        for rec in reversed(self._hist):
            lane, old = rec & 3, rec >> 2
            if lane >= p or not (0 <= old < b[lane] < f[lane] or old == b[lane] == 0 < f[lane]):
                raise ValueError(f"history entry {rec}")
            f[lane], b[lane] = b[lane], old
            if t in f[:p]:
                raise ValueError("a jump after the win")


def _encode_hist(board):
    """v2's history: walking back from the pegs now, each jump as lane + 4 * (how far
    undoing it moves the lane's back peg back)."""
    back = board._back[:]
    out = []
    for rec in reversed(board._hist):
        lane, old = rec & 3, rec >> 2
        v = lane + 4 * (back[lane] - old)
        back[lane] = old
        digits = DIGITS[v & 31]
        v >>= 5
        while v:
            digits = HIGH[v & 31] + digits
            v >>= 5
        out.append(digits)
    out.reverse()
    return "".join(out)


def _decode_hist(board, text):
    """The history from v2's text (ValueError if it is not v2's); _check() then checks it."""
    vals = []
    v = 0
    for ch in text:
        i = HIGH.find(ch)
        if i >= 0:
            v = v * 32 + i
            continue
        i = DIGITS.find(ch)
        if i < 0:
            raise ValueError(f"history character {ch!r}")
        vals.append(v * 32 + i)
        v = 0
    if v or (text and DIGITS.find(text[-1]) < 0):
        raise ValueError("history ends inside an entry")
    back = board._back[:]
    hist = [0] * len(vals)
    for k in range(len(vals) - 1, -1, -1):
        lane = vals[k] & 3
        if lane >= board.players:
            raise ValueError(f"history lane {lane}")
        old = back[lane] - (vals[k] >> 2)
        hist[k] = lane + 4 * old
        back[lane] = old
    return hist


def _ints(values):
    return ",".join([str(v) for v in values])


def _parse_ints(text):
    return [int(v) for v in text.split(",")] if text else []
