"""The core and firmware under a real MicroPython: tests, heap caps, mpy-cross, .mpy build."""

import pytest

from crib import build
from support import CORE_TESTS, FIRMWARE, MP_RUN, core_test_modules, run_micropython


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path):
    written = build.build(tmp_path)
    sources = build.firmware_sources(FIRMWARE)
    assert len(sources) >= 2
    assert len([p for p in written if p.suffix == ".mpy"]) >= len(sources) - 1


@pytest.mark.parametrize("module", core_test_modules())
def test_core_tests_pass_under_micropython(module):
    """Each core test module, from .py source, under a heap the Pico can spare."""
    proc = run_micropython([MP_RUN, "%s:%s" % (FIRMWARE, CORE_TESTS), module], heap="128K")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 failed" in proc.stdout


def test_core_tests_pass_from_mpy_build(tmp_path):
    """The .mpy build (what goes on the Pico) passes every core test module."""
    build.build(tmp_path)
    proc = run_micropython([MP_RUN, "%s:%s" % (tmp_path, CORE_TESTS)] + core_test_modules(),
                           heap="128K")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_heap_cap_is_real(tmp_path):
    """Guard: the cap we rely on does raise MemoryError past it."""
    script = tmp_path / "big.py"
    script.write_text("x = bytearray(200000)\n")
    proc = run_micropython([script], heap="64K")
    assert proc.returncode != 0 and "MemoryError" in proc.stdout + proc.stderr
