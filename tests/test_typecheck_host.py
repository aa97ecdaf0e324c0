"""The companion type-checks with mypy: its annotated public API (crib.env, crib.board.api,
crib.board.ids, crib.ui, crib.layout.source, crib.connect, the table engine, ...) agrees
with how the rest of the host uses it."""

import os
import subprocess
import sys

from support import ROOT


def test_the_host_type_checks(tmp_path):
    env = dict(os.environ, MYPYPATH=os.pathsep.join([str(ROOT / "host"),
                                                    str(ROOT / "firmware")]))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--hide-error-context",
         "--ignore-missing-imports", "--explicit-package-bases",
         "--cache-dir", str(tmp_path / "cache"), "host/crib"],
        cwd=ROOT, env=env, capture_output=True, text=True)
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert proc.returncode == 0 and errors == [], proc.stdout + proc.stderr
