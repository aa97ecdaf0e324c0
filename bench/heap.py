"""The smallest MicroPython heap the desk runner plays a whole scripted game in.

python bench/heap.py     prints, for the .mpy build (what goes on the Pico) and for .py
source, the smallest `-X heapsize` (bisection, 1K steps) at which the unix MicroPython
boots on a saved game with a full undo history (tests/firmware/deskgame.saved_game: a
restart reads it back) and runs the scripted 3-lane 121 game of tests/firmware/deskgame.py,
answering every line exactly as CPython does. The unix port's objects are larger than
the Pico's (64-bit), so these figures overstate what the Pico (about 190K free) needs.
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

SAVED = None  # the store holding the saved game every run starts from (main makes it)


def desk(store, stdin):
    """The CPython desk runner's answers to stdin, on the store folder."""
    return subprocess.run([sys.executable, str(FIRMWARE / "desk.py"), "--driven", "--store",
                           str(store)], input=stdin, capture_output=True, text=True,
                          timeout=120).stdout


def copy_saved(into):
    """A copy of the saved game's store in the folder `into` (a path to make)."""
    shutil.copytree(SAVED, into)
    return into


def reference(stdin):
    """The CPython desk runner's answers to the script, from the saved game."""
    with tempfile.TemporaryDirectory() as tmp:
        return desk(copy_saved(Path(tmp) / "s"), stdin)


def plays(kib, cwd, args, stdin, want):
    """True when MicroPython with a kib-KiB heap gives exactly the reference answers."""
    with tempfile.TemporaryDirectory() as tmp:
        store = str(copy_saved(Path(tmp) / "s"))
        try:
            proc = subprocess.run([micropython_path(), "-X", "heapsize=%dK" % kib] + args
                                  + ["--driven", "--store", store], input=stdin,
                                  cwd=str(cwd), capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:  # short of memory, a restarted app may stall
            return False
    return proc.returncode == 0 and proc.stdout == want


def smallest(cwd, args, stdin, want, low=16, high=512):
    """Bisect the smallest heap in KiB (None if even `high` fails)."""
    if not plays(high, cwd, args, stdin, want):
        return None
    while high - low > 1:
        mid = (low + high) // 2
        if plays(mid, cwd, args, stdin, want):
            high = mid
        else:
            low = mid
    return high


def main():
    global SAVED
    saved = tempfile.TemporaryDirectory()
    SAVED = Path(saved.name) / "s"
    desk(SAVED, "\n".join(saved_game()) + "\n")
    lines, _ = script()
    stdin = "\n".join(lines) + "\n"
    want = reference(stdin)
    print("scripted game: %d lines in, %d lines out" % (len(lines), len(want.splitlines())))
    with tempfile.TemporaryDirectory() as out:
        build.build(out)
        mpy = smallest(out, ["-m", "desk"], stdin, want)
    src = smallest(FIRMWARE, ["desk.py"], stdin, want)
    print("smallest heap, .mpy build:   %sK" % mpy)
    print("smallest heap, .py source:   %sK" % src)
    return 0 if mpy and src else 1


if __name__ == "__main__":
    sys.exit(main())
