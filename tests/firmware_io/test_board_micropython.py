"""The pegboard tests (tests/board, plain asserts) under a real MicroPython, heap capped,
from .py source and from the .mpy build that goes on the Pico."""

import pytest
from support import FIRMWARE, MP_RUN, TESTS, run_micropython

from crib import build

BOARD_TESTS = TESTS / "board"
MODULES = sorted(p.stem for p in BOARD_TESTS.glob("test_*.py"))


def test_there_are_board_tests():
    assert {"test_buttons", "test_layout_config", "test_light", "test_render"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_board_tests_pass_under_micropython(module):
    proc = run_micropython([MP_RUN, "%s:%s" % (FIRMWARE, BOARD_TESTS), module], heap="128K",
                           timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 failed" in proc.stdout


def test_board_tests_pass_from_the_mpy_build(tmp_path):
    build.build(tmp_path)
    for module in MODULES:
        proc = run_micropython([MP_RUN, "%s:%s" % (tmp_path, BOARD_TESTS), module],
                               heap="128K", timeout=120)
        assert proc.returncode == 0, module + proc.stdout + proc.stderr
