"""Buttons on the emulated Pico's GPIOs (pull-ups on; a press holds the pin low): a tap,
a hold and undo reach the board as `evt` lines and change its state."""

import json

import pytest
from picorig import ROOT

from cribcore.protocol import decode

pytestmark = pytest.mark.pico

CONFIG = json.loads((ROOT / "firmware" / "config.json").read_text())
LANE_PINS = [lane["button"] for lane in CONFIG["lanes"]]
UNDO_PIN = CONFIG["pins"]["undo"]
PAUSE_MS = 200  # the shortest pause the protocol allows: the entry pegs soon after


def event(pico, start, verb):
    line = pico.wait_line(lambda s: s.startswith("evt " + verb), start, what="evt " + verb)
    return decode(line.text).args


def test_tap_hold_and_undo(pico):
    assert pico.ask("set pause_ms=%d" % PAUSE_MS).startswith("ok")
    assert pico.ask("new players=3").startswith("ok")

    start = len(pico.lines)
    pico.hold(LANE_PINS[0], 80)  # a tap: +1
    tap = event(pico, start, "peg")
    assert (tap["p"], tap["n"], tap["src"], tap["p0"]) == (0, 1, "button", (0, 1))

    start = len(pico.lines)
    pico.hold(LANE_PINS[1], CONFIG["hold_ms"] + 150)  # a hold: +5
    held = event(pico, start, "peg")
    assert (held["p"], held["n"], held["p1"]) == (1, 5, (0, 5))

    start = len(pico.lines)
    pico.hold(UNDO_PIN, 80)
    undo = event(pico, start, "undo")
    assert (undo["p"], undo["p1"]) == (1, (0, 0))

    state = decode(pico.ask("state")).args
    assert (state["p0"], state["p1"], state["pending"]) == ((0, 1), (0, 0), (0, 0, 0))
