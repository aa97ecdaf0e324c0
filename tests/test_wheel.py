"""A wheel holds everything the commands need: built from a copy of the source, installed
into a fresh venv outside the source tree, and run there as a player would.

The wheel's dependencies come from pip's cache (or PyPI) like any install; the venv is made
without pip (this venv's pip installs into it with --python), which saves a few seconds.
"""

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT, TESTS

from crib.cli import main
from crib.env import Env

sys.path.insert(0, str(TESTS / "table"))  # the table tests' game scripts
from tablescript import Script, rows  # noqa: E402

pytestmark = pytest.mark.slow

SOURCE = ("pyproject.toml", "README.md", "firmware", "host", "docs")  # what a build reads
NOISE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mpy", "*.egg-info", "build")


def _run(cmd, **kw):
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                          timeout=300, **kw)
    assert done.returncode == 0, (cmd, done.stdout[-2000:], done.stderr[-2000:])
    return done


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory):
    """(bin folder of a fresh venv with the wheel installed, a folder to run in, the wheel)."""
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"  # a clean copy: no build/ left over from an earlier build
    src.mkdir()
    for name in SOURCE:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=NOISE)
        else:
            shutil.copy2(path, src / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    _run(pip + ["wheel", "--no-deps", "-q", "-w", work / "dist", src])
    (wheel,) = (work / "dist").glob("ledcrib-*.whl")
    venv = work / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    _run(pip + ["--python", bindir / "python", "install", "-q", wheel])
    shutil.rmtree(src)  # nothing of the source tree is left to lean on
    home = work / "home"  # where the commands run: not the source tree
    home.mkdir()
    return bindir, home, wheel


def crib(wheel_venv, *args, stdin=None, ok=True):
    """Run the installed `crib` with args in the venv's own folder; the CompletedProcess."""
    bindir, home, _ = wheel_venv
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(XDG_DATA_HOME=str(home / "data"), NO_COLOR="1",
               PATH=str(bindir) + os.pathsep + env.get("PATH", ""))
    done = subprocess.run([str(bindir / "crib"), *args], capture_output=True, text=True,
                          cwd=home, env=env, input=stdin, timeout=300)
    if ok:
        assert done.returncode == 0, (args, done.stdout[-3000:], done.stderr[-3000:])
    return done


def test_the_wheel_carries_the_firmware_tree(wheel_venv):
    import zipfile

    names = set(zipfile.ZipFile(wheel_venv[2]).namelist())
    firmware = {p.relative_to(ROOT / "firmware").as_posix()
                for p in (ROOT / "firmware").rglob("*")
                if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".mpy"}
    assert {"main.py", "desk.py", "config.json"} <= firmware
    assert {"crib/firmware/" + f for f in firmware} <= names
    assert "cribcore/show.py" in names and "pegboard/app.py" in names
    # Every file of the companion too, package data (the web page's templates) included.
    host = {"crib/" + p.relative_to(ROOT / "host" / "crib").as_posix()
            for p in (ROOT / "host" / "crib").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}
    assert any(not p.endswith(".py") for p in host)
    assert sorted(host - names) == []


def test_version_names_the_installed_firmware_folder(wheel_venv):
    out = crib(wheel_venv, "--version").stdout
    assert out.startswith("crib 0.1.0 (ledcrib; protocol ")
    firmware = Path(out.rsplit("firmware ", 1)[1].rstrip(")\n"))
    venv = wheel_venv[0].parent
    assert firmware.parts[-2:] == ("crib", "firmware")
    assert venv in firmware.parents and ROOT not in firmware.parents
    assert (firmware / "desk.py").is_file() and (firmware / "main.py").is_file()


def test_score(wheel_venv):
    out = crib(wheel_venv, "score", "5H", "5C", "5S", "JD", "5D").stdout
    assert out.splitlines()[-1].split() == ["total", "29"]


def test_the_virtual_board_runs_from_the_wheel(wheel_venv):
    status = json.loads(crib(wheel_venv, "board", "--board", "sim", "status", "--json").stdout)
    assert status["board"]["lanes"] == 3 and status["board"]["desk"] == 1
    assert status["state"]["pegs"] == [[0, 0]] * 3


def _from_source(argv, tmp_path):
    """What the same command prints from this source checkout (the editable install)."""
    env = Env(io.StringIO(), io.StringIO(), io.StringIO(), {"XDG_DATA_HOME": str(tmp_path)})
    assert main(argv, env) == 0
    return env.stdout.getvalue()


def test_deploy_dry_run_plans_the_same_files_as_the_source_tree(wheel_venv, tmp_path):
    got = crib(wheel_venv, "deploy", "--dry-run").stdout
    want = _from_source(["deploy", "--dry-run"], tmp_path)
    writes = [ln for ln in got.splitlines() if ln.startswith("write ")]
    assert len(writes) > 20 and any(ln.startswith("write main.py ") for ln in writes)
    assert got == want  # every file, size and hash as a source checkout compiles them


def test_the_hardware_documents_read_the_shipped_layout(wheel_venv, tmp_path):
    got = crib(wheel_venv, "hardware", "pins").stdout
    assert "| GP0 |" in got and got == _from_source(["hardware", "pins"], tmp_path)


def test_play_a_scripted_hand_on_the_virtual_board(wheel_venv):
    home = wheel_venv[1]
    s = Script(["Alice", "Bob"], 61, seed=51)
    s.hand(play="cards", show="cards")
    db = home / "hand.sqlite3"
    store = home / "sim"
    done = crib(wheel_venv, "play", "--db", str(db), "--board", "sim", "--store", str(store),
                "--names", "Alice,Bob", "--target", "61", "--dealer", "Alice",
                stdin=s.text() + "quit\n")
    assert "--resume" in done.stdout  # stopped after the hand, the game saved
    pegged = sum(r["points"] for r in rows(db, "SELECT points FROM entries WHERE undone IS NULL"))
    assert pegged == sum(s.game.scores) > 0
    board = json.loads(crib(wheel_venv, "board", "--board", "sim", "--store", str(store),
                            "status", "--json").stdout)
    assert [p[1] for p in board["state"]["pegs"]] == list(s.game.scores)
