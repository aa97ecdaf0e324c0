"""ruff over the whole tree: the rules in pyproject.toml, lines up to 99 characters."""

import subprocess
import sys
from pathlib import Path

from support import ROOT


def test_ruff_is_clean():
    ruff = Path(sys.executable).parent / "ruff"
    proc = subprocess.run([str(ruff), "check", "--no-cache", "."], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
