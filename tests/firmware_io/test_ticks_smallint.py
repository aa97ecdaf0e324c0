"""pegboard.ticks stays within the Pico's small ints (31-bit signed): no big int is made,
so elapsed() allocates nothing and may run in a hard timer interrupt (the buttons'
sampler). On a 64-bit desktop every int here is small, so the check is made by hand."""

from hypothesis import given
from hypothesis import strategies as st

from pegboard import ticks

SMALL = (-(1 << 30), (1 << 30) - 1)  # MicroPython's small ints on a 32-bit port


class Small(int):
    """An int that fails the test when arithmetic on it leaves the small-int range."""

    def _wrap(self, v):
        assert SMALL[0] <= v <= SMALL[1], v
        return Small(v)

    def __add__(self, o):
        return self._wrap(int(self) + int(o))

    __radd__ = __add__

    def __sub__(self, o):
        return self._wrap(int(self) - int(o))

    def __rsub__(self, o):
        return self._wrap(int(o) - int(self))

    def __and__(self, o):
        return self._wrap(int(self) & int(o))

    __rand__ = __and__


def test_the_constants_the_functions_use_are_small_ints():
    for fn in (ticks.elapsed, ticks.later):
        for name in fn.__code__.co_names:
            value = getattr(ticks, name, None)
            if type(value) is int:
                assert SMALL[0] <= value <= SMALL[1], (fn.__name__, name, value)


ms = st.integers(0, ticks.PERIOD - 1)


@given(ms, ms)
def test_elapsed_stays_small_and_is_right(now, then):
    got = ticks.elapsed(Small(now), Small(then))
    d = (now - then) % ticks.PERIOD
    assert got == (d - ticks.PERIOD if d >= ticks.PERIOD // 2 else d)


@given(ms, st.integers(-600000, 600000))
def test_later_stays_small_and_is_right(now, step):
    assert ticks.later(Small(now), Small(step)) == (now + step) % ticks.PERIOD
