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
from recordgame import reference  # noqa: E402

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
