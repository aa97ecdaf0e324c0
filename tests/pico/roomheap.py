"""The board server's game without its server (tests/pico/roomgame.py: the firmware App on
fake drivers, the table engine, the room and its state's JSON) on the emulated Pico (the
rp2 port: 32-bit objects) and on MicroPython's unix port (64-bit), the same answers on
both: the live heap at the same marks of every game, for the heap budget
(bench/board_web.py --budget prints it; docs/boardweb.md has the figures).

    marks = pico_marks(games=1, target=61)      # [{"at", "game", "answers", "live",
    marks = unix_marks(games=1, target=61)      #   "free"}, ...] (roomgame.play)

On the Pico the deploy build with the server's packages (build.OPTIONAL, as `crib deploy`
builds a board with Wi-Fi) and the two scripts, as .mpy on its flash, less main.py (the
board's own app is not started: the heap holds the room's App alone), run over the REPL.
"""

import json
import os
import subprocess
import tempfile
from pathlib import Path

from picorig import WALL_TIMEOUT, Pico, fs_image

from crib.deploy import build

TESTS = Path(__file__).resolve().parents[1]
FIRMWARE = TESTS.parent / "firmware"
SCRIPTS = (TESTS / "core_table" / "tablegame.py", TESTS / "pico" / "roomgame.py")
MARK = "ROOM-MARK "
DONE = "ROOM-" + "DONE"  # what the run's last line says (never in the code as sent)

RUN = """\
import roomgame
roomgame.play(%d, %d, out=lambda m: print(roomgame.MARK + roomgame.json.dumps(m)), target=%d)
print("ROOM" + "-DONE")
"""


def room_files():
    """{path: bytes}: the deploy build with the server's packages, and the two scripts."""
    with tempfile.TemporaryDirectory(prefix="pico-room-") as out:
        written = build.build(out, extras=build.OPTIONAL)
        for src in SCRIPTS:
            dst = Path(out) / (src.stem + ".mpy")
            build.compile_file(src, dst)
            written.append(dst)
        return {p.relative_to(out).as_posix(): p.read_bytes() for p in written
                if p.name != "main.py"}


def _marks(text):
    return [json.loads(line[len(MARK):]) for line in text.splitlines()
            if line.startswith(MARK)]


def pico_marks(games=1, seed=11, target=61, timeout=20 * WALL_TIMEOUT):
    """The marks of the games played on an emulated Pico (AssertionError with its output
    if the run fails there: a MemoryError, say)."""
    with Pico(fs=fs_image(room_files())) as pico:
        pico.wait(lambda: pico.usb is not None, what="the USB port")
        pico.send(b"\r\x03\r")  # no main.py: the REPL (CR Ctrl-C CR, as mpremote does)
        pico.wait(lambda: pico.raw.endswith(b">>> "), what="the REPL")
        start = len(pico.raw)
        pico.send(b"\x05")  # paste mode: the lines as they are
        pico.wait(lambda: pico.raw.endswith(b"=== "), what="paste mode")
        pico.send((RUN % (games, seed, target)).replace("\n", "\r").encode() + b"\x04")

        def ended():
            tail = pico.raw[start:]
            return DONE.encode() + b"\r\n" in tail or \
                b"Traceback" in tail and pico.raw.endswith(b">>> ")
        pico.wait(ended, timeout, "the room's games")
        text = bytes(pico.raw[start:]).decode("ascii", "replace").replace("\r", "")
    if DONE not in text:
        raise AssertionError("the room's games failed on the Pico:\n" + text[-3000:])
    return _marks(text)


def unix_marks(micropython, games=1, seed=11, target=61, heap="2M"):
    """The same games' marks under MicroPython's unix port (firmware and scripts as
    source)."""
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(
        [str(FIRMWARE)] + [str(s.parent) for s in SCRIPTS]))
    proc = subprocess.run([micropython, "-X", "heapsize=" + heap, str(SCRIPTS[1]),
                           str(games), str(seed), str(target)], env=env,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise AssertionError("the room's games failed:\n" + proc.stdout + proc.stderr)
    return _marks(proc.stdout)
