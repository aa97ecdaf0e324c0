"""Loop speed of the board app under MicroPython, and what a peg move writes to the strip.

python bench/firmware.py   builds the .mpy firmware, then runs this file under the unix
MicroPython, which prints: the time of one App.step when idle and while a jump animates,
the step that handles a `peg` command (parse, apply, save, reply), and the pixels set on
the strip per peg move (against the length of the strip: a move must not redraw it).
A desktop is faster than a Pico (125 MHz): read the figures relative to each other.
"""

import sys

STEPS = 2000


def measure(build_dir):
    """Runs under MicroPython, with the .mpy build first on sys.path."""
    import time

    sys.path.insert(0, build_dir)
    from desk import MemoryFiles

    from pegboard.app import App, layout
    from pegboard.store import Store

    class Strip:
        def __init__(self, n):
            self.n = n
            self.sets = 0
            self.touched = {}

        def __len__(self):
            return self.n

        def __setitem__(self, i, rgb):
            self.sets += 1
            self.touched[i] = 1

        def write(self):
            pass

    class Port:
        def __init__(self):
            self.inbox = b""

        def read(self):
            data, self.inbox = self.inbox, b""
            return data

        def write(self, data):
            pass

    with open(build_dir + "/config.json") as f:
        config, _ = layout(f.read())
    strip = Strip(config.leds)
    port = Port()
    readers = {"undo": lambda: False, "confirm": lambda: False}
    for i in range(len(config.lanes)):
        readers["lane%d" % i] = lambda: False
    app = App(config, strip, readers, Store("state", MemoryFiles()), port)
    now = 0
    for _ in range(200):  # boot frame, settle
        app.step(now)
        now += 10

    def steps(n):
        nonlocal now
        t0 = time.ticks_us()
        for _ in range(n):
            app.step(now)
            now += 10
        return time.ticks_diff(time.ticks_us(), t0) / n

    idle = steps(STEPS)
    print("idle step:           %7.1f us" % idle)
    moves = []
    cmd_us = []
    anim_us = []
    for lane, n in ((0, 12), (1, 29), (2, 5), (0, 3), (1, 17)):
        strip.sets = 0
        strip.touched = {}
        start = app.board.back(lane)
        port.inbox = b"peg p=%d n=%d\n" % (lane, n)
        cmd_us.append(steps(1))
        count = 0
        t0 = time.ticks_us()
        while app.renderer.animating(now):
            app.step(now)
            now += 10
            count += 1
        anim_us.append(time.ticks_diff(time.ticks_us(), t0) / max(count, 1))
        steps(30)  # the frame after the jump lands
        moves.append((n, app.board.front(lane) - start, strip.sets, len(strip.touched), count))
    print("peg command step:    %7.1f us (parse, apply, save in RAM, reply, frame)"
          % (sum(cmd_us) / len(cmd_us)))
    print("animating step:      %7.1f us" % (sum(anim_us) / len(anim_us)))
    print("pixels per peg move (strip of %d LEDs):" % config.leds)
    for n, travel, sets, touched, frames in moves:
        print("  peg of %2d (back peg travels %2d holes): %3d pixels set, %2d distinct LEDs, "
              "%2d frames" % (n, travel, sets, touched, frames))
    idle_sets = strip.sets
    steps(STEPS)
    print("pixels set while idle for %d steps: %d" % (STEPS, strip.sets - idle_sets))


def main():
    """Build the .mpy firmware and run the measurement under MicroPython."""
    import subprocess
    import tempfile
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    sys.path[:0] = [str(root / "tests"), str(root / "host")]
    from support import micropython_path

    from crib.deploy import build

    with tempfile.TemporaryDirectory() as out:
        build.build(out)
        code = "import sys; sys.path.insert(0, %r); import firmware as b; b.measure(%r)" % (
            str(Path(__file__).parent), out)
        proc = subprocess.run([micropython_path(), "-X", "heapsize=256K", "-c", code],
                              capture_output=True, text=True, timeout=300)
    print(proc.stdout, end="")
    if proc.returncode:
        print(proc.stderr, end="")
    return proc.returncode


if __name__ == "__main__" and sys.implementation.name != "micropython":
    sys.exit(main())
