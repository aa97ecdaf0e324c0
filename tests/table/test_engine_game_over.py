"""Game over leads with the result: the engine's view carries the winner, the scores (the
winner's first) and any skunk as plain data, before "Another game?" is answered; the
same sentence heads the events. A go's point is called a go, the play's end included."""

import pytest

from crib.board.memory import MemoryBoard
from crib.table.engine import TableEngine
from crib.table.session import Setup


def engine_at(history, target):
    board = MemoryBoard(4)
    engine = TableEngine(history, board, {"confirm": True}, Setup(["Ann", "Ben"], False,
                                                                   target, 0))
    engine.start()
    for card in ("5h", "7c", "8d"):  # the starter; Ben lays 7, Ann makes fifteen for 2
        engine.answer(engine.question().id, card)
    return engine, board


@pytest.mark.parametrize("target, skunk", [(121, "double skunk"), (61, "skunk"), (31, "")])
def test_the_view_leads_with_the_winner_the_score_and_the_skunk(history, target, skunk):
    engine, board = engine_at(history, target)
    assert engine.view()["result"] is None  # not over yet
    board.press(1, target)  # Ben pegs out on the board's buttons
    events = engine.poll()
    view = engine.view()
    assert view["over"] and view["result"]["winner"] == "Ben"
    assert view["result"]["scores"] == [["Ben", target], ["Ann", 2]]
    assert view["result"]["skunk"] == skunk
    text = f"Ben wins, {target} to Ann 2" + (f" ({skunk})" if skunk else "")
    assert view["result"]["text"] == text
    assert [e.text for e in events if e.kind == "heading"] == [text]
    q = engine.question()
    assert q.kind == "another" and q.known["result"]["text"] == text  # asked after it


def test_a_go_is_called_a_go(history):
    engine, _ = engine_at(history, 121)  # count 15: Ben, Ann and Ben again
    said = []
    for answer in ("9s", "go", "go"):  # Ben makes 24; Ann says go, Ben has no card to lay
        q = engine.question()
        if q.kind != "play":
            break
        said += engine.answer(q.id, answer)
    reasons = [e.text for e in said if e.kind == "say" and e.points]
    assert "go for 1" in reasons and not any("last card" in r for r in reasons)
    stored = history.query("SELECT reason FROM entries WHERE points > 0 AND kind = 'go'")
    assert [r["reason"] for r in stored] == ["go for 1"]
