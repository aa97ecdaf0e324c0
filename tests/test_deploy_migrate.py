"""crib.deploy.migrate: an earlier firmware's saved game converted on the host into a slot
file of today's store (the firmware reads only its own format). The deploy itself onto
a board holding each earlier format: tests/test_deploy.py (the fake device) and
tests/pico/test_pico_deploy.py (the emulated Pico)."""

from hypothesis import given
from hypothesis import strategies as st
from support import earlier_state_file as earlier
from support import v1_board

from crib.deploy import migrate
from cribcore.pegs import Board
from pegboard.restore import restore
from pegboard.store import Store

SETTINGS = "set brightness=55 budget_ma=450 pause_ms=1500 idle_ms=600000"
ID = "id old2 0badc0de ok rev=2 p0=0,5 winner=-1 id=old2"

# Written by the firmware before v2 (Adler-32, the history as numbers).
V1 = ("v1/t121/n3/d-1/r49/w1,0,0,0/f121,83,99/b114,72,95/u64/h0,1,2,0,1,2,12,41,10,32,49,42,"
      "64,81,86,92,97,94,124,101,122,152,141,126,200,173,146,248,189,186,256,213,190,260,217,"
      "234,296,221,262,340,237,290,388,241,326,404,273,358,440*1a9f2de5")


class Files:
    """A store's files in a dict (what the deploy read from the device, or wrote)."""

    def __init__(self, files):
        self.files = dict(files)

    def read(self, name):
        return self.files.get(name)

    def write(self, name, chunks):
        self.files[name] = "".join(chunks).encode()


def pegs(b):
    return [(b.back(i), b.front(i)) for i in range(b.players)]


def test_a_v1_board_becomes_the_same_board_in_v2():
    b = Board.loads(migrate.board_v2(V1))
    assert (b.winner, b.wins[:3], b.rev, b.undo_count) == (0, [1, 0, 0], 49, 49)
    assert pegs(b) == [(114, 121), (72, 83), (95, 99)]
    assert b.dumps().startswith("v2/t121/n3/") and len(b.dumps()) < len(V1) - 60
    # The same history: each undo puts the lane's pegs where v1's entry says they were.
    hist = [int(v) for v in V1.split("*")[0].split("/h")[1].split(",")]
    front, back = [121, 83, 99], [114, 72, 95]
    for rec in reversed(hist):
        lane, old = rec & 3, rec >> 2
        front[lane], back[lane] = back[lane], old
        assert b.undo() == lane and pegs(b) == list(zip(back, front))


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(1, 40)), max_size=80),
       st.integers(0, 3))
def test_any_board_written_as_v1_converts_back_to_itself(jumps, undos):
    board = Board(3, 121, 64)
    for lane, n in jumps:
        if board.winner < 0:
            board.peg(lane, n)
    for _ in range(min(undos, board.undo_count)):
        board.undo()
    assert migrate.board_v2(v1_board(board)) == board.dumps()
    assert migrate.board_v2(board.dumps()) == board.dumps()  # today's is taken as it is


def resigned(body):
    return body + "*" + migrate.checksum(body)


def test_a_damaged_or_inconsistent_v1_board_is_refused():
    for bad in (V1[:-1] + "6",  # its checksum
                resigned(V1.split("*")[0].replace("/h0,1,2,", "/h0,1,9,")),  # its history
                resigned("v1/t61/n2/d-1/r3/w0,0,0,0/f5,7/b0,4/u64/h0,x,1"),
                resigned("v1/t61/n2/d-1/r3/w0,0,0,0/f5,7/b0,4/u64/h0,1,21"),
                resigned("v1/t61/n2/d-1/r3/w0,0,0,0/f5,7/b0,4/u64"),
                "v3/x*1", ""):
        try:
            migrate.board_v2(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def game(seq=7):
    """An earlier firmware's game: (board, its three lines with a v1 board line)."""
    board = Board(3, 121)
    board.peg(2, 9)
    board.peg(0, 5)
    return board, ["board " + v1_board(board), SETTINGS, ID]


def moved(files, lanes=3):
    """The slot convert() writes, read back by today's store: (seq, text, problems, name)."""
    problems = []
    got = migrate.convert(files, "state", lanes, problems)
    if got is None:
        return None, None, problems, None
    name, chunks, seq, source = got
    store = Store("state", Files({name: "".join(chunks).encode()}))
    text = store.load()
    assert store.problems == [] and store.seq == seq
    return seq, text, problems, source


def test_board_copies_with_records_move_into_a_slot_keeping_every_line():
    board, lines = game()
    files = {"state.a": earlier(7, lines[:1] + ["recs 0,1"]),
             "state.r0": earlier(5, lines[1:2]), "state.r1": earlier(6, lines[2:])}
    seq, text, problems, source = moved(files)
    assert (seq, source, problems) == (7, "state.a", [])
    assert text.split("\n") == ["board " + board.dumps(), SETTINGS, ID]
    got, settings, ids = restore(text, 3)
    assert pegs(got) == pegs(board) and settings["brightness"] == 55 and ids == [ID]
    assert migrate.convert(files, "state", 3, [])[0] == "state.7/h"  # save 7's own slot


def test_the_one_file_state_of_the_firmware_before_moves_too():
    board, lines = game()
    old = earlier(12, lines, "crib-state")
    seq, text, problems, source = moved({"state": old, "state.old": old})
    assert (seq, source, problems) == (12, "state", [])
    assert text.split("\n")[0] == "board " + board.dumps()


def test_the_newest_usable_copy_is_moved_and_what_was_skipped_said():
    board, lines = game()
    newer = Board(4, 121)
    newer.peg(3, 2)
    files = {"state.a": earlier(9, ["board " + v1_board(newer), SETTINGS]),  # 4 on 3 lanes
             "state.b": earlier(8, lines[:1] + ["recs 0,4"]),  # its record 4 is gone
             "state.r0": earlier(5, lines[1:2]),
             "state": b"crib-state 7 junk",
             "state.old": earlier(6, lines, "crib-state")}
    seq, text, problems, source = moved(files)
    assert (seq, source) == (6, "state.old")
    assert text.split("\n")[0] == "board " + board.dumps()
    assert problems == ["state.r4: record of copy 8 missing",
                        "state: corrupt or truncated, ignored",
                        "state.a: not moved: 4 players on 3 lanes"]
    assert moved(files, lanes=4)[0] == 9  # on a board of four lanes the newest fits


def test_nothing_usable_moves_nothing():
    _, lines = game()
    assert moved({})[0] is None
    files = {"state": earlier(3, ["board v1/garbage*00000000", SETTINGS], "crib-state")}
    seq, _, problems, _ = moved(files)
    assert seq is None and len(problems) == 1 and problems[0].startswith("state: not moved")


def test_the_deploy_never_writes_over_an_earlier_firmwares_files():
    from crib.deploy import plan

    for name in migrate.names("state"):
        assert name in plan.STATE_FILES
    assert "state.0/h" in plan.STATE_FILES and "state.kept" in plan.STATE_FILES
