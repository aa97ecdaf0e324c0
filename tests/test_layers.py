"""The layout holds: import-linter's contracts in pyproject.toml (the host's layers, only the
CLI importing the commands, the core never importing the host or the firmware, the
board's layers (boardweb over pegboard over cribcore), microdot only in boardweb, the
desk runner imported only by boardweb's unix runner, the host never importing the
board's app or its server, each third-party package in its own package, no import cycles
between the modules of any package) are checked on every test run, and break when a
forbidden import is planted."""

import os
import shutil
import subprocess
import sys

from importlinter.cli import lint_imports
from support import FIRMWARE, ROOT

CONTRACTS = ("The host's layers", "Only the CLI imports the commands",
             "The core and the firmware never import the host",
             "The shared core never imports the firmware",
             "The board's layers: its web server, the app, the core",
             "Only boardweb's unix runner imports the desk runner",
             "microdot only in boardweb",
             "The host never imports the board's app or its web server",
             "pyserial only in crib.board",
             "starlette, uvicorn and jinja2 only in crib.web",
             "sqlite3 only in crib.history",
             "No import cycles between the modules of a package")


def test_the_import_contracts_are_kept(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(FIRMWARE))  # boardweb is not an installed package
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True,
                        no_logo=True)
    out = capsys.readouterr().out
    assert code == 0, out
    for name in CONTRACTS:
        assert "%s KEPT" % name in out
    assert "Contracts: %d kept, 0 broken." % len(CONTRACTS) in out


def test_sql_lives_in_the_history_package_only():
    host = ROOT / "host" / "crib"
    found = [str(p.relative_to(host)) for p in host.rglob("*.py")
             if p.parent.name != "history"
             and any(word in p.read_text() for word in ("SELECT ", "INSERT ", "sqlite3"))]
    assert found == []


# (file, a line planted at its end, the contract it breaks, what the report names)
PLANTS = (
    ("firmware/pegboard/wifi.py", "from boardweb import serve as _planted",
     "The board's layers: its web server, the app, the core", "pegboard.wifi -> boardweb"),
    ("host/crib/board/state.py", "from pegboard.app import SETTINGS as _planted",
     "The host never imports the board's app or its web server",
     "crib.board.state -> pegboard.app"),
    ("firmware/pegboard/render.py", "import microdot as _planted",
     "microdot only in boardweb", "pegboard.render -> microdot"),
    ("firmware/pegboard/app.py", "import desk as _planted",
     "Only boardweb's unix runner imports the desk runner", "pegboard.app -> desk"),
    ("firmware/cribcore/settings.py", "import cribcore.protocol as _planted",
     "No import cycles between the modules of a package", ".settings -> .protocol"),
)


def test_the_contracts_break_when_a_forbidden_import_is_planted(tmp_path):
    """A copy of the tree with one forbidden import planted for each contract above:
    lint-imports reports each contract broken, at the planted import."""
    for part in ("firmware", "host"):
        shutil.copytree(ROOT / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for path, line, _, _ in PLANTS:
        with open(tmp_path / path, "a") as f:
            f.write("\n%s  # noqa\n" % line)
    # The copy first on the path, ahead of the installed (editable) packages.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path / "host"), str(tmp_path / "firmware")]))
    proc = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import "
                           "lint_imports_command; sys.exit(lint_imports_command())",
                           "--config", str(tmp_path / "pyproject.toml"), "--no-cache"],
                          capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=600)
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert "%s/firmware/pegboard/wifi.py" % tmp_path in subprocess.run(
        [sys.executable, "-c", "import pegboard.wifi; print(pegboard.wifi.__file__)"],
        capture_output=True, text=True, env=env, cwd=tmp_path).stdout  # the copy it read
    report = out.split("Broken contracts")[1]
    for _, _, contract, names in PLANTS:
        assert "%s BROKEN" % contract in out, contract
        assert names in report, names
    assert "Contracts: %d kept, %d broken." % (
        len(CONTRACTS) - len(PLANTS), len(PLANTS)) in out, out


def test_the_desk_runner_imports_neither_the_host_nor_the_web_server():
    """The desk runner is a module (import-linter takes packages as roots): what it has
    imported once it has answered, run as the host runs it."""
    code = ("import atexit, runpy, sys\n"
            "atexit.register(lambda: print(sorted(m for m in sys.modules if m.split('.')[0]"
            " in ('crib', 'boardweb', 'microdot'))))\n"
            "sys.argv = ['desk.py']\n"
            "runpy.run_path(%r, run_name='__main__')\n" % str(FIRMWARE / "desk.py"))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=FIRMWARE, timeout=120, input="hello\nstate\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[1].startswith("ok rev=") and lines[-1] == "[]", proc.stdout
