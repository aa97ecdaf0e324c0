"""Power cuts at every flash step: an acknowledged change is never lost, a retry never doubles.

A reference run plays a script of id-carrying commands. Then, for every file operation k
the script performs and several amounts of a half-written file, the power is cut at
operation k: the board restarts on what the flash holds, the host retries the command
that got no reply (same id), and sends the rest. Every reply and the final state must be
exactly the reference's.
"""

from apprig import Files, PowerCut, Rig, config

from cribcore.pegs import Board
from cribcore.protocol import decode
from pegboard.restore import restore
from pegboard.store import Store

SCRIPT = [
    "peg p=0 n=12 id=1",
    "peg p=1 n=5 id=2",
    "set dealer=1 brightness=60 id=3",
    "undo id=4",
    "peg p=1 n=7 id=5",
    "peg p=0 n=49 id=6",  # 61: lane 0 wins
    "undo id=7",
    "peg p=0 n=49 id=8",
    "new players=2 target=121 id=9",
    "peg p=1 n=3 id=10",
] + ["peg p=%d n=%d id=%d" % (i % 2, 1 + i % 5, i) for i in range(11, 21)]  # round the ring


def rig_on(files):
    return Rig(config(lanes=2), files=files)


def reference():
    rig = rig_on(Files())
    rig.send("new target=61 players=2 id=0")
    start = dict(rig.files.files)
    ops0 = rig.files.ops
    replies = [rig.send(line) for line in SCRIPT]
    return start, replies, rig.files.ops - ops0, rig.store.load()


def test_every_cut_keeps_acknowledged_changes_and_applies_retries_once():
    start, replies, ops, final = reference()
    # One slot written per change, its settings and ids carried or named.
    assert ops == len(SCRIPT)
    runs = 0
    for k in range(1, ops + 1):
        for keep in (0, 1, 30, 100000):
            files = Files(start)
            rig = rig_on(files)
            files.ops, files.cut_at, files.keep = 0, k, keep
            acked = 0
            try:
                for i, line in enumerate(SCRIPT):
                    assert rig.send(line) == replies[i]
                    acked = i + 1
                raise AssertionError("the cut at op %d never came" % k)
            except PowerCut:
                pass
            files.cut_at = None
            again = rig_on(files)
            rev = again.app.board.rev
            # The reboot shows the last acknowledged state, or the one in flight.
            acked_rev = decode(replies[acked - 1][-1]).args["rev"] if acked else 1
            flight_rev = decode(replies[acked][-1]).args["rev"]
            assert rev in (acked_rev, flight_rev), (k, keep, rev)
            for i in range(acked, len(SCRIPT)):
                assert again.send(SCRIPT[i]) == replies[i], (k, keep, SCRIPT[i])
            assert Store("state", Files(files.files)).load() == final
            runs += 1
    assert runs == 4 * ops


def test_a_failing_flash_refuses_the_change_and_the_retry_succeeds():
    files = Files()
    rig = rig_on(files)
    rig.send("peg p=0 n=5 id=1")
    files.fail = True
    got = rig.send("peg p=0 n=7 id=2")
    m = decode(got[-1])
    assert (m.kind, m.args["code"], m.args["rev"], m.args["id"]) == ("err", "store_failed", 1, "2")
    assert rig.app.board.front(0) == 5 and rig.ask("state").args["rev"] == 1
    files.fail = False
    assert rig.ask("peg p=0 n=7 id=2").args["p0"] == (5, 12)
    assert rig_on(files).app.board.front(0) == 12


def test_a_failing_flash_drops_a_button_peg_and_warns():
    files = Files()
    rig = rig_on(files)
    files.fail = True
    rig.press("lane0", 60)
    rig.step(rig.config.pause_ms + 50)
    got = rig.port.take()
    assert [decode(x).args["code"] for x in got] == ["store_failed"]
    assert rig.app.board.front(0) == 0


def test_a_corrupt_state_file_is_reported_at_boot_and_the_last_good_state_used():
    files = Files()
    rig = rig_on(files)
    rig.send("peg p=0 n=5 id=1")
    rig.send("peg p=1 n=9 id=2")
    files.files["state.2/h"] = files.files["state.2/h"][:-3]  # the newest save, truncated
    again = rig_on(files)
    assert again.app.board.front(0) == 5 and again.app.board.front(1) == 0
    boot = [decode(x) for x in again.boot]
    assert boot[0].verb == "boot" and boot[0].args["warn"] == ("bad_state",)
    assert boot[1].verb == "warn" and boot[1].args["code"] == "bad_state"
    assert again.ask("hello").args["warn"] == ("bad_state",)


def test_no_good_copy_at_all_starts_a_fresh_board_and_says_so():
    files = Files({"state": b"garbage", "state.old": b"\x00\x01"})
    rig = rig_on(files)
    assert rig.app.board.rev == 0 and rig.app.board.front(0) == 0
    assert [decode(x).args.get("code") for x in rig.boot[1:]] == ["bad_state", "bad_state"]
    rig.send("peg p=0 n=1")
    assert rig_on(files).app.board.front(0) == 1


def test_a_saved_game_the_layout_refuses_is_kept_and_an_older_copy_tried():
    files = Files()
    four = Rig(config(lanes=4), files=files)
    four.send("new players=3 id=1")
    four.send("peg p=0 n=4 id=2")
    four.send("new players=4 id=3")  # the newest copy: 4 players
    three = rig_on_lanes(files, 3)
    assert three.app.board.players == 3 and three.app.board.front(0) == 4  # the older copy
    assert "bad_state" in three.ask("hello").args["warn"]
    three.send("peg p=1 n=2 id=4")
    three.send("peg p=1 n=3 id=5")
    kept = files.files["state.kept"].decode()
    assert kept.startswith("# refused: 4 players on 3 lanes") and "/n4/" in kept


def rig_on_lanes(files, lanes):
    return Rig(config(lanes=lanes), files=files)


def test_a_saved_state_is_read_back_only_when_every_line_is_sound():
    board = "board " + Board(3, 121).dumps()
    good = [board, "set brightness=55 budget_ma=450 pause_ms=1500 idle_ms=600000",
            "id a 00000001 ok rev=1 id=a"]
    b, settings, ids = restore(good, 3)
    assert b.players == 3 and ids == good[2:]
    assert settings == {"brightness": 55, "budget_ma": 450, "pause_ms": 1500,
                        "idle_ms": 600000}
    for bad in ([board], ["set brightness=5", "set brightness=5"],
                [board, "peg brightness=55"], [board, "set brightness=500"],
                [board, "set brightness=x5"], [board, "set colour=5"],
                [board, "set brightness"], [board, "set x", "id a k err code=x"],
                [board, "set", "ok a k ok rev=1"], [board, "set", "id a"],
                [board, "set", "id  k ok rev=1"], [board, "set", "id a k okay"],
                [board, "set", "id a k"], [board, "set", "idx a k ok rev=1"]):
        try:
            restore(bad, 3)
        except ValueError:
            continue
        raise AssertionError(bad)
    try:
        restore(good, 2)  # three players on two lanes
    except ValueError as e:
        assert "3 players on 2 lanes" in str(e)
    else:
        raise AssertionError("3 players on 2 lanes")
