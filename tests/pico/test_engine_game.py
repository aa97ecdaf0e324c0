"""The table engine on the real rp2 port (the emulated Pico): a scripted two-player game
by cards, played over the REPL through cribcore.table from the .mpy build, ends with the
scores the same script gives on CPython, within the Pico's heap (tests/pico/enginegame.py;
bench/heap.py prints the figures)."""

import sys
from pathlib import Path

import pytest
from enginegame import engine_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core_table"))

from tablegame import play  # noqa: E402

pytestmark = pytest.mark.pico

SEED = 11


def test_a_scripted_game_through_the_engine_ends_as_on_cpython():
    engine, _ = play(2, "cards", SEED, 1, out=lambda q, events: None)
    view = engine.view()
    on_pico = engine_game(2, "cards", SEED)
    assert on_pico["over"] is True and engine.over
    assert on_pico["scores"] == view["scores"] and on_pico["winner"] == view["winner"]
    assert max(view["scores"]) == 61 and on_pico["questions"] > 40
    # The engine's live heap there (its modules read into RAM, the record in memory)
    # leaves room: the rp2 port has about 230K of heap.
    assert on_pico["base"] < on_pico["peak"] < 160_000, on_pico
    assert on_pico["low_free"] > 64_000, on_pico
