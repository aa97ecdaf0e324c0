"""LED light: WLED's current model, a frame's estimated draw, the current limiter, gamma.

Pure integer maths, shared by the firmware (every frame) and the host (`crib hardware
power`). A model is the config's led_ma dict: {"full_white": mA per LED at (255, 255, 255),
"idle": mA per LED when dark}. The draw is linear in the channel sum r + g + b (WLED's
estimate), so a frame needs only its channel total. Estimates round up: a limiter should
err on the safe side.
"""

FULL = 765  # r + g + b of one LED at full white
ONE = 256  # limit_scale's "no limiting": channel values are scaled by s / 256


def sum_ma(channel_sum, count, model):
    """Estimated mA of count LEDs whose r + g + b add up to channel_sum."""
    return count * model["idle"] + (model["full_white"] * channel_sum + FULL - 1) // FULL


def led_ma(r, g, b, model):
    """Estimated mA of one LED showing (r, g, b)."""
    return sum_ma(r + g + b, 1, model)


def frame_ma(pixels, model):
    """Estimated mA of a whole frame: pixels is a sequence of (r, g, b)."""
    total = 0
    count = 0
    for r, g, b in pixels:
        total += r + g + b
        count += 1
    return sum_ma(total, count, model)


def budget_problem(budget_ma, count, model):
    """Why a budget cannot work for count LEDs (their idle draw alone uses it), or None.
    The one check of a budget, for config.json and for `set budget_ma=` alike."""
    idle = count * model["idle"]
    if budget_ma <= idle:
        return "budget_ma %d is not above the idle draw of %d LEDs (%d mA)" % (
            budget_ma, count, idle)
    return None


def limit_scale(channel_sum, count, model, budget_ma):
    """The largest scale s (0..256) so the frame, its channels times s // 256, fits budget_ma.

    Idle current does not dim, so only budget_ma minus the idle draw is shared out. Scaling
    each channel down with floor division only lowers the sum, so the scaled frame's
    sum_ma is at most budget_ma (0 if even a dark strip would not fit).
    """
    spare = budget_ma - count * model["idle"]
    if spare <= 0:
        return 0
    need = model["full_white"] * channel_sum
    # ceil(need * s / 256 / 765) <= spare holds when need * s <= spare * 765 * 256.
    if need <= spare * FULL:
        return ONE
    return spare * FULL * ONE // need


def gamma_table(gamma):
    """256 bytes mapping a perceived level 0..255 to the PWM value that shows it."""
    out = bytearray(256)
    for i in range(256):
        out[i] = int(255.0 * (i / 255.0) ** gamma + 0.5)
    return bytes(out)
