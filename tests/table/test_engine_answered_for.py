"""An answer given by one player for another (a phone answering for a player who asked it
to): the engine says who answered for whom first among the answer's events and while the
next question is open, records the answering seat with each entry of that player, and
`crib history` shows it; an answer of the player asked records no one else."""

import pytest

from crib.board.memory import MemoryBoard
from crib.cli import main
from crib.table.engine import TableEngine
from crib.table.session import Setup
from cribcore.table.answers import AnswerError


def new_engine(history):
    engine = TableEngine(history, MemoryBoard(4), {"confirm": True},
                         Setup(["Ann", "Ben"], False, 121, 0))
    engine.start()
    engine.answer(engine.question().id, "5h")  # the starter: the play asks Ben (pone)
    return engine


def lays(history):
    return history.query("SELECT player, answered_by, info FROM entries WHERE kind = 'lay'"
                         " AND undone IS NULL ORDER BY seq")


def test_an_answer_for_another_is_said_shown_and_recorded(history):
    engine = new_engine(history)
    q = engine.question()
    assert q.kind == "play" and q.asks == 1
    events = engine.answer(q.id, "7c", by=0)  # Ann lays Ben's 7 for him
    assert events[0].kind == "note" and events[0].text == "Ann answered for Ben: 7c"
    assert engine.answered() == {"by": "Ann", "for": "Ben", "text": "Ann answered for Ben: 7c"}
    assert [(r["player"], r["answered_by"]) for r in lays(history)] == [(1, 0)]
    q = engine.question()
    assert q.asks == 0
    engine.answer(q.id, "8d", by=0)  # Ann's own card, from her own seat
    assert engine.answered() is None  # the next answer ends what was said
    assert [(r["player"], r["answered_by"]) for r in lays(history)] == [(1, 0), (0, None)]


def test_what_is_said_lasts_while_the_next_question_is_open(history):
    engine = new_engine(history)
    engine.answer(engine.question().id, "7c", by=0)
    assert engine.answered() is not None
    engine.undo()  # the answer is taken back: nothing more to say of it
    assert engine.answered() is None


def test_a_redo_puts_back_who_answered(history):
    engine = new_engine(history)
    engine.answer(engine.question().id, "7c", by=0)
    engine.undo()
    assert lays(history) == []
    engine.redo(engine.question().id)
    assert [(r["player"], r["answered_by"]) for r in lays(history)] == [(1, 0)]


@pytest.mark.parametrize("by", [2, -1, "0", True, 0.0])
def test_an_unknown_answering_seat_is_refused_and_changes_nothing(history, by):
    engine = new_engine(history)
    q = engine.question()
    with pytest.raises(AnswerError, match="no such player"):
        engine.answer(q.id, "7c", by=by)
    assert lays(history) == [] and engine.question().id == q.id


def test_history_shows_who_answered_for_whom(history, capsys):
    engine = new_engine(history)
    engine.answer(engine.question().id, "7c", by=0)
    path = str(history.path)
    assert main(["history", "--db", path, "--game", "1"]) == 0
    out = capsys.readouterr().out
    line = [x for x in out.splitlines() if "lays 7" in x]
    assert len(line) == 1 and line[0].startswith("  ") and "Ben lays 7" in line[0]
    assert line[0].endswith("[answered by Ann]")
