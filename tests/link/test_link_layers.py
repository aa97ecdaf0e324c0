"""The host's board link in layers: a Link talks the protocol over a transport
(crib.board.transport: the port, the reader thread, the reconnect), a transport opens its
port with an opener (a Pico, a URL, or crib.sim.opener for the virtual board), and the
table sees only the game-board calls (crib.board.api.GameBoard). A Link carries no virtual
board; the table's board reaches only the link's talking calls."""

import inspect
import os
import sys

import pytest

from crib.board.api import GameBoard
from crib.board.link import Link
from crib.board.transport import Disconnected, SerialTransport
from crib.connect import open_link, open_table_board
from crib.history.db import History
from crib.sim.opener import SimOpener
from crib.sim.store import running_sim
from crib.table.engine import TableEngine
from crib.table.linkboard import LinkBoard
from crib.table.session import Setup

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web"))
from webtools import Players  # noqa: E402

# What a game may ask of its board: GameBoard's calls and attributes, nothing else.
GAME_BOARD = ({n for n, f in vars(GameBoard).items() if inspect.isfunction(f)
               and not n.startswith("_")} | set(GameBoard.__annotations__))
# What the table's board may ask of a link: talking to the board, and the guard's check.
TALKING = {"info", "name", "hello", "state", "new", "set", "peg", "undo", "request", "leds",
           "poll_events", "connected", "close"}


class Spy:
    """Passes every attribute through, noting its name."""

    def __init__(self, inner, allowed=None):
        object.__setattr__(self, "_inner", inner)
        object.__setattr__(self, "_allowed", allowed)
        object.__setattr__(self, "seen", set())

    def __getattr__(self, name):
        self.seen.add(name)
        if self._allowed is not None and name not in self._allowed:
            raise AttributeError(f"{name!r} is not part of the interface handed over")
        return getattr(self._inner, name)


def test_a_link_is_built_on_a_transport_and_carries_no_virtual_board(tmp_path):
    store = str(tmp_path / "sim")
    link = open_link("sim", store=store)
    try:
        assert isinstance(link.transport, SerialTransport)
        assert isinstance(link.transport.opener, SimOpener)
        for gone in ("sim", "owned", "opener", "_port", "_reader", "_supervise"):
            assert not hasattr(link, gone), gone
        assert link.state().lanes >= 2 and running_sim(store) is not None
    finally:
        link.close()
    assert running_sim(store) is None  # the board its opener started stopped with it


def test_an_opener_with_no_board_says_so(tmp_path):
    opener = SimOpener(str(tmp_path / "sim"))  # never started: nothing runs on its store
    with pytest.raises(Disconnected, match="no virtual board runs on .*sim"):
        opener()


def test_the_transport_holds_the_port_the_link_the_protocol():
    port_jobs = {"_read", "_shut", "_send", "_reopen", "_supervise", "_mark_lost"}
    assert not port_jobs & set(vars(Link)), "the port's work is the transport's"
    assert {"open", "write", "shut", "close", "reconnect", "watch"} <= set(vars(SerialTransport))


def test_the_tables_board_uses_only_the_links_talking_calls(tmp_path):
    opener = SimOpener(str(tmp_path / "sim")).start()
    link = Spy(Link(opener, name=opener.name).connect())
    board = LinkBoard(link, widener=opener)
    try:
        board.new_game(61, 2, "t-1")
        board.set_dealer(1)
        board.peg(0, 2, "t-2")
        assert board.undo("t-3").fronts[0] == 0
        board.set_turn(1)
        assert board.state().lanes >= 2
        board.events()
    finally:
        board.close()
    assert link.seen and link.seen <= TALKING, link.seen - TALKING


def test_the_table_plays_on_the_game_board_interface_alone(tmp_path):
    board = Spy(open_table_board("sim", None, str(tmp_path / "sim")), GAME_BOARD)
    history = History.open(str(tmp_path / "h.sqlite3"))
    try:
        engine = TableEngine(history, board, {"confirm": True},
                             Setup(["Ann", "Ben"], False, 61, 0))
        players = Players(2, 61, False, seed=3)
        engine.start()
        for _ in range(30):  # past the first pegs
            q = engine.question()
            engine.answer(q.id, players.answer(q))
        assert max(board.state().fronts) > 0
    finally:
        board.close()
        history.close()
    assert board.seen <= GAME_BOARD
