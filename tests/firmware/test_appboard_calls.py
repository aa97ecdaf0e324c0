"""boardweb.appboard: the engine's calls run on the App as a line from USB runs (the
same checks, the ids applied once, the save before the reply), given as their verb and
fields: no protocol line is made and parsed again for a call or its reply. An App driven
so ends as one driven by the same lines over USB: its board, its saved state, its memory
of ids (a retry of an id over USB is answered from it), its refusals."""

import sys

import pytest
from support import FIRMWARE

if str(FIRMWARE) not in sys.path:
    sys.path.append(str(FIRMWARE))

import desk  # noqa: E402
from boardweb.appboard import AppBoard, BoardRefused, LoopPort  # noqa: E402

from cribcore.protocol import decode, encode  # noqa: E402
from pegboard.app import App  # noqa: E402


class Port(LoopPort):
    """What the App writes to USB, kept."""

    def __init__(self):
        self.out = []

    def write(self, data):
        self.out.append(data)


def app():
    return desk.build({"store": None, "config": None, "driven": False}, Port())


CALLS = [("new", {"target": 121, "players": 2, "match": 0, "id": "n1"}),
         ("set", {"dealer": 1}), ("peg", {"p": 0, "n": 5, "id": "p1"}),
         ("turn", {"p": 1}), ("peg", {"p": 1, "n": 12, "id": "p2"}),
         ("peg", {"p": 0, "n": 2, "id": "p3"}), ("undo", {"id": "u1"}),
         ("peg", {"p": 1, "n": 29, "id": "p4"})]


def test_the_engines_calls_leave_the_app_as_the_same_lines_over_usb(monkeypatch):
    direct, lines = app(), app()
    board = AppBoard(direct, lambda: 0)
    parsed = []
    real = App._line
    monkeypatch.setattr(App, "_line", lambda self, item: (parsed.append(item),
                                                          real(self, item))[1])
    replies = []
    for verb, args in CALLS:
        replies.append(board._call(verb, **dict(args)))
    assert parsed == []  # no line made, none parsed
    for verb, args in CALLS:
        lines._line(encode(verb, **args))
    assert direct.board.dumps() == lines.board.dumps()
    assert direct.ids == lines.ids and direct._state_lines() == lines._state_lines()
    assert direct.renderer.turn == lines.renderer.turn == 1
    said = [decode(raw.decode().rstrip("\n")) for raw in lines.port.out[-len(CALLS):]]
    for got, line in zip(replies, said):
        assert line.kind == "ok" and got == line.args, (got, line)


def test_a_retried_id_is_answered_from_memory_either_way():
    a = app()
    board = AppBoard(a, lambda: 0)
    board.new_game(121, 2, "n1")
    first = board.peg(0, 5, "p1")
    assert board.peg(0, 5, "p1") == first  # the engine's retry: applied once
    assert a.board.front(0) == 5
    del a.port.port.out[:]
    a._line("peg p=0 n=5 id=p1")  # the same id over USB: answered from memory
    (line,) = [decode(raw.decode().rstrip("\n")) for raw in a.port.port.out]
    assert line.kind == "ok" and line.args == first and a.board.front(0) == 5
    with pytest.raises(BoardRefused) as e:
        board.peg(1, 5, "p1")  # the id of another command
    assert e.value.args[1] == "id_reused"


def test_a_refusal_is_the_apps_code_and_changes_nothing():
    a = app()
    board = AppBoard(a, lambda: 0)
    board.new_game(121, 2, "n1")
    before = a._state_lines()
    with pytest.raises(BoardRefused) as e:
        board.undo("u1")  # nothing to undo
    assert e.value.args[1] and a._state_lines() == before
    with pytest.raises(BoardRefused) as e:
        board.peg(3, 2, "p9")  # no lane 3 in a game of 2
    assert e.value.args[1] == "bad_lane" and a._state_lines() == before
