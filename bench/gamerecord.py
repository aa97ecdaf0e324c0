"""The board's game record on flash (firmware/pegboard/gamelog.py and its modules): what a
game costs.

python bench/gamerecord.py [--players N] [--games N]
prints, for scripted 121-point games (tests/record/recordgame.py) on a real LittleFS with
the Pico's settings (littlefs-python; tests/record/lfsflash.py counts every page program
and sector erase), the bytes on flash per entry and per game, the page programs and
sector erases per answer; then, under the unix MicroPython (tests' interpreter, .py
source and the .mpy build), the live heap's peak while the board replays an unfinished
121-point game at boot (a collection at every line read: the record's replay streams the
file) and what the replayed game holds once it is resumed. The unix port's objects are
64-bit: the Pico's are smaller.
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "record"), str(ROOT / "firmware")]

from lfsflash import Flash, LfsFiles  # noqa: E402
from recordgame import reference  # noqa: E402
from support import FIRMWARE, micropython_path  # noqa: E402

from crib.deploy import build  # noqa: E402
from pegboard.gamelog import GameLog  # noqa: E402
from pegboard.logfiles import Files  # noqa: E402

# Run under MicroPython: replay the unfinished game in DIR (argv[1]) as the board's boot
# does (GameLog.open, unfinished: a line at a time), the live heap's peak measured at
# every line; then the engine's session resumed on it.
REPLAY = """
import gc, sys
from cribcore.table import gamelines
from pegboard.gamelog import GameLog
from pegboard.recordsession import RecordSession  # imported before the log opens, as at boot
peak = [0]
add = gamelines.Replay.add
def counted(self, raw):
    add(self, raw)
    gc.collect()
    peak[0] = max(peak[0], gc.mem_alloc())
gamelines.Replay.add = counted
gc.collect()
base = gc.mem_alloc()
log = GameLog(sys.argv[1]).open()
rec = log.unfinished()
gc.collect()
held = gc.mem_alloc() - base
print("lines", rec.seq, "entries", len(rec.entries()), "peak", peak[0] - base, "held", held)
"""


def unfinished_game(folder, players):
    """A 121-point game left near its end (the board cut off), on real files in folder."""
    answers, _, _, _ = reference(players=players, target=121)
    files = Files()
    log_path = str(folder / "rec")
    from recordgame import NAMES

    from cribcore.table.engine import TableEngine
    from cribcore.table.questions import Events
    from cribcore.table.record import NoBoard
    from cribcore.table.session import Setup
    from pegboard.recordsession import RecordSession

    log = GameLog(log_path, files).open()
    session = RecordSession(log, NoBoard(), Events(), {"ranks": False, "totals": False})
    engine = TableEngine(session, Setup(list(NAMES[:players]), players == 4, 121, "cut"))
    engine.start()
    for text in answers[:-3]:  # all but the last few: the game is in play
        engine.answer(engine.question().id, text)
    return log_path, max(engine.view()["scores"])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args(argv)
    answers = programs = erases = lines = 0
    flash = Flash()
    files = LfsFiles(flash)
    for seed in range(1, args.games + 1):
        start = (flash.programs, flash.erases)
        ref = reference(players=args.players, target=121, seed=seed, files=files)
        answers += len(ref[0])
        programs += flash.programs - start[0]
        erases += flash.erases - start[1]
    log = GameLog("rec", files).open()
    size = sum(log.sizes.values())
    for g in log.sizes:
        lines += log.replay(g).seq
    print("%d games of 121 points, %d players, on LittleFS (4K blocks, 256-byte pages):"
          % (args.games, args.players))
    print("  %d answers, %d lines (entries, undos, headers, closes)" % (answers, lines))
    print("  bytes on flash: %.0f a line, %.0f a game (%d blocks in use of %d)"
          % (size / lines, size / args.games, flash.fs.used_block_count, flash.fs.block_count))
    print("  per answer: %.2f page programs, %.3f sector erases"
          % (programs / answers, erases / answers))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path, score = unfinished_game(folder, args.players)
        out = folder / "mpy"
        build.build(out, extras=build.OPTIONAL)
        script = folder / "replay.py"
        script.write_text(REPLAY)
        for label, code in (("source", FIRMWARE), ("mpy", out)):
            proc = subprocess.run([micropython_path(), "-X", "heapsize=1M", str(script), path],
                                  capture_output=True, text=True, timeout=300,
                                  env={"MICROPYPATH": str(code)})
            if proc.returncode:
                sys.exit(proc.stdout + proc.stderr)
            words = proc.stdout.split()
            got = dict(zip(words[::2], words[1::2]))
            print("  replay at boot (MicroPython, %s; a game at %d of 121): %s lines, %s"
                  " entries standing; live heap peak %s bytes while reading, %s held after"
                  % (label, score, got["lines"], got["entries"], got["peak"], got["held"]))


if __name__ == "__main__":
    main()
