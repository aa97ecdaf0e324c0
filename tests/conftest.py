import os
import sys

import pytest

# support.py lives beside the tests; core tests import cribcore from the installed package.
sys.path.insert(0, os.path.dirname(__file__))


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
