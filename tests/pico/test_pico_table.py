"""The whole table on emulated silicon: the emulated RP2040 boots OUR image (firmware/image/
build.py RPI_PICO, our code frozen; .ci/run builds it into CRIB_IMAGE_CACHE before this
tier) and plays a whole 2-player game to 61 through the full stack (tests/pico/chipgame.py
run by chiprun.py: the App on the real PIO and flash, the engine, the room, the record on
LittleFS, microdot's request path, 4 phones' event streams; only the radio and its
sockets are stand-ins). The scores equal CPython's for the same scripted players."""

import sys
import time

import pytest
from chiprun import ROOT, chip_run
from picorig import WALL_TIMEOUT

from crib.deploy.uf2 import builder

sys.path[:0] = [str(ROOT / "firmware"), str(ROOT / "tests" / "core_table")]

import chipgame  # noqa: E402
import desk  # noqa: E402
from boardweb.appboard import LoopPort  # noqa: E402
from boardweb.board import build  # noqa: E402
from tablegame import NAMES, Lcg  # noqa: E402

from cribcore.table.session import Setup  # noqa: E402

pytestmark = pytest.mark.pico

SEED = 11
TARGET = 61


def cpython_game(seed, target):
    """(answers, scores) of chipgame's players on CPython: the board's server as the chip
    builds it (boardweb.board.build over the App on fake drivers, the record in memory),
    each answer given to its room as the server's POST gives it."""
    app = desk.build({"store": None, "config": None, "driven": False}, LoopPort())
    room = build(app, chipgame.KEY, "http://%s/" % chipgame.HOST, "/page", None,
                 Setup(list(NAMES[:2]), False, target, 0),
                 clock=lambda: int(time.monotonic() * 1000), nonce="c1").room
    rng, n = Lcg(seed), 0
    while room.question is not None and n < 1000:
        q = room.question
        room.act("answer", {"question": q["id"], "answer": chipgame.answer_for(q, rng, 0, 1)},
                 "table" if q["asks"] is None else q["asks"])
        n += 1
    return n, room.view["scores"]


def test_the_cpython_reference_is_a_whole_game():
    answers, scores = cpython_game(SEED, TARGET)
    assert max(scores) >= TARGET and min(scores) < TARGET and answers > 40


def test_our_image_plays_a_whole_game_to_61_with_the_scores_of_cpython():
    answers, expected = cpython_game(SEED, TARGET)
    folder = builder().image("RPI_PICO", out=lambda line: None)  # cached by .ci/run
    run = chip_run(folder / "firmware.uf2", games=1, seed=SEED, target=TARGET,
                   answers=400, timeout=8 * WALL_TIMEOUT)
    assert run.end is not None, run.text[-1500:]
    assert run.end["games"] == 1 and run.end["scores"] == expected
    assert len(run.answers) == run.end["answers"] == answers
    # the C stack (painted before the game): a quarter of it left unused, so a deeper
    # request path fails here before it fails on a board (docs/image.md: 9,432 of 16,384)
    assert run.stack is not None and run.stack["size"] == 16384, run.stack
    assert 4096 < run.stack["deepest"] <= 0.75 * run.stack["size"], run.stack
