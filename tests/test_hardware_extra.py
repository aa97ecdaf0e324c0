"""A player's install is light: the packages only the hardware documents need (schemdraw,
ezdxf with numpy and fontTools, fpdf2 with pillow) come with the `hardware` extra, and
`crib hardware` says how to get it when it is missing."""

import io
import subprocess
import sys
from importlib.metadata import requires

import pytest
from support import ROOT

from crib.cli import main
from crib.commands.hardware import EXTRA
from crib.env import Env

HEAVY = {"schemdraw", "ezdxf", "fpdf2", "numpy", "fonttools", "pillow"}


def _name(req):
    return req.split(";")[0].split("==")[0].split("[")[0].strip().lower()


def test_the_base_install_leaves_the_hardware_packages_to_the_extra():
    reqs = requires("ledcrib")
    base = {_name(r) for r in reqs if "extra ==" not in r}
    hardware = {_name(r) for r in reqs if 'extra == "hardware"' in r}
    test = [r for r in reqs if 'extra == "test"' in r]
    assert not base & HEAVY, base & HEAVY
    assert hardware == {"schemdraw", "ezdxf", "fpdf2", "pillow"}  # pillow pinned: the PNGs
    assert any(r.startswith("ledcrib[hardware]") for r in test)  # the tests make them all


def _blocked(monkeypatch):
    for module in EXTRA:  # as if the extra were not installed: `import ezdxf` fails
        monkeypatch.setitem(sys.modules, module, None)


@pytest.mark.parametrize("what, missing", [("schematic", "schemdraw"), ("cut", "ezdxf"),
                                           ("all", "schemdraw")])
def test_without_the_extra_crib_hardware_says_how_to_get_it(what, missing, monkeypatch,
                                                              tmp_path):
    _blocked(monkeypatch)
    env = Env(io.StringIO(), io.StringIO(), io.StringIO(), {})
    out = tmp_path / "out"
    assert main(["hardware", what, "--out", str(out)], env) == 1
    err = env.stderr.getvalue()
    assert err.startswith("crib: error: `crib hardware %s` needs crib's hardware extra" % what)
    assert repr(missing) in err and "pip install -e '.[hardware]'" in err
    assert "Traceback" not in err and not out.exists()  # nothing written


def test_the_card_needs_the_extra_says_so_and_the_readme_says_so_too(monkeypatch, tmp_path):
    _blocked(monkeypatch)
    env = Env(io.StringIO(), io.StringIO(), io.StringIO(), {})
    out = tmp_path / "out"
    argv = ["hardware", "card", "--ssid", "Cribbage-7KQX", "--password", "k7m2-p9qx-4hvt",
            "--key", "Jd2_x0Q9mX4b-Pqo3TzUa1"]
    assert main(argv + ["--out", str(out)], env) == 1
    err = env.stderr.getvalue()
    assert "needs crib's hardware extra" in err and not out.exists()
    assert main(argv + ["--json"], env) == 0  # the details need no extra
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "`crib hardware card --out DIR` prints the card" in readme
    said = readme.split("`crib hardware card --out DIR` prints the card", 1)[1][:200]
    assert "need the `hardware` extra" in said


@pytest.mark.parametrize("what", ["guide", "power", "bom", "pins", "wiring", "face"])
def test_the_other_documents_need_no_extra(what, monkeypatch):
    _blocked(monkeypatch)
    env = Env(io.StringIO(), io.StringIO(), io.StringIO(), {})
    assert main(["hardware", what], env) == 0, env.stderr.getvalue()
    assert env.stdout.getvalue()


def test_a_player_s_commands_never_import_the_hardware_packages():
    code = ("import sys\n"
            "from crib.cli import main\n"
            "for argv in (['score', '5H', '5C', '5S', 'JD', '5D'], ['peg', '5', '10'],"
            " ['discard', '5H', '5C', '6D', '7S', 'JD', 'KC', '--dealer'], ['history'],"
            " ['stats']):\n"
            "    assert main(argv) == 0, argv\n"
            "heavy = {'schemdraw', 'ezdxf', 'fpdf', 'numpy', 'fontTools', 'PIL'}\n"
            "print(sorted(heavy & set(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1] == "[]"
