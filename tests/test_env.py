"""crib.env.Env: a verb writes to the streams and reads the environment it is given, never
the process's own (so a test, a script or another front end can give its own)."""

import io

import pytest

from crib.cli import main
from crib.env import Env, data_dir


class Tty(io.StringIO):
    def isatty(self):
        return True


def _env(tmp_path, stdin="", tty=False, **environ):
    environ.setdefault("XDG_DATA_HOME", str(tmp_path))
    out = Tty() if tty else io.StringIO()
    return Env(io.StringIO(stdin), out, io.StringIO(), environ)


@pytest.mark.parametrize("argv", [
    ["score", "5h", "5c", "5d", "jh", "5s"],
    ["peg", "5h", "tc"],
    ["discard", "5h", "5c", "5d", "jh", "js", "qs", "--dealer"],
    ["history"],
    ["stats"],
    ["shuffle", "--seed", "7", "--solve", "--time-limit", "0.1"],
    ["hardware", "pins"],
    ["deploy", "--dry-run", "--port", "/dev/does-not-exist"],
])
def test_a_verb_writes_only_to_its_env(argv, tmp_path, capsys):
    env = _env(tmp_path)
    assert main(argv, env) == 0
    assert env.stdout.getvalue().strip()
    assert capsys.readouterr() == ("", "")


def test_errors_go_to_the_env_stderr(tmp_path, capsys):
    env = _env(tmp_path)
    assert main(["score", "5h", "5h", "5d", "jh", "5s"], env) == 1
    assert env.stderr.getvalue().startswith("crib: error: ")
    assert capsys.readouterr() == ("", "")


def test_the_data_folder_comes_from_the_env(tmp_path):
    env = _env(tmp_path)
    assert main(["history"], env) == 0
    assert str(tmp_path / "crib" / "history.sqlite3") in env.stdout.getvalue()
    assert data_dir({"XDG_DATA_HOME": "/x"}).as_posix() == "/x/crib"
    assert data_dir({}).name == "crib"


def test_a_game_reads_the_env_stdin(tmp_path, capsys):
    env = _env(tmp_path, "Alice Bob\n61\nAlice\nquit\n")
    assert main(["play", "--board", "none"], env) == 0
    out = env.stdout.getvalue()
    assert "Alice" in out and "Bob" in out
    assert capsys.readouterr() == ("", "")


# Every verb that colours at a terminal (through the one writer, crib.ui.lines, or the
# Env's colour()), with the input that gets it to print.
COLOURED = [
    (["score", "5h", "5c", "5d", "jh", "5s"], ""),
    (["discard", "5h", "5c", "5d", "jh", "js", "qs", "--dealer"], ""),
    (["shuffle", "--seed", "7", "--solve", "--time-limit", "0.1"], ""),
    (["play", "--board", "none"], "Alice Bob\n61\nAlice\nquit\n"),
    (["practice", "--board", "none", "--seed", "3"], "quit\n"),
    (["board", "--board", "sim", "--store", "{tmp}/sim", "status"], ""),
]


@pytest.mark.parametrize("argv, stdin", COLOURED, ids=[a[0] for a, _ in COLOURED])
@pytest.mark.parametrize("no_color, coloured", [(None, True), ("", True), ("1", False)])
def test_colour_follows_the_env_and_no_color(tmp_path, argv, stdin, no_color, coloured):
    extra = {} if no_color is None else {"NO_COLOR": no_color}  # "" is unset (no-color.org)
    env = _env(tmp_path, stdin, tty=True, **extra)
    assert main([a.format(tmp=tmp_path) for a in argv], env) == 0
    out = env.stdout.getvalue()
    assert out.strip() and ("\x1b[" in out) == coloured
