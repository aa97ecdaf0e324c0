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


if __name__ == "__main__":
    sys.exit(main())
