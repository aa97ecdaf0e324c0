"""Wrap-safe millisecond arithmetic for a clock that wraps like MicroPython's ticks_ms."""

PERIOD = 1 << 30  # time.ticks_ms() on the Pico wraps at 2**30 ms (about 12 days)
_HALF = PERIOD >> 1


def elapsed(now, then):
    """Milliseconds from then to now (negative if then is later), across a wrap."""
    return ((now - then + _HALF) & (PERIOD - 1)) - _HALF


def later(now, ms):
    """The tick ms after now, wrapped like ticks_add."""
    return (now + ms) & (PERIOD - 1)
