"""A power cut in a match's second game keeps the match's tally: the board's game record
gives back the results of the match's finished games when it resumes (plain asserts: run
on CPython and under MicroPython)."""

from memfiles import MemFiles
from recordgame import answer_for, boot
from tablegame import Lcg


def test_a_cut_in_the_second_game_keeps_the_first_games_result_in_the_tally():
    files = MemFiles()
    engine = boot(files)
    rng = Lcg(5)
    while engine.question().kind != "another":
        engine.answer(engine.question().id, answer_for(engine, rng, 2))
    first = list(engine.session.results)
    assert len(first) == 1 and first[0][0] == 1
    engine.answer(engine.question().id, "y")  # another game
    for _ in range(6):  # into the second game's first hand
        engine.answer(engine.question().id, answer_for(engine, rng, 2))
    assert engine.view()["game"] == 2
    engine = None

    again = boot(files)  # the power back: game 2 resumed, and game 1 still counts
    assert again.view()["game"] == 2
    assert again.session.results == first
    said = []
    while again.question().kind != "another":
        said += again.answer(again.question().id, answer_for(again, rng, 2))
    assert [r[0] for r in again.session.results] == [1, 2]
    tally = [e.text for e in said if e.kind == "line" and e.text.startswith("  match: ")]
    points = sum([r[2] for r in again.session.results])  # the tally says both games'
    assert len(tally) == 1
    assert sum([int(x.split()[-1]) for x in tally[0][9:].split(", ")]) == points
