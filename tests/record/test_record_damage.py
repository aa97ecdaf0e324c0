"""The board's game record (pegboard.gamelog) against damage and age: a bit flipped in
any line costs that line and what follows it in its game, never another game; a damaged
game in play goes on from the entries before the damage; the flash budget drops the
oldest games first and never the game in play; the `games` verb pages out every line.
Plain asserts: run on CPython and under MicroPython with its heap capped."""

import sys

from memfiles import MemFiles
from recordgame import PATH, boot, reference, state

from cribcore.protocol import ProtocolError
from cribcore.table.gamelines import entry_data, parse
from pegboard.gamelog import GameLog
from pegboard.gamesverb import answer

TARGET = 31
# Every line on CPython; every third under MicroPython (each flip replays every game).
STEP = 3 if sys.implementation.name == "micropython" else 1


def _log(files, budget=None):
    log = GameLog(PATH, files) if budget is None else GameLog(PATH, files, budget)
    return log.open()


def _record():
    """Two finished games and a third in play (20 answers in), on flash."""
    _, _, files, _ = reference(target=TARGET, games=2)
    files.history = None
    engine = boot(files, target=TARGET)
    for _ in range(20):
        q = engine.question()
        legal = q.to_dict()["legal"]
        engine.answer(q.id, _any(q.kind, legal))
    return files


def _any(kind, legal):
    from tablegame import Lcg, choose

    return choose({"kind": kind, "legal": legal}, Lcg(5), "cards")


def _games(files):
    """{game: (entry data of the standing entries, result, damage)} of every game."""
    log = _log(files)
    out = {}
    for g in sorted(list(log.sizes) + ([log.game] if log.game else [])):
        r = log.replay(g)
        out[g] = ([[e.seq] + entry_data(e) for e in r.entries], r.result, r.damage)
    return out


def _flip(files, name, j):
    """A copy of files with one bit flipped in the middle of line j of file name."""
    lines = list(files.lines(name))
    raw = bytearray(lines[j])
    raw[len(raw) // 2] ^= 0x10
    lines[j] = bytes(raw)
    out = MemFiles(files.files, files.dirs)
    out.files[name] = tuple(lines)
    return out


def test_a_flipped_bit_in_any_line_costs_that_line_and_what_follows_in_its_game_alone():
    files = _record()
    whole = _games(files)
    assert sorted(whole) == [1, 2, 3] and whole[1][1] and whole[2][1] and not whole[3][1]
    assert not any(w[2] for w in whole.values())
    names = [PATH + "/g1", PATH + "/g2", PATH + "/g3"] + [s.path for s in _log(files).segs]
    assert len(names) > 3
    flips = 0
    for name in names:
        for j, raw in enumerate(files.lines(name)):
            if j % STEP:
                continue
            seq = parse(raw)[1]
            hurt = _games(_flip(files, name, j))
            game = parse(raw)[0]
            for g in whole:
                if g != game:
                    assert hurt[g] == whole[g], (name, j, g)  # another game: untouched
                    continue
                entries, result, damage = hurt[g]
                assert damage is not None, (name, j)  # reported
                assert entries == [e for e in whole[g][0] if e[0] < seq][:len(entries)]
                assert entries == [e for e in whole[g][0] if e[0] < seq], (name, j)
                assert result is None
            flips += 1
    assert flips > 60 // STEP


def test_a_damaged_game_in_play_goes_on_from_the_entries_before_the_damage():
    files = _record()
    whole = _games(files)[3][0]
    lines = list(files.lines(PATH + "/g3"))
    j = len(lines) // 2
    seq = parse(lines[j])[1]
    engine = boot(_flip(files, PATH + "/g3", j), target=TARGET)
    log = engine.session.log
    assert log.problems and "game 3" in log.problems[0]
    assert engine.view()["game"] == 4  # the game goes on as game 4; game 3 stays as it is
    kept = [e for e in whole if e[0] < seq]
    assert [[e.seq] + entry_data(e) for e in engine.session.table.rec.entries()] == kept
    assert state(engine) is not None
    again = _games(log.files)
    assert again[4][0] == kept and again[4][2] is None and again[3][2] is not None
    assert log.games() == [1, 2, 3]  # the damaged game is not in play: the verb lists it


def test_the_budget_drops_the_oldest_games_and_never_the_game_in_play():
    files = MemFiles()
    budget = 5000
    _, _, files, _ = reference(target=TARGET, games=6, files=files, budget=budget, settled=True)
    log = _log(files, budget)
    kept = log.games()
    assert kept and kept == list(range(7 - len(kept), 7)) and len(kept) < 6, kept
    assert sum([log.sizes[g] for g in kept]) <= budget + log.sizes[6]
    for g in kept:
        r = log.replay(g)
        assert r.result is not None and r.damage is None
    # A budget smaller than one game: the game in play and the newest before it stay.
    engine = boot(files, target=TARGET, budget=100)
    for _ in range(30):
        q = engine.question()
        engine.answer(q.id, _any(q.kind, q.to_dict()["legal"]))
    log = engine.session.log
    assert log.playing() == 7 and sorted(log.sizes) == [6, 7]
    resumed = boot(files, target=TARGET, budget=100)
    assert resumed.view() == engine.view()  # (a question of several steps asks its first)


def test_the_games_verb_pages_every_line_of_each_finished_game():
    files = _record()
    log = _log(files)
    got = answer(log, {})
    assert got == {"games": (1, 2)}
    assert log.replay(1).header["rec"] == "0badf00d"  # the record's name, in each header
    for g in got["games"]:
        at, lines = 0, []
        while True:
            page = answer(log, {"g": g, "at": at})
            assert page["g"] == g and page["at"] == at
            if "line" not in page:
                break
            assert parse(page["line"]) is not None
            lines.append(page["line"] + "\n")
            at += len(page["line"]) + 1
        assert "".join(lines).encode() == files.data(PATH + "/g%d" % g)
    for bad in (3, 9):  # in play; none
        try:
            answer(log, {"g": bad})
            raise AssertionError("answered for game %d" % bad)
        except ProtocolError as e:
            assert e.code == "bad_arg" and str(bad) in str(e)
