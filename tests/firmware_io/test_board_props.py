"""Properties of the renderer and the buttons over random games and random presses."""

import random
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "board"))

from boardfakes import FakeButtons, FakeStrip, Keys  # noqa: E402

from cribcore.pegs import Board  # noqa: E402
from pegboard import light  # noqa: E402
from pegboard.buttons import Buttons  # noqa: E402
from pegboard.config import default_dict, from_dict  # noqa: E402
from pegboard.render import Renderer  # noqa: E402
from pegboard.ticks import PERIOD  # noqa: E402

moves = st.lists(st.one_of(st.tuples(st.integers(0, 2), st.integers(1, 29)),
                           st.just("undo"), st.just("dealer")), max_size=25)


@settings(max_examples=40, deadline=None)
@given(moves, st.integers(1, 100), st.sampled_from([61, 121, 181]),
       st.integers(0, 40), st.integers(370, 2000))
def test_any_game_renders_exactly_with_only_changed_pixels(seq, bri, target, gap, budget):
    d = default_dict(brightness=bri)
    d["budget_ma"] = budget
    cfg = from_dict(d)
    strip = FakeStrip(cfg.leds)
    r = Renderer(cfg, strip)
    b = Board(3, target)
    t = 0
    r.draw(b, None, t)
    after_first = strip.redundant
    for m in seq:
        if m == "undo":
            if b.undo_count:
                b.undo()
        elif m == "dealer":
            b.set_dealer((b.dealer + 1) % 3)
        elif b.winner < 0:
            b.peg(m[0], m[1])
        t += gap  # sometimes mid-animation, sometimes not
        r.draw(b, None, t)
        assert r.last_ma <= budget
        assert light.sum_ma(sum(strip.frame()), cfg.leds, cfg.led_ma) == r.last_ma
    if b.winner >= 0:
        b.undo()  # a fresh renderer would start the win chase anew: compare a still game
    t += 20
    r.draw(b, None, t)
    while r.animating(t):
        t += 20
        r.draw(b, None, t)
    assert strip.redundant == after_first  # no set ever repeated what the pixel showed
    fresh = FakeStrip(cfg.leds)
    Renderer(cfg, fresh).draw(b, None, t)
    assert fresh.frame() == strip.frame()


taps = st.lists(st.tuples(st.integers(0, 2), st.integers(25, 500), st.integers(25, 400)),
                min_size=1, max_size=20)


@settings(max_examples=60, deadline=None)
@given(taps, st.booleans())
def test_taps_are_pegged_exactly_once(seq, bouncy):
    """Every tap counts once (bouncy contacts too); entries are pegged in turn, each once."""
    cfg = from_dict(default_dict())
    keys = Keys(["lane0", "lane1", "lane2", "undo", "confirm"])
    btn = Buttons(cfg, keys.readers())
    acts = []
    t = 0
    for lane, down_ms, up_ms in seq:
        name = "lane%d" % lane
        if bouncy:  # 6 ms of chatter before the contact settles
            for _ in range(3):
                keys.down(name)
                acts += btn.poll(t)
                keys.up(name)
                acts += btn.poll(t + 1)
                t += 2
        keys.down(name)
        for dt in range(0, min(down_ms, cfg.hold_ms - 10), 5):
            acts += btn.poll(t + dt)
        t += min(down_ms, cfg.hold_ms - 10)
        keys.up(name)
        for dt in range(0, up_ms, 5):
            acts += btn.poll(t + dt)
        t += up_ms
    for dt in range(0, cfg.pause_ms + 50, 10):
        acts += btn.poll(t + dt)
    counted = [0, 0, 0]
    for a in acts:
        assert a[0] == "peg"
        counted[a[1]] += a[2]
    assert counted == [sum(1 for x in seq if x[0] == lane) for lane in range(3)]
    assert all(btn.pending(lane) == 0 for lane in range(3))


# -- draw() skips composing until the frame can next change: that must never show ------
#
# A twin renderer is made to compose every frame (setting its turn to itself marks it
# stale, as any setting does) while the renderer under test skips whenever it may: drawn
# with the same inputs at the same times, both must show the same at every step, and
# set the same pixels. The steps are a running loop's (0..9 ms apart), with board
# changes, button entries, settings and long idle gaps mixed in.

events = st.one_of(
    st.tuples(st.just("loop"), st.integers(1, 300), st.integers(0, 10**6)),
    st.tuples(st.just("peg"), st.integers(0, 2), st.integers(1, 40)),
    st.tuples(st.just("win"), st.integers(0, 2)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("dealer"), st.integers(-1, 2)),
    st.tuples(st.just("new"), st.sampled_from([61, 121, 181]), st.integers(2, 3)),
    st.tuples(st.just("copy")),
    st.tuples(st.just("set"), st.sampled_from(["brightness", "budget_ma", "turn"]),
              st.integers(-1, 100)),
    st.tuples(st.just("alert"), st.booleans()),
    st.tuples(st.just("wake")),
    st.tuples(st.just("idle"), st.sampled_from([0, 300, 1000])),
    st.tuples(st.just("gap"), st.sampled_from([299, 1000, 5000, 1 << 26])),
    st.tuples(st.just("buttons"), st.sampled_from(["play", "confirm_new", "setup", None]),
              st.integers(0, 2), st.integers(0, 7)),
)


def _apply(ev, board, r1, r2, now):
    """Apply one event to the board and both renderers; return (board, buttons or
    False for unchanged, now)."""
    kind = ev[0]
    buttons = False
    if kind == "peg" and board.winner < 0 and ev[1] < board.players:
        board.peg(ev[1], ev[2])
    elif kind == "win" and board.winner < 0 and ev[1] < board.players:
        board.peg(ev[1], board.target - board.front(ev[1]))
    elif kind == "undo" and board.undo_count:
        board.undo()
    elif kind == "dealer" and ev[1] < board.players:
        board.set_dealer(ev[1])
    elif kind == "new":
        board.new_game(ev[1], ev[2])
    elif kind == "copy":
        board = Board.loads(board.dumps())  # the app changes a copy: a new object
    elif kind == "set":
        value = ev[2] if ev[1] == "turn" else {"brightness": max(1, ev[2]),
                                                 "budget_ma": 370 + 20 * ev[2]}[ev[1]]
        for r in (r1, r2):
            setattr(r, ev[1], value)
    elif kind == "alert":
        r1.alert(ev[1])
        r2.alert(ev[1])
    elif kind == "wake":
        r1.wake(now)
        r2.wake(now)
    elif kind == "idle":
        r1.idle_ms = r2.idle_ms = ev[1]
    elif kind == "gap":
        now = (now + ev[1]) % PERIOD
    elif kind == "buttons":
        buttons = None
        if ev[1] == "setup":
            buttons = FakeButtons("setup", (121, 2 + ev[2] % 2))
        elif ev[1] is not None:
            buttons = FakeButtons(ev[1], pending={ev[2]: ev[3]})
    return board, buttons, now


@settings(max_examples=120, deadline=None)
@given(st.lists(events, max_size=30), st.integers(0, PERIOD - 1))
def test_a_skipped_frame_is_never_seen(seq, start):
    d = default_dict()
    d["budget_ma"] = 450  # the shipped budget: the limiter acts in bright frames
    cfg1, cfg2 = from_dict(d), from_dict(d)
    s1, s2 = FakeStrip(cfg1.leds), FakeStrip(cfg2.leds)
    r1, r2 = Renderer(cfg1, s1), Renderer(cfg2, s2)
    board, buttons, now = Board(3, 121), None, start

    def step():
        r2.turn = r2.turn  # stale: composes
        n1, n2 = r1.draw(board, buttons, now), r2.draw(board, buttons, now)
        assert n1 == n2 and s1.frame() == s2.frame()
        assert s1.sets == s2.sets and s1.writes == s2.writes
        assert r1.last_ma == r2.last_ma
        assert r1.animating(now) == r2.animating(now)

    for ev in seq:
        if ev[0] == "loop":
            rnd = random.Random(ev[2])
            for _ in range(ev[1]):
                now = (now + rnd.randint(0, 9)) % PERIOD
                step()
            continue
        board, new_buttons, now = _apply(ev, board, r1, r2, now)
        if new_buttons is not False:
            buttons = new_buttons
        step()


presses = st.lists(st.tuples(st.sampled_from(["lane0", "lane1", "lane2", "undo", "confirm"]),
                             st.sampled_from([30, 100, 700, 1300, 3100, 6100]),
                             st.sampled_from([10, 100, 300, 1600])), max_size=20)


@settings(max_examples=80, deadline=None)
@given(presses, st.booleans())
def test_buttons_rev_moves_with_every_change_the_renderer_draws(seq, won):
    """The renderer skips frames while Buttons.rev stands still: mode, choice and every
    pending amount may change only with it."""
    cfg = from_dict(default_dict())
    keys = Keys(["lane0", "lane1", "lane2", "undo", "confirm"])
    btn = Buttons(cfg, keys.readers())
    board = Board(3, 121)
    if won:
        board.peg(0, 121)
    t = 0

    def seen():
        return (btn.mode, btn.choice, tuple([btn.pending(i) for i in range(3)]))

    for name, down_ms, up_ms in seq + [("undo", 0, cfg.pause_ms + 100)]:
        for key_down, ms in ((True, down_ms), (False, up_ms)):
            (keys.down if key_down else keys.up)(name)
            for _ in range(0, ms, 10):
                before, rev = seen(), btn.rev
                btn.poll(t, board)
                assert btn.rev != rev or seen() == before
                t += 10
