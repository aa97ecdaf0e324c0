"""Pico boot: the board app for ever (pegboard.pico: the drivers from config.json, the loop),
and on a board with Wi-Fi its web server (boardweb), which this wires to pegboard.

Kept short: MicroPython compiles main.py from source at every boot (the whole loop here
cost about 50 ms of the time to the first frame), while the rest is compiled ahead, by
`crib deploy`. fastboot first: it makes every import after it faster (fastboot.py).
"""

import fastboot

fastboot.setup()

from pegboard.pico import main  # noqa: E402 - after the set-up, which speeds it up


def web():
    """The board's web server's entry (boardweb.serve), or None when it is not on the flash.
    Wired here: pegboard knows nothing of boardweb, which imports pegboard."""
    try:
        from boardweb import serve
    except ImportError:
        return None
    return serve


main(fastboot.done, web=web)
