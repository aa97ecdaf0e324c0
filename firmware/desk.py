"""The virtual board: the real firmware app with fake drivers, the protocol on stdin/stdout.

usage: python3 firmware/desk.py [--store DIR] [--config FILE] [--driven]
       micropython firmware/desk.py ...    (same; or `micropython -m desk` in a build)

--store DIR    keep the state files and layout.cache in DIR (made if missing); without it,
               the state is in memory and config.json is validated at every start
--config FILE  the layout (default: config.json beside this file, else the built-in one)
--driven       time moves only with `tick ms=N` (tests); otherwise the real clock runs
The desktop-only verbs `btn b=lane0 on=1|0` and `tick ms=N` stand in for buttons and time.
Exit status: 0 when stdin ends, 2 for bad arguments.
"""

import gc
import sys

if hasattr(gc, "threshold"):
    # MicroPython: collect after every KB allocated, so garbage never spreads over the
    # whole heap and long-lived objects stay packed (a much smaller heap suffices).
    gc.threshold(1024)

try:
    from time import ticks_ms
except ImportError:  # CPython: a millisecond clock that wraps like the Pico's ticks_ms
    import time

    def ticks_ms():
        return (time.monotonic_ns() // 1000000) & ((1 << 30) - 1)

from pegboard import drop, ticks
from pegboard.store import Store

USAGE = "usage: desk.py [--store DIR] [--config FILE] [--driven]"
FRAME_MS = 10  # the loop waits for input at most this long a step; `tick` moves in frames


def virtual(readers, pressed):
    """The button readers, each also down while `btn` holds it in the dict pressed."""
    return dict([(k, _held(pressed, k, fn)) for k, fn in readers.items()])


def _held(pressed, name, fn):
    return lambda: pressed.get(name, False) or fn()


def register(app, pressed, driven=False):
    """Give an App (over virtual() readers) the desktop runner's own verbs: `btn` presses
    a button, `tick` drives the clock; with driven, time moves only by `tick`. The Pico's
    app has neither (it answers them desk_only), nor these fields."""
    app.desk = 1
    app.driven = driven
    app.pressed = pressed
    app.VERBS = dict(app.VERBS)
    app.VERBS["btn"] = _btn
    app.VERBS["tick"] = _tick
    step = app.step
    app.step = lambda now_ms: step(app.now if app.driven else now_ms)


def _btn(app, args):
    from cribcore.protocol import ProtocolError  # imported by then (the app's)

    if args["b"] not in app.pressed:
        names = tuple(app.pressed)
        raise ProtocolError(f"no button {args['b']!r}; buttons: {names!r}", "bad_arg")
    app.pressed[args["b"]] = args["on"] == 1
    return {}


def _tick(app, args):
    app.driven = True
    left = args["ms"]
    while left > 0:
        dt = min(FRAME_MS, left)
        app.now = ticks.later(app.now, dt)
        left -= dt
        app._work(app.now)
    return {"now": app.now}


class Strip:
    """Stands in for the WS2812 chain. The renderer keeps the frame it sent (`leds` reads
    it there), so this only counts what reaches the strip."""

    def __init__(self, n):
        self.n = n
        self.sets = 0
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        self.sets += 1

    def write(self):
        self.writes += 1


class MemoryFiles:
    """A filesystem in a dict, for a runner without --store."""

    def __init__(self):
        self.files = {}

    def read(self, name):
        return self.files.get(name)

    def write(self, name, chunks):
        self.files[name] = "".join(chunks).encode()

    def mkdir(self, name):
        pass  # a dict: no directories


def parse_args(argv):
    """{"store": DIR or None, "config": FILE or None, "driven": bool}; ValueError if bad."""
    opts = {"store": None, "config": None, "driven": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--driven":
            opts["driven"] = True
        elif a in ("--store", "--config") and i + 1 < len(argv):
            i += 1
            opts[a[2:]] = argv[i]
        else:
            raise ValueError(f"bad argument {a!r}")
        i += 1
    return opts


def read_text(path):
    """A file's text, or None when it cannot be read."""
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def build(opts, port):
    """The app over fake drivers, as the options say."""
    from pegboard.layout import boot_layout, layout

    root = (__file__.rpartition("/")[0] or ".") + "/"
    path = opts["config"] or root + "config.json"
    if opts["store"] is None:
        store = Store("state", MemoryFiles())
        config, problem = layout(read_text(path))
    else:
        try:
            import os

            os.mkdir(opts["store"])
        except OSError:
            pass  # it exists (or cannot be made: the first save will say so)
        store = Store(opts["store"] + "/state")
        # As on the Pico: the layout validated once, then read from the cache beside the
        # state (validating imports pegboard.config, whose names stay interned in the heap).
        config, problem = boot_layout(root, path, opts["store"] + "/layout.cache")
    del boot_layout, layout
    drop("pegboard.layout")  # as on the Pico: the layout is read, its code leaves the heap
    if problem and opts["config"] is None and read_text(path) is None:
        problem = None  # no layout beside this file: the built-in one is what was asked for
    readers = {"undo": _up, "confirm": _up}
    for i in range(len(config.lanes)):
        readers[f"lane{i}"] = _up
    from pegboard.restore import load

    saved = load(store, config)
    del load
    drop("pegboard.restore")
    # The saved state first, as on the Pico (pegboard.pico.first_frame): the boot's reading
    # code leaves the heap before the app's is imported.
    from pegboard.app import App

    pressed = dict([(k, False) for k in readers])
    app = App(config, Strip(config.leds), virtual(readers, pressed), store, port, saved)
    register(app, pressed, opts["driven"])
    if problem:
        app.bad_config(problem)
    return app


def _up():
    return False


def run(app, port):
    """Step the app until stdin ends and every line it got has been answered."""
    while not port.closed or app.queue:
        if not app.queue:
            # Wait for input: for ever with a driven clock, a frame with a real one.
            port.ready(-1 if app.driven else FRAME_MS)
        app.step(ticks_ms())


def main(argv):
    """Run the virtual board; return the exit status."""
    try:
        opts = parse_args(argv)
    except ValueError as e:
        sys.stderr.write(f"desk.py: {e}\n{USAGE}\n")
        return 2
    from pegboard.stdio import StdioPort

    port = StdioPort()
    run(build(opts, port), port)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
