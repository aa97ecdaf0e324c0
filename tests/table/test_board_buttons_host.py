"""The board's buttons on the host's table (`crib play`, `crib serve` with a board): the
core's Table.board_event records them in the history, and what the host adds (its
operations written before they are sent, a reconciliation lane by lane) still holds."""

from crib.board.memory import MemoryBoard
from crib.board.state import BoardEvent
from crib.table.engine import TableEngine
from crib.table.session import Setup
from cribcore.table.table import SET_UP


def _engine(history, board):
    engine = TableEngine(history, board, {}, Setup(["Ann", "Ben"], False, 61, 0))
    engine.start()
    engine.answer(engine.question().id, "5h")  # the starter: the play is asked
    return engine


def _answer(engine, text):
    return engine.answer(engine.question().id, text)


def test_the_boards_undo_of_the_winning_peg_takes_the_games_end_back(history):
    board = MemoryBoard(4)
    engine = _engine(history, board)
    board.press(0, 61)
    engine.poll()
    assert engine.question().kind == "another" and history.unfinished() is None
    board.press_undo()
    engine.poll()
    assert engine.question().kind == "play" and not engine.view()["over"]
    assert history.unfinished()["id"] == engine.session.table.game_id
    assert board.state().fronts == (0, 0) and engine.view()["scores"] == [0, 0]


def test_an_undo_the_record_cannot_match_is_reconciled_lane_by_lane(history, tmp_path):
    board = MemoryBoard(4, str(tmp_path / "board.json"))  # a board to ask about
    engine = _engine(history, board)
    _answer(engine, "7c")
    _answer(engine, "8d")  # Ann: fifteen 2
    board.peg(1, 4, None)  # two jumps the record never heard of (pegged while it was away)
    board.peg(1, 3, None)
    board.press_undo()  # Ben's 3 taken back: the record's last jump is Ann's fifteen
    events = engine.poll()
    assert "the board undid a jump the record cannot match" in [e.text for e in events]
    q = engine.question()
    assert q.kind == "confirm" and q.prompt.startswith("Record the 4 as pegged on board")
    _answer(engine, "y")
    assert board.state().fronts == (2, 4) and engine.view()["scores"] == [2, 4]
    assert history.pending_ops(engine.session.table.game_id) == []


def test_a_board_holding_another_game_is_set_up_again_by_the_shared_code(history, tmp_path):
    board = MemoryBoard(4, str(tmp_path / "board.json"))
    engine = _engine(history, board)
    _answer(engine, "7c")
    _answer(engine, "8d")  # Ann: 2
    board.press(1, 3)
    engine.poll()
    board.new_game(121, 3, None)  # another game on the board: the buttons' new game
    engine.board_event(BoardEvent("new", -1, 0, board.state().rev))
    q = engine.question()
    assert q.kind == "confirm" and q.prompt.startswith(SET_UP)
    _answer(engine, "y")
    st = board.state()
    assert (st.target, st.lanes, st.fronts) == (61, 2, (2, 3))
    game = engine.session.table.game_id
    assert history.pending_ops(game) == []
    ops = history.query("SELECT verb, lane, n, status FROM ops WHERE game_id = ?"
                        " ORDER BY id", (game,))
    assert [tuple(o.values()) for o in ops[-3:]] == [
        ("new", None, 0, "done"), ("peg", 0, 2, "done"), ("peg", 1, 3, "done")]
    assert engine.question().kind == "play"
