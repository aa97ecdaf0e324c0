"""The live heap's census (tests/pico/chipcensus.py, bench/chip.py --census) under the unix
MicroPython: chipgame's game on the desk's App, counted at game 2's first question. Its
steps add up to what is live there, and so do the objects it lets go and what is left;
every module of the server is counted once; bench/chip.py's table groups them."""

import importlib.util
import json
import os

import microdot
from support import FIRMWARE, TESTS, run_micropython

ROOT = TESTS.parent
SCRIPT = """
import chipcensus, gc
gc.collect()
count = chipcensus.Census(gc.mem_alloc(), 2)
count.core()
import chipgame
count.step("chipgame")
count.pegboard()
import desk
from boardweb.appboard import LoopPort
app = desk.build({"store": None, "config": None, "driven": False}, LoopPort())
count.step("app")
chipgame.play(app, 3, 11, 61, 400, record=%r, out=lambda line: None, census=count)
"""
SLACK = 1024  # the census's own few objects between two of its figures


def census(tmp_path):
    os.mkdir(tmp_path / "rec")
    script = tmp_path / "census.py"
    script.write_text(SCRIPT % str(tmp_path / "rec" / "games"))
    path = ":".join([".frozen", str(FIRMWARE), os.path.dirname(os.path.dirname(
        microdot.__file__)), str(TESTS / "pico"), str(TESTS / "core_table")])
    proc = run_micropython([script], heap="1M", env={"MICROPYPATH": path})
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return [json.loads(ln[7:]) for ln in proc.stdout.splitlines() if ln.startswith("CENSUS ")]


def test_the_census_adds_up_to_the_live_heap_and_counts_each_module_once(tmp_path):
    lines = census(tmp_path)
    kinds = [c["kind"] for c in lines]
    game = lines[kinds.index("game")]
    assert game["what"] == "game 2's first question"
    before = lines[:kinds.index("game")]
    steps = sum(c["bytes"] for c in before if c["kind"] in ("step", "import"))
    assert abs(steps - game["bytes"]) <= SLACK
    after = lines[kinds.index("game") + 1:]
    assert after[-1]["kind"] == "left"
    assert abs(sum(c["bytes"] for c in after) - game["bytes"]) <= SLACK
    imported = [c["what"] for c in before if c["kind"] == "import"]
    assert len(imported) == len(set(imported))
    assert {"cribcore.table.room", "boardweb.push", "microdot"} <= set(imported)
    drops = {c["what"]: c["bytes"] for c in after if c["kind"] == "drop"}
    assert drops["room._log"] > 1000  # game 1's last events, kept for the screens
    assert "room.engine._trail" in drops and "board.app.renderer._frame._out" in drops


def test_bench_chip_groups_the_census_by_package_side_by_side(capsys):
    spec = importlib.util.spec_from_file_location("bench_chip", ROOT / "bench" / "chip.py")
    chip = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(chip)

    class Run:
        def __init__(self, census):
            self.census, self.text = census, ""

    one = [{"kind": "import", "what": "cribcore.table.room", "bytes": 1000},
           {"kind": "import", "what": "cribcore.table.engine", "bytes": 500},
           {"kind": "import", "what": "cribcore.cards", "bytes": 300},
           {"kind": "game", "what": "game 1's first question", "bytes": 1800},
           {"kind": "drop", "what": "room._log", "bytes": 600},
           {"kind": "drop", "what": "room.view", "bytes": 100},
           {"kind": "drop", "what": "room.state", "bytes": 50},
           {"kind": "left", "what": "left", "bytes": 1050, "with": ["asyncio.event"]}]
    two = [dict(c, bytes=2 * c["bytes"]) for c in one]

    class Args:
        target = 61

    chip.census([Run(one), Run(two)], "the image", Args())
    rows = {ln[:80].strip(): ln[80:].split() for ln in capsys.readouterr().out.splitlines()}
    assert rows["import cribcore.table"] == ["1500", "3000"]
    assert rows["import cribcore"] == ["300", "600"]
    assert rows["room._log"] == ["600", "1200"]
    assert rows["room: other attributes"] == ["150", "300"]
    assert any(k.startswith("modules imported after") and "asyncio.event" in k
               for k in rows)
