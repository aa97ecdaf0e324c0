import os
import shutil
import signal
import sys

import pytest
from hypothesis import settings

# support.py lives beside the tests; core tests import cribcore from the installed package.
sys.path.insert(0, os.path.dirname(__file__))

import isolation  # noqa: E402

# No per-example deadline: a loaded machine (CI's, or several engineers on two cores) makes a
# deadline fail where nothing is wrong; speed is measured by the bench/ scripts instead.
settings.register_profile("crib", deadline=None)
settings.load_profile("crib")

# The user's data folders (found before anything is redirected) and their snapshot then.
REAL_DATA = []
REAL_SNAPSHOT = {}
_SESSION_HOME = []


def pytest_configure(config):
    """Before any fixture or worker starts: HOME and the data folder are a temporary folder;
    Ctrl-C is Ctrl-C. A run started in the background by a shell without job control (a
    CI script's `cmd &`) inherits SIGINT ignored, and so would every process a test starts:
    the tests that stop `crib serve` or `crib sim --wifi` as a player does, with Ctrl-C,
    then wait for ever. Python's own handler here gives those processes the default."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    real, home = isolation.redirect_session()
    REAL_DATA[:] = real
    REAL_SNAPSHOT.update(isolation.snapshot(real))
    if home:
        _SESSION_HOME.append(home)


def pytest_unconfigure(config):
    for home in _SESSION_HOME:
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory, monkeypatch):
    """Every test: HOME, XDG_DATA_HOME and the other XDG folders in a new temporary folder,
    in os.environ, so the processes a test starts use it too. Afterwards the user's real data
    folder must be as it was when the session began (a test that wrote there fails here)."""
    home = tmp_path_factory.mktemp("home")
    for name, value in isolation.private_environ(home).items():
        monkeypatch.setenv(name, value)
    for name in isolation.CRIB_VARS:
        monkeypatch.delenv(name, raising=False)
    yield home
    changed = isolation.changes(REAL_SNAPSHOT, isolation.snapshot(REAL_DATA))
    assert not changed, "the user's real data folder changed during the tests: %s" % changed


def pytest_addoption(parser):
    parser.addoption("--port", default=None,
                     help="a real Pico running our firmware, for the opt-in `-m hardware` tests")


@pytest.fixture
def pico_port(request):
    """The port given with --port; a hardware test without one fails and says so."""
    port = request.config.getoption("--port")
    if not port:
        pytest.fail("hardware tests need a Pico: pytest -m hardware --port /dev/ttyACM0")
    return port
