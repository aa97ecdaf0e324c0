"""The whole table on emulated silicon: the emulated RP2040 boots our MicroPython image
(firmware/image/build.py, RPI_PICO, our code frozen into it; built for the code as it is
now, or taken from the cache when nothing changed) and plays a 2-player game to 61
through the board's server (tests/pico/chipgame.py: the App on the real PIO and flash,
the engine, the room, the record on LittleFS, microdot's request path, 4 event streams;
only the radio and the sockets are stand-ins). The scores equal the same game's on
CPython, and every answer reached all 4 phones. bench/chip.py plays it to 121 and prints
the figures."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from chiprun import chip_run

pytestmark = pytest.mark.pico

ROOT = Path(__file__).resolve().parents[2]
TARGET = 61

REFERENCE = """
import json, sys
import desk, chipgame
from boardweb.appboard import LoopPort
app = desk.build({"store": None, "config": None, "driven": False}, LoopPort())
lines = []
chipgame.play(app, 1, 11, %d, record=None, out=lines.append)
print(lines[-1])
"""


def our_image():
    """Our RPI_PICO image's UF2 for the tree as it is (firmware/image/build.py's cache)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("image_build",
                                                  ROOT / "firmware" / "image" / "build.py")
    image = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(image)
    return image.image("RPI_PICO", out=lambda line: None) / "firmware.uf2"


def cpython_end(target):
    """The END line's fields of the same game played on CPython (the App on fake drivers)."""
    import microdot

    path = os.pathsep.join([str(ROOT / "firmware"), str(ROOT / "tests" / "core_table"),
                            str(ROOT / "tests" / "pico"),
                            str(Path(microdot.__file__).parents[1])])
    proc = subprocess.run([sys.executable, "-c", REFERENCE % target], capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=path), timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = proc.stdout.strip().splitlines()[-1]
    assert line.startswith("END ")
    return json.loads(line[4:])


def test_our_image_plays_a_whole_game_through_the_server_as_cpython_does():
    run = chip_run(our_image(), stock=False, games=1, target=TARGET)
    assert run.end is not None, run.text[-3000:]
    expected = cpython_end(TARGET)
    assert run.end["scores"] == expected["scores"] and max(expected["scores"]) >= TARGET
    assert run.end["answers"] == expected["answers"] == len(run.answers)
    # every answer was a new state on all 4 phones, in order
    assert [a["version"] for a in run.answers] == sorted({a["version"] for a in run.answers})
    assert all(a["total"] > 0 for a in run.answers)
    # nothing failed on the way (an event stream the server ends for want of memory is
    # opened again, as the page does, and counted: bench/chip.py prints how often)
    assert "Traceback" not in run.text
    assert run.end["peak"] < run.end["heap"]
