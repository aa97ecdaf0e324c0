"""A helper for the plain core tests (no pytest: they also run under MicroPython)."""


def expecting(default):
    """raises(fn, *args, err=default, **kw): True when the call raises err, else False."""

    def raises(fn, *args, **kw):
        err = kw.pop("err", default)
        try:
            fn(*args, **kw)
        except err:
            return True
        return False

    return raises
