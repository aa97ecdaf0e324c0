"""Opt-in checks on a real Pico: `pytest -m hardware --port /dev/ttyACM0` (or --port auto).

Everything else runs with fakes and the virtual board; these prove the same link and
firmware on the hardware. They leave the board's game as they found it (a peg, then undo).
"""

import pytest

from crib.board.link import Link
from cribcore.protocol import PROTO

pytestmark = pytest.mark.hardware


def test_handshake_names_our_firmware(pico_port):
    with Link.open(pico_port) as link:
        info = link.hello()
        assert info["proto"] == PROTO and 2 <= info["lanes"] <= 4
        assert "desk" not in info or info["desk"] == 0


def test_a_peg_is_applied_once_and_undone(pico_port):
    with Link.open(pico_port) as link:
        before = link.state()
        if before.winner != -1:
            pytest.fail("the board's game is won: start a new one before the hardware tests")
        lane = 0
        op = "hwtest%d" % before.rev
        after = link.peg(lane, 1, id=op)
        assert after.pegs[lane][1] == before.pegs[lane][1] + 1
        again = link.peg(lane, 1, id=op)  # a retried id: answered, not applied again
        assert again.pegs[lane] == after.pegs[lane]
        undone = link.undo()
        assert undone.pegs[lane] == before.pegs[lane]


def test_the_desk_verbs_are_refused_on_the_pico(pico_port):
    from crib.board.link import BoardRefused

    with Link.open(pico_port) as link, pytest.raises(BoardRefused):
        link.request("tick", ms=10)
