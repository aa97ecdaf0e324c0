"""Properties of the current limiter over random frames, models and budgets."""

from hypothesis import given
from hypothesis import strategies as st

from pegboard.light import ONE, frame_ma, limit_scale

channel = st.integers(0, 255)
pixel = st.tuples(channel, channel, channel)
model = st.fixed_dictionaries({"full_white": st.integers(1, 200), "idle": st.integers(0, 20)})


@given(st.lists(pixel, min_size=1, max_size=400), model, st.integers(1, 30000))
def test_scaled_frame_never_exceeds_the_budget(frame, m, budget):
    s = limit_scale(sum(r + g + b for r, g, b in frame), len(frame), m, budget)
    assert 0 <= s <= ONE
    dark = len(frame) * m["idle"]
    if budget <= dark:
        assert s == 0
        return
    out = [((r * s) >> 8, (g * s) >> 8, (b * s) >> 8) for r, g, b in frame]
    assert frame_ma(out, m) <= budget
    if s == ONE:
        assert frame_ma(frame, m) <= budget


@given(st.lists(pixel, min_size=1, max_size=100), model, st.integers(1, 30000),
       st.integers(1, 30000))
def test_more_budget_never_means_less_light(frame, m, a, b):
    total = sum(r + g + b for r, g, b in frame)
    lo, hi = min(a, b), max(a, b)
    assert limit_scale(total, len(frame), m, lo) <= limit_scale(total, len(frame), m, hi)
