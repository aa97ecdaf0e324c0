"""tests/pico/chipgame.py on the emulated Pico: the flash it boots with, the run, and what
it printed, parsed. Two ways to hold our code (bench/chip.py compares them):

    ours:  our image (firmware/image/build.py, RPI_PICO: our code frozen into it) and on
           the flash only main.py, config.json and the scripts (frozen=True: not
           those either, the bench's copy of the image has them frozen: bench/chip.py);
    stock: the stock MicroPython UF2 (../shared/pico/) and the deploy build of a board
           with Wi-Fi (crib deploy's .mpy files and code.pack, build.OPTIONAL) as well.

    run = chip_run(uf2, stock=False, games=1, seed=11, target=121, answers=4000)
    run.answers   # [{part: value}] (chipgame.PARTS), one per answer
    run.marks     # [{"at", "game", "answers", "live", "free"}]
    run.end       # {"answers", "games", "scores", "peak", "heap"} or None (it failed)
    run.stack     # {"deepest", "size"}: the C stack's most used and its size, in bytes
                  # (our images: their link map says where it is), or None
    run.text      # everything the Pico printed
"""

import json
import tempfile
from pathlib import Path

from picorig import WALL_TIMEOUT, Pico, PicoError, fs_image

from crib.deploy import build

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
SCRIPTS = (TESTS / "core_table" / "tablegame.py", TESTS / "pico" / "chipgame.py",
           TESTS / "pico" / "chipcensus.py")
DONE = "CHIP-" + "DONE"  # chipgame.DONE
PARTS = ("engine", "board", "flash", "request", "state", "streams", "gc", "total", "alloc",
         "auto", "version", "after", "frames")  # chipgame.PARTS
UNDO_PARTS = ("total", "alloc", "version", "engine", "flash", "state", "board")  # a U line's
MAIN = "import chipgame\nchipgame.main(%d, %d, %d, %d, stack=%r, undos=%d)\n"
# with the census: the live heap before chipgame's import, given to it
CENSUS_MAIN = ("import gc\ngc.collect()\nbase = gc.mem_alloc()\nimport chipcensus\n"
               "count = chipcensus.Census(base, %d)\ncount.core()\nimport chipgame\n"
               "count.step(\"chipgame and its players (the bench's code)\")\n"
               "chipgame.main(%d, %d, %d, %d, count)\n")


def stack_of(uf2):
    """(__StackBottom, __StackTop) from the link map beside one of our images' UF2
    (firmware/image/build.py keeps it), or None (the stock UF2 has none)."""
    found = {}
    link_map = Path(uf2).with_name("firmware.map")
    if link_map.exists():
        for line in link_map.read_text(errors="replace").splitlines():
            words = line.split()
            if len(words) >= 3 and words[1] in ("__StackBottom", "__StackTop") and \
                    words[2] == "=":
                found[words[1]] = int(words[0], 16)
    if len(found) < 2:
        return None
    return found["__StackBottom"], found["__StackTop"]


def chip_files(stock, games, seed, target, answers, census=0, frozen=False, stack=None,
               undos=0):
    """{path: bytes} of the flash's filesystem for a run (module docstring); census: the
    game at whose first question the heap's census is taken (tests/pico/chipcensus.py),
    0 for none; frozen: SCRIPTS are frozen into the image, not on the flash; stack:
    stack_of(the image), for the run's STACK line; undos: the undos posted after the
    answers (chipgame.game's)."""
    with tempfile.TemporaryDirectory(prefix="pico-chip-") as out:
        if stock:
            written = build.build(out, extras=build.OPTIONAL)
        else:
            config = Path(out) / "config.json"
            config.write_bytes((ROOT / "firmware" / "config.json").read_bytes())
            written = [config]
        for src in () if frozen else SCRIPTS:
            dst = Path(out) / (src.stem + ".mpy")
            build.compile_file(src, dst)
            written.append(dst)
        files = {p.relative_to(out).as_posix(): p.read_bytes() for p in written}
    files["main.py"] = (CENSUS_MAIN % (census, games, seed, target, answers) if census
                        else MAIN % (games, seed, target, answers, stack, undos)).encode()
    return files


class ChipRun:
    def __init__(self, text):
        self.text = text
        self.answers, self.marks, self.end, self.stack = [], [], None, None
        self.undos = []  # {UNDO_PARTS} of each undo posted after the answers
        self.reopened = 0  # event streams the server ended, opened again
        self.census = []  # the census's lines (tests/pico/chipcensus.py), dicts
        for line in text.splitlines():
            if line.startswith("CENSUS "):
                self.census.append(json.loads(line[7:]))
            elif line.startswith("R "):
                self.reopened += 1
            elif line.startswith("A "):
                self.answers.append(dict(zip(PARTS, (int(x) for x in line.split()[2:]))))
            elif line.startswith("U "):
                self.undos.append(dict(zip(UNDO_PARTS, (int(x) for x in line.split()[2:]))))
            elif line.startswith("MARK "):
                self.marks.append(json.loads(line[5:]))
            elif line.startswith("END "):
                self.end = json.loads(line[4:])
            elif line.startswith("STACK "):
                self.stack = json.loads(line[6:])


def chip_run(uf2, stock=False, games=1, seed=11, target=121, answers=4000, timeout=None,
             progress=None, partial=False, census=0, frozen=False, undos=0):
    """Boot the emulated Pico from uf2 with the run's flash, wait for DONE; a ChipRun.
    progress(n, line): told the number of answers so far and the last line, now and then.
    After timeout (wall s), PicoError; with partial, the run so far instead (its `stopped`
    says why; None when it ended). census, frozen, undos: chip_files'."""
    files = chip_files(stock, games, seed, target, answers, census, frozen,
                       None if stock else stack_of(uf2), undos)
    with Pico(fs=fs_image(files), uf2=uf2) as pico:
        seen = [0, 0]  # lines looked at for DONE, lines at the last progress

        def ended():
            lines = pico.lines
            if progress is not None and len(lines) - seen[1] >= 20:
                seen[1] = len(lines)
                progress(sum(1 for ln in lines if ln.text.startswith("A ")), lines[-1].text)
            done = any(ln.text == DONE for ln in lines[seen[0]:])
            seen[0] = len(lines)
            return done

        try:
            pico.wait(ended, timeout or 200 * WALL_TIMEOUT, "the chip's game")
            stopped = None
        except PicoError as e:
            if not partial:
                raise
            stopped = str(e)
        text = "\n".join(ln.text for ln in pico.lines)
    run = ChipRun(text)
    run.stopped = stopped
    return run
