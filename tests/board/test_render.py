"""pegboard.render, still frames: which LED shows which peg and mark, in which colour
after gamma and brightness; the ghost, setup, question, alert and tally displays.

Plain asserts: runs under pytest and under MicroPython (tests/mp_run.py).
"""

from boardfakes import FakeButtons
from renderkit import BLACK, BLUE, RED, led, make, marks, settle, shows, tone

from pegboard.render import ALERT_RGB, BACK, FRONT, GAME_RGB, GHOST, MARK, SKUNK_RGB, TALLY


def test_first_frame_sets_the_lit_pixels_writes_the_strip_then_only_changes():
    cfg, s, r, b = make()
    lit = sum(1 for px in marks(3) if px != BLACK)
    # a new strip's buffer is dark: the first frame sets only what is lit, and writes it
    assert r.draw(b, None, 0) == lit and s.sets == lit and s.writes == 1
    assert r.draw(b, None, 10) == 0 and s.writes == 1  # nothing changed: no write
    assert shows(s, marks(3))


def test_the_first_frame_writes_the_strip_even_with_nothing_lit():
    from boardfakes import FakeStrip

    from pegboard.frame import Frame

    f, s = Frame(10, 1), FakeStrip(10)
    model = {"full_white": 55, "idle": 1}
    assert f.send(s, 10, model, 500) == 0 and s.writes == 1  # the LEDs may show anything
    assert f.send(s, 10, model, 500) == 0 and s.writes == 1  # then: only when one changes
    f.paint(3, (1, 2, 3))
    assert f.send(s, 10, model, 500) == 1 and s.writes == 2 and s[3] == (1, 2, 3)


def test_front_and_back_pegs_in_lane_colours():
    cfg, s, r, b = make()
    t = settle(r, b, 0)
    b.peg(0, 5)
    t = settle(r, b, t)
    b.peg(0, 3)
    b.peg(1, 3)
    settle(r, b, t)
    want = marks(3)
    want[led(0, 8)] = tone(RED, FRONT)
    want[led(0, 5)] = tone(RED, BACK)
    want[led(1, 3)] = tone(BLUE, FRONT)
    assert shows(s, want)
    assert s[7] == (101, 0, 0)  # red at 40 %: 255 * 102 // 256, green gamma'd to 0
    assert s[239] == want[239] and s[4] == want[4]


def test_dealer_lane_marks_take_its_colour():
    cfg, s, r, b = make()
    b.set_dealer(1)
    r.draw(b, None, 0)
    assert shows(s, marks(3, dealer=1))
    assert s[led(1, 10)] == tone(BLUE, MARK) != s[led(0, 10)]


def test_ghost_peg_blinks_at_front_plus_pending():
    cfg, s, r, b = make()
    b.peg(0, 10)
    t = settle(r, b, 0)
    t = (t // 600 + 1) * 600  # a moment the ghost is on
    btn = FakeButtons(pending={0: 4})
    r.draw(b, btn, t)
    assert s[led(0, 14)] == tone(RED, GHOST)
    r.draw(b, btn, t + 300)  # off half of the blink
    assert s[led(0, 14)] == BLACK
    r.draw(b, btn, t + 600)
    assert s[led(0, 14)] == tone(RED, GHOST)
    r.draw(b, FakeButtons(), t + 650)
    assert s[led(0, 14)] == BLACK and s[led(0, 10)] == tone(RED, FRONT)


def test_markers_for_a_61_game():
    cfg, s, r, b = make(players=2, target=61)
    r.draw(b, None, 0)
    assert shows(s, marks(2, target=61))
    assert s[led(0, 61)] == tone(GAME_RGB, MARK)
    assert s[led(0, 31)] == tone(SKUNK_RGB, MARK)
    assert all(s[led(0, h)] == BLACK for h in range(62, 122))


def test_target_above_the_holes_wraps_laps():
    cfg, s, r, b = make(players=2, target=181)
    b.peg(0, 130)
    settle(r, b, 0)
    assert s[led(0, 9)] == tone(RED, FRONT)  # 130 is hole 9 on the second lap
    assert s[led(0, 60)] == tone(GAME_RGB, MARK)  # 181: hole 60 of lap 2
    assert r.hole_led(0, 121) == led(0, 121) and r.hole_led(0, 122) == led(0, 1)
    assert r.hole_led(0, 0) == -1


def test_unused_lane_is_dark():
    cfg, s, r, b = make(players=2)
    r.draw(b, None, 0)
    assert all(s[i] == BLACK for i in range(242, 363))


def test_tally_shows_at_the_start_of_a_game():
    cfg, s, r, b = make()
    b.peg(0, 121)
    b.new_game()
    b.peg(1, 2)
    t = settle(r, b, 0)
    assert s[led(0, 1)] == tone(RED, TALLY)  # lane 0 has won one game
    assert s[led(1, 1)] == BLACK  # lane 1: none won, and it has pegged
    b.peg(0, 6)
    settle(r, b, t)
    assert s[led(0, 1)] == BLACK


def test_setup_mode_shows_the_choice():
    cfg, s, r, b = make()
    b.peg(0, 30)
    t = settle(r, b, 0)
    r.draw(b, FakeButtons(mode="setup", choice=(61, 2)), t)
    want = marks(2, target=61)
    want[led(0, 61)] = tone(RED, FRONT)
    want[led(1, 61)] = tone(BLUE, FRONT)
    assert shows(s, want)


def test_new_game_question_flashes_the_marks():
    cfg, s, r, b = make()
    r.draw(b, FakeButtons(mode="confirm_new"), 1000)  # 1000 // 250 even: flash on
    assert shows(s, marks(3, flash=True))
    r.draw(b, FakeButtons(mode="confirm_new"), 1250)
    assert shows(s, marks(3))


def test_alert_blinks_red_on_the_first_holes():
    cfg, s, r, b = make()
    r.alert(True)
    r.draw(b, None, 1600)
    red = tone(ALERT_RGB, FRONT)
    for lane in range(3):
        assert [s[led(lane, h)] for h in (1, 2, 3)] == [red] * 3
    r.draw(b, None, 1600 + 160)
    assert s[led(1, 1)] == BLACK
    r.draw(b, None, 1600 + 310)
    assert s[led(1, 1)] == red
    r.alert(False)
    r.draw(b, None, 1600 + 320)
    assert shows(s, marks(3))


def test_renderer_reads_only_lanes_it_has():
    # A 4-player game on a 3-lane board: the fourth lane is not drawn, nothing breaks.
    cfg, s, r, b = make(players=4)
    b.peg(3, 5)
    settle(r, b, 0)
    assert shows(s, marks(3))

