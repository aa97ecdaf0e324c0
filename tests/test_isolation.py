"""No test reads or writes the user's own data: each runs with a private HOME and data folder
(tests/conftest.py), and the test command passes for someone who has a game in progress."""

import os
import subprocess
import sys
from pathlib import Path

import isolation
from support import ROOT

from crib.env import data_dir


def _inside(path, folder):
    return Path(folder).resolve() in Path(path).resolve().parents


def test_a_test_has_a_private_home_and_data_folder_of_its_own(private_home, tmp_path_factory):
    assert os.environ["HOME"] == str(private_home)
    assert _inside(private_home, tmp_path_factory.getbasetemp())
    assert not os.listdir(private_home)  # new for this test
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        assert _inside(os.environ[name], private_home), name
    assert _inside(data_dir(), private_home)
    assert _inside(os.path.expanduser("~/.local/share/crib"), private_home)


def test_the_processes_a_test_starts_have_it_too(private_home):
    code = "from crib.env import data_dir; import os; print(data_dir()); print(os.environ['HOME'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    folder, home = done.stdout.splitlines()
    assert home == str(private_home) and _inside(folder, private_home)


def test_the_user_s_board_and_store_are_not_inherited(tmp_path):
    env = dict(os.environ, CRIB_SIM_STORE=str(tmp_path / "mine"), CRIB_PORT="/dev/ttyACM9")
    env.pop(isolation.REAL_FOLDERS)
    code = ("import os, isolation; real, home = isolation.redirect_session(); "
            "print(os.environ.get('CRIB_SIM_STORE'), os.environ.get('CRIB_PORT'), real[-1])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=Path(isolation.__file__).parent, timeout=60, check=True)
    assert done.stdout.split() == ["None", "None", str(tmp_path / "mine")]


def test_the_guard_sees_a_file_written_in_a_data_folder(tmp_path):
    folders = [str(tmp_path / "crib")]
    before = isolation.snapshot(folders)
    assert before == {}
    (tmp_path / "crib").mkdir()
    (tmp_path / "crib" / "history.sqlite3").write_text("x")
    after = isolation.snapshot(folders)
    assert isolation.changes(before, after) == sorted(
        [folders[0], folders[0] + "/history.sqlite3"])
    (tmp_path / "crib" / "history.sqlite3").write_text("xy")
    assert isolation.changes(after, isolation.snapshot(folders)) == [
        folders[0] + "/history.sqlite3"]


def _user_env(home):
    """The environment of a user whose HOME is home, with no XDG folders set."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("XDG_") and k != isolation.REAL_FOLDERS}
    env.update(HOME=str(home), NO_COLOR="1")
    return env


def test_the_test_command_passes_after_a_game_is_left_unfinished(tmp_path):
    """The issue's repro: a player starts `crib play`, answers the names, the target and the
    dealer and stops; the tests that ask the data folder (crib shuffle's) still pass, and the
    player's data folder is as the game left it."""
    home = tmp_path / "player"
    home.mkdir()
    env = _user_env(home)
    game = subprocess.run([sys.executable, "-m", "crib", "play", "--board", "none"],
                          input="Alice,Bob\n121\nAlice\n", capture_output=True, text=True,
                          env=env, cwd=home, timeout=120)
    assert "crib play --resume" in game.stdout + game.stderr
    saved = home / ".local" / "share" / "crib" / "history.sqlite3"
    assert saved.is_file()
    player = [str(saved.parent)]
    before = isolation.snapshot(player)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
         "--basetemp", str(tmp_path / "basetemp"), "tests/test_shuffle.py",
         "-k", "session or virtual_board"],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "4 passed" in done.stdout and "failed" not in done.stdout, done.stdout[-500:]
    assert isolation.changes(before, isolation.snapshot(player)) == []
