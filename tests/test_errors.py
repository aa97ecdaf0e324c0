"""The one error tree: every error the host defines is one crib.cli reports as
`crib: error: ...`, and a broken firmware file ends `crib deploy --dry-run` that way too."""

import importlib
import inspect
import pkgutil
import shutil

import pytest
from support import FIRMWARE

import crib
import cribcore.table
from crib.cli import main
from crib.errors import HANDLED

# Control-flow signals caught by the code that raises them; never an error for the user.
SIGNALS = {"crib.board.transport.PortLost", "crib.ui.prompt.QuitRequest",
           "cribcore.table.entries.StateChanged", "cribcore.table.answers.UndoRequest"}


def _host_exceptions():
    # the host, and the table engine of the shared core (its errors reach the CLI too)
    for info in [*pkgutil.walk_packages(crib.__path__, "crib."),
                 *pkgutil.walk_packages(cribcore.table.__path__, "cribcore.table.")]:
        if info.name == "crib.__main__":
            continue
        mod = importlib.import_module(info.name)
        for name, obj in vars(mod).items():
            if (inspect.isclass(obj) and issubclass(obj, BaseException)
                    and obj.__module__ == mod.__name__):
                yield "%s.%s" % (mod.__name__, name), obj


def test_every_host_error_derives_from_the_handled_base():
    found = dict(_host_exceptions())
    assert "crib.deploy.build.BuildError" in found and "crib.board.transport.LinkError" in found
    assert SIGNALS <= set(found), "a signal was renamed: update SIGNALS"
    stray = sorted(name for name, cls in found.items()
                   if name not in SIGNALS and not issubclass(cls, HANDLED))
    assert stray == []


def test_a_broken_firmware_file_is_an_error_not_a_traceback(tmp_path, monkeypatch, capsys):
    root = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "pegboard" / "light.py").write_text("def broken(:\n")
    monkeypatch.setattr("crib.deploy.plan.firmware_dir", lambda: root)
    assert main(["deploy", "--dry-run", "--port", "/dev/does-not-exist"]) == 1
    err = capsys.readouterr().err
    # mpy-cross's own message (it names the file and the SyntaxError), no Python traceback
    assert err.startswith("crib: error: ") and "light.py" in err and "SyntaxError" in err
    assert "crib/deploy" not in err and "BuildError" not in err


@pytest.mark.parametrize("signal", sorted(SIGNALS))
def test_signals_are_not_user_errors(signal):
    mod, name = signal.rsplit(".", 1)
    assert not issubclass(getattr(importlib.import_module(mod), name), HANDLED)
