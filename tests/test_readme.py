"""The README stays true: CI runs its test command, its links and layout paths exist."""

import re

from support import ROOT

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
