"""The engine's trail of answers remembered for a redo (s7-core): each answer one text
(cribcore.table.engine._remember: the CRC of its question, who gave it, the answer), read
back exactly, whatever the answer's text holds; one kept before a restart by older code
(a [crc, text, by] list) is read as it was."""

from hypothesis import given
from hypothesis import strategies as st

from cribcore.table.engine import _remember, _remembered

crcs = st.text("0123456789abcdef", min_size=8, max_size=8)


@given(crcs, st.text(max_size=12), st.none() | st.integers(0, 120))
def test_an_answer_remembered_reads_back_as_given(crc, text, by):
    item = _remember(crc, text, by)
    assert isinstance(item, str) and item.startswith(crc)
    assert _remembered(item) == (crc, text, by)


def test_an_answer_kept_by_older_code_reads_as_it_was():
    assert _remembered(["0123abcd", "5h", 1]) == ("0123abcd", "5h", 1)
    assert _remembered(["0123abcd", "go", None]) == ("0123abcd", "go", None)


def test_the_trail_holds_one_text_an_answer():
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)),
                                    "core_table"))
    from tablegame import Lcg, choose, engine_for

    engine = engine_for(2, "cards", target=61)
    engine.start()
    rng = Lcg(5)
    for _ in range(30):
        q = engine.question(known=False)
        engine.answer(q.id, choose(q.to_dict(), rng, "cards"))
    assert len(engine._trail) == 30 and all(type(t) is str for t in engine._trail)
    q = engine.question(known=False)
    engine.undo(q.id)  # what it took back can be put back: the trail read as before
    assert engine.undone()["redo"]
    engine.redo(engine.question_id())
    assert engine.undone() is None
