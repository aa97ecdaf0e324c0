"""pegboard.render, whose turn: the `turn` lane's hole marks breathe in the lane's colour
(the other lanes, the skunk lines and the game hole stay as they are), and stop when the
turn is cleared. Plain asserts: runs under pytest and under MicroPython."""

from renderkit import BLUE, led, make, marks, shows, tone

from pegboard.render import PULSE, PULSE_MS


def test_the_lane_asked_pulses_its_marks():
    cfg, s, r, b = make()
    r.draw(b, None, 0)
    still = marks(3)
    assert shows(s, still)
    r.turn = 1
    seen = []
    for t in range(0, 2 * len(PULSE) * PULSE_MS, PULSE_MS // 2):
        r.draw(b, None, 1000 + t)
        seen.append(s[led(1, 10)])
        assert s[led(1, 15)] == s[led(1, 10)]  # every 5th hole of the lane together
        assert s[led(0, 10)] == still[led(0, 10)] and s[led(2, 10)] == still[led(2, 10)]
        assert s[led(1, 91)] == still[led(1, 91)]  # the skunk line stays violet
    levels = [tone(BLUE, v) for v in PULSE]
    assert sorted(set(seen)) == sorted(set(levels)) and len(set(seen)) >= 3
    assert levels[-1] != still[led(1, 10)] != levels[0]  # brighter and fainter than a mark
    r.turn = -1
    r.draw(b, None, 9000)
    assert shows(s, still)


def test_no_pulse_once_the_game_is_won():
    cfg, s, r, b = make(players=2, target=61)
    b.peg(1, 61)
    r.turn = 1
    for t in range(0, 3 * len(PULSE) * PULSE_MS, 50):
        r.draw(b, None, t)
        assert s[led(1, 10)] not in [tone(BLUE, v) for v in PULSE if v != 80]
