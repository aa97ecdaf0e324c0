"""The core's error base: misuse of the core raises a subclass of CoreError (a ValueError)."""


class CoreError(ValueError):
    """Bad input to the core: a wrong card, an illegal play, a malformed line."""
