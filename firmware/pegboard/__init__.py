"""pegboard: the board firmware app (app, render, buttons, store, drivers); see docs/firmware.md.

Nothing here touches hardware at import: firmware/main.py builds the drivers.
"""


def drop(name):
    """Under MicroPython, forget a module needed only at boot (`pegboard.restore` say): with
    nothing else holding it, its code leaves the heap. (CPython keeps it: tests hold it.)"""
    import sys

    if sys.implementation.name == "micropython" and name in sys.modules:
        del sys.modules[name]
        package, _, module = name.rpartition(".")
        delattr(sys.modules[package], module)
