"""Every user error is a sentence: each verb run with bad ports, paths and files ends with
`crib: error: ...` (or argparse's usage error for a malformed value) and exit code 1 or 2,
never a traceback."""

import io
import socket

import pytest

from crib.cli import main
from crib.env import Env


@pytest.fixture
def busy_port():
    """A loopback TCP port something is listening on."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    yield s.getsockname()[1]
    s.close()


def _cases(tmp, busy):
    text = tmp / "notes.txt"
    text.write_text("not what crib expects\n")
    folder = tmp / "folder"
    folder.mkdir()
    table = ["--board", "none", "--names", "Alice,Bob", "--target", "61", "--dealer", "Alice"]
    bad_dbs = ["/dev/null/x.sqlite3", str(folder), str(text)]
    bad_stores = ["/dev/null/s", str(text)]
    bad_ports = ["/dev/null/tty", "socket://127.0.0.1:70000", "socket://127.0.0.1:-1",
                 "rfc9999://x", str(text)]
    cases = []
    for verb in (["play", *table], ["serve", "--no-qr", "--web-port", "0", *table],
                 ["practice", "--board", "none"], ["history"], ["stats"]):
        cases += [verb + ["--db", d] for d in bad_dbs]
    for verb in (["play"], ["serve", "--no-qr", "--web-port", "0"], ["practice"],
                 ["shuffle"]):
        cases += [verb + ["--board", "sim", "--store", s, "--db", str(tmp / "h")]
                  for s in bad_stores]
        cases += [verb + ["--port", p, "--db", str(tmp / "h")] for p in bad_ports]
    cases += [["serve", "--no-qr", *table, "--db", str(tmp / "h"), "--web-port", p]
              for p in ("70000", "-1", str(busy))]
    cases += [["board", "--port", p, "status"] for p in bad_ports]
    cases += [["board", "--board", "sim", "--store", s, "status"] for s in bad_stores]
    cases += [["board", "--board", "sim", "--config", c, "status"]
              for c in ("/dev/null/c.json", str(text), str(folder))]
    cases += [["sim", "--headless", "--no-pty", "--socket", s]
              for s in ("127.0.0.1:70000", ":-1", f"127.0.0.1:{busy}", "nohost")]
    cases += [["sim", "--headless", "--no-pty", "--socket", ":0", "--store", s]
              for s in bad_stores]
    cases += [["sim", "--headless", "--no-pty", "--socket", ":0", "--config", c]
              for c in ("/dev/null/c.json", str(text), str(folder))]
    cases += [["deploy", "--port", p] for p in bad_ports]
    cases += [["hardware", "--out", o] for o in ("/dev/null/out", str(text))]
    cases += [["hardware", "--config", c] for c in ("/dev/null/c.json", str(text))]
    return cases


def test_every_verb_with_bad_ports_paths_and_files_says_a_sentence(tmp_path, busy_port,
                                                                     capsys):
    failures = []
    for argv in _cases(tmp_path, busy_port):
        err = io.StringIO()
        env = Env(io.StringIO(""), io.StringIO(), err,
                  {"XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path)})
        try:
            code = main(argv, env)
        except SystemExit as e:  # argparse: a malformed value, with its usage line
            code = e.code
            said = capsys.readouterr().err
            if code != 2 or ": error: " not in said:
                failures.append((argv, f"exit {code}: {said}"))
            continue
        except Exception as e:  # noqa: BLE001 - what the test looks for
            failures.append((argv, f"traceback: {type(e).__name__}: {e}"))
            continue
        said = err.getvalue()
        if code != 1 or not said.startswith("crib: error: "):
            failures.append((argv, f"exit {code}: {said!r}"))
    assert not failures, "\n".join(f"{' '.join(a)}\n    {w}" for a, w in failures)


def test_an_unforeseen_os_error_is_a_sentence_too(monkeypatch):
    """The last net: a file or socket error no command foresaw is still a sentence."""
    import crib.commands.stats as stats

    def broken(args, env):
        raise PermissionError(13, "Permission denied", "/somewhere/history.sqlite3")
    monkeypatch.setattr(stats, "run", broken)
    err = io.StringIO()
    assert main(["stats"], Env(io.StringIO(), io.StringIO(), err, {})) == 1
    assert err.getvalue() == ("crib: error: Permission denied:"
                              " '/somewhere/history.sqlite3'\n")
