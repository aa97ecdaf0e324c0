"""The firmware type-checks with mypy against the MicroPython rp2 (Pico) stubs.

The stubs come from the test extras (micropython-rp2-rpi-pico-stubs, which brings
micropython-stdlib-stubs); mypy refuses site-packages on MYPYPATH, so the test links their
files into a folder of their own. A `pip install --target typings ...` copy at the root is
used when the packages are not installed.
"""

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

from support import FIRMWARE, ROOT

STUBS = ("micropython-rp2-rpi-pico-stubs", "micropython-stdlib-stubs")
CONFIG = Path(__file__).with_name("mypy.ini")


def stubs_dir(tmp_path):
    """A folder holding the Pico stubs (rp2/, machine.pyi...) and stdlib/VERSIONS."""
    try:
        dists = [importlib.metadata.distribution(name) for name in STUBS]
    except importlib.metadata.PackageNotFoundError:
        typings = ROOT / "typings"
        assert (typings / "rp2" / "__init__.pyi").exists(), (
            "Pico stubs missing: pip install -e '.[test]' (or pip install --target typings "
            "micropython-rp2-rpi-pico-stubs==1.29.0.post1)")
        return typings
    out = tmp_path / "stubs"
    for dist in dists:
        for f in dist.files:
            name = str(f)
            if name.endswith(".pyi") or name == "stdlib/VERSIONS":
                dst = out / name
                dst.parent.mkdir(parents=True, exist_ok=True)
                if not dst.exists():
                    dst.symlink_to(Path(dist.locate_file(f)).resolve())
    assert (out / "rp2" / "__init__.pyi").exists() and (out / "stdlib" / "VERSIONS").exists()
    return out


def run_mypy(stubs, target, tmp_path, source_root=FIRMWARE):
    env = dict(os.environ, MYPYPATH=os.pathsep.join([str(stubs), str(source_root)]))
    cmd = [sys.executable, "-m", "mypy", "--config-file", str(CONFIG),
           "--custom-typeshed-dir", str(stubs), "--cache-dir", str(tmp_path / "cache"),
           str(target)]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(source_root),
                          timeout=300)


def test_stubs_are_the_pinned_pico_ones():
    assert importlib.metadata.version(STUBS[0]) == "1.29.0.post1"


def test_firmware_type_checks_against_the_pico_stubs(tmp_path):
    proc = run_mypy(stubs_dir(tmp_path), FIRMWARE, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success" in proc.stdout


def test_the_check_catches_a_wrong_hardware_call(tmp_path):
    # Guard: the same setup does see the stubs (a bad rp2/machine call is an error).
    pkg = tmp_path / "src" / "pegboard"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    src = (FIRMWARE / "pegboard" / "ws2812.py").read_text()
    bad = src.replace("self._sm.active(1)", "self._sm.active(1)\n        Pin(pin).frobnicate()")
    assert bad != src
    (pkg / "ws2812.py").write_text(bad)
    proc = run_mypy(stubs_dir(tmp_path), pkg, tmp_path, source_root=pkg.parent)
    assert proc.returncode == 1 and "frobnicate" in proc.stdout, proc.stdout + proc.stderr
