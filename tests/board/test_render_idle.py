"""pegboard.render at rest: a frame that cannot have changed is not composed again, and
any change is drawn at once. Plain asserts: runs under pytest and under MicroPython."""

from boardfakes import FakeButtons
from renderkit import RED, led, make, settle, tone

from pegboard.render import FRONT


class CountingButtons(FakeButtons):
    """Counts what the renderer asks beyond rev."""

    def __init__(self):
        super().__init__()
        self.asked = 0

    def pending(self, lane):
        self.asked += 1
        return 0


def test_a_still_frame_is_not_composed_again():
    cfg, s, r, b = make()
    btn = CountingButtons()
    t = settle(r, b, 0, btn)
    asked = btn.asked
    for dt in range(1, 2000, 7):  # nothing blinks, nothing moves, no dimming for 10 min
        assert r.draw(b, btn, t + dt) == 0
    assert btn.asked - asked <= 2 * 3  # looked at afresh once a second at most
    asked = btn.asked
    b.peg(0, 2)  # a change is drawn at once
    r.draw(b, btn, t + 2000)
    assert btn.asked == asked + 3
    settle(r, b, t + 2000, btn)
    assert s[led(0, 2)] == tone(RED, FRONT)
