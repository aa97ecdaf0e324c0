"""The guides come with crib (`crib docs NAME`), and everything the help and the guides point
at is there for someone who installed the wheel: other guides, files of the package, the
files `crib hardware all` writes; never the tests, the benches or a source checkout."""

import io
import re
import zipfile
from pathlib import PurePosixPath

import pytest
from support import ROOT
from test_wheel import crib, wheel_venv  # noqa: F401 (the installed wheel, a fixture)

from crib.cli import VERBS, main
from crib.commands.docs import GUIDES
from crib.commands.hardware import FILES, HAND
from crib.env import Env

pytestmark = pytest.mark.slow

REPO_PATH = re.compile(r"(?<![\w./~:-])((?:docs|host|firmware|hardware|tests|bench|\.ci)/"
                       r"[\w./-]*[\w/])")
BARE_FILE = re.compile(r"(?<![\w./-])([\w-]+\.(?:md|py|csv|svg|dxf|pdf))\b")
LINK = re.compile(r"\]\(([^)\s]+)\)")
CRIB_DOCS = re.compile(r"`crib docs ([a-z]\w*)")  # not a placeholder: `crib docs NAME`
HARDWARE = {n for names in (*FILES.values(), HAND) for n in names}  # `crib hardware` writes


def unresolved(text, where, wheel):
    """The references in text that an installed user cannot follow. where: "docs" (a
    shipped guide, in crib/docs), "hardware" (the build guide, beside the files `crib
    hardware all` writes) or "help"; wheel: the names in the wheel."""
    def in_wheel(path):
        return path in wheel or any(n.startswith(path.rstrip("/") + "/") for n in wheel)

    def here(name):  # a file named alone: beside the text
        if where == "docs":
            return in_wheel("crib/docs/" + name)
        return where == "hardware" and name in HARDWARE

    bad = []
    for path in REPO_PATH.findall(text):
        top, _, rest = path.partition("/")
        if top == "hardware":
            ok = rest in HARDWARE or rest == ""
        else:  # host/crib/x.py is crib/x.py; tests/ and bench/ are in no wheel
            inside = {"docs": "crib/docs/", "host": "", "firmware": "crib/firmware/"}
            ok = top in inside and in_wheel(inside[top] + rest)
        if not ok:
            bad.append(path)
    for name in BARE_FILE.findall(REPO_PATH.sub("", text)):  # a file of the package
        if not here(name) and not any(n.rsplit("/", 1)[-1] == name for n in wheel):
            bad.append(name)
    for target in LINK.findall(text):
        target = target.split("#")[0]
        if target and not re.match(r"https?://", target) and not here(target):
            bad.append(target)
    bad += ["crib docs " + n for n in CRIB_DOCS.findall(text) if n not in GUIDES + ("hardware",)]
    bad += re.findall(r"pip install -e\b[^\n]*", text)
    return bad


def test_the_checker_finds_what_an_installed_user_lacks():
    wheel = {"crib/docs/table.md", "crib/firmware/config.json", "crib/board/link.py"}
    ok = ("See table.md, [table](table.md), docs/table.md, firmware/config.json, "
          "host/crib/board/link.py, `crib docs table`, https://example.org/x.md")
    assert unresolved(ok, "docs", wheel) == []
    bad = ("tests/test_palette.py, bench/web.py, docs/internals.md, RULES.md, "
           "[x](../README.md), `crib docs nothing`, pip install -e .")
    assert unresolved(bad, "docs", wheel) == [
        "tests/test_palette.py", "bench/web.py", "docs/internals.md", "RULES.md",
        "../README.md", "crib docs nothing", "pip install -e ."]
    assert unresolved("[BOM](BOM.csv) and pins.md", "hardware", set()) == []


@pytest.fixture(scope="module")
def wheel_names(wheel_venv):  # noqa: F811
    return set(zipfile.ZipFile(wheel_venv[2]).namelist())


def test_the_wheel_carries_every_guide(wheel_names):
    shipped = {PurePosixPath(n).stem for n in wheel_names
               if n.startswith("crib/docs/") and n.endswith(".md")}
    assert shipped == set(GUIDES)


@pytest.mark.parametrize("name", GUIDES)
def test_crib_docs_shows_a_guide_from_the_wheel(wheel_venv, name):  # noqa: F811
    shown = crib(wheel_venv, "docs", name).stdout
    assert shown == (ROOT / "docs" / (name + ".md")).read_text(encoding="utf-8")
    path = crib(wheel_venv, "docs", name, "--path").stdout.strip()
    assert str(wheel_venv[0].parent) in path and path.endswith("crib/docs/%s.md" % name)


def test_crib_docs_lists_the_guides_and_refuses_others(wheel_venv):  # noqa: F811
    listed = crib(wheel_venv, "docs").stdout.splitlines()[1:]
    assert [line.split()[0] for line in listed] == list(GUIDES) + ["hardware"]
    done = crib(wheel_venv, "docs", "nope", ok=False)
    assert done.returncode == 1 and done.stderr.startswith("crib: error: no guide 'nope'")
    assert crib(wheel_venv, "docs", "hardware").stdout.startswith("# Building the board")


@pytest.mark.parametrize("name", GUIDES)
def test_every_reference_in_a_shipped_guide_resolves(wheel_names, name):
    text = (ROOT / "docs" / (name + ".md")).read_text(encoding="utf-8")
    assert unresolved(text, "docs", wheel_names) == []


def test_every_reference_in_the_build_guide_resolves(wheel_venv, wheel_names):  # noqa: F811
    text = crib(wheel_venv, "hardware", "guide").stdout
    assert unresolved(text, "hardware", wheel_names) == []


def test_every_reference_in_the_help_resolves(wheel_venv, wheel_names):  # noqa: F811
    texts = {"crib": crib(wheel_venv, "--help").stdout}
    for verb in VERBS:
        texts[verb] = crib(wheel_venv, verb, "--help").stdout
    bad = {verb: unresolved(text, "help", wheel_names) for verb, text in texts.items()}
    assert {verb: refs for verb, refs in bad.items() if refs} == {}


def test_the_source_checkout_shows_the_same_guides(capsys):
    env = Env(io.StringIO(), io.StringIO(), io.StringIO(), {})
    assert main(["docs", "table"], env) == 0
    assert env.stdout.getvalue() == (ROOT / "docs" / "table.md").read_text(encoding="utf-8")
