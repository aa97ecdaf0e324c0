"""pegboard: the board firmware app (app, render, buttons, store, drivers); see docs/firmware.md.

Nothing here touches hardware at import: firmware/main.py builds the drivers.
"""
