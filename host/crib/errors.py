"""Errors the companion reports to the user as `crib: error: ...` (no traceback)."""


class CribError(Exception):
    """A failure the user can act on: no board found, a timeout, a bad argument."""
