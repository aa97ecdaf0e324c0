"""The table flow's board over the serial link (crib.link): a Pico, or the virtual board.

`LinkBoard` adapts a crib.link.Link to the few calls the flow makes (crib.tableboard): the
flow's own operation ids go out as the `id=` of Link.peg, undo and new, so an id written to
the history before sending is the one the board remembers; refusals become BoardError;
button events and the link's own news (lost, back, drift) become BoardEvents. A virtual
board started for the game is given the lanes a game needs (crib.sim widen: four players
on their own lanes); a Pico, or a sim that runs on its own, has the lanes it has.
"""

from crib.tableboard import BoardError, BoardEvent, BoardState

BUTTON = "button"


class LinkBoard:
    """A board behind a Link (see crib.tableboard for the calls)."""

    def __init__(self, link):
        self.link = link
        info = link.info or link.hello()
        self.kind = "sim" if info.get("desk") else "pico"
        self.capacity = info.get("lanes", 4)
        if link.sim is not None and link.sim.config is None:
            from crib.sim import MAX_LANES

            self.capacity = max(self.capacity, MAX_LANES)  # new_game widens it
        self.name = link.name
        self.turn_supported = True  # until the board says it does not know `turn`

    def _call(self, change, *args, **kw):
        """Run a Link change; a refusal becomes BoardError. The flow's state after."""
        from crib.link import BoardRefused

        try:
            return _state(change(*args, **kw))
        except BoardRefused as e:
            raise BoardError(str(e), e.code) from None

    def state(self):
        """The board's state, fetched now."""
        return _state(self.link.state())

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

    def set_turn(self, lane):
        """Light whose turn it is (the `turn` verb: lane's marks pulse; -1 none). A board
        whose firmware does not know the verb refuses it (unknown_verb): it is not asked
        again, and the game goes on without the light. False then."""
        from crib.link import BoardRefused

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


def _state(s):
    return BoardState(s.players, s.target, tuple(p[1] for p in s.pegs),
                      tuple(p[0] for p in s.pegs), s.winner, s.rev)


def open_link_board(choice, port=None, store=None, note=None):
    """A LinkBoard: port (a device or URL), choice "sim" (the virtual board on store), or
    "auto" (a Pico found by USB id, else the virtual board; note() says which)."""
    from crib.link import Link
    from crib.ports import NoBoardFound

    if port is not None:
        return LinkBoard(Link.open(port))
    if choice == "auto":
        try:
            return LinkBoard(Link.open("auto"))
        except NoBoardFound:
            if note:
                note("no Pico found: playing on the virtual board (crib sim shows it)")
    return LinkBoard(Link.open("sim", store=store))
