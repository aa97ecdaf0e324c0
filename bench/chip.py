"""The whole table on the emulated RP2040 (tests/pico's rp2040js, 125 MHz): a 2-player game
to 121, game after game, through the board's server as a Pico W runs it
(tests/pico/chipgame.py: the App on the real PIO and flash, the engine, the room, the
record on LittleFS, the request path (boardweb.quick for the posts), 4 phones' event
streams; only the radio and the sockets are stand-ins). Prints, per answer, the emulated
ms of each part (engine, board, flash, request, state, streams, frames, gc, after:
chipgame's docstring says what each holds), then

    answer to 4 phones: p50 X ms, p99 Y ms       (emulated, collections included)
    heap peak: N of M bytes (P%)                 (M: the RPI_PICO_W image's GC heap)
    allocated per answer: N bytes
    and the live heap at each game's first question, and over all the answers whether
    it grows from game 2 on (the 1,000-answer check: the default --answers)
    C stack: at most N of its M bytes used          (our images: the stack painted first)

    python bench/chip.py [--answers 1000] [--target 121] [--stock | --plain] [--quiet]
    python bench/chip.py --census [--target 61]   # the live heap's census instead

--census: what is live at game 1's and game 2's first question, part by part (two runs,
each ended by its census: tests/pico/chipcensus.py says how each figure is taken).

By default on the bench's copy of our image (firmware/image/build.py RPI_PICO: our code
frozen into it, and the bench's own scripts (chipgame, tablegame's players, the census)
frozen as well: a board carries none of them, and as .mpy files on the flash they took
10.4 KB of the heap the figures are of; built or taken from its cache); --plain on our image as
a board gets it, the scripts as .mpy files on the flash; --stock on the stock
MicroPython UF2 (../shared/pico/) with our code as .mpy files on the flash (crib
deploy's build for a board with Wi-Fi), the "before" figures. M is read from the
RPI_PICO_W image's link map (__GcHeapEnd - __GcHeapStart): that image cannot boot on the
emulator, which has no CYW43 radio (docs/image.md). Slow: the emulator runs about 7
times slower than a Pico, slower on a loaded machine.
"""

import argparse
import importlib.util
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "pico"))

from chiprun import SCRIPTS, chip_run  # noqa: E402
from picorig import uf2_path  # noqa: E402

GROWTH = 4096  # bytes above game 2's start that count as growth (a collection's slack)
SHOWN = ("engine", "board", "flash", "request", "state", "streams", "frames", "gc",
         "after")
LATER = ("after",)  # the work after the reply and the screens: not in the answer's time


def image_module():
    spec = importlib.util.spec_from_file_location(
        "image_build", os.path.join(ROOT, "firmware", "image", "build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * q))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--answers", type=int, default=1000)
    ap.add_argument("--target", type=int, default=121)
    ap.add_argument("--stock", action="store_true", help="the stock UF2, our code in RAM")
    ap.add_argument("--plain", action="store_true",
                    help="our image as a board gets it, the bench's scripts in RAM")
    ap.add_argument("--quiet", action="store_true", help="no line per answer")
    ap.add_argument("--census", action="store_true",
                    help="the live heap's census at games 1 and 2's first question")
    ap.add_argument("--undos", type=int, default=0,
                    help="then that many undos, one after another (a player's taps late in"
                    " the game): each one's time to 4 phones")
    ap.add_argument("--minutes", type=float, default=600,
                    help="wall time allowed; then the figures of the answers so far")
    args = ap.parse_args(argv)
    image = image_module()
    say = (lambda line: None) if args.quiet else print
    if args.stock:
        uf2, what = uf2_path(), "the stock MicroPython 1.28 RPI_PICO UF2, our code as .mpy"
    elif args.plain:
        folder = image.image("RPI_PICO", out=say)
        uf2, what = (folder / "firmware.uf2", "our image (%s), our code frozen, the bench's"
                     " scripts as .mpy in RAM" % folder.name)
    else:
        folder = image.image("RPI_PICO", out=say, extra=SCRIPTS)
        uf2, what = (folder / "firmware.uf2", "the bench's copy of our image (%s): our code"
                     " and the bench's scripts frozen" % folder.name)
    frozen = not (args.stock or args.plain)
    if args.census:
        runs = [chip_run(uf2, stock=args.stock, games=3, target=args.target, answers=4000,
                         timeout=args.minutes * 60, census=g, frozen=frozen) for g in (1, 2)]
        census(runs, what, args)
        return 0 if all(r.census for r in runs) else 1
    t0 = time.monotonic()
    run = chip_run(uf2, stock=args.stock, games=args.answers, target=args.target,
                   answers=args.answers, timeout=args.minutes * 60, partial=True,
                   frozen=frozen, undos=args.undos,
                   progress=lambda n, line: print("  ... %d answers: %s" % (n, line[:60]),
                                                  file=sys.stderr, flush=True))
    took = time.monotonic() - t0
    heap_w = pico_w_heap(image, say)
    report(run, args, what, heap_w, took, say)
    return 0 if run.end is not None or run.stopped else 1


def pico_w_heap(image, say):
    """The RPI_PICO_W image's GC heap from its link map: the image of this tree's code if
    cached, else any cached RPI_PICO_W image built by the same script from the same sources
    (its ram_key: the heap is the RAM the port's link leaves, the same whatever code is
    frozen into flash: RPI_PICO's is 243,496 bytes both with our code and without,
    docs/image.md), else built (after the run: it takes minutes)."""
    root = image.cache_root()
    folders = sorted(root.glob("RPI_PICO_W-*/image.json"), key=lambda p: p.stat().st_mtime)
    k = image.key("RPI_PICO_W", image.SOURCE)[:16]
    ram = image.ram_key("RPI_PICO_W", image.SOURCE)
    mine = [p for p in folders if p.parent.name.endswith(k)]
    alike = [p for p in folders if json.loads(p.read_text()).get("ram_key") == ram]
    if mine or alike:
        found = (mine or alike)[-1]
        say("RPI_PICO_W's GC heap from %s%s" % (found.parent.name,
                                                  "" if mine else " (another tree's image)"))
    else:
        found = image.image("RPI_PICO_W", out=say) / "image.json"
    return json.loads(found.read_text())["gc_heap"]


def report(run, args, what, heap_w, took, say):
    print("bench/chip.py: %s; 2 players to %d, 4 phones; %d answers, %.0f s of wall time"
          % (what, args.target, len(run.answers), took))
    if run.answers:
        say("  %4s " % "n" + " ".join("%8s" % p for p in SHOWN) + " %8s %8s"
            % ("total", "alloc"))
        for i, a in enumerate(run.answers):
            say("  %4d " % i + " ".join("%8.1f" % (a.get(p, 0) / 1000) for p in SHOWN)
                + " %8.1f %8s" % (a["total"] / 1000, "auto-gc" if a["auto"] else a["alloc"]))
    if run.stopped:
        print("  stopped by the time limit (--minutes) after %d answers: the figures are"
              " of those" % len(run.answers))
    if run.end is None and not run.answers:
        print("  no answer was acknowledged; the board said:")
        tail = [ln for ln in run.text.splitlines() if not ln.startswith(("A ", "R "))]
        print("\n".join("    " + ln for ln in tail[-25:]))
        return
    if run.end is None and not run.stopped:
        print("  the run failed on the chip; the board said last:")
        tail = [ln for ln in run.text.splitlines() if not ln.startswith(("A ", "R "))]
        print("\n".join("    " + ln for ln in tail[-12:]))
    totals = [a["total"] / 1000 for a in run.answers]
    print("answer to 4 phones: p50 %.0f ms, p99 %.0f ms (max %.0f; emulated, collections"
          " included)" % (pct(totals, 0.5), pct(totals, 0.99), max(totals)))
    n = len(run.answers)
    for p in SHOWN:
        values = [a.get(p, 0) / 1000 for a in run.answers]
        share = "after the screens: not in the answer's time" if p in LATER else \
            "%4.1f%% of the time" % (100 * sum(values) / max(1e-9, sum(totals)))
        print("  %-8s mean %6.1f ms, p50 %6.1f, p99 %6.1f, %s"
              % (p, sum(values) / n, pct(values, 0.5), pct(values, 0.99), share))
    print("  collections run before an answer: %d; automatic ones within an answer: %d;"
          " event streams the server ended (opened again): %d"
          % (sum(1 for a in run.answers if a["gc"] > 1000),
             sum(a["auto"] for a in run.answers), run.reopened))
    peak = max([m["live"] for m in run.marks] + ([run.end["peak"]] if run.end else []))
    print("heap peak: %d of %d bytes (%d%%) (N: the live heap before an answer and all it"
          " allocated, every 10th answer; M: the RPI_PICO_W image's GC heap from its link"
          " map; the emulated RPI_PICO's heap is %d)" % (
              peak, heap_w, round(100 * peak / heap_w),
              run.marks[0]["live"] + run.marks[0]["free"] if run.marks else 0))
    allocs = [a["alloc"] for a in run.answers if not a["auto"]]
    if allocs:
        print("allocated per answer: %d bytes (mean of %d answers with no collection"
              " within; p50 %d, max %d)" % (sum(allocs) // len(allocs), len(allocs),
                                            pct(allocs, 0.5), max(allocs)))
    firsts = [m for m in run.marks if m["at"] == "first"]
    print("live heap at each game's first question:")
    for m in firsts:
        print("  game %2d after %4d answers: %6d bytes live, %6d free"
              % (m["game"] + 1, m["answers"], m["live"], m["free"]))
    ends = [m for m in run.marks if m["at"] == "another"]
    if ends:  # what a game holds at its end: the growth from its first question
        print("live heap at each game's end (its question \"Another game\"):")
        for m in ends:
            first = [f for f in firsts if f["game"] == m["game"]]
            print("  game %2d after %4d answers: %6d bytes live (%+d since its first"
                  " question)" % (m["game"] + 1, m["answers"], m["live"],
                                  m["live"] - first[0]["live"] if first else 0))
    if run.stack is not None:
        st = run.stack
        print("C stack: at most %d of its %d bytes used (%d%%; the stack painted before"
              " the game, the words no longer paint counted after it)"
              % (st["deepest"], st["size"], round(100 * st["deepest"] / st["size"])))
    for i, u in enumerate(run.undos):
        print("undo %d after the answers: %.0f ms to 4 phones (emulated, from the request to"
              " the last phone having the state; a collection just before it): engine %.0f,"
              " flash %.0f, state %.0f, board %.0f; the heap %s after it (collections within"
              " it included)" % (i + 1, u["total"] / 1000, u["engine"] / 1000,
                                 u["flash"] / 1000, u["state"] / 1000, u["board"] / 1000,
                                 "%+d bytes" % u["alloc"] if u["alloc"] >= 0 else "smaller"))
    if run.end is not None:
        print("the end: %d answers, %d games finished, scores %s"
              % (run.end["answers"], run.end["games"], run.end["scores"]))
    print(growth(firsts, len(run.answers)))


SMALL = 512  # a drop that frees less is summed with its object's others


def census(runs, what, args):
    """The census's table (--census): games 1 and 2 side by side."""
    print("bench/chip.py --census: %s; 2 players to %d; the live heap (bytes) at each"
          " game's first question, part by part (tests/pico/chipcensus.py)"
          % (what, args.target))
    rows = {}  # label -> [game 1's, game 2's]
    order = []
    later = set()  # modules imported after the census's imports

    def add(label, i, count):
        if label not in rows:
            rows[label] = [0, 0]
            order.append(label)
        rows[label][i] += count

    for i, run in enumerate(runs):
        if not run.census:
            print("  game %d: no census; the board said last:" % (i + 1))
            print("\n".join("    " + ln for ln in run.text.splitlines()[-12:]))
            continue
        for c in run.census:
            kind, name, count = c["kind"], c["what"], c["bytes"]
            if kind == "import":
                add("import %s" % package(name), i, count)
            elif kind == "drop":
                top = name.split(".")[0]
                small = abs(count) < SMALL and not name.startswith("between")
                add("%s: other attributes" % top if small else name, i, count)
            elif kind == "left":
                add("left when all the above is let go (modules, tasks, chipgame's)", i,
                    count)
                later.update(c.get("with") or ())
            elif kind == "step":
                add(name, i, count)
            elif kind == "game":
                add("= live at the first question; then let go, attribute by attribute:",
                    i, count)
    print("  %-78s %9s %9s" % ("part", "game 1", "game 2"))
    for label in order:
        a, b = rows[label]
        print("  %-78s %9d %9d" % (label[:78], a, b))
    print("  modules imported after the server was built: %s"
          % (", ".join(sorted(later)) or "none"))


def package(name):
    """A module's package for the census (cribcore.table apart from cribcore)."""
    parts = name.split(".")
    return ".".join(parts[:2]) if parts[:2] == ["cribcore", "table"] else parts[0]


def growth(firsts, answers):
    """The 1,000-answer check (issue 39.4): the live heap at each game's first question,
    from game 2 on (game 1 starts lower: the engine makes some of what it keeps at first
    use, docs/boardweb-server.md), over the answers run: its spread and whether it grows
    (more than GROWTH bytes above game 2's at any later game)."""
    later = [m["live"] for m in firsts[1:]]
    if len(later) < 2:
        return ("heap at each game's start over %d answers: %d game(s) started, too few to"
                " say (run more answers: --answers 1000)" % (answers, len(firsts)))
    rise = max(later) - later[0]
    return ("heap at each game's start over %d answers (games 2-%d): %d to %d bytes live,"
            " last - game 2: %+d; %s" % (
                answers, len(firsts), min(later), max(later), later[-1] - later[0],
                "no growth (never %d bytes above game 2's)" % GROWTH if rise <= GROWTH else
                "GROWS: %d bytes above game 2's at its highest" % rise))


if __name__ == "__main__":
    sys.exit(main())
