"""Every kind of board a game pegs answers the calls of crib.board.api.GameBoard, with the
same parameters (the table engine, practice and the solitaire rely on nothing else)."""

import inspect

import pytest

from crib.board.api import GameBoard
from crib.board.memory import MemoryBoard
from crib.table.linkboard import LinkBoard

CALLS = [name for name, f in vars(GameBoard).items()
         if inspect.isfunction(f) and not name.startswith("_")]


def test_the_api_has_the_calls_the_flow_makes():
    assert set(CALLS) == {"state", "new_game", "set_dealer", "peg", "undo", "set_turn",
                          "events", "close"}


@pytest.mark.parametrize("kind", [MemoryBoard, LinkBoard])
@pytest.mark.parametrize("call", CALLS)
def test_each_kind_answers_each_call(kind, call):
    want = list(inspect.signature(getattr(GameBoard, call)).parameters)
    got = list(inspect.signature(getattr(kind, call)).parameters)
    assert got == want


def test_the_memory_board_has_the_attributes():
    board = MemoryBoard(4)
    assert isinstance(board.kind, str) and board.capacity == 4
    assert board.state().lanes == 4 and board.events() == []
