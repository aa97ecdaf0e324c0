"""The engine's own pegs, dealer and turn after the reply (boardweb.appboard's deferred
calls, App.apply): made in order on one copy of the board with one save for them all, no id
remembered and no reply line made; the App ends as the same lines over USB leave it. A
refused call is skipped (the App is then behind the record: resync), a failing save takes
them all back, and a power cut at the save leaves the state before or after on flash. The
save writes the board line in pieces: its history is never copied (pegboard.slots.frame)."""

import sys

from apprig import Files, PowerCut, Rig, config
from hypothesis import given, settings
from hypothesis import strategies as st
from support import FIRMWARE

if str(FIRMWARE) not in sys.path:
    sys.path.append(str(FIRMWARE))

from boardweb.appboard import AppBoard  # noqa: E402

from cribcore.pegs import Board, PegError  # noqa: E402
from cribcore.protocol import encode  # noqa: E402
from pegboard.direct import LISTS, VALUES, head, same  # noqa: E402
from pegboard.slots import frame  # noqa: E402
from pegboard.store import Store  # noqa: E402
from pegboard.storeboot import unframe  # noqa: E402

# An answer's calls as the engine makes them: (verb, fields) for AppBoard, the same line.
CALLS = [("set_dealer", (1,), "set dealer=1"), ("peg", (0, 5), "peg p=0 n=5"),
         ("set_turn", (1,), "turn p=1"), ("peg", (1, 12), "peg p=1 n=12"),
         ("peg", (0, 2), "peg p=0 n=2"), ("set_turn", (0,), "turn p=0")]


def rig():
    r = Rig(config(lanes=2))
    r.send("new target=121 players=2 id=n1")
    return r


def deferred(r):
    board = AppBoard(r.app, lambda: r.now)
    board.defer()
    return board


def call(board, verb, fields, n):
    if verb == "peg":
        board.peg(fields[0], fields[1], "p%d" % n)
    else:
        getattr(board, verb)(*fields)


def on_flash(files):
    return Store("state", Files(files.files)).load()


def test_an_answers_calls_are_one_save_and_leave_the_app_as_the_same_lines_over_usb():
    direct, lines = rig(), rig()
    board = deferred(direct)
    ids = list(direct.app.ids)
    for n, (verb, fields, _) in enumerate(CALLS):
        call(board, verb, fields, n)
    assert direct.app.board.front(0) == 0  # nothing made before the flush
    ops = direct.files.ops
    assert board.flush() is True and not board.behind
    assert direct.files.ops - ops == 1  # one save for all (a save a call before)
    for n, (_, _, line) in enumerate(CALLS):
        reply = lines.send(line + (" id=p%d" % n if line.startswith("peg") else ""))
        assert reply[-1].startswith("ok"), reply
    assert direct.app.board.dumps() == lines.app.board.dumps()
    assert direct.app.renderer.turn == lines.app.renderer.turn == 0
    assert direct.app.ids == ids  # no id remembered: they have no line to answer again
    assert on_flash(direct.files).split("\n")[0] == "board " + lines.app.board.dumps(
        check=False)


def test_a_refused_call_is_skipped_the_rest_made_and_the_app_marked_behind():
    r = rig()
    board = deferred(r)
    board.peg(0, 3, "a")
    board.peg(0, 0, "b")  # no jump of 0 holes: refused
    board.set_turn(3)  # no lane 3 in a game of 2
    board.peg(1, 4, "c")
    assert board.flush() is False and board.behind
    b = r.app.board
    assert (b.front(0), b.front(1)) == (3, 4)
    assert on_flash(r.files).split("\n")[0] == "board " + b.dumps(check=False)


def test_a_failing_save_takes_back_every_call_and_the_flash_keeps_the_state_before():
    r = rig()
    board = deferred(r)
    before, saved = r.app.board.dumps(), on_flash(r.files)
    board.peg(0, 3, "a")
    board.set_dealer(0)
    r.files.fail = True
    assert board.flush() is False and board.behind
    r.files.fail = False
    assert r.app.board.dumps() == before and on_flash(r.files) == saved
    board.peg(1, 2, "d")  # and the next answer's calls are made and saved as ever
    assert board.flush() is True and r.app.board.front(1) == 2


def test_a_power_cut_at_the_save_leaves_the_state_before_or_after():
    for keep in (0, 1, 30, 100000):
        r = rig()
        board = deferred(r)
        before = on_flash(r.files)
        for n, (verb, fields, _) in enumerate(CALLS):
            call(board, verb, fields, n)
        r.files.cut_at, r.files.ops, r.files.keep = 1, 0, keep
        try:
            board.flush()
            raise AssertionError("no cut")
        except PowerCut:
            pass
        r.files.cut_at = None
        again = Rig(config(lanes=2), files=r.files)
        got = again.app.board
        if keep == 100000:  # the whole file: the new state
            assert (got.front(0), got.front(1), got.dealer) == (7, 12, 1)
        else:  # cut short: the one before
            assert on_flash(again.files) == before and got.front(0) == 0


def played(players, target, depth, moves):
    b = Board(players, target, depth)
    for kind, lane, n in moves:
        try:
            if kind == "peg":
                b.peg(lane, n)
            elif kind == "undo":
                b.undo()
            elif kind == "dealer":
                b.set_dealer(lane - 1)
            else:
                b.new_game(players=2 + lane % 3)
        except PegError:
            pass
    return b


ops = st.lists(st.tuples(st.sampled_from(["peg", "undo", "dealer"]), st.integers(0, 3),
                         st.integers(1, 40)), max_size=120)


@settings(max_examples=60, deadline=None)
@given(ops, st.integers(0, 64))
def test_the_board_line_in_pieces_is_the_boards_text_and_reads_back(moves, depth):
    r = Rig(config(lanes=4))
    r.app.board = b = played(4, 121, depth, moves)
    written = []
    write = r.files.write
    r.files.write = lambda name, chunks: (written.append(chunks), write(name, chunks))
    r.app._save()
    assert b._htext == "" or any(c is b._htext for c in written[0])  # never copied
    assert on_flash(r.files).split("\n")[0] == "board " + b.dumps(check=False)
    assert Board.loads(b.dumps()).dumps() == b.dumps()


def test_a_slots_chunks_hold_the_board_lines_pieces_themselves():
    hist = "".join(["%d" % (i % 10) for i in range(200)])
    lines = [("board ", "v2/t121/n2/d-1/r7/w0,0,0,0/f0,0/b0,0/u64/h", hist), "set a=1", "@A0"]
    chunks = frame(9, lines)
    assert any(c is hist for c in chunks)  # written as it is: no joined copy
    text = "".join(chunks)
    assert unframe(text.encode()) == (9, ["".join(lines[0])] + lines[1:])
    assert text == "".join(frame(9, ["".join(lines[0])] + lines[1:]))


def test_the_stores_record_of_where_lines_are_holds_only_the_states_lines():
    store = Store("state", Files())
    ids = []
    for n in range(40):
        ids = (ids + ["id %d ok rev=%d" % (n, n)])[-8:]
        lines = ["board %d" % n, encode("set", brightness=40 + n % 3)] + ids
        store.save(lines)
        assert set(store._where) == set(lines[1:])
        assert Store("state", Files(store.files.files)).load() == "\n".join(lines)


boards = st.tuples(st.integers(2, 4), st.sampled_from([61, 121]), st.integers(0, 64),
                   st.lists(st.tuples(st.sampled_from(["peg", "undo", "dealer", "new"]),
                                      st.integers(0, 3), st.integers(1, 60)), max_size=150))


@settings(max_examples=80, deadline=None)
@given(boards, boards)
def test_the_saves_board_text_and_copy_in_place_are_the_boards_own(one, other):
    b, spare = played(*one), played(*other)
    assert head(b) + b._htext == b.dumps(check=False)
    lists = [getattr(spare, name) for name in LISTS]
    same(spare, b)
    assert spare.dumps() == b.dumps() and vars(spare) == vars(b.copy())
    for name, mine in zip(LISTS, lists):
        assert getattr(spare, name) is mine and mine is not getattr(b, name)
    b.peg(0, 1) if b.winner < 0 else b.undo()  # the copy is its own
    assert spare.dumps() != b.dumps()


def test_the_copy_in_place_knows_every_field_a_board_has():
    assert set(vars(Board())) == set(VALUES) | set(LISTS)


def test_answer_after_answer_the_app_alternates_two_boards_and_stays_the_lines_board():
    direct, lines = rig(), rig()
    board = deferred(direct)
    seen = set()
    for n in range(12):
        lane, points = n % 2, 1 + n % 5
        board.peg(lane, points, "p%d" % n)
        board.set_turn(1 - lane)
        before = direct.app.board
        assert board.flush() is True
        assert direct.app.board is not before  # saved, then the App's
        seen.add(id(direct.app.board))
        lines.send("peg p=%d n=%d id=p%d" % (lane, points, n))
        lines.send("turn p=%d" % (1 - lane))
        assert direct.app.board.dumps() == lines.app.board.dumps()
        assert on_flash(direct.files).split("\n")[0] == "board " + lines.app.board.dumps(
            check=False)
    assert len(seen) == 2  # the board before is the next one's copy: no new board an answer
