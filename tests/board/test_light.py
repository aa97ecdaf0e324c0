"""pegboard.light: WLED's current model, frame estimate, limiter scale, gamma table.

Plain asserts: runs under pytest and under MicroPython (tests/mp_run.py).
"""

from pegboard.light import ONE, frame_ma, gamma_table, led_ma, limit_scale, sum_ma

WLED = {"full_white": 55, "idle": 1}


def scaled(pixels, s):
    return [((r * s) >> 8, (g * s) >> 8, (b * s) >> 8) for r, g, b in pixels]


def total(pixels):
    return sum(r + g + b for r, g, b in pixels)


def test_led_ma_known_values():
    assert led_ma(0, 0, 0, WLED) == 1  # dark: idle only
    assert led_ma(255, 255, 255, WLED) == 56  # full white
    assert led_ma(255, 0, 0, WLED) == 1 + 19  # one channel: a third of 55, rounded up
    assert led_ma(1, 0, 0, WLED) == 2  # any light at all rounds up
    assert led_ma(255, 255, 255, {"full_white": 60, "idle": 0}) == 60


def test_frame_ma_adds_up_the_strip():
    assert frame_ma([(0, 0, 0)] * 363, WLED) == 363
    assert frame_ma([(255, 255, 255)] * 363, WLED) == 363 * 56
    assert frame_ma([], WLED) == 0
    mixed = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]  # one full white's worth in all
    assert frame_ma(mixed, WLED) == 3 + 55
    assert sum_ma(765, 3, WLED) == 58


def test_limit_scale_is_one_when_under_budget():
    frame = [(255, 255, 255)] * 5 + [(0, 0, 0)] * 358
    assert frame_ma(frame, WLED) <= 1000
    assert limit_scale(total(frame), len(frame), WLED, 1000) == ONE


def test_limit_scale_keeps_the_frame_under_budget():
    frame = [(255, 255, 255)] * 100 + [(200, 30, 0)] * 100 + [(0, 0, 0)] * 163
    for budget in (364, 400, 500, 1000, 2500, 5000):
        s = limit_scale(total(frame), len(frame), WLED, budget)
        assert 0 <= s < ONE
        assert frame_ma(scaled(frame, s), WLED) <= budget
        # The largest such scale, by the linear model the limiter uses.
        spare = budget - len(frame)
        assert 55 * total(frame) * (s + 1) > spare * 765 * 256


def test_limit_scale_is_zero_when_idle_fills_the_budget():
    assert limit_scale(765, 363, WLED, 363) == 0
    assert limit_scale(765, 363, WLED, 100) == 0


def test_gamma_table_is_bytes_monotone_and_pinned_at_the_ends():
    for gamma in (1.0, 2.2, 2.8, 4.0):
        g = gamma_table(gamma)
        assert type(g) is bytes and len(g) == 256
        assert g[0] == 0 and g[255] == 255
        for i in range(255):
            assert g[i] <= g[i + 1]
    assert gamma_table(1.0) == bytes(range(256))
    g = gamma_table(2.8)
    assert g[128] == 37 and g[64] == 5  # 255 * (i / 255) ** 2.8, rounded
    assert gamma_table(2.8)[128] < gamma_table(2.2)[128]
