"""The core's public API (the table engine, the room, the seats, the record) is typed for
the host by stub files beside the modules (firmware/cribcore/table/*.pyi), while the
modules stay MicroPython's: each stub names what its module defines, and mypy takes the
stubs (a wrong call of the core from the host is an error)."""

import ast
import os
import subprocess
import sys

import pytest
from support import FIRMWARE, ROOT

TABLE = FIRMWARE / "cribcore" / "table"
STUBBED = ("engine", "room", "seats", "record")


def public(tree):
    """{name: set of public method names (None for a function or a value)} at top level."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {n.name for n in node.body
                              if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[node.name] = None
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    out[t.id] = None
    return {k: v for k, v in out.items() if not k.startswith("_")}


@pytest.mark.parametrize("name", STUBBED)
def test_each_stub_names_what_its_module_defines(name):
    module = public(ast.parse((TABLE / (name + ".py")).read_text()))
    stub = public(ast.parse((TABLE / (name + ".pyi")).read_text()))
    assert sorted(module) == sorted(stub)
    # each class's public methods (a namedtuple is a value in the module, a class here)
    assert {k: v for k, v in module.items() if v is not None} == {
        k: stub[k] for k, v in module.items() if v is not None}


WRONG = """
from cribcore.table.room import Room
from cribcore.table.seats import Refused, seat_token

Room(None).act(1, {})
Refused("409", 5)
seat_token(b"key", 0).hex()
"""


def test_mypy_takes_the_stubs(tmp_path):
    (tmp_path / "wrong.py").write_text(WRONG)
    env = dict(os.environ, MYPYPATH=str(FIRMWARE))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--hide-error-context",
         "--ignore-missing-imports", "--explicit-package-bases",
         "--cache-dir", str(tmp_path / "cache"), str(tmp_path / "wrong.py")],
        cwd=ROOT, env=env, capture_output=True, text=True)
    lines = [ln.split(": error: ", 1)[0].rsplit(":", 1)[-1]
             for ln in proc.stdout.splitlines() if ": error: " in ln]
    # the engine, the request's kind; the status, the message; the key; str has no hex
    assert sorted(set(lines)) == ["5", "6", "7"], proc.stdout
