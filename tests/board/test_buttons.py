"""pegboard.buttons: debounce, tap, hold, pause and confirm commits, undo, the new-game
question and the settings, all with a driven clock.

Plain asserts: runs under pytest and under MicroPython (tests/mp_run.py).
"""

from boardfakes import Keys

from cribcore.pegs import Board
from pegboard.buttons import ASK_MS, DEBOUNCE_MS, SETUP_MS, Buttons
from pegboard.config import default_dict, from_dict
from pegboard.ticks import PERIOD, elapsed, later

PAUSE, HOLD, LONG = 1500, 600, 3000  # the shipped config's timings


def make(confirm=True, lanes=3):
    cfg = from_dict(default_dict())
    names = ["lane%d" % i for i in range(lanes)] + ["undo"] + (["confirm"] if confirm else [])
    keys = Keys(names)
    return keys, Buttons(cfg, keys.readers())


def run(btn, t0, t1, board=None, dt=10):
    """Poll every dt ms from t0 to t1 (inclusive); return every action."""
    acts = []
    t = t0
    while t <= t1:
        acts += btn.poll(t % PERIOD, board)
        t += dt
    return acts


def press(keys, btn, name, t, ms, board=None):
    """Hold a button for ms from t, release, poll a little on; return (actions, time)."""
    keys.down(name)
    acts = run(btn, t, t + ms, board)
    keys.up(name)
    acts += run(btn, t + ms + 10, t + ms + 60, board)
    return acts, t + ms + 70


def test_tap_adds_one_and_commits_after_the_pause():
    keys, btn = make()
    acts, t = press(keys, btn, "lane0", 0, 100)
    assert acts == [] and btn.pending(0) == 1 and btn.mode == "play"
    assert run(btn, t, 100 + PAUSE - 20) == []  # not yet: the pause runs from the release
    assert run(btn, 100 + PAUSE - 10, 100 + PAUSE + 100) == [("peg", 0, 1)]
    assert btn.pending(0) == 0


def test_taps_add_up_to_one_jump():
    keys, btn = make()
    t = 0
    for _ in range(4):
        acts, t = press(keys, btn, "lane1", t, 80)
        assert acts == []
        t += 200
    assert btn.pending(1) == 4
    assert run(btn, t, t + PAUSE) == [("peg", 1, 4)]


def test_hold_counts_five_and_five_more_while_held():
    keys, btn = make()
    keys.down("lane2")
    run(btn, 0, HOLD - 20)
    assert btn.pending(2) == 1  # counted on the press, for a quick ghost
    run(btn, HOLD - 10, HOLD + 30)
    assert btn.pending(2) == 5
    run(btn, HOLD + 40, 2 * HOLD + 30)
    assert btn.pending(2) == 10
    keys.up("lane2")
    acts = run(btn, 2 * HOLD + 40, 2 * HOLD + 60 + PAUSE)
    assert acts == [("peg", 2, 10)]


def test_confirm_press_commits_at_once():
    keys, btn = make()
    press(keys, btn, "lane0", 0, 50)
    acts, t = press(keys, btn, "confirm", 200, 50)
    assert acts == [("peg", 0, 1)] and btn.pending(0) == 0


def test_another_players_press_commits_the_first_entry():
    keys, btn = make()
    press(keys, btn, "lane0", 0, 50)
    press(keys, btn, "lane0", 150, 50)
    acts, t = press(keys, btn, "lane1", 300, 50)
    assert acts == [("peg", 0, 2)] and btn.pending(1) == 1
    assert run(btn, t, t + PAUSE) == [("peg", 1, 1)]


def test_debounce_a_bouncy_press_is_one_press():
    keys, btn = make()
    t = 0
    for k in range(6):  # contact chatter: 2 ms on, 2 ms off
        (keys.down if k % 2 == 0 else keys.up)("lane0")
        btn.poll(t)
        t += 2
    keys.down("lane0")
    run(btn, t, t + 100, dt=2)
    for k in range(6):  # and on release
        (keys.up if k % 2 == 0 else keys.down)("lane0")
        btn.poll(t + 102 + 2 * k)
    keys.up("lane0")
    run(btn, t + 120, t + 200, dt=2)
    assert btn.pending(0) == 1


def test_debounce_ignores_a_glitch_shorter_than_the_debounce():
    keys, btn = make()
    keys.down("undo")
    btn.poll(0)
    btn.poll(DEBOUNCE_MS - 5)
    keys.up("undo")
    assert run(btn, DEBOUNCE_MS, 500) == []
    keys.down("lane0")
    btn.poll(600)
    keys.up("lane0")
    run(btn, 601, 700)
    assert btn.pending(0) == 0


def test_undo_tap_cancels_pending_first_then_undoes():
    keys, btn = make()
    press(keys, btn, "lane0", 0, 50)
    press(keys, btn, "lane1", 100, 50)  # commits lane 0's 1, lane 1 has 1 pending
    acts, t = press(keys, btn, "undo", 200, 80)
    assert acts == [] and btn.pending(1) == 0
    assert run(btn, t, t + PAUSE + 100) == []  # nothing left to commit
    acts, t = press(keys, btn, "undo", t + PAUSE + 200, 80)
    assert acts == [("undo",)]


def test_long_undo_asks_new_game_and_a_tap_confirms():
    keys, btn = make(confirm=False)
    press(keys, btn, "lane0", 0, 50)
    keys.down("undo")
    assert run(btn, 100, 100 + LONG - 20) == [] and btn.mode == "play"
    run(btn, 100 + LONG, 100 + LONG + 30)
    assert btn.mode == "confirm_new" and btn.pending(0) == 0
    keys.up("undo")
    assert run(btn, 100 + LONG + 40, 100 + LONG + 200) == []  # that release says nothing
    acts, t = press(keys, btn, "undo", 100 + LONG + 500, 80)
    assert acts == [("new",)] and btn.mode == "play"


def test_new_game_question_times_out_or_is_declined():
    keys, btn = make()
    keys.down("undo")
    run(btn, 0, LONG + 20)
    keys.up("undo")
    assert run(btn, LONG + 30, LONG + ASK_MS + 100) == [] and btn.mode == "play"
    keys.down("undo")
    t = LONG + ASK_MS + 200
    run(btn, t, t + LONG + 20)
    keys.up("undo")
    assert btn.mode == "confirm_new"
    acts, t = press(keys, btn, "lane1", t + LONG + 100, 50)
    assert acts == [] and btn.mode == "play" and btn.pending(1) == 0
    acts, t = press(keys, btn, "confirm", t, 50)  # confirm alone now just commits nothing
    assert acts == []


def test_confirm_button_says_yes():
    keys, btn = make()
    keys.down("undo")
    run(btn, 0, LONG + 20)
    keys.up("undo")
    acts, t = press(keys, btn, "confirm", LONG + 100, 50)
    assert acts == [("new",)] and btn.mode == "play"


def test_settings_by_holding_undo_on():
    keys, btn = make(confirm=False)
    b = Board(2, 121)
    keys.down("undo")
    run(btn, 0, 2 * LONG + 20, b)
    keys.up("undo")
    run(btn, 2 * LONG + 30, 2 * LONG + 100, b)
    assert btn.mode == "setup" and btn.choice == (121, 2)
    acts, t = press(keys, btn, "lane2", 2 * LONG + 200, 50, b)  # the third lane plays
    assert acts == [] and btn.choice == (121, 3)
    acts, t = press(keys, btn, "lane0", t, HOLD + 50, b)  # a hold switches 61 / 121
    assert btn.choice == (61, 3)
    acts, t = press(keys, btn, "lane1", t, 50, b)  # lane 1 (or 0) means two lanes
    assert btn.choice == (61, 2)
    acts, t = press(keys, btn, "undo", t, 80, b)
    assert acts == [("setup", 61, 2)] and btn.mode == "play" and btn.choice is None


def test_settings_from_the_question_and_leaving_unchanged():
    keys, btn = make()
    b = Board(3, 61)
    keys.down("undo")
    run(btn, 0, LONG + 20, b)
    keys.up("undo")
    run(btn, LONG + 30, LONG + 60, b)
    keys.down("undo")  # asked: hold undo again for the settings
    run(btn, LONG + 100, 2 * LONG + 120, b)
    keys.up("undo")
    run(btn, 2 * LONG + 130, 2 * LONG + 200, b)
    assert btn.mode == "setup" and btn.choice == (61, 3)
    keys.down("undo")  # a long hold leaves them unchanged
    acts = run(btn, 2 * LONG + 300, 3 * LONG + 320, b)
    keys.up("undo")
    acts += run(btn, 3 * LONG + 330, 3 * LONG + 400, b)
    assert acts == [] and btn.mode == "play"


def test_settings_time_out_without_a_press():
    keys, btn = make()
    keys.down("undo")
    run(btn, 0, 2 * LONG + 20)
    keys.up("undo")
    assert btn.mode == "setup"
    assert run(btn, 2 * LONG + 30, 2 * LONG + SETUP_MS + 100, dt=50) == []
    assert btn.mode == "play"


def test_after_a_win_a_tap_starts_the_next_game_and_undo_still_undoes():
    keys, btn = make()
    b = Board(2, 61)
    b.peg(0, 61)
    acts, t = press(keys, btn, "lane1", 0, 50, b)
    assert acts == [("new",)] and btn.pending(1) == 0
    acts, t = press(keys, btn, "undo", t, 50, b)
    assert acts == [("undo",)]


def test_lanes_beyond_the_players_are_ignored():
    keys, btn = make()
    b = Board(2, 121)
    acts, t = press(keys, btn, "lane2", 0, 50, b)
    assert acts == [] and btn.pending(2) == 0
    assert run(btn, t, t + PAUSE + 100, b) == []


def test_pause_is_settable_at_run_time():
    keys, btn = make()
    btn.pause_ms = 300
    acts, t = press(keys, btn, "lane0", 0, 50)
    assert run(btn, t, 50 + 290) == []
    assert run(btn, 50 + 300, 50 + 400) == [("peg", 0, 1)]


def test_clock_wrap_is_harmless():
    keys, btn = make()
    t0 = PERIOD - 200  # the Pico's ticks_ms wraps at 2**30
    acts, t = press(keys, btn, "lane0", t0, 100)
    assert btn.pending(0) == 1
    assert run(btn, t, t0 + 100 + PAUSE + 100) == [("peg", 0, 1)]


def test_ticks_arithmetic():
    assert elapsed(5, PERIOD - 5) == 10
    assert elapsed(PERIOD - 5, 5) == -10
    assert elapsed(1000, 400) == 600
    assert later(PERIOD - 1, 3) == 2
    assert elapsed(later(123, 4567), 123) == 4567


def test_pause_follows_the_config_set_at_run_time():
    keys, btn = make()
    btn.config.pause_ms = 400
    assert btn.pause_ms == 400
    acts, t = press(keys, btn, "lane0", 0, 50)
    assert run(btn, t, 50 + 390) == []
    assert run(btn, 50 + 400, 50 + 500) == [("peg", 0, 1)]


def play(keys, btn, board, script, t=0, dt=10):
    """Poll every dt ms through a script of (ms, button, down) steps, applying every peg
    to the board as the app does; return (every action, time)."""
    acts = []
    for ms, name, down in script:
        if name:
            keys.down(name) if down else keys.up(name)
        end = t + ms
        while t < end:
            for a in btn.poll(t, board):
                acts.append(a)
                if a[0] == "peg":
                    board.peg(a[1], a[2])
            t += dt
    return acts, t


def test_a_press_that_commits_a_winning_entry_does_not_start_a_game():
    keys, btn = make(lanes=2)
    b = Board(2, 121)
    b.peg(0, 120)
    acts, t = play(keys, btn, b, [(60, "lane0", True), (60, "lane0", False),
                                  (60, "lane1", True), (60, "lane1", False), (500, None, 0)])
    assert acts == [("peg", 0, 1)] and b.winner == 0  # the turn passed: lane 0 won
    assert btn.pending(1) == 0  # nothing is entered after a win
    acts, t = play(keys, btn, b, [(PAUSE + 100, None, 0)], t)
    assert acts == []
    acts, t = play(keys, btn, b, [(60, "lane1", True), (60, "lane1", False), (60, None, 0)], t)
    assert acts == [("new",)]  # a tap made after the win starts the next game


def test_a_hold_across_the_win_does_not_start_a_game():
    keys, btn = make(lanes=2)
    b = Board(2, 121)
    b.peg(0, 120)
    acts, t = play(keys, btn, b, [(60, "lane0", True), (60, "lane0", False),
                                  (HOLD * 2, "lane1", True), (60, "lane1", False)])
    assert acts == [("peg", 0, 1)] and b.winner == 0


def test_a_press_just_short_of_the_hold_time_is_a_tap():
    for ms, want in ((HOLD - 18, 1), (HOLD - 30, 1), (HOLD + 20, 5)):
        keys, btn = make()
        acts, t = press(keys, btn, "lane0", 0, ms)
        assert btn.pending(0) == want, (ms, btn.pending(0))


class Timer:
    """A fake machine.Timer: tick(ms) samples every SAMPLE_MS, the keys following a
    schedule of (from_ms, to_ms, name) presses, whatever the loop is doing meanwhile."""

    def __init__(self, keys, btn, presses):
        from pegboard.sampler import SAMPLE_MS

        self.keys, self.sampler, self.presses = keys, btn.sampler, presses
        self.period = SAMPLE_MS
        self.t = 0
        btn.sampler.timed = True

    def run_to(self, t):
        while self.t <= t:
            for name in self.keys.state:
                self.keys.state[name] = False
            for start, end, name in self.presses:
                if start <= self.t < end:
                    self.keys.state[name] = True
            self.sampler.tick(self.t)
            self.t += self.period


def test_a_40ms_tap_between_polls_of_a_25ms_loop_is_seen():
    keys, btn = make()
    timer = Timer(keys, btn, [(30, 70, "lane0")])
    for t in range(0, 200, 25):
        timer.run_to(t)
        assert btn.poll(t) == []
    assert btn.pending(0) == 1


def test_four_quick_taps_during_a_blocked_loop_count_as_four():
    keys, btn = make()
    taps = [(100 + 70 * k, 140 + 70 * k, "lane1") for k in range(4)]  # 40 ms on, 30 off
    timer = Timer(keys, btn, taps)
    timer.run_to(50)
    btn.poll(50)
    timer.run_to(420)  # the loop is stuck (a save) while every tap comes and goes
    assert btn.poll(420) == []
    assert btn.pending(1) == 4
    timer.run_to(420 + PAUSE)
    assert btn.poll(420 + PAUSE) == [("peg", 1, 4)]


def test_a_hold_released_while_the_loop_was_blocked_still_counts_five():
    keys, btn = make()
    timer = Timer(keys, btn, [(0, HOLD + 100, "lane2")])
    timer.run_to(HOLD - 50)
    btn.poll(HOLD - 50)
    timer.run_to(HOLD + 300)  # blocked across the hold time and the release
    btn.poll(HOLD + 300)
    assert btn.pending(2) == 5


def test_sampling_allocates_nothing():
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        return  # CPython: the MicroPython run of this module checks it
    keys, btn = make()
    timer = Timer(keys, btn, [(10, 60, "lane0"), (20, 90, "undo")])
    heap_lock()
    try:
        timer.run_to(200)  # a MemoryError here would stop a hard timer callback
    finally:
        heap_unlock()
    assert btn.sampler.down == 0 and len(list(btn.sampler.edges())) == 4
