"""The desk runner with `state` telling its live heap (`free=`: gc.mem_alloc() after a
collection; the Pico's app reports its free heap there): for measuring, under MicroPython.

usage: micropython deskheap.py BUILD_DIR desk-arguments...
"""

import gc
import sys

sys.path.insert(0, sys.argv[1])
import desk  # noqa: E402

_build = desk.build


def _live():
    gc.collect()
    return gc.mem_alloc()


def build(opts, port):
    app = _build(opts, port)
    app.free = _live
    return app


desk.build = build
sys.exit(desk.main(sys.argv[2:]))
