"""How a link opens the virtual board: a Link's opener (crib.board.transport) for a store.

    opener = SimOpener(store).start()   # the board running on store, or one started for us
    link = Link(opener, name=opener.name).connect()
    link.close()                        # closes the opener too: a board it started stops

The board the user runs (`crib sim`) may be restarted, on a new port: each open looks the
store up again (its port file) and falls back on the address it had. A board started for
the link (headless, on a pty) is the opener's: it stops when the link closes, and it can
be widened for a game of more lanes than the shipped layout has (`widen`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from crib.board.transport import Disconnected, open_url
from crib.sim.store import MAX_LANES, SimError, default_store, running_sim

if TYPE_CHECKING:
    from crib.sim.virtual import VirtualBoard


class SimOpener:
    """Opens the virtual board on a store (module docstring)."""

    def __init__(self, store: str | None = None, config: str | None = None) -> None:
        self.store = store or default_store()
        self.config = config
        self.board: VirtualBoard | None = None  # the VirtualBoard started for the link, if one was
        self._url: str | None = None  # where the running one was found

    def start(self) -> SimOpener:
        """Find the board running on the store, or start one; SimError if neither works."""
        from crib.sim.virtual import VirtualBoard

        if self.config is not None and not os.path.exists(self.config):
            raise SimError("no such config file: %r" % (self.config,))
        try:
            self._url = running_sim(self.store)
            if self._url is None:
                self.board = VirtualBoard(self.store, self.config).start()
        except SimError:
            self._url = running_sim(self.store)  # another command started one just now
            if self._url is None:
                raise
        return self

    @property
    def name(self) -> str:
        """What messages call the board."""
        if self.board is not None:
            return "sim %s" % (self.board.url,)
        return "sim on " + self.store

    def __call__(self) -> Any:
        """An open port to the board now (Disconnected if it cannot be opened)."""
        if self.board is not None:
            url = self.board.url
        else:
            url = running_sim(self.store) or self._url
        if url is None:  # closed, or never started
            raise Disconnected("no virtual board runs on %s" % (self.store,))
        return open_url(url)

    @property
    def most_lanes(self) -> int | None:
        """The lanes a game may have on it: a board started here with the shipped layout
        is widened on demand (MAX_LANES); None: the lanes it has (its own --config, or a
        board the user runs)."""
        if self.board is not None and self.board.config is None:
            return MAX_LANES
        return None

    def widen(self, lanes: int) -> bool:
        """Give a board started here at least `lanes` lanes (restarting it on a wider
        layout); True if it has them now, False if it cannot."""
        return self.board is not None and self.board.widen(lanes)

    def close(self) -> None:
        """Stop a board started here (nothing for one the user runs)."""
        board, self.board = self.board, None
        if board is not None:
            board.close()
