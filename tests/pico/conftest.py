"""Fixtures of the emulated-Pico tier (`pytest -m pico`): the deploy build's LittleFS
image, made once, and a booted Pico shared by the checks of a module where that is
honest (each module that needs a fresh flash or a power cycle starts its own)."""

import pytest
from picorig import Pico, deploy_files, fs_image


@pytest.fixture(scope="session")
def build():
    """{path: bytes} of the deploy build (what `crib deploy` copies)."""
    return deploy_files()


@pytest.fixture(scope="session")
def image(build):
    """A LittleFS image holding the deploy build, as on a freshly deployed Pico."""
    return fs_image(build)


@pytest.fixture(scope="module")
def pico(image):
    """A Pico booted from the deploy build, up to its `evt boot`."""
    with Pico(fs=image) as p:
        p.booted()
        yield p
