"""A game's heap stays flat on the board's game record (pegboard.flashrecord): the record
keeps none of the game's entries in the heap (they are on flash, read back only for an
undo or a restart), and the Table only the current hand's (cribcore.table.standing), so
what is live at a game's end is about what was live at its first question. Plain asserts:
run on CPython and under MicroPython with its heap capped (tests/test_micropython.py),
where the live heap itself is measured."""

import gc
import sys

from memfiles import MemFiles
from recordgame import answer_for, boot
from tablegame import Lcg

# A hand's entries: the deal, 8 cards laid, the goes and the end of the play, 3 shows,
# notes: well under 40 (2 players).
HAND = 40
MICRO = sys.implementation.name == "micropython"


def _live():
    gc.collect()
    return gc.mem_alloc() if MICRO else 0


def _play_one_game(engine, rng, each=None):
    """Answer until the game's "Another game" question; each(engine) after every answer."""
    answers = 0
    while engine.question().kind != "another":
        engine.answer(engine.question().id, answer_for(engine, rng, 2))
        answers += 1
        if each is not None:
            each(engine)
    return answers


def test_the_record_holds_no_entry_and_the_table_one_hand_through_a_game_to_121():
    files = MemFiles()
    engine = boot(files, target=121, kept=True)
    seen = []

    def each(engine):
        table = engine.session.table
        assert table.rec.held() == 0  # every entry is on flash only
        s = table.standing()
        mine = s.hand_entries(table.game.hand_no)
        assert len(mine) < HAND, len(mine)
        seen.append(table.rec.position())
        engine.session.log.settle()  # as the board's server does after each reply

    answers = _play_one_game(engine, Lcg(5), each)
    assert answers > 100 and seen[-1] > 90  # a whole game, its lines on flash
    # all of them read back when something needs them: the same game
    table = engine.session.table
    assert table.game.over and len(table.entries) > 80


def test_the_live_heap_at_a_games_end_is_about_its_first_questions():
    """Under MicroPython: a game to 121 adds well under the 150 entries' 40 KB (64-bit) the
    record kept in the heap before; what grows is bounded (the room's log, the engine's
    trail of answers for a redo: full after about 40 answers)."""
    files = MemFiles()
    engine = boot(files, target=121, kept=True)
    rng = Lcg(11)
    for _ in range(45):  # the engine's trail full: it is bounded, not the record's
        engine.answer(engine.question().id, answer_for(engine, rng, 2))
        engine.session.log.settle()
    early = _live()
    hand = engine.session.table.game.hand_no

    def each(engine):
        engine.session.log.settle()

    _play_one_game(engine, rng, each)
    table = engine.session.table
    assert table.game.hand_no >= hand + 5, (hand, table.game.hand_no)
    grown = _live() - early
    if MICRO:
        # main kept each entry (about 320 bytes on the unix port) for 100+ entries more
        assert grown < 12000, grown
    assert table.rec.held() == 0
