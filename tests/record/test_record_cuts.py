"""The board's game record under power cuts (pegboard.gamelog): cut at every flash
operation of a whole 121-point game (each append also torn: nothing, one byte, all but its
last byte), the board restarts on what the flash holds, resumes the game in play and goes
on: the game is where the last answer written left it, or the one in flight had its
effect (a question of several steps is recorded at its last: a restart asks its first
step again, as the host's --resume does); nothing written is lost or applied twice, and
the game ends as without the cut. Plain asserts: run on CPython and under MicroPython
with its heap capped (tests/test_micropython.py)."""

import sys

from memfiles import cut_flashes
from recordgame import boot, reference, state

from pegboard.gamelog import GameLog

# A whole game of 121 points on CPython; of 61 under MicroPython, whose every restart
# replays the game again (the same code, half the lines: the run stays under 30 s).
TARGET = 61 if sys.implementation.name == "micropython" else 121
END = None  # the game's result, as the reference run closed it
FINISH_EVERY = 23  # a cut in so many is followed to the game's end (the rest: 2 answers on)


def _in_flight(ops, k):
    """The answer in flight when flash operation k ran (-1: the boot's, before any)."""
    for i in range(len(ops)):
        if k <= ops[i]:
            return i - 1
    raise AssertionError("operation %d after the game" % k)


def _resumed_at(ref, i, now):
    """Where a game cut during answer i may resume: after it (its lines written), or
    before it, or before the answers just before it that wrote nothing (the first steps of
    a question of several: the engine records the answer when its last step is given, and
    a restart asks the first step again, as the host's --resume does); None if elsewhere."""
    _, states, _, ops = ref
    if now == states[i + 1]:
        return i + 1
    j = i
    while True:
        if now == states[j]:
            return j
        if j == 0 or ops[j] != ops[j - 1]:  # answer j - 1 wrote a line: it stands
            return None
        j -= 1


def _check_cut(ref, k, keep, files, to_end):
    answers, states, _, ops = ref
    i = _in_flight(ops, k)
    engine = boot(files, target=TARGET)
    now = state(engine)
    log = engine.session.log
    assert not log.problems, (k, keep, log.problems)  # a cut is no damage
    if i < 0:  # the boot's own writes: no game yet, or a new one from the setup
        assert now == states[0], (k, keep)
        at = 0
    else:
        at = _resumed_at(ref, i, now)
    if i >= 0 and at is None:
        # The winning answer's close line was written: the game is over, and the board
        # begins the next (the script's setup), as after any restart between games.
        assert states[i + 1][0] == "another", (k, keep, i, now, states[i])
        assert now[1] == 2, (k, keep, now)
        assert log.replay(1).result == END, (k, keep)
        return
    stop = len(answers) if to_end else min(len(answers), at + 2)
    while at < stop:
        engine.answer(engine.question().id, answers[at])
        at += 1
        assert state(engine) == states[at], (k, keep, at)
    if to_end:
        engine = log = None  # a small heap holds one game's entries at a time
        g1 = GameLog("rec", files).open().replay(1)
        assert g1.result is not None and g1.damage is None, (k, keep)


def test_a_cut_at_every_flash_operation_of_a_whole_game_loses_nothing_acknowledged():
    _every_cut(reference(target=TARGET))


def test_with_the_full_tail_appended_after_each_reply_a_cut_loses_nothing_either():
    """As the board's server runs the record: the full segments appended to their game's
    file, removed (file, then folder) and the next segment's folder made after each reply
    (GameLog.settle), not before the answer's line is written."""
    ref = reference(target=TARGET, settled=True)
    kinds = [op[0] for op in ref[2].history]
    assert "rmdir" in kinds and "mkdir" in kinds and "remove" in kinds
    _every_cut(ref)


def _every_cut(ref):
    global END
    END = GameLog("rec", ref[2]).open().replay(1).result
    assert END["winner"] in ("Ann", "Bob")
    history = ref[2].history
    assert len(history) > TARGET and ref[1][-1] is None  # a long game, played to its end
    n = 0
    for k, keep, files in cut_flashes(history, (0, 1, -1)):
        _check_cut(ref, k, keep, files, n % FINISH_EVERY == 0)
        n += 1
    assert n > len(history)


NEXT = 12  # answers of the next game played after the first one's end


def test_the_boards_session_with_its_kept_answers_resumes_exactly_after_any_cut():
    """As the board's server runs the record (boardweb.resume.KeptSession, settle() after
    each reply), over a whole game, its end and the next game's start: the answers that
    wrote no line are kept in a segment's folder (GameLog.keep), the close line is a
    segment's line sealed into the game's file after the reply, the next game's header
    a line like any other. A cut at any flash operation resumes exactly: before the
    answer in flight or after it, and after it once its reply was sent (all its settle()
    did after the reply is the answer's: it was acknowledged)."""
    replied = []
    ref = reference(target=TARGET, settled=True, kept=True, games=2, replied=replied)
    answers, states, files, ops = ref
    kinds = [op[0] for op in files.history]
    assert "rmdir" in kinds and "mkdir" in kinds and "remove" in kinds
    kept = [op for op in files.history if op[0] == "write" and op[1].endswith("/a")]
    assert len(kept) > 5 and all([op[1].startswith("rec/s") for op in kept])
    assert ref[1][-1] is None
    global END
    END = GameLog("rec", files).open().replay(1).result
    over = [i for i in range(len(answers)) if states[i][0] == "another"][0]
    stop = over + 1 + NEXT
    answers, states, ops = answers[:stop], states[:stop + 1], ops[:stop + 1]
    history = files.history[:ops[-1]]
    header = [k for k in range(len(history)) if history[k][0] == "append" and
              b" 2 1 h " in history[k][2]][0] + 1  # the next game's header written
    n = 0
    for k, keep, cut in cut_flashes(history, (0, 1, -1)):
        _check_exact((answers, states, ops, replied, over, header), k, keep, cut,
                     n % FINISH_EVERY == 0)
        n += 1
    assert n > len(history) > TARGET


def _check_exact(ref, k, keep, files, to_end):
    answers, states, ops, replied, over, header = ref
    i = _in_flight(ops, k)
    engine = boot(files, target=TARGET, kept=True)
    now = state(engine)
    log = engine.session.log
    assert not log.problems, (k, keep, log.problems)
    before = i >= 0 and k <= replied[i]  # the cut came before the answer's reply
    at = i + 1 if i >= 0 else 0  # its reply was sent, or its line written: it stands
    if before and now == states[i]:
        at = i
    if now != states[at] and at >= over and k <= header:
        # The first game's close line is on flash, the next game's header not yet: a
        # restart begins the next game from the setup (no "Another game?" asked again).
        assert now[0] != "another" and now[1] == 2, (k, keep, now)
        assert log.replay(1).result == END, (k, keep)
        return
    assert now == states[at], (k, keep, i, at, k > replied[max(i, 0)])
    stop = len(answers) if to_end else min(len(answers), at + 2)
    while at < stop:
        engine.answer(engine.question().id, answers[at])
        at += 1
        assert state(engine) == states[at], (k, keep, at)
        engine.session.log.settle()
    if to_end:
        engine = log = None  # a small heap holds one game's entries at a time
        assert GameLog("rec", files).open().replay(1).result == END, (k, keep)
