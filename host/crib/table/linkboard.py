"""The table flow's board over the serial link (crib.board.link): a Pico, or the virtual board.

`LinkBoard` adapts a crib.board.link.Link to the few calls the flow makes (crib.board.api): the
flow's own operation ids go out as the `id=` of Link.peg, undo and new, so an id written to
the history before sending is the one the board remembers; refusals become BoardError;
button events and the link's own news (lost, back, drift) become BoardEvents. A virtual
board started for the game is given the lanes a game needs (crib.sim.virtual widen: four players
on their own lanes); a Pico, or a sim that runs on its own, has the lanes it has.
"""

from crib.board.memory import BoardError
from crib.board.state import BoardEvent

BUTTON = "button"


class LinkBoard:
    """A board behind a Link (its calls: crib.board.api.GameBoard)."""

    def __init__(self, link):
        self.link = link
        info = link.info or link.hello()
        self.kind = "sim" if info.get("desk") else "pico"
        self.capacity = info.get("lanes", 4)
        if link.sim is not None and link.sim.config is None:
            from crib.sim.store import MAX_LANES

            self.capacity = max(self.capacity, MAX_LANES)  # new_game widens it
        self.name = link.name
        self.turn_supported = True  # until the board says it does not know `turn`

    def _call(self, change, *args, **kw):
        """Run a Link change; a refusal becomes BoardError. The flow's state after."""
        from crib.board.link import BoardRefused

        try:
            return change(*args, **kw).copy()
        except BoardRefused as e:
            raise BoardError(str(e), e.code) from None

    def state(self):
        """The board's state, fetched now."""
        return self.link.state().copy()

    def new_game(self, target, lanes, op_id, match=False):
        """A new game of lanes to target (match: clear the games-won tally); a virtual board
        of ours with fewer lanes is widened first."""
        if lanes > self.link.info.get("lanes", lanes) and self.link.sim is not None:
            if self.link.sim.widen(lanes):
                self.link.hello()  # the link learns the lanes the restarted board has
        return self._call(self.link.new, target=target, players=lanes, match=match, id=op_id)

    def set_dealer(self, lane):
        """The crib marker."""
        self._call(self.link.set, dealer=lane)

    def peg(self, lane, n, op_id):
        """Lane scores n, once per op_id."""
        return self._call(self.link.peg, lane, n, id=op_id)

    def undo(self, op_id):
        """Undo the last jump, once per op_id."""
        return self._call(self.link.undo, id=op_id)

    def set_turn(self, lane: int) -> bool:
        """Light whose turn it is (the `turn` verb: lane's marks pulse; -1 none). A board
        whose firmware does not know the verb refuses it (unknown_verb): it is not asked
        again, and the game goes on without the light. False then."""
        from crib.board.link import BoardRefused

        if not self.turn_supported:
            return False
        try:
            self.link.request("turn", p=lane)
        except BoardRefused as e:
            if e.code != "unknown_verb":
                raise BoardError(str(e), e.code) from None
            self.turn_supported = False
            return False
        return True

    def events(self):
        """What the buttons did (and what the link noticed) since the last call."""
        out = []
        for ev in self.link.poll_events():
            a = ev.args
            if ev.name in ("peg", "undo", "new") and a.get("src") == BUTTON:
                out.append(BoardEvent(ev.name, a.get("p", -1), a.get("n", 0), a.get("rev")))
            elif ev.name in ("drift", "lost", "back"):
                out.append(BoardEvent(ev.name, -1, 0, a.get("rev")))
        return out

    def close(self):
        """Close the link (and a virtual board started for it)."""
        self.link.close()
