"""Wrap-safe millisecond arithmetic for a clock that wraps like MicroPython's ticks_ms.

Every value stays a small int on the Pico (31-bit signed: up to 2**30 - 1), so these
allocate nothing and may run in a hard interrupt (pegboard.sampler): PERIOD itself is
2**30, a big int there, so only _MASK and _HALF appear in the arithmetic."""

PERIOD = 1 << 30  # time.ticks_ms() on the Pico wraps at 2**30 ms (about 12 days)
_MASK = PERIOD - 1
_HALF = PERIOD >> 1


def elapsed(now, then):
    """Milliseconds from then to now (negative if then is later), across a wrap."""
    d = (now - then) & _MASK
    return d - _MASK - 1 if d >= _HALF else d


def later(now, ms):
    """The tick ms after now (ms may be negative), wrapped like ticks_add."""
    if ms < 0:
        return (now + ms) & _MASK
    return (now - (_MASK - ms) - 1) & _MASK  # now + ms - PERIOD, without passing 2**30
