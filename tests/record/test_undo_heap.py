"""An undo late in a game leaves the heap as it found it: the record (pegboard.flashrecord)
reads the game's entries back from flash to rebuild it, and keeps none of them after.
Kept, they stayed live (a hundred entries and more, read among the read's own garbage)
and left the chip's free heap in pieces too small for a phone's state: every event
stream then ended at once (bench/chip.py --undos, docs/image.md). Plain asserts: run on
CPython and under MicroPython with its heap capped (tests/test_micropython.py), where
the live heap itself is measured."""

import gc
import sys

from memfiles import MemFiles
from recordgame import answer_for, boot
from tablegame import Lcg

MICRO = sys.implementation.name == "micropython"


def _live():
    gc.collect()
    return gc.mem_alloc() if MICRO else 0


def _asked(engine):
    q = engine.question()
    return q.kind, q.asks, q.prompt


def test_an_undo_late_in_a_game_to_121_keeps_none_of_its_entries_in_the_heap():
    files = MemFiles()
    engine = boot(files, target=121, kept=True)
    rng = Lcg(11)
    asked = []
    while len(asked) < 100 or not engine.question().undo:
        asked.append(_asked(engine))
        engine.answer(engine.question().id, answer_for(engine, rng, 2))
        engine.session.log.settle()  # as the board's server does after each reply
    table = engine.session.table
    assert table.rec.position() > 80  # late in the game: its lines on flash
    before = _live()
    engine.undo(engine.question().id)
    assert table.rec.held() == 0  # read back to rebuild the game, then let go
    if MICRO:  # kept, they were 26,208 bytes on the unix port (now about 1,700)
        grown = _live() - before
        assert grown < 4000, grown
    assert _asked(engine) in asked[-3:]  # a step back: a question asked before
    assert engine.session.table.game.scores == table.game.scores
