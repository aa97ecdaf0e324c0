"""The table flow's board over the serial link (crib.board.link): a Pico, or the virtual board.

`LinkBoard` adapts a crib.board.link.Link to the few calls the flow makes (crib.board.api): the
flow's own operation ids go out as the `id=` of Link.peg, undo and new, so an id written to
the history before sending is the one the board remembers; refusals become BoardError;
button events and the link's own news (lost, back, drift) become BoardEvents. Every call
goes through a crib.board.guard.Guard: a board that hangs or is gone holds the game up for
at most its budget, then is offline (the flow's pegs wait as pending) until the guard finds
it answering again (a `back` event). A virtual board started for the game is given the
lanes a game needs (its opener's widen, crib.sim.opener: four players on their own
lanes); a Pico, or a sim that runs on its own, has the lanes it has. The table sees only
the calls of crib.board.api.GameBoard; the link is used only for talking to the board.
"""

from collections.abc import Callable
from typing import Any

from crib.board.api import BoardError
from crib.board.guard import Guard
from crib.board.link import Link
from crib.board.state import BoardEvent, BoardState
from cribcore.table.record import button_event


class _GuardedLink:
    """What the board's picture reads of the link (crib.web.picture): its info and name,
    its LEDs and its state, each through the guard."""

    def __init__(self, link: Link, guard: Guard) -> None:
        self._link = link
        self._guard = guard

    @property
    def info(self) -> dict[str, Any]:
        return self._link.info

    @property
    def name(self) -> str:
        return self._link.name

    def leds(self) -> list[tuple[int, int, int]]:
        """The board's pixels now (BoardOffline at once while it is offline)."""
        return self._guard.call(self._link.leds)

    def state(self) -> BoardState:
        """The board's state now (BoardOffline at once while it is offline)."""
        return self._guard.call(self._link.state)


class LinkBoard:
    """A board behind a Link (its calls: crib.board.api.GameBoard). widener: what can give
    the board more lanes (`most_lanes`, `widen(lanes)`: a crib.sim.opener.SimOpener that
    started a virtual board for this game), or None: the board has the lanes it has."""

    def __init__(self, link: Link, guard: Guard | None = None, widener: Any = None) -> None:
        self._link = link
        self._widener = widener
        info = link.info or link.hello()
        self.kind = "sim" if info.get("desk") else "pico"
        self.capacity = info.get("lanes", 4)
        most = widener.most_lanes if widener is not None else None
        if most is not None:
            self.capacity = max(self.capacity, most)  # new_game widens it
        self.name = link.name
        self.turn_supported = True  # until the board says it does not know `turn`
        self.guard = guard or Guard(link)
        self.link = _GuardedLink(link, self.guard)

    def _call(self, change: Callable[..., BoardState | None], *args: Any,
              **kw: Any) -> BoardState:
        """Run a Link change; a refusal becomes BoardError. The flow's state after (asked
        for when the reply did not carry it)."""
        from crib.board.link import BoardRefused

        def run() -> BoardState:
            st = change(*args, **kw)
            return (st if st is not None else self._link.state()).copy()
        try:
            return self.guard.call(run)
        except BoardRefused as e:
            raise BoardError(str(e), e.code) from None

    def state(self) -> BoardState:
        """The board's state, fetched now."""
        return self.guard.call(lambda: self._link.state().copy())

    def new_game(self, target: int, lanes: int, op_id: str, match: bool = False) -> BoardState:
        """A new game of lanes to target (match: clear the games-won tally); a virtual board
        of ours with fewer lanes is widened first (restarted: its own time, not the game's
        budget, as the game waits for its board to be set up)."""
        if lanes > self._link.info.get("lanes", lanes) and self._widener is not None:
            if self._widener.widen(lanes):
                self._link.hello()  # the link learns the lanes the restarted board has
        return self._call(self._link.new, target=target, players=lanes, match=match, id=op_id)

    def set_dealer(self, lane: int) -> None:
        """The crib marker."""
        self._call(self._link.set, dealer=lane)

    def peg(self, lane: int, n: int, op_id: str) -> BoardState:
        """Lane scores n, once per op_id."""
        return self._call(self._link.peg, lane, n, id=op_id)

    def undo(self, op_id: str) -> BoardState:
        """Undo the last jump, once per op_id."""
        return self._call(self._link.undo, id=op_id)

    def set_turn(self, lane: int) -> bool:
        """Light whose turn it is (the `turn` verb: lane's marks pulse; -1 none). A board
        whose firmware does not know the verb refuses it (unknown_verb): it is not asked
        again, and the game goes on without the light. False then."""
        from crib.board.link import BoardRefused

        if not self.turn_supported:
            return False
        try:
            self.guard.call(self._link.request, "turn", p=lane)
        except BoardRefused as e:
            if e.code != "unknown_verb":
                raise BoardError(str(e), e.code) from None
            self.turn_supported = False
            return False
        return True

    def events(self) -> list[BoardEvent]:
        """What the buttons did (and what the link noticed) since the last call; `back`
        when the guard found an offline board answering again."""
        out: list[BoardEvent] = []
        for ev in self._link.poll_events():
            a = ev.args
            press = button_event(ev.name, a)
            if press is not None:
                out.append(press)
            elif ev.name == "lost":
                self.guard.lost("the link lost its port")  # its `back` says when it answers
                out.append(BoardEvent(ev.name, -1, 0, None))
            elif ev.name == "drift":
                out.append(BoardEvent(ev.name, -1, 0, a.get("rev")))
        if self.guard.back():
            out.append(BoardEvent("back", -1, 0, None))
        return out

    def close(self) -> None:
        """Close the link (and a virtual board its opener started)."""
        self.guard.close()
        self._link.close()
