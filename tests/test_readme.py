"""The README stays true: CI runs its test command, its links and layout paths exist."""

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT, read_until

README = (ROOT / "README.md").read_text()


def _sh_blocks():
    return re.findall(r"```sh\n(.*?)```", README, re.S)


def test_ci_runs_the_readme_test_command():
    """.ci/run runs exactly the README's test command (the tiers that need more follow)."""
    readme = _sh_blocks()[1].strip()
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert readme in lines
    assert "pytest" in readme and ".[test]" in readme


def test_quick_start_has_two_setup_commands_and_the_main_one_runs_crib_play():
    first, second = [b.strip() for b in _sh_blocks()[:2]]
    assert len(first.splitlines()) == 1 and len(second.splitlines()) == 1
    assert first.endswith("crib play")
    assert "pip install" in first and "pip install" in second


def test_linked_files_exist():
    links = re.findall(r"\]\(([^)#]+)\)", README)
    assert len(links) >= 8
    for link in links:
        assert (ROOT / link).exists(), link


def test_layout_paths_exist():
    block = re.search(r"```\n(firmware/main\.py.*?)```", README, re.S)
    paths = re.findall(r"^(\S+/\S*)\s{2,}", block.group(1), re.M)
    assert len(paths) >= 8
    for p in paths:
        assert (ROOT / p).exists(), p


def test_every_verb_is_in_the_readme():
    from crib.cli import _verbs

    for verb, _ in _verbs():
        assert "crib %s" % verb in README, verb


def test_every_bench_script_is_listed():
    for script in sorted((ROOT / "bench").glob("*.py")):
        assert "`%s`" % script.name in README, script.name


# -- the examples, run as written -------------------------------------------------------------

def _example_lines(block):
    """(command, comment) of each line of an sh block."""
    out = []
    for line in block.strip().splitlines():
        command, _, comment = line.partition("  #")
        out.append((command.strip(), comment.strip()))
    return out


@pytest.fixture
def player_dir(tmp_path):
    """A folder as a player has it after the quick start: .venv holds crib (this test venv),
    and the data folder is the test's own."""
    venv = Path(sys.prefix)
    assert (venv / "bin" / "crib").exists(), "the tests run from the venv the README makes"
    (tmp_path / ".venv").symlink_to(venv)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), NO_COLOR="1", TERM="xterm")
    return tmp_path, env


def _sh(command, player_dir, stdin=None):
    cwd, env = player_dir
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, input=stdin,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])
    return done.stdout


def test_the_quick_start_play_runs_as_written(player_dir):
    first = _sh_blocks()[0].strip()
    play = first.rsplit("&&", 1)[1].strip()  # the venv and the install are this test's own
    assert play == ".venv/bin/crib play"
    out = _sh(play, player_dir, stdin="Alice Bob\n61\nAlice\nquit\n")
    assert "virtual board" in out and "Alice" in out and "--resume" in out


def test_the_try_it_examples_run_as_written(player_dir):
    block = next(b for b in _sh_blocks() if "crib score" in b)
    (score, worth), (sim, _), (peg, _) = _example_lines(block)
    assert score.startswith(".venv/bin/crib score") and sim == ".venv/bin/crib sim"
    assert _sh(score, player_dir).splitlines()[-1].split() == ["total", worth]
    # `crib sim` at a terminal, and the board command from a second one while it runs.
    master, slave = pty.openpty()
    cwd, env = player_dir
    proc = subprocess.Popen(["bash", "-c", sim], cwd=cwd, env=env, stdin=slave,
                            stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    try:
        assert b"keys: 1-3" in read_until(master, b"q quit")
        out = _sh(peg, player_dir)
        assert "12" in out
        assert re.search(rb"Red +12 ", read_until(master, b"Red       12 "))
        os.write(master, b"1")  # a tap: +1, pegged after the pause
        assert re.search(rb"Red +13 ", read_until(master, b"Red       13 "))
        os.write(master, b"q")
        proc.wait(20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert proc.returncode == 0
