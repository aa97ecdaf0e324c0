"""Fixtures of the firmware's tests."""

import pytest


@pytest.fixture
def append_opens(monkeypatch):
    """The names pegboard.logfiles opens to append to, in order (a list filled as the
    test runs): on the Pico each open makes a LittleFS file object and its cache."""
    import pegboard.logfiles as logfiles

    opened = []

    def counted(name, mode="r", *args):
        if "a" in mode:
            opened.append(name)
        return open(name, mode, *args)

    monkeypatch.setattr(logfiles, "open", counted, raising=False)
    return opened
