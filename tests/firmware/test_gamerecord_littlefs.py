"""The board's game record on a real LittleFS (littlefs-python with the Pico's settings,
tests/record/lfsflash.py): the power cut before every flash command (page program or
sector erase) of a whole game, and in the middle of every page program; the board
restarts on the flash as the cut left it, resumes the game in play and goes on: the game
is where the last answer written left it or the one in flight had its effect, and no cut
is reported as damage."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "record"))

import test_record_cuts as cuts  # noqa: E402
from lfsflash import Flash, LfsFiles  # noqa: E402
from recordgame import answer_for, boot, reference  # noqa: E402
from tablegame import Lcg  # noqa: E402

from pegboard.gamelog import GameLog  # noqa: E402

TARGET = 61
FINISH_EVERY = 40  # a cut in so many is followed to the game's end (the rest: 2 answers on)


def test_a_cut_at_every_flash_command_of_a_whole_game_loses_nothing_written(monkeypatch):
    start = Flash()
    image = start.image()
    ref = reference(target=TARGET, files=LfsFiles(start))
    log = list(start.log)
    assert len(log) > 200 and start.erases > 5 and ref[1][-1] is None
    monkeypatch.setattr(cuts, "TARGET", TARGET)
    monkeypatch.setattr(cuts, "END", GameLog("rec", LfsFiles(start)).open().replay(1).result)
    buffer = bytearray(image)
    n = 0
    for k in range(1, len(log) + 1):
        cmd = log[k - 1]
        for half in ((False, True) if cmd[0] == "prog" else (False,)):
            cut = bytearray(buffer)
            if half:
                Flash.apply(cut, cmd, half=True)
            flash = Flash(cut)
            cuts._check_cut(ref, k, half, LfsFiles(flash), n % FINISH_EVERY == 0)
            n += 1
        Flash.apply(buffer, cmd)
    assert n > len(log)


def test_no_answer_waits_for_a_sector_erase_not_even_the_ones_that_end_and_begin_a_game():
    """On the board, the record's line is on flash before each reply, and what may erase
    a sector (a segment sealed into its game's file, a folder made or removed) waits for
    after it (GameLog.settle, as the server calls it). With the board's session
    (boardweb.resume.KeptSession: the answers that wrote no line kept too, in a segment's
    folder), over a whole game to 121, its end (the close line: a segment's line, the game
    sealed into its file after the reply) and the next game's start (its header), no
    answer erases before its reply, and a line costs at most 2 page programs (one commit:
    a segment's file is made empty with its folder, after a reply). (Before: the winning
    answer sealed its game before its reply, and the kept answers were rewritten in the
    record's folder, whose metadata block the games' files fill: 1-3 erases each.)"""
    flash = Flash()
    files = LfsFiles(flash)
    engine = boot(files, target=121, kept=True)
    log = engine.session.log
    log.settle()
    rng = Lcg(3)
    erased, programs, kinds, left = [], [], [], 2
    while engine.question() is not None and len(kinds) < 250:
        before = (flash.erases, flash.programs, engine.session.position())
        kind = engine.question().kind
        text = answer_for(engine, rng, left)
        left -= kind == "another"
        engine.answer(engine.question().id, text)
        kinds.append(kind)
        erased.append(flash.erases - before[0])
        if engine.session.position() != before[2]:  # lines written (at most 3 an answer)
            programs.append(flash.programs - before[1])
        log.settle()  # after the reply
    assert "another" in kinds and log.replay(1).result is not None and log.playing() == 2
    assert max(erased) == 0, [(kinds[i], erased[i]) for i in range(len(erased)) if erased[i]]
    assert max(programs) <= 6, programs
    assert flash.erases > 10  # the record's erases happened: after the replies
