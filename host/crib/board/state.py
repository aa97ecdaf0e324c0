"""What the companion knows of the board: pegs, game, tally and settings, kept up to date
from replies and events, and compared field by field after a reconnect; and BoardEvent,
what the board's buttons (or the link's own news) did. Every kind of board returns these.
"""

from collections.abc import Iterable
from typing import Any

# The board's settings (what `set` changes besides the dealer), as the core declares them.
from cribcore.settings import NAMES

# What the board's buttons (or the link) did: kind, lane, n, rev (the core's, shared).
from cribcore.table.record import BoardEvent as BoardEvent

LANES = ("p0", "p1", "p2", "p3")


class BoardState:
    """The board's state as the `state` reply gives it; `apply` follows replies and events
    (pegs, game, tally, settings: undos, pending, mode and ma stay as last fetched)."""

    def __init__(self, rev: int = 0, target: int = 121, players: int = 2,
                 pegs: Iterable[tuple[int, int]] | None = None, dealer: int = -1,
                 winner: int = -1, wins: Iterable[int] | None = None,
                 settings: dict[str, Any] | None = None) -> None:
        self.rev = rev
        self.target = target
        self.players = players
        self.pegs = list(pegs) if pegs is not None else [(0, 0)] * players
        self.dealer = dealer
        self.winner = winner
        self.wins = list(wins) if wins is not None else [0] * players
        self.settings = dict(settings or {})
        self.skunk = ()
        self.undos = 0
        self.pending = (0,) * players
        self.mode = "play"
        self.ma = 0

    @classmethod
    def from_reply(cls, args: dict[str, Any]) -> "BoardState":
        """A state from the arguments of an `ok` reply to `state`."""
        players = args["players"]
        s = cls(args["rev"], args["target"], players,
                [tuple(args.get(LANES[i], (0, 0))) for i in range(players)],
                args.get("dealer", -1), args.get("winner", -1),
                args.get("wins", (0,) * players),
                {k: args[k] for k in NAMES if k in args})
        s.skunk = tuple(args.get("skunk", ()))
        s.undos = args.get("undos", 0)
        s.pending = tuple(args.get("pending", (0,) * players))
        s.mode = args.get("mode", "play")
        s.ma = args.get("ma", 0)
        return s

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "BoardState":
        """The state to_dict gave."""
        s = cls(d["rev"], d["target"], d["players"], [tuple(p) for p in d["pegs"]],
                d["dealer"], d["winner"], d["wins"], d["settings"])
        s.skunk, s.undos, s.pending = tuple(d["skunk"]), d["undos"], tuple(d["pending"])
        s.mode, s.ma = d["mode"], d["ma"]
        return s

    @property
    def lanes(self) -> int:
        """The lanes in play (players, or sides in a partnership game)."""
        return self.players

    @property
    def fronts(self) -> tuple[int, ...]:
        """Each lane's front peg: its score."""
        return tuple(p[1] for p in self.pegs)

    @property
    def backs(self) -> tuple[int, ...]:
        """Each lane's back peg: its score before the last jump."""
        return tuple(p[0] for p in self.pegs)

    def copy(self) -> "BoardState":
        """An independent copy."""
        c = BoardState(self.rev, self.target, self.players, self.pegs, self.dealer,
                       self.winner, self.wins, self.settings)
        c.skunk, c.undos, c.pending, c.mode, c.ma = (self.skunk, self.undos, self.pending,
                                                     self.mode, self.ma)
        return c

    def score(self, lane: int) -> int:
        """The lane's score: its front peg."""
        return self.pegs[lane][1]

    def apply(self, args: dict[str, Any]) -> None:
        """Follow an `ok` reply or an event (its arguments): pegs, winner, tally, settings."""
        if "players" in args and "target" in args:  # a new game
            self.players = args["players"]
            self.target = args["target"]
            self.pegs = [(0, 0)] * self.players
            self.wins = list(args.get("wins", self.wins[:self.players]))
            self.winner = -1
            self.dealer = -1
            self.skunk = ()
        for i, key in enumerate(LANES[:self.players]):
            if key in args:
                self.pegs[i] = tuple(args[key])
        if "winner" in args and args["winner"] != self.winner:
            # The tally follows the winner: a winning jump adds a game, its undo takes it back.
            if self.winner >= 0:
                self.wins[self.winner] -= 1
            if args["winner"] >= 0:
                self.wins[args["winner"]] += 1
            self.winner = args["winner"]
            if self.winner < 0:
                self.skunk = ()
        if "skunk" in args:
            self.skunk = tuple(args["skunk"])
        if "dealer" in args:
            self.dealer = args["dealer"]
        for k in NAMES:
            if k in args:
                self.settings[k] = args[k]
        if "rev" in args:
            self.rev = args["rev"]

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for JSON output."""
        return {"rev": self.rev, "target": self.target, "players": self.players,
                "pegs": [list(p) for p in self.pegs], "dealer": self.dealer,
                "winner": self.winner, "wins": list(self.wins), "skunk": list(self.skunk),
                "undos": self.undos, "pending": list(self.pending), "mode": self.mode,
                "settings": dict(self.settings), "ma": self.ma}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoardState) and not differences(self, other)

    def __repr__(self) -> str:
        return ("BoardState(rev=%r, target=%r, players=%r, pegs=%r, dealer=%r, winner=%r, "
                "wins=%r, settings=%r)" % (self.rev, self.target, self.players, self.pegs,
                                          self.dealer, self.winner, self.wins, self.settings))


class Difference:
    """One field where the board and what the companion expected disagree."""

    def __init__(self, field: str, expected: Any, board: Any) -> None:
        self.field = field
        self.expected = expected
        self.board = board

    def __repr__(self) -> str:
        return "Difference(%r, %r, %r)" % (self.field, self.expected, self.board)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Difference) and (self.field, self.expected, self.board) == (
            other.field, other.expected, other.board)

    def __str__(self):
        return "%s: board has %s, expected %s" % (self.field, _text(self.board),
                                                  _text(self.expected))

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for JSON output."""
        return {"field": self.field, "expected": _plain(self.expected),
                "board": _plain(self.board)}


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return list(v)
    return v


def _text(v: Any) -> str:
    if isinstance(v, tuple):
        return ",".join(str(x) for x in v)
    return str(v)


def differences(expected: BoardState, board: BoardState) -> list[Difference]:
    """The Differences between an expected state and the board's (settings only where both
    know them; the revision only when all else agrees, as a sign of a change undone)."""
    out = []
    for name in ("target", "players", "dealer", "winner"):
        a, b = getattr(expected, name), getattr(board, name)
        if a != b:
            out.append(Difference(name, a, b))
    for lane in range(max(expected.players, board.players)):
        a = expected.pegs[lane] if lane < expected.players else None
        b = board.pegs[lane] if lane < board.players else None
        if a != b:
            out.append(Difference("lane %d" % lane, a, b))
    if list(expected.wins) != list(board.wins):
        out.append(Difference("wins", tuple(expected.wins), tuple(board.wins)))
    for k in NAMES:
        if k in expected.settings and k in board.settings:
            if expected.settings[k] != board.settings[k]:
                out.append(Difference(k, expected.settings[k], board.settings[k]))
    if not out and expected.rev != board.rev:
        out.append(Difference("rev", expected.rev, board.rev))
    return out
