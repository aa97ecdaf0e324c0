"""The core and firmware under a real MicroPython: tests, heap caps, mpy-cross, .mpy build.

Every plain test module in tests/core (the shared core) and tests/board (the firmware's
layout, light, render and buttons) runs under the unix MicroPython with the heap capped,
once from .py source and once from the .mpy build that `crib deploy` puts on the Pico.
Each module runs in its own interpreter, as a fresh Pico would.
"""

import pytest
from support import CORE_TESTS, FIRMWARE, MP_RUN, TESTS, run_micropython

from crib.deploy import build

SUITES = {"core": CORE_TESTS, "board": TESTS / "board"}
MODULES = [(suite, p.stem) for suite, folder in sorted(SUITES.items())
           for p in sorted(folder.glob("test_*.py"))]
# A Pico has about 190K of heap at boot; 128K leaves a margin for the app around the tests.
TEST_HEAP = "128K"


@pytest.fixture(scope="module")
def mpy_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("pico")
    build.build(out)
    return out


def test_every_firmware_file_compiles_with_mpy_cross(mpy_build):
    sources = build.firmware_sources(FIRMWARE)
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
    proc = run_micropython([MP_RUN, "%s:%s" % (code, SUITES[suite]), module], heap=TEST_HEAP)
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
