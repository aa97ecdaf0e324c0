"""cribcore: the pure cribbage core shared by the board firmware and the companion.

Runs unchanged on CPython and MicroPython: no I/O, no clock, no hardware.
The core's error base lives here, not in a module of its own: every module that
raises it is imported at the Pico's boot, and each module costs the boot about 10 ms.
"""

VERSION = "0.1.0"


class CoreError(ValueError):
    """Bad input to the core: a wrong card, an illegal play, a malformed line (misuse of
    the core raises a subclass of it)."""
