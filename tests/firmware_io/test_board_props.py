"""Properties of the renderer and the buttons over random games and random presses."""

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "board"))

from boardfakes import FakeStrip, Keys  # noqa: E402

from cribcore.pegs import Board  # noqa: E402
from pegboard import light  # noqa: E402
from pegboard.buttons import Buttons  # noqa: E402
from pegboard.config import default_dict, from_dict  # noqa: E402
from pegboard.render import Renderer  # noqa: E402

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
