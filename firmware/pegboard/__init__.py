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


class Copy:
    """A plain copy of another object's attributes (or of a dict's items): the layout the
    app runs on (pegboard.layout makes it). Here, not there: an instance keeps its class's
    module alive, and pegboard.layout is dropped once the boot has the layout."""

    def __init__(self, obj):
        items = obj if type(obj) is dict else obj.__dict__
        for name in items:
            setattr(self, name, items[name])
