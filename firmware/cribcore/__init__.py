"""cribcore: the pure cribbage core shared by the board firmware and the companion.

Runs unchanged on CPython and MicroPython: no I/O, no clock, no hardware.
"""

VERSION = "0.1.0"
