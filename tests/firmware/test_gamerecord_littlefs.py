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


def test_no_answer_waits_for_a_sector_erase_but_the_one_that_ends_the_game():
    """On the board, the record's line is on flash before each reply, and what may erase
    a sector (a segment sealed into its game's file, a folder made or removed) waits for
    after it (GameLog.settle, as the server calls it): in a whole game to 121, only the
    winning answer (its close line appended to the game's file) erases before its reply,
    and a line costs at most 2 page programs (one commit: a segment's file is made
    empty with its folder, after a reply). (The tail in the record's folder,
    rewritten whole, made its folder's metadata log compact, a sector erase, every
    fifth answer or so.)"""
    flash = Flash()
    files = LfsFiles(flash)
    engine = boot(files, target=121)
    log = engine.session.log
    log.settle()
    rng = Lcg(3)
    erased, programs, answers = [], [], 0
    while engine.question() is not None and engine.question().kind != "another":
        before = (flash.erases, flash.programs, engine.session.table.rec.seq)
        engine.answer(engine.question().id, answer_for(engine, rng, 1))
        answers += 1
        if log.playing():
            erased.append(flash.erases - before[0])
            lines = engine.session.table.rec.seq - before[2]
            programs.append(flash.programs - before[1] - 2 * lines)
        log.settle()  # after the reply
    assert not log.playing() and log.replay(1).result is not None  # the game was won
    assert answers > 150 and len(erased) == answers - 1
    assert max(erased) == 0, erased
    assert max(programs) <= 0, programs  # at most 2 a line
    assert flash.erases > 10  # the record's erases happened: after the replies
