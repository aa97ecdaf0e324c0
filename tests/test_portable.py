"""crib starts wherever Python runs: no POSIX-only module is imported when a module loads
(Windows has no termios, tty, pty or fcntl), the virtual board listens on TCP where there
are no pseudo terminals, and the data folder comes from platformdirs."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from crib.board.link import Link
from crib.cli import VERBS, main
from crib.env import Env, data_dir, legacy_data_dir
from crib.sim import virtual
from crib.sim.store import SimError, running_sim
from crib.sim.virtual import VirtualBoard

POSIX_ONLY = ("termios", "tty", "pty", "fcntl")

# Run in a fresh interpreter: every `import` statement written in crib, cribcore or pegboard
# is refused for the POSIX-only modules. The hook sits on builtins.__import__ rather than
# sys.meta_path so it also catches a module some library (pyserial's POSIX half) has loaded
# already; a library's own imports pass, since on Windows it takes its Windows half.
BLOCKER = """
import builtins, importlib, json, pkgutil, sys

BLOCKED = set(%r)
OURS = ("crib", "cribcore", "pegboard")
refused = []
_import = builtins.__import__

def guarded(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {}).get("__name__") or ""
    if level == 0 and name.split(".")[0] in BLOCKED and importer.split(".")[0] in OURS:
        refused.append((importer, name))
        raise ModuleNotFoundError("No module named %%r" %% name, name=name)
    return _import(name, globals, locals, fromlist, level)

builtins.__import__ = guarded
""" % (POSIX_ONLY,)


def run_blocked(body):
    """Run BLOCKER then body in a fresh interpreter; its last line of output, as JSON."""
    done = subprocess.run([sys.executable, "-c", BLOCKER + body], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_blocker_refuses_what_it_should():
    # The hook under test works: a crib-named module importing termios is refused.
    got = run_blocked("""
failed = []
for name in BLOCKED:
    try:
        exec("import %s" % name, {"__name__": "crib.something"})
    except ModuleNotFoundError:
        failed.append(name)
print(json.dumps(sorted(failed)))
""")
    assert got == sorted(POSIX_ONLY)


def test_every_module_imports_without_posix_only_modules():
    got = run_blocked("""
loaded, failed = [], []
for pkg in OURS:
    for info in pkgutil.walk_packages(importlib.import_module(pkg).__path__, pkg + "."):
        if info.name.endswith("__main__"):
            continue  # running it is `crib` itself
        try:
            importlib.import_module(info.name)
            loaded.append(info.name)
        except ImportError as e:
            failed.append([info.name, str(e)])
print(json.dumps({"loaded": loaded, "failed": failed, "refused": refused}))
""")
    assert got["failed"] == [] and got["refused"] == []
    # Every verb's module and the modules that use a pty, a lock or raw keys were loaded.
    assert set(VERBS.values()) | {"crib.sim.virtual", "crib.sim.store", "crib.ui.prompt",
                                  "crib.commands.sim"} <= set(got["loaded"])


def test_every_verb_shows_its_help_without_posix_only_modules():
    got = run_blocked("""
import contextlib, io
from crib.cli import VERBS, main
codes = {}
for verb in list(VERBS) + [None]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            main([verb, "--help"] if verb else ["--help"])
        except SystemExit as e:
            codes[verb or "crib"] = [e.code, out.getvalue().splitlines()[0]]
print(json.dumps({"codes": codes, "refused": refused}))
""")
    assert got["refused"] == []
    assert sorted(got["codes"]) == sorted(list(VERBS) + ["crib"])
    for verb, (code, first) in got["codes"].items():
        assert code == 0, verb
        assert first.startswith("usage: crib" + ("" if verb == "crib" else " " + verb)), first


def test_commands_run_without_posix_only_modules(tmp_path):
    # Not only the help: a scoring verb, the history and the deploy plan run too.
    got = run_blocked("""
import contextlib, io
from crib.cli import main
from crib.env import Env
runs = {}
for argv in (["score", "5h", "5c", "5s", "jd", "5d", "--json"], ["history"],
             ["deploy", "--dry-run", "--port", "COM3"]):
    env = Env(io.StringIO(), io.StringIO(), io.StringIO(), {"XDG_DATA_HOME": %r})
    runs[argv[0]] = [main(argv, env), env.stdout.getvalue()]
print(json.dumps({"runs": runs, "refused": refused}))
""" % str(tmp_path))
    assert got["refused"] == []
    assert {verb: code for verb, (code, _) in got["runs"].items()} == {
        "score": 0, "history": 0, "deploy": 0}
    assert json.loads(got["runs"]["score"][1])["total"] == 29
    assert "connect to COM3 with mpremote" in got["runs"]["deploy"][1]


# -- no pseudo terminals: the virtual board on TCP -------------------------------------------

def test_without_ptys_the_virtual_board_listens_on_a_socket(tmp_path, monkeypatch):
    monkeypatch.setattr(virtual, "HAS_PTY", False)
    store = str(tmp_path / "sim")
    with VirtualBoard(store) as vb:  # asked for a pty, as `crib sim` does by default
        assert vb.port is None and vb.url.startswith("socket://127.0.0.1:")
        assert running_sim(store) == vb.url  # other commands find it through the store
        link = Link.open(vb.url)
        try:
            link.peg(0, 7)
            assert link.state().pegs[0][1] == 7
        finally:
            link.close()
    assert running_sim(store) is None


def test_sim_without_ptys_prints_a_socket_other_commands_can_use(tmp_path):
    # `crib sim` as a player starts it where os.openpty does not exist.
    code = ("import os, sys; del os.openpty; from crib.cli import main; "
            "sys.exit(main(sys.argv[1:]))")
    store = tmp_path / "sim"
    proc = subprocess.Popen([sys.executable, "-c", code, "sim", "--store", str(store)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        head = proc.stdout.readline()
        assert head.startswith("virtual board on socket://127.0.0.1:"), head
        url = head.split()[-1]
        env = {"XDG_DATA_HOME": str(tmp_path)}
        out = io.StringIO()
        assert main(["board", "--port", url, "status", "--json"],
                    Env(io.StringIO(), out, io.StringIO(), env)) == 0
        assert json.loads(out.getvalue())["board"]["lanes"] == 3
    finally:
        proc.terminate()
        proc.wait(20)
    assert proc.returncode == 0
    assert not (store / "sim.port").exists()  # tidied up at SIGTERM


# -- the data folder -------------------------------------------------------------------------

def test_the_data_folder_follows_xdg_data_home_first():
    assert data_dir({"XDG_DATA_HOME": "/x"}) == Path("/x") / "crib"


def test_the_data_folder_is_platformdirs_else_the_old_one(tmp_path, monkeypatch):
    import platformdirs

    new = tmp_path / "Application Support" / "crib"
    monkeypatch.setattr(platformdirs, "user_data_path", lambda app, appauthor: new)
    monkeypatch.setenv("HOME", str(tmp_path))
    old = legacy_data_dir()
    assert old == tmp_path / ".local" / "share" / "crib"
    assert data_dir({}) == new  # a new user: the platform's folder
    old.mkdir(parents=True)
    (old / "history.sqlite3").write_bytes(b"")
    assert data_dir({}) == old  # an older crib's data is kept in use, not moved
    new.mkdir(parents=True)
    assert data_dir({}) == new  # once the platform's folder exists it wins


@pytest.mark.skipif(sys.platform != "linux", reason="the Linux folder is checked on Linux")
def test_on_linux_the_folder_is_where_crib_always_kept_it(monkeypatch):
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert data_dir({}) == Path(os.path.expanduser("~")) / ".local" / "share" / "crib"


def test_where_the_virtual_board_cannot_run_it_says_so(tmp_path, monkeypatch):
    # Windows: no selectable pipes. A clear error, not a traceback, and nothing left behind.
    monkeypatch.setattr(virtual, "RUNS_HERE", False)
    store = tmp_path / "sim"
    with pytest.raises(SimError, match="does not run on Windows yet"):
        VirtualBoard(str(store)).start()
    env = Env(io.StringIO(), io.StringIO(), io.StringIO(), {"XDG_DATA_HOME": str(tmp_path)})
    assert main(["board", "--board", "sim", "--store", str(store), "status"], env) == 1
    assert env.stderr.getvalue().startswith("crib: error: the virtual board does not run")
    assert not store.exists()


def test_where_the_virtual_board_cannot_run_play_goes_on_without_a_board(tmp_path,
                                                                         monkeypatch):
    monkeypatch.setattr(virtual, "RUNS_HERE", False)
    monkeypatch.setattr("crib.connect.list_ports", lambda *a, **kw: [])  # no Pico attached
    env = Env(io.StringIO("Alice Bob\n61\nAlice\nquit\n"), io.StringIO(), io.StringIO(),
              {"XDG_DATA_HOME": str(tmp_path)})
    assert main(["play"], env) == 0
    out = env.stdout.getvalue()
    assert "the virtual board does not run here: playing without a board" in out
    assert "Game 1: Alice v Bob to 61" in out and not (tmp_path / "crib" / "sim").exists()
