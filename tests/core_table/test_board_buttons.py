"""The board's buttons reach the game on the core's engine (a board that serves the table
itself): a peg pressed on the board is recorded as pegged on the board, its undo button
takes back the entry whose jump it took back, a new game started on it is set up again
from the record. Plain asserts: these run on CPython and under MicroPython with a capped
heap (tests/test_micropython.py)."""

from buttons import PressBoard, answer, button_engine

from cribcore.protocol import decode, event
from cribcore.table.entries import BARRIER, BOARD, PEGGED_ON_BOARD, TABLE
from cribcore.table.record import BoardEvent, button_event
from cribcore.table.table import SET_UP


def _playing():
    """A game at its play: Bob to lay, nothing pegged yet."""
    board = PressBoard()
    engine = button_engine(board)
    engine.start()
    answer(engine, "5h")  # the starter
    return engine, board


def _table(engine):
    return engine.session.table


def _kinds(events, kind):
    return [e for e in events if e.kind == kind]


def _standing_points(engine):
    """Each side's points as the standing entries have them."""
    t = _table(engine)
    out = [0] * len(t.game.sides)
    for e in t.entries:
        if e.side is not None:
            out[e.side] += e.points
    return out


def test_a_peg_pressed_mid_hand_is_recorded_as_pegged_on_the_board():
    engine, board = _playing()
    q = engine.question()
    board.press(1, 3)
    events = engine.poll()
    says = _kinds(events, "say")
    assert [(e.who, e.text, e.points) for e in says] == [("Bob", PEGGED_ON_BOARD, 3)]
    v = engine.view()
    assert v["scores"] == [0, 3] and v["pegs"] == [[0, 0], [0, 3]]
    last = _table(engine).entries[-1]
    assert (last.kind, last.source, last.side, last.points) == ("peg", BOARD, 1, 3)
    assert board.fronts() == [0, 3]  # pegged once: the board is not told again
    assert engine.question().id == q.id  # the question is as it was: an answer still fits
    answer(engine, "7c")
    assert engine.view()["hand"]["laid"][1] == ["7C"] and engine.view()["scores"] == [0, 3]


def test_a_winning_peg_press_ends_the_game():
    engine, board = _playing()
    q = engine.question()
    board.press(0, 61)
    events = engine.poll()
    v = engine.view()
    assert v["over"] and v["winner"] == 0 and v["scores"] == [61, 0]
    assert v["result"]["winner"] == "Ann"
    nq = engine.question()
    assert nq.kind == "another" and nq.id != q.id
    assert any(e.kind == "over" for e in events)


def test_an_undo_press_takes_back_a_board_peg_alone():
    engine, board = _playing()
    answer(engine, "7c", "8d")  # Ann makes fifteen: 2
    q = engine.question()
    board.press(1, 4)
    engine.poll()
    assert engine.view()["scores"] == [2, 4]
    board.press_undo()
    events = engine.poll()
    assert engine.view()["scores"] == [2, 0] and board.fronts() == [2, 0]
    assert any("undone on the board" in e.text for e in _kinds(events, "say"))
    assert [e.kind for e in _table(engine).entries].count("lay") == 2  # the answers stand
    assert engine.question().id == q.id  # asked again exactly as it was


def test_an_undo_press_takes_back_the_answer_that_pegged_and_what_came_after():
    engine, board = _playing()
    answer(engine, "7c")
    q = engine.question()  # Ann to lay at 7
    answer(engine, "8d")  # fifteen: 2, pegged on the board by the table
    answer(engine, "2c")  # Bob: 17, nothing pegged
    assert engine.view()["scores"] == [2, 0] and board.fronts() == [2, 0]
    board.press_undo()
    engine.poll()
    v = engine.view()
    assert v["scores"] == [0, 0] and v["hand"]["pile"] == ["7C"]
    after = engine.question()
    assert after.id != q.id and after.prompt == q.prompt  # Ann is asked again, a new id
    assert board.fronts() == [0, 0]
    answer(engine, "8h")
    assert engine.view()["scores"] == [2, 0] and board.fronts() == [2, 0]


def test_a_peg_pressed_before_the_first_deal_is_taken_back():
    board = PressBoard()
    engine = button_engine(board, dealer="cut")
    engine.start()
    q = engine.question()
    assert q.kind == "cut"
    board.press(0, 2)
    events = engine.poll()
    assert board.fronts() == [0, 0]  # taken back on the board
    assert [e.text for e in _kinds(events, "problem")] == [
        "board: 2 pegged before the first deal; taken back"]
    assert _table(engine).entries == [] and engine.view()["scores"] == [0, 0]
    assert engine.question().id == q.id


def test_a_press_outside_the_lanes_or_after_the_game_is_a_note():
    engine, board = _playing()
    q = engine.question()
    board.news.append(BoardEvent("peg", 2, 3, None))  # no third lane in this game
    board.news.append(BoardEvent("peg", -1, 3, None))
    events = engine.poll()
    assert [e.text for e in _kinds(events, "note")] == [
        "board: 3 pegged outside the game; not recorded"] * 2
    assert engine.view()["scores"] == [0, 0] and engine.question().id == q.id
    board.news.append(BoardEvent("peg", 0, -4, None))  # not a peg: said, nothing changed
    board.news.append(BoardEvent("peg", 0, "2", None))
    events = engine.poll()
    assert [e.text for e in _kinds(events, "problem")] == [
        "board: a peg of -4 not understood; not recorded",
        "board: a peg of '2' not understood; not recorded"]
    assert engine.view()["scores"] == [0, 0] and engine.question().id == q.id
    board.news.append(BoardEvent("warn", -1, 0, None))  # the board's other news: not the game's
    assert engine.poll() == [] and engine.question().id == q.id
    kept = len(_table(engine).entries)
    board.press(1, 61)
    engine.poll()  # Bob wins
    board.news.append(BoardEvent("peg", 0, 2, None))
    events = engine.poll()
    assert _kinds(events, "note") and len(_table(engine).entries) == kept + 1
    assert engine.view()["scores"] == [0, 61]


def test_an_undo_the_record_cannot_match_asks_to_set_the_board_up_again():
    engine, board = _playing()
    answer(engine, "7c", "8d")  # Ann: 2
    board.news.append(BoardEvent("undo", 1, 0, None))  # Bob's lane: not the last jump
    events = engine.poll()
    assert [e.text for e in _kinds(events, "problem")] == [
        "the board undid a jump the record cannot match"]
    q = engine.question()
    assert q.kind == "confirm" and q.prompt.startswith(SET_UP)
    board.pegs.peg(1, 5)  # the board drifted from the record meanwhile
    answer(engine, "y")
    assert board.fronts() == [2, 0] == engine.view()["scores"]
    assert engine.question().kind == "play"


def test_a_new_game_from_the_buttons_goes_on_and_sets_the_board_up_again():
    engine, board = _playing()
    answer(engine, "7c", "8d")  # Ann: 2
    board.press(1, 5)
    engine.poll()
    play = engine.question()
    board.press_new()
    events = engine.poll()
    assert [e.text for e in _kinds(events, "problem")] == [
        "the board started a new game; this game goes on"]
    assert board.fronts() == [0, 0] and engine.view()["scores"] == [2, 5]
    q = engine.question()
    assert q.kind == "confirm" and q.prompt.startswith(SET_UP) and q.id != play.id
    answer(engine, "y")
    assert board.fronts() == [2, 5] == engine.view()["scores"]
    assert board.pegs.dealer == 0  # the crib marker is shown again
    notes = [e for e in _table(engine).entries if e.info.get(BARRIER)]
    assert len(notes) == 3  # set up again, then a peg per lane
    assert engine.question().prompt == play.prompt
    # The board's undo no longer mirrors the record before the set-up: not matched.
    board.press_undo()
    engine.poll()
    assert engine.question().prompt.startswith(SET_UP)
    assert engine.view()["scores"] == [2, 5]


def test_a_phone_undo_of_a_board_peg_takes_its_jump_back_on_the_board():
    engine, board = _playing()
    q = engine.question()
    board.press(0, 6)
    engine.poll()
    engine.undo(q.id)
    assert engine.view()["scores"] == [0, 0] and board.fronts() == [0, 0]
    assert [e.source for e in _table(engine).entries] == [TABLE]  # the starter alone


def test_the_scores_are_the_standing_entries_through_presses_and_answers():
    engine, board = _playing()
    answer(engine, "7c")
    board.press(0, 1)
    engine.poll()
    answer(engine, "8d")
    board.press(1, 2)
    board.press_undo()
    board.press_undo()  # the fifteen: Ann's 8 goes with it
    engine.poll()
    assert engine.view()["scores"] == _standing_points(engine) == [1, 0]
    assert board.fronts() == [1, 0]


def test_the_board_undo_of_the_winning_peg_takes_the_game_back():
    engine, board = _playing()
    board.press(0, 61)
    engine.poll()
    assert engine.question().kind == "another"
    board.press_undo()
    engine.poll()
    v = engine.view()
    assert not v["over"] and v["scores"] == [0, 0] and board.fronts() == [0, 0]
    assert engine.question().kind == "play"
    assert engine.session.results == []


def test_a_decision_is_asked_again_when_the_board_changes_the_game_meanwhile():
    engine, board = _playing()
    answer(engine, "7c", "8d")  # Ann: 2
    board.press_new()
    engine.poll()
    q = engine.question()
    assert q.prompt.startswith(SET_UP)
    board.press(1, 3)  # pegged on the fresh board while the question is open
    board.press_undo()  # and taken back: the flow is asked again
    engine.poll()
    assert engine.question().prompt.startswith(SET_UP) and engine.question().id == q.id
    answer(engine, "y")
    assert board.fronts() == [2, 0] == engine.view()["scores"]


def test_a_board_that_refuses_an_undo_is_said_and_set_up_again_when_asked():
    engine, board = _playing()
    board.press(0, 6)
    engine.poll()
    board.press_new()
    engine.poll()
    answer(engine, "n")  # keep the board as it is: nothing on it to undo
    q = engine.question()
    assert q.kind == "play" and board.fronts() == [0, 0]
    events = engine.undo(q.id)  # the phone takes back the board's 6
    assert [e.text for e in _kinds(events, "problem")] == [
        "the board refused undo: nothing to undo"]
    assert engine.view()["scores"] == [0, 0]
    assert engine.question().prompt.startswith(SET_UP)
    answer(engine, "y")
    assert board.fronts() == [0, 0] == engine.view()["scores"]


def test_the_board_news_reaches_every_screen_through_the_room():
    from cribcore.table.room import Room

    board = PressBoard()
    room = Room(button_engine(board), "r1")
    room.start()
    room.act("answer", {"question": room.question["id"], "answer": "5h"})
    assert room.poll() is None  # no news: nothing changed
    version, qid = room.version, room.question["id"]
    board.press(1, 2)
    out = room.poll()
    assert out.changed and out.version == version + 1 == room.state["version"]
    assert room.view["scores"] == [0, 2] and room.state["view"]["pegs"] == [[0, 0], [0, 2]]
    assert [(ev["who"], ev["text"]) for ev in out.events if ev["kind"] == "say"] == [
        ("Bob", PEGGED_ON_BOARD)]
    assert room.question["id"] == qid  # an answer being tapped still applies
    board.press(1, 59)
    out = room.poll()
    assert room.state["over"] is False and room.question["kind"] == "another"
    assert room.view["winner"] == 1 and room.state["view"]["result"]["winner"] == "Bob"


def test_the_boards_evt_lines_of_a_press_are_its_board_events():
    def news(line):
        msg = decode(line)
        return button_event(msg.verb, msg.args)

    assert news(event("peg", p=1, n=3, src="button", rev=7)) == BoardEvent("peg", 1, 3, 7)
    assert news(event("undo", p=0, src="button", rev=8)) == BoardEvent("undo", 0, 0, 8)
    assert news(event("new", src="button", rev=9, target=121)) == BoardEvent("new", -1, 0, 9)
    assert news(event("peg", p=1, n=3, src="host", rev=7)) is None  # the table's own peg
    assert news(event("win", p=1, rev=7)) is None
    assert news(event("warn", code="internal", msg="x")) is None
