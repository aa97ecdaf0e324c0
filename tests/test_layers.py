"""The host's layout holds: import-linter's contracts in pyproject.toml (the layers, only the
CLI importing the commands, the core never importing the host or the firmware, each
third-party package in its own package, no import cycles between the modules of any
package) are checked on every test run."""

from importlinter.cli import lint_imports
from support import ROOT

CONTRACTS = ("The host's layers", "Only the CLI imports the commands",
             "The core and the firmware never import the host",
             "The shared core never imports the firmware",
             "pyserial only in crib.board",
             "starlette, uvicorn and jinja2 only in crib.web",
             "sqlite3 only in crib.history",
             "No import cycles between the modules of a package")


def test_the_import_contracts_are_kept(capsys):
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
