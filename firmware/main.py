"""Pico boot: the board app for ever (pegboard.pico: the drivers from config.json, the loop).

Kept short: MicroPython compiles main.py from source at every boot (the whole loop here
cost about 50 ms of the time to the first frame), while the rest is compiled ahead, by
`crib deploy`. fastboot first: it makes every import after it faster (fastboot.py).
"""

import fastboot

fastboot.setup()

from pegboard.pico import main  # noqa: E402 - after the set-up, which speeds it up

main(fastboot.done)
