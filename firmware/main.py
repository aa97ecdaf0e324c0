"""Pico boot: the board app for ever (pegboard.pico: the drivers from config.json, the loop).

Kept to a line: MicroPython compiles main.py from source at every boot (the whole loop
here cost about 50 ms of the time to the first frame), while pegboard.pico is compiled
ahead, by `crib deploy`, like the rest of the firmware.
"""

from pegboard.pico import main

main()
