"""The companion's runtime dependencies install on a Raspberry Pi (aarch64 Linux): each, with
everything it pulls in, has a pure-Python wheel or an aarch64 one on PyPI. pip resolves the
tree for that platform without installing anything (from its cache after the first run)."""

import subprocess
import sys
from importlib.metadata import requires

import pytest

PLATFORMS = [("manylinux2014_aarch64", "3.11"),  # 64-bit Raspberry Pi OS (bookworm)
             ("manylinux2014_aarch64", "3.10")]  # the oldest Python crib supports


def runtime_requirements():
    """The `dependencies` of pyproject.toml, as installed, and the `hardware` extra's (a Pi
    may make the fabrication files too)."""
    return [r.split(";")[0].strip() for r in requires("ledcrib")
            if "extra ==" not in r or 'extra == "hardware"' in r]


def test_every_runtime_dependency_is_pinned():
    reqs = runtime_requirements()
    assert len(reqs) >= 6 and all("==" in r for r in reqs), reqs


@pytest.mark.parametrize("platform, python", PLATFORMS)
def test_runtime_dependencies_have_wheels_for_a_raspberry_pi(platform, python, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
         "--only-binary=:all:", "--platform", platform, "--python-version", python,
         "-d", str(tmp_path), *runtime_requirements()],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    wheels = sorted(p.name for p in tmp_path.iterdir())
    names = {w.split("-")[0].lower().replace("_", "-") for w in wheels}
    for req in runtime_requirements():
        assert req.split("==")[0].lower().replace("_", "-") in names, (req, wheels)
    for w in wheels:
        tag = w[:-len(".whl")].rsplit("-", 1)[1]
        assert w.endswith(".whl") and (tag == "any" or "aarch64" in tag), w
