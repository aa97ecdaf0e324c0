"""Properties of the board's buttons on the core's table engine (a board that serves the
table itself): whatever presses come between the answers, the scores are the standing
entries' points, and the board shows the record's scores whenever no decision waits."""

import os
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "core_table"))

from buttons import PressBoard, button_engine  # noqa: E402
from tablegame import Lcg, choose  # noqa: E402

from cribcore.table.table import SET_UP  # noqa: E402

ACTIONS = st.one_of(
    st.tuples(st.just("answer"), st.integers(0, 1000)),
    st.tuples(st.just("press"), st.integers(0, 1), st.integers(1, 12)),
    st.tuples(st.just("undo"), st.just(0)),
    st.tuples(st.just("new"), st.just(0)),
    st.tuples(st.just("phone undo"), st.just(0)),
)


def _standing(table):
    out = [0] * len(table.game.sides)
    for e in table.entries:
        if e.side is not None:
            out[e.side] += e.points
    return out


def _act(engine, board, action):
    """One action, when it can be taken now (a board that has won refuses pegs)."""
    q = engine.question()
    kind = action[0]
    if kind == "answer":
        engine.answer(q.id, choose(q.to_dict(), Lcg(action[1]), "cards"))
    elif kind == "press" and board.pegs.winner < 0:
        board.press(action[1], action[2])
    elif kind == "undo" and board.pegs.undo_count:
        board.press_undo()
    elif kind == "new":
        board.press_new()
    elif kind == "phone undo" and q.undo:
        engine.undo(q.id)
    engine.poll()


@settings(max_examples=60)
@given(st.sampled_from([0, "cut"]), st.lists(ACTIONS, max_size=40))
def test_scores_stay_the_standing_entries_and_the_board_follows_the_record(dealer, actions):
    board = PressBoard()
    engine = button_engine(board, dealer=dealer, target=31)
    engine.start()
    for action in actions:
        if engine.question() is None:
            break
        _act(engine, board, action)
        table = engine.session.table
        if table is None:
            continue
        v = engine.view()
        assert v["scores"] == _standing(table) == table.game.scores
        assert [f for _, f in v["pegs"]] == v["scores"]
        q = engine.question()
        asked = q is not None and q.prompt.startswith(SET_UP)
        if not asked and not table.decisions:
            assert board.fronts() == v["scores"], (action, [e for e in table.entries])
