"""The firmware's speed and flash wear on the emulated Pico (tests/pico/: rp2040js with a
flash model, booting MicroPython's rp2 UF2 with our deploy build).

python bench/pico.py [--uf2 PATH]   prints, in emulated milliseconds (see
../shared/pico/README.md: no XIP cache misses, an instantaneous flash, so indicative):
- reset to `evt boot` and to the first LED frame, on fresh flash and with a saved game
  (a game under way, its undo history full);
- command to reply of a `peg` (and of a `hello`, which changes nothing);
- per saved change in a burst of pegs: time, page programs, sector erases;
- animation frame rate: frames a second on the strip while a jump and a win animate,
  beside the rate the animation itself changes at (a short jump moves a hole every
  HOLE_MS, so it cannot show more frames than that; a long one is capped at JUMP_MS);
- the heap the running app leaves free (`state`'s free=: gc.mem_free() after a collection,
  inside the app): idle after boot, after the burst, during a win's animation;
- where the boot on the saved game goes: the same flash booted with PHASES as main.py,
  which imports the boot's modules one by one and notes the time after each and after
  each step of pegboard.pico's boot (its longer source starts them about 30 ms later).
"""

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "pico"))

from picorig import WALL_TIMEOUT, Pico, deploy_files, fs_image, write_fs  # noqa: E402

from cribcore.protocol import decode  # noqa: E402
from pegboard.render import HOLE_MS, JUMP_MS  # noqa: E402

BURST = 300  # enough for every slot's log to fill and be compacted (an erase) twice
SINGLE = 8
FULL = 70  # pegs of the saved game booted from: more than its 64-jump undo history
LONG = 5 * WALL_TIMEOUT  # s of wall time for a burst (PICO_WALL_TIMEOUT on a loaded machine)


# main.py for the phases: the real boot (pegboard.pico.main), its steps wrapped to note the
# time (a step's mark is its end), the modules its first frame needs imported first.
PHASES = """
import time
T = [("reset to main.py", time.ticks_us())]


def mark(what):
    T.append((what, time.ticks_us()))


def timed(owner, name, what):
    run = getattr(owner, name)
    first = [True]

    def step(*args, **kwargs):
        got = run(*args, **kwargs)
        if first[0]:  # the first call only (draw runs every step)
            first[0] = False
            mark(what)
        return got

    setattr(owner, name, step)


import fastboot

fastboot.setup()
mark("fastboot.setup()")
for name in ("pegboard.pico", "pegboard.layout", "pegboard.render", "pegboard.restore",
             "pegboard.store", "pegboard.storeboot", "cribcore.boardread"):
    __import__(name)
    mark("import " + name)
import sys

pico = sys.modules["pegboard.pico"]
timed(sys.modules["pegboard.layout"], "boot_layout", "the layout from layout.cache")
timed(pico, "WS2812", "the WS2812 driver")
timed(sys.modules["pegboard.store"].Store, "load", "the nine slots read")
timed(sys.modules["pegboard.restore"], "restore", "the board, settings and ids restored")
timed(sys.modules["pegboard.render"].Renderer, "__init__", "the renderer built")
timed(sys.modules["pegboard.render"].Renderer, "draw", "the first frame drawn and sent")


def running():
    mark("the app built (evt boot next)")
    fastboot.done()
    for i in range(len(T)):
        print("phase %7.1f %s" % ((T[i][1] - (T[i - 1][1] if i else 0)) / 1000, T[i][0]))


pico.main(running)
"""


def flash_cost(before, after):
    return {k: after[k] - before[k] for k in before}


def boot_times(pico):
    """(ms to evt boot, ms to the first frame's first bit) from reset."""
    boot = pico.booted()
    pico.wait(lambda: pico.frames, what="the first frame")
    return boot.t / 1e6, pico.frames[0]["t"] / 1e6


def frame_rate(pico, line, window_ms):
    """Frames a second on the strip in the window_ms after a command (the median gap)."""
    start = len(pico.frames)
    t0 = pico.send(line + "\n")
    pico.sleep(window_ms, since=t0)
    starts = [f["t"] for f in pico.frames[start:] if f["t"] < t0 + window_ms * 1e6]
    if len(starts) < 2:
        return 0.0, len(starts)
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    return 1e9 / statistics.median(gaps), len(starts)


def free(pico):
    """The running app's free heap, in bytes (its `state` reply)."""
    return decode(pico.ask("state")).args["free"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uf2", help="a MicroPython RPI_PICO UF2 (default: ../shared/pico)")
    args = parser.parse_args(argv)
    if args.uf2:
        os.environ["PICO_UF2"] = args.uf2
    image = fs_image(deploy_files())
    with Pico(fs=image) as p:
        boot_ms, frame_ms = boot_times(p)
        print("reset to evt boot (fresh flash)     %7.1f ms" % boot_ms)
        print("reset to first frame (fresh flash)  %7.1f ms" % frame_ms)
        p.sleep(300)
        heap = [("idle after boot", free(p))]
        hello = [p.request("hello")[1] for _ in range(SINGLE)]
        pegs = []
        for i in range(SINGLE):
            pegs.append(p.request("peg p=%d n=1 id=b%d" % (i % 3, i))[1])
            p.sleep(50)
        print("command to reply: hello             %7.1f ms (median of %d)"
              % (statistics.median(hello), SINGLE))
        print("command to reply: peg               %7.1f ms (median of %d; min %.1f, max %.1f)"
              % (statistics.median(pegs), SINGLE, min(pegs), max(pegs)))
        before = p.stats()["flash"]
        start = len(p.lines)
        # ids shaped like the companion's (crib.board.ids: a random prefix, a counter)
        t0 = p.send("".join("peg p=%d n=1 id=5e3a1c-%d\n" % (i % 3, i) for i in range(BURST)))
        p.wait(lambda: sum(1 for ln in p.lines[start:] if ln.text.startswith("ok")) >= BURST,
               timeout=LONG, what="the burst's replies")
        last = [ln for ln in p.lines[start:] if ln.text.startswith("ok")][BURST - 1]
        cost = flash_cost(before, p.stats()["flash"])
        print("burst of %d pegs, per saved change:  %7.1f ms, %.2f page programs, "
              "%.3f sector erases (%d of 4K, %d of 32K, %d of 64K in all)"
              % (BURST, (last.t - t0) / 1e6 / BURST, cost["programs"] / BURST,
                 cost["erase4k"] / BURST, cost["erase4k"], cost["erase32k"],
                 cost["erase64k"]))
        heap.append(("after the burst of %d pegs" % BURST, free(p)))
        p.ask("new players=3 target=121")  # the burst took the pegs near the end
        p.sleep(500)
        fps, n = frame_rate(p, "peg p=0 n=12", 400)
        print("animation: a jump (12 holes)        %7.1f frames/s (%d frames in 400 ms; "
              "it moves a hole every %d ms: %.1f/s)" % (fps, n, HOLE_MS, 1000 / HOLE_MS))
        p.sleep(500)
        fps, n = frame_rate(p, "peg p=1 n=40", 800)
        print("animation: a long jump (40 holes)   %7.1f frames/s (%d frames in 800 ms; "
              "40 holes in %d ms: %.1f/s)" % (fps, n, JUMP_MS, 40000 / JUMP_MS))
        p.ask("new players=2 target=61")
        p.ask("peg p=0 n=40")
        p.sleep(500)
        fps, n = frame_rate(p, "peg p=0 n=30", 1000)
        print("animation: a win                    %7.1f frames/s (%d frames in 1 s)"
              % (fps, n))
        p.ask("undo")
        p.sleep(300)
        p.send("peg p=0 n=30\n")
        p.sleep(200)  # the win animates for longer than this
        heap.append(("during a win's animation", free(p)))
        for what, n in heap:
            print("heap free in the running app, %-26s %7d bytes" % (what + ":", n))
        # The saved game the next boot reads: a game under way, its undo history full.
        p.ask("new players=3 target=121")
        start = len(p.lines)
        p.send("".join("peg p=%d n=1 id=g%d\n" % (i % 3, i) for i in range(FULL)))
        p.wait(lambda: sum(1 for ln in p.lines[start:] if ln.text.startswith("ok")) >= FULL,
               timeout=LONG, what="the game's replies")
        flash = p.dump()
    with Pico(flash=flash) as p:
        boot_ms, frame_ms = boot_times(p)
        print("reset to evt boot (saved game)      %7.1f ms" % boot_ms)
        print("reset to first frame (saved game)   %7.1f ms" % frame_ms)
    with Pico(flash=write_fs(flash, {"main.py": PHASES.encode()})) as p:
        p.booted()
        p.wait(lambda: p.frames, what="the first frame")
        p.wait_line(lambda text: text.startswith("phase") and "app built" in text,
                    what="the boot's phases")
        print("where the boot on the saved game goes (emulated ms; an instrumented main.py):")
        for ln in p.lines:
            if ln.text.startswith("phase "):
                print("  %s" % ln.text[6:])
        print("  (its first frame at %.1f ms)" % (p.frames[0]["t"] / 1e6))


if __name__ == "__main__":
    main()
