"""Undo announced and put back: what an undo took back is said while its question is open,
and redo gives the same answers again (a card, a whole show with its confirmation)."""

import pytest
from test_engine import Table, new_engine

from cribcore.table.answers import AnswerError


def test_an_undone_card_is_announced_and_put_back(history):
    engine, board = new_engine(history)
    engine.answer(engine.question().id, "5h")
    engine.answer(engine.question().id, "7c")
    engine.answer(engine.question().id, "8")  # Ann makes fifteen: 2
    after = (engine.view(), board.state().fronts)
    q = engine.question()
    engine.undo(q.id)
    assert engine.view()["scores"] == [0, 0]
    undone = engine.undone()
    assert undone == {"text": "Undone: Ann laid 8 (2)", "redo": True}
    engine.redo(engine.question().id)
    assert (engine.view(), board.state().fronts) == after
    assert engine.undone() is None
    with pytest.raises(AnswerError):
        engine.redo(engine.question().id)  # put back once only


def test_the_announcement_ends_with_the_next_answer(history):
    engine, _ = new_engine(history)
    engine.answer(engine.question().id, "5h")
    engine.answer(engine.question().id, "7c")
    engine.undo()
    assert engine.undone()["text"] == "Undone: Ben laid 7♣"
    engine.answer(engine.question().id, "9c")
    assert engine.undone() is None
    with pytest.raises(AnswerError):
        engine.redo(engine.question().id)


def test_a_show_and_its_confirmation_put_back_together(history):
    engine, _ = new_engine(history)
    table = Table(2, 121, False, 5)
    while engine.question().kind not in ("show", "crib"):
        q = engine.question()
        engine.answer(q.id, table.answer(q))
    q = engine.question()
    engine.answer(q.id, table.answer(q))  # the cards
    assert engine.question().kind == "confirm"
    engine.answer(engine.question().id, "y")
    pegged = engine.view()
    engine.undo()
    assert engine.question().kind == q.kind  # the hand's cards are asked again
    assert len(engine.view()["hand"]["shown"]) == len(pegged["hand"]["shown"]) - 1
    assert engine.undone()["text"].startswith("Undone: ")
    engine.redo(engine.question().id)
    assert engine.view() == pegged
