"""The smallest MicroPython heap the desk runner plays a whole scripted game in.

python bench/heap.py     prints, for the .mpy build (what goes on the Pico) and for .py
source, the smallest `-X heapsize` (bisection, 1K steps) at which the unix MicroPython
boots on a saved game with a full undo history (tests/firmware/deskgame.saved_game: a
restart reads it back) and runs the scripted 3-lane 121 game of tests/firmware/deskgame.py,
answering every line exactly as CPython does. The unix port's objects are larger than
the Pico's (64-bit), so these figures overstate what the Pico (about 190K free) needs.
Then the same for the table engine (cribcore.table, which a plain Pico's build leaves
off): the smallest heap its scripted games of every kind finish in, and their live peak;
and its live peak on the real rp2 port (the emulated Pico, tests/pico/enginegame.py: a
scripted 2-player game by cards from the .mpy build, over the REPL), beside the free heap
the board's app leaves (python bench/pico.py prints that one).

    python bench/heap.py [--pico]     --pico: only the emulated Pico's figure
"""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "firmware")]

from deskgame import saved_game, script  # noqa: E402
from support import FIRMWARE, micropython_path  # noqa: E402

from crib.deploy import build  # noqa: E402


def reference(saved, stdin):
    """The CPython desk runner's answers to the script, from the saved game."""
    with tempfile.TemporaryDirectory() as tmp:
        store = shutil.copytree(saved, Path(tmp) / "s")
        return subprocess.run([sys.executable, str(FIRMWARE / "desk.py"), "--driven",
                               "--store", str(store)], input=stdin, capture_output=True,
                              text=True, timeout=120).stdout


def save_game(cwd, args, into):
    """The saved game the runs boot on, played into the store `into` by the same code in
    a roomy heap: its layout.cache matches that code, as on a board that booted before."""
    subprocess.run([micropython_path(), "-X", "heapsize=512K"] + args
                   + ["--driven", "--store", str(into)], input="\n".join(saved_game()) + "\n",
                   cwd=str(cwd), capture_output=True, text=True, timeout=120, check=True)
    return into


def plays(kib, cwd, args, stdin, want, saved):
    """True when MicroPython with a kib-KiB heap gives exactly the reference answers."""
    with tempfile.TemporaryDirectory() as tmp:
        store = str(shutil.copytree(saved, Path(tmp) / "s"))
        try:
            proc = subprocess.run([micropython_path(), "-X", "heapsize=%dK" % kib] + args
                                  + ["--driven", "--store", store], input=stdin,
                                  cwd=str(cwd), capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:  # short of memory, a restarted app may stall
            return False
    return proc.returncode == 0 and proc.stdout == want


def smallest(cwd, args, stdin, low=16, high=512):
    """Bisect the smallest heap in KiB (None if even `high` fails)."""
    with tempfile.TemporaryDirectory() as tmp:
        saved = save_game(cwd, args, Path(tmp) / "saved")
        want = reference(saved, stdin)
        return bisect(cwd, args, stdin, want, saved, low, high)


def bisect(cwd, args, stdin, want, saved, low, high):
    if not plays(high, cwd, args, stdin, want, saved):
        return None
    while high - low > 1:
        mid = (low + high) // 2
        if plays(mid, cwd, args, stdin, want, saved):
            high = mid
        else:
            low = mid
    return high


def main():
    lines, _ = script()
    stdin = "\n".join(lines) + "\n"
    print("scripted game: %d lines in, booting on a saved game of %d pegs"
          % (len(lines), len(saved_game()) - 1))
    with tempfile.TemporaryDirectory() as out:
        build.build(out)
        mpy = smallest(out, ["-m", "desk"], stdin)
    src = smallest(FIRMWARE, ["desk.py"], stdin)
    print("smallest heap, .mpy build:   %sK" % mpy)
    print("smallest heap, .py source:   %sK" % src)
    return 0 if mpy and src else 1


# -- the table engine (cribcore.table): whole games with no board, a record in memory ------

GAMES = [(players, mode) for players in (2, 3, 4) for mode in ("cards", "ranks", "totals")]


def engine_plays(kib, path):
    """(whether two scripted games of every kind finish in a kib-KiB heap, the largest live
    heap seen at a question: gc.mem_alloc after a collection)."""
    peak = 0
    for players, mode in GAMES:
        try:
            proc = subprocess.run(
                [micropython_path(), "-X", "heapsize=%dK" % kib,
                 str(ROOT / "tests" / "core_table" / "tablegame.py"),
                 str(players), mode, "5", "2", "7", "peak"], capture_output=True, text=True,
                timeout=120, env={"MICROPYPATH": "%s:%s" % (path, ROOT / "tests" / "core_table")})
        except subprocess.TimeoutExpired:
            return False, peak
        words = proc.stdout.split()
        if proc.returncode != 0 or words[:2] != ["over", "True"]:
            return False, peak
        peak = max(peak, int(words[3]))
    return True, peak


def engine_smallest(path, low=32, high=1024):
    """The smallest heap in KiB the engine's games finish in, and the live peak there."""
    ok, peak = engine_plays(high, path)
    if not ok:
        return None, peak
    while high - low > 1:
        mid = (low + high) // 2
        if engine_plays(mid, path)[0]:
            high = mid
        else:
            low = mid
    return high, peak


def engine_main():
    print("table engine: 2 games each of 2, 3 and 4 players, cards, ranks and totals, to 61,"
          " with undo and redo (tests/core_table/tablegame.py)")
    with tempfile.TemporaryDirectory() as out:
        build.build(out, extras=build.OPTIONAL)
        mpy = engine_smallest(out)
    src = engine_smallest(FIRMWARE)
    print("engine, smallest heap, .mpy build:   %sK (live peak %d bytes)" % mpy)
    print("engine, smallest heap, .py source:   %sK (live peak %d bytes)" % src)
    return 0 if mpy[0] and src[0] else 1


def pico_main():
    """The engine's live peak on the emulated Pico (rp2 port), from the .mpy build."""
    sys.path.insert(0, str(ROOT / "tests" / "pico"))
    from enginegame import engine_game

    r = engine_game(2, "cards", 11)
    print("engine on the emulated Pico (rp2 port, .mpy build, a 2-player game by cards to"
          " 61, %d questions, %.1f s emulated): live peak %d bytes (%d before the engine"
          " was imported), least free %d bytes; over %s, scores %s"
          % (r["questions"], r["ms"] / 1000, r["peak"], r["base"], r["low_free"],
             r["over"], r["scores"]))
    return 0 if r["over"] else 1


if __name__ == "__main__":
    if "--pico" in sys.argv[1:]:
        sys.exit(pico_main())
    sys.exit(main() or engine_main() or pico_main())
