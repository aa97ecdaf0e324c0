"""Whose turn on the board, driven by the engine: the lane of the player asked to play or
to count (pone, dealer, then the crib) is lit, none otherwise; a board whose firmware does
not know `turn` refuses it once and the game goes on without it."""

import pytest
from webtools import Players

from crib.board.api import BoardError
from crib.board.link import BoardRefused
from crib.board.memory import MemoryBoard
from crib.table.engine import TableEngine
from crib.table.linkboard import LinkBoard
from crib.table.session import Setup


class Board(MemoryBoard):
    """A board in memory that records every turn it is told."""

    def __init__(self):
        super().__init__(4)
        self.told = []

    def set_turn(self, lane):
        self.told.append(lane)
        return super().set_turn(lane)


def test_the_lane_asked_to_play_or_count_is_lit(history):
    board = Board()
    engine = TableEngine(history, board, {"confirm": True}, Setup(["Ann", "Ben"], False, 121, 0))
    engine.start()
    players = Players(2, 121, False, seed=2)
    seen = []  # (question kind, who is asked, the lane lit)
    while True:
        q = engine.question()
        if q.kind == "starter" and seen:
            break
        seen.append((q.kind, q.asks, board.turn))
        engine.answer(q.id, players.answer(q))
    for kind, asks, lit in seen:
        if kind in ("play", "show", "crib"):
            assert lit == asks, (kind, asks, lit)
        else:
            assert lit == -1, (kind, asks, lit)
    counting = [(k, lit) for k, _, lit in seen if k in ("show", "crib")]
    assert counting == [("show", 1), ("show", 0), ("crib", 0)]  # pone, dealer, crib
    assert all(a != b for a, b in zip(board.told, board.told[1:]))  # told on a change only


def test_partners_share_a_lane(history):
    board = Board()
    engine = TableEngine(history, board, {"confirm": True},
                         Setup(["Ann", "Ben", "Cat", "Dan"], True, 121, 0))
    engine.start()
    q = engine.question()
    engine.answer(q.id, "5h")
    q = engine.question()
    assert q.kind == "play" and q.asks == 1 and board.turn == 1
    engine.answer(q.id, "2")
    assert engine.question().asks == 2 and board.turn == 0  # Cat plays for Ann's side


class Refusing(MemoryBoard):
    def set_turn(self, lane):
        raise BoardError("the board is offline", "offline")


def test_a_board_that_cannot_show_it_does_not_stop_the_game(history):
    engine = TableEngine(history, Refusing(4), {"confirm": True},
                         Setup(["Ann", "Ben"], False, 121, 0))
    engine.start()
    players = Players(2, 121, False, seed=3)
    for _ in range(12):
        q = engine.question()
        engine.answer(q.id, players.answer(q))
    assert engine.view()["hand"]["starter"] is not None


class OldLink:
    """A link to a board with firmware from before `turn`."""

    info = {"lanes": 3, "holes": 121}
    sim = None
    name = "old"

    def __init__(self, code="unknown_verb"):
        self.code = code
        self.asked = []

    def request(self, verb, **args):
        self.asked.append((verb, args))
        raise BoardRefused(f"no verb {verb!r}", self.code)


def test_an_older_board_refuses_turn_once_and_is_not_asked_again():
    link = OldLink()
    board = LinkBoard(link)
    assert board.set_turn(1) is False and board.set_turn(0) is False
    assert link.asked == [("turn", {"p": 1})]
    other = LinkBoard(OldLink("bad_lane"))
    with pytest.raises(BoardError):
        other.set_turn(3)
    assert other.turn_supported
