"""crib.board.guard: a board call holds the caller up for at most the budget; then the
board is offline, calls fail at once, and the guard's thread finds it again."""

import threading
import time

import pytest

from crib.board.guard import BoardOffline, Guard
from crib.board.link import BoardRefused, Disconnected


class Hanging:
    """A link whose board stops answering while `hung` is clear."""

    def __init__(self):
        self.answering = threading.Event()
        self.answering.set()
        self.connected = True
        self.calls = 0

    def state(self):
        self.calls += 1
        if not self.answering.wait(5):
            raise Disconnected("gone")
        return "state"


def _until(cond, timeout=5.0):
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end
        time.sleep(0.01)


def test_a_hung_board_costs_one_budget_then_nothing_until_it_answers():
    link = Hanging()
    guard = Guard(link, budget=0.05, probe=0.02)
    assert guard.call(link.state) == "state" and guard.online
    link.answering.clear()
    t0 = time.monotonic()
    with pytest.raises(BoardOffline, match="no answer within 50 ms"):
        guard.call(link.state)
    for _ in range(20):
        with pytest.raises(BoardOffline):
            guard.call(link.state)
    assert time.monotonic() - t0 < 1.0 and not guard.online and not guard.back()
    link.answering.set()
    _until(lambda: guard.online)
    assert guard.back() and not guard.back()  # said once
    assert guard.call(link.state) == "state"
    guard.close()


def test_a_lost_port_fails_at_once_and_a_refusal_is_no_outage():
    link = Hanging()
    guard = Guard(link, budget=5, probe=0.02)

    def refuse():
        raise BoardRefused("no", "bad_lane")
    with pytest.raises(BoardRefused):
        guard.call(refuse)
    assert guard.online
    link.connected = False
    t0 = time.monotonic()
    with pytest.raises(BoardOffline, match="lost its port"):
        guard.call(link.state)
    assert time.monotonic() - t0 < 0.5
    link.connected = True
    _until(guard.back)
    guard.close()
