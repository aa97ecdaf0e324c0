"""The core and firmware under a real MicroPython: tests, heap caps, mpy-cross, .mpy build.

Every plain test module in tests/core (the shared core) and tests/board (the firmware's
layout, light, render and buttons) runs under the unix MicroPython with the heap capped,
once from .py source and once from the .mpy build that `crib deploy` puts on the Pico.
Each module runs in its own interpreter, as a fresh Pico would. tests/core_table (the
table engine, cribcore.table: whole games of 2, 3 and 4 players in every mode) runs the
same way under a cap of its own, and the JSON of the same scripted games is compared on
both runtimes.
"""

import json
import sys

import pytest
from support import CORE_TESTS, FIRMWARE, MP_RUN, TESTS, run_micropython

from crib.deploy import build

SUITES = {"core": CORE_TESTS, "board": TESTS / "board", "core_table": TESTS / "core_table",
          "record": TESTS / "record"}
MODULES = [(suite, p.stem) for suite, folder in sorted(SUITES.items())
           for p in sorted(folder.glob("test_*.py"))]
# A Pico has about 190K of heap at boot; 128K leaves a margin for the app around the tests.
TEST_HEAP = "128K"
# The table engine's whole games (a record of every entry in memory, two games a match):
# the module passes in about 380K from source and 312K from .mpy on the unix port
# (64-bit objects; python bench/heap.py prints the engine's peak); a little above that.
# The board's game record (tests/record): a whole game's engine beside the test's fake
# flash, its every operation and the answers it replays after each cut.
HEAPS = {"core_table": "416K", "record": "416K"}


@pytest.fixture(scope="module")
def mpy_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("pico")
    build.build(out, extras=build.OPTIONAL)  # the table engine too (a board that serves it)
    return out


def test_every_firmware_file_compiles_with_mpy_cross(mpy_build):
    sources = build.firmware_sources(FIRMWARE, build.OPTIONAL)
    assert any(rel.parts[:2] == ("cribcore", "table") for rel in sources)
    assert len(sources) >= 10
    for rel in sources:
        built = mpy_build / (rel if rel.name in build.KEEP_SOURCE else rel.with_suffix(".mpy"))
        assert built.exists(), rel


def test_the_suites_are_there():
    names = {m for _, m in MODULES}
    assert {"test_cards", "test_show", "test_play", "test_pegs", "test_render"} <= names


@pytest.mark.parametrize("suite,module", MODULES)
@pytest.mark.parametrize("source", ["py", "mpy"])
def test_plain_tests_pass_under_micropython(suite, module, source, mpy_build):
    """One plain test module under MicroPython, from source or from the Pico's .mpy build."""
    code = FIRMWARE if source == "py" else mpy_build
    proc = run_micropython([MP_RUN, "%s:%s" % (code, SUITES[suite]), module],
                           heap=HEAPS.get(suite, TEST_HEAP))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 failed" in proc.stdout


def test_mpy_core_scores_hands_and_plays_in_64k(mpy_build, tmp_path):
    """The .mpy core imports and scores a show and a play under a 64K heap."""
    script = tmp_path / "smoke.py"
    script.write_text(
        "import sys\n"
        "sys.path.insert(0, %r)\n"
        "from cribcore.cards import parse_cards\n"
        "from cribcore.show import score_show\n"
        "from cribcore.play import score_play\n"
        "h = parse_cards('5H 5C 5S JD 5D')\n"
        "print(score_show(h[:4], h[4]), score_play(parse_cards('5H 5C 5S')))\n" % str(mpy_build))
    proc = run_micropython([script], heap="64K")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.split() == ["29", "8"]  # 5-5-5: fifteen 2 + pair royal 6


def test_heap_cap_is_real(tmp_path):
    """Guard: the cap we rely on does raise MemoryError past it."""
    script = tmp_path / "big.py"
    script.write_text("x = bytearray(200000)\n")
    proc = run_micropython([script], heap="64K")
    assert proc.returncode != 0 and "MemoryError" in proc.stdout + proc.stderr


def test_a_capped_run_holds_nothing_of_home(tmp_path):
    """The heap of a capped run is the same whatever HOME is (test_desk's games sit within
    200 bytes of their cap): the unix port's default module path has HOME in it."""
    said = [run_micropython(["-c", "import sys; print(sys.path)"], cwd=tmp_path,
                            env={"HOME": str(tmp_path / home)}).stdout
            for home in ("h", "a-much-longer-home-folder")]
    assert said[0] == said[1] and "'.frozen'" in said[0] and "home" not in said[0]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["cards", "ranks", "totals"])
def test_the_table_engine_says_the_same_json_on_both_runtimes(players, mode):
    """The same scripted game (two games of a match, with undo and redo along the way):
    every question, its view and every event are the same JSON under MicroPython."""
    sys.path.insert(0, str(TESTS / "core_table"))
    try:
        from tablegame import play
    finally:
        sys.path.remove(str(TESTS / "core_table"))
    _, steps = play(players, mode, 5, 2, 7)
    want = [json.loads(json.dumps([q, events])) for q, events in steps]
    proc = run_micropython([TESTS / "core_table" / "tablegame.py", players, mode, 5, 2, 7],
                           heap="1M",  # a sameness check: the JSON of whole questions
                           env={"MICROPYPATH": "%s:%s" % (FIRMWARE, TESTS / "core_table")})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    got = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(got) == len(want) > 20 and got[-1][0] is None
    assert got == want
