"""The table flow's board over the serial link (crib.link): a Pico, or the virtual board.

`LinkBoard` adapts a crib.link.Link to the few calls the flow makes (crib.tableboard): the
flow's own operation ids go out as the commands' `id=`, so an id written to the history
before sending is the one the board remembers; refusals become BoardError; button events
and the link's own news (lost, back, drift) become BoardEvents.
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
        self.name = link.name

    def _request(self, verb, **args):
        from crib.link import BoardRefused

        try:
            self.link.request(verb, **args)
        except BoardRefused as e:
            raise BoardError(str(e), e.code) from None
        return _state(self.link.known)

    def state(self):
        """The board's state, fetched now."""
        return _state(self.link.state())

    def new_game(self, target, lanes, op_id, match=False):
        """A new game of lanes to target (match: clear the games-won tally)."""
        args = {"target": target, "players": lanes, "id": op_id}
        if match:
            args["match"] = 1
        return self._request("new", **args)

    def set_dealer(self, lane):
        """The crib marker."""
        self._request("set", dealer=lane)

    def peg(self, lane, n, op_id):
        """Lane scores n, once per op_id."""
        return self._request("peg", p=lane, n=n, id=op_id)

    def undo(self, op_id):
        """Undo the last jump, once per op_id."""
        return self._request("undo", id=op_id)

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
