"""pegboard.render, in motion: the jump and win animations, only changed pixels set,
brightness, the current limiter and idle dimming.

Plain asserts: runs under pytest and under MicroPython (tests/mp_run.py).
"""

from boardfakes import FakeStrip
from renderkit import BLUE, GREEN, RED, led, make, settle, tone

from pegboard import light, render
from pegboard.render import BACK, FRONT, JUMP_MS, WIN_MS
from pegboard.ticks import later


def test_jump_is_animated_hole_by_hole_and_ends_on_the_new_hole():
    cfg, s, r, b = make()
    t = settle(r, b, 0)
    b.peg(0, 4)
    t = settle(r, b, t)
    b.peg(0, 10)  # the back peg (start hole) jumps to hole 14
    front = tone(RED, FRONT)
    seen = []
    start = t
    while True:
        before = s.sets
        n = r.draw(b, None, t)
        assert n == s.sets - before and n <= 3
        moving = [h for h in range(1, 122) if s[led(0, h)] == front]
        assert len(moving) <= 1
        if moving:
            seen.append(moving[0])
        if moving != [4]:  # the moving peg passes over the back peg (the old front)
            assert s[led(0, 4)] == tone(RED, BACK)
        if not r.animating(t):
            break
        t += 10
    assert seen[-1] == 14 and seen == sorted(seen) and len(set(seen)) >= 10
    assert t - start <= JUMP_MS + 10


def test_a_move_touches_only_the_leds_that_change():
    cfg, s, r, b = make()
    t = settle(r, b, 0)
    b.peg(0, 5)
    t = settle(r, b, t)
    b.peg(0, 3)
    t = settle(r, b, t)
    before = s.frame()
    s.touched = []
    redundant = s.redundant
    b.peg(0, 3)  # back peg 5 -> 11, front 8 stays as the back peg
    settle(r, b, t)
    changed = s.changed_since(before)
    assert changed == [led(0, 5), led(0, 8), led(0, 11)]
    assert s.redundant == redundant  # never set a pixel to what it already shows
    assert set(s.touched) <= set(led(0, h) for h in range(5, 12))


def test_final_frame_equals_a_fresh_render_of_the_same_state():
    cfg, s, r, b = make()
    t = 0
    for lane, n in ((0, 7), (1, 12), (2, 3), (0, 29), (1, 1), (2, 20)):
        b.peg(lane, n)
        t = settle(r, b, t)
    b.undo()
    b.set_dealer(2)
    t = settle(r, b, t)
    s2 = FakeStrip(363)
    render.Renderer(cfg, s2).draw(b, None, t)
    assert s2.frame() == s.frame()


def test_win_animation_skunk_and_game_hole():
    cfg, s, r, b = make()
    b.peg(1, 50)  # double skunked (below 61)
    b.peg(2, 95)  # past the skunk line: safe
    t = settle(r, b, 0)
    b.peg(0, 121)
    r.draw(b, None, t)
    assert r.animating(t)
    chase = set()
    end = t + JUMP_MS + WIN_MS + 200
    skunk_lit = set()
    while t < end:
        t += 20
        r.draw(b, None, t)
        for h in range(100, 121):
            if s[led(0, h)] == tone(RED, FRONT):
                chase.add(h)
        for h in (61, 91):
            if s[led(1, h)] == tone(BLUE, FRONT):
                skunk_lit.add(h)
        assert s[led(2, 91)] != tone(GREEN, FRONT)
    assert not r.animating(t)
    assert len(chase) >= 8  # the chase ran along the last holes
    assert skunk_lit == {61, 91}
    game = set()
    for k in range(10):
        r.draw(b, None, t + 100 * k)
        game.add(s[led(0, 121)])
    assert game == {tone(RED, FRONT), tone(RED, BACK)}  # the game hole keeps blinking


def test_brightness_is_applied_after_gamma():
    cfg, s, r, b = make()
    b.peg(0, 3)
    t = settle(r, b, 0)
    r.brightness = 100
    assert r.draw(b, None, t) > 0
    assert s[led(0, 3)] == (255, 0, 0)
    r.brightness = 1
    r.draw(b, None, t + 1)
    assert s[led(0, 3)] == (1, 0, 0) and s[led(0, 5)] == (1, 1, 1)


def test_limiter_keeps_the_estimate_under_budget():
    cfg, s, r, b = make(brightness=100)
    for lane in range(3):
        b.peg(lane, 40)
    t = settle(r, b, 0)
    unlimited = s[led(0, 40)]
    assert r.last_ma == light.sum_ma(sum(s.frame()), 363, cfg.led_ma)
    budget = 370  # 363 mA of it is the dark strip's idle draw
    assert r.last_ma > budget
    r.budget_ma = budget
    r.draw(b, None, t)
    assert light.sum_ma(sum(s.frame()), 363, cfg.led_ma) == r.last_ma <= budget
    assert s[led(0, 40)] < unlimited
    assert s[led(0, 40)][0] > 0  # dimmed, not dark


def test_idle_dimming_and_wake():
    cfg, s, r, b = make(idle_ms=1000)
    b.peg(0, 3)
    t = settle(r, b, 0)
    bright = s[led(0, 3)]
    r.draw(b, None, t + 1500)
    assert s[led(0, 3)] == tone(RED, FRONT, bri=10)  # a quarter of 40 %
    assert s[led(0, 3)] < bright
    r.wake(t + 1600)
    r.draw(b, None, t + 1600)
    assert s[led(0, 3)] == bright
    r.draw(b, None, t + 2700)
    assert s[led(0, 3)] != bright
    b.peg(1, 2)  # any board change wakes it too
    r.draw(b, None, t + 2710)
    assert s[led(0, 3)] == bright


def test_idle_time_is_settable_at_run_time():
    cfg, s, r, b = make()
    r.draw(b, None, 0)
    bright = s[led(0, 5)]
    r.idle_ms = 100
    assert cfg.idle_ms == 100
    r.draw(b, None, 200)  # a changed setting is activity: awake from here
    assert s[led(0, 5)] == bright
    r.draw(b, None, 310)
    assert s[led(0, 5)] != bright
    cfg.idle_ms = 0  # never dims
    r.draw(b, None, 320)
    assert s[led(0, 5)] == bright


# Frames a long time apart (each gap under half the tick period, as a running loop's are)
# across two whole wraps of the Pico's 2**30 ms ticks_ms: about 25 days.
LONG_GAPS = [k * (1 << 26) for k in range(1, 33)]


def test_idle_dimming_holds_across_the_tick_wrap():
    cfg, s, r, b = make(idle_ms=600000)
    b.peg(0, 3)
    t = settle(r, b, 0)
    bright = s[led(0, 3)]
    r.draw(b, None, t + 700000)
    dim = s[led(0, 3)]
    assert dim != bright
    for gap in LONG_GAPS:
        r.draw(b, None, later(t, gap))
        assert s[led(0, 3)] == dim, gap  # 2**29 ms idle (6.2 days) must not un-dim it


def test_win_animation_never_replays_across_the_tick_wrap():
    cfg, s, r, b = make()
    b.peg(0, 100)
    t = settle(r, b, 0)
    b.peg(0, 21)  # a jump from hole 0 to 121: the win, its chase once it lands
    r.draw(b, None, t)
    assert r.animating(t)
    t = settle(r, b, t)
    assert not r.animating(t)
    for gap in LONG_GAPS:
        now = later(t, gap)
        r.draw(b, None, now)
        assert not r.animating(now), gap
        for h in range(105, 121):  # the chase's holes stay dark
            assert s[led(0, h)] == (0, 0, 0) or h % 5 == 0, (gap, h)


def test_a_win_from_mid_lane_plays_the_chase_once_the_jump_lands():
    cfg, s, r, b = make()
    b.peg(0, 50)
    b.peg(0, 50)  # pegs at 50 and 100: the winning jump starts from hole 50
    t = settle(r, b, 0)
    b.peg(0, 21)
    r.draw(b, None, t)
    t = settle(r, b, t)
    assert t > WIN_MS  # the jump, then the chase
    game = set()
    for k in range(10):
        r.draw(b, None, t + 100 * k)
        game.add(s[led(0, 121)])
    assert game == {tone(RED, FRONT), tone(RED, BACK)}  # then the game hole blinks

