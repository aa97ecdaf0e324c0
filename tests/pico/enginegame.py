"""A scripted game through the table engine (cribcore.table) on the emulated Pico: the
deploy build with the engine (build.OPTIONAL, as `crib deploy` builds a board that serves
the game) and tests/core_table/tablegame.py, all as .mpy on the emulated board's flash,
less main.py (the board's app is not started: the heap is the engine's alone, the
modules read from their own .mpy files); the game played over the REPL with its
in-memory record and no board, the live heap read at every question.

    result = engine_game(players=2, mode="cards", seed=11)
    result["scores"], result["winner"], result["over"]    # the game's end
    result["base"], result["peak"], result["low_free"]    # gc.mem_alloc before, its
                                                          # peak, gc.mem_free's least
"""

import json
import tempfile
from pathlib import Path

from picorig import WALL_TIMEOUT, Pico, fs_image

from crib.deploy import build

TABLEGAME = Path(__file__).resolve().parents[1] / "core_table" / "tablegame.py"
MARK = "ENGINE-RESULT "  # what the game's last line starts with (never in the code)

# Run on the Pico (paste mode): the heap after a collection before anything of the engine
# is imported, then at every question (after a collection: the live heap), and the end.
GAME = """\
import gc, json
gc.collect()
base = gc.mem_alloc()
import tablegame
seen = [0, gc.mem_free(), 0]
def measure(q, events):
    gc.collect()
    seen[0] = max(seen[0], gc.mem_alloc())
    seen[1] = min(seen[1], gc.mem_free())
    seen[2] += 1
engine, _ = tablegame.play(%d, %r, %d, %d, out=measure)
view = engine.view()
print("ENGINE" + "-RESULT", json.dumps({"over": engine.over, "scores": view["scores"],
      "winner": view["winner"], "base": base, "peak": seen[0], "low_free": seen[1],
      "questions": seen[2]}))
"""


def engine_files():
    """{path: bytes}: the deploy build with the table engine, and tablegame.mpy."""
    with tempfile.TemporaryDirectory(prefix="pico-engine-") as out:
        written = build.build(out, extras=build.OPTIONAL)
        game = Path(out) / "tablegame.mpy"
        build.compile_file(TABLEGAME, game)
        return {p.relative_to(out).as_posix(): p.read_bytes() for p in written + [game]
                if p.name != "main.py"}


def engine_game(players=2, mode="cards", seed=11, games=1, timeout=4 * WALL_TIMEOUT):
    """Play the scripted game on an emulated Pico; its result (module docstring), plus the
    emulated milliseconds the game took."""
    with Pico(fs=fs_image(engine_files())) as pico:
        pico.wait(lambda: pico.usb is not None, what="the USB port")
        pico.send(b"\r\x03\r")  # no main.py: the REPL (CR Ctrl-C CR, as mpremote does)
        pico.wait(lambda: pico.raw.endswith(b">>> "), what="the REPL")
        start = len(pico.raw)
        code = GAME % (players, mode, seed, games)
        pico.send(b"\x05")  # paste mode: the lines as they are, no auto-indent
        pico.wait(lambda: pico.raw.endswith(b"=== "), what="paste mode")
        t0 = pico.send(code.replace("\n", "\r").encode() + b"\x04")
        mark = MARK.encode()

        def ended():
            at = pico.raw.find(mark, start)  # the result's whole line, or a traceback
            return at >= 0 and b"\n" in pico.raw[at:] or \
                b"Traceback" in pico.raw[start:] and pico.raw.endswith(b">>> ")
        pico.wait(ended, timeout, "the game's end")
        text = bytes(pico.raw[start:]).decode("ascii", "replace")
        if MARK not in text:
            raise AssertionError("the game failed on the Pico:\n" + text[-3000:])
        line = text[text.index(MARK) + len(MARK):].splitlines()[0]
        result = json.loads(line)
        result["ms"] = (pico.t - t0) / 1e6
        return result
