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
    files = Files({"state.1/h": b"garbage", "state.2/h": b"\x00\x01"})
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


def flipped(data):
    """The file with one bit of its middle byte flipped (a flash bit error)."""
    i = len(data) // 2
    return data[:i] + bytes([data[i] ^ 0x04]) + data[i + 1:]


def newest_slot(files):
    """The slot file holding the newest save."""
    seqs = {}
    for name, data in files.files.items():
        if name.endswith("/h") and data:
            seqs[int(data.split(b"\n")[0].split(b" ")[1])] = name
    return seqs[max(seqs)]


def test_a_bit_flip_in_any_slot_with_a_cut_costs_only_the_saves_that_depend_on_it():
    """Defect A: one damaged byte in an older slot lost the whole game. For each of the 9
    slots, damaged after a session round the ring: with no cut, and with the power cut in
    the middle of the next save. The restarted board keeps the game (the newest state; the
    one before if the newest slot is the damaged one), answers the retried command exactly
    as an undamaged board did, and every later reply and the final state are the
    reference's."""
    tail = ["peg p=0 n=2 id=t1", "peg p=1 n=1 id=t2"]
    ref = rig_on(Files())
    ref.send("new target=61 players=2 id=0")
    before = None
    for line in SCRIPT:
        before = ref.app.board.dumps()
        last = ref.send(line)
    start = dict(ref.files.files)
    settings = dict(ref.app.settings)
    boards = [ref.app.board.dumps()]
    replies = [ref.send(line) for line in tail]
    boards.append(ref.app.board.dumps())
    runs = 0
    for i in range(9):
        damaged = "state.%d/h" % i
        for cut in (None, 0, 40):
            files = Files(start)
            newest = newest_slot(files)
            newest, following = newest == damaged, "state.%d/h" % ((int(newest[6]) + 1) % 9)
            if cut is not None:  # the next save is cut short: its slot empty or torn
                if damaged == following:
                    continue  # that is the slot in flight, not an older one
                files.cut_at, files.keep = 1, cut
                try:
                    rig_on(files).send(tail[0])
                    raise AssertionError("no cut")
                except PowerCut:
                    files.cut_at = None
            files.files[damaged] = flipped(files.files[damaged])  # found at the next boot
            again = rig_on(files)
            boot = [decode(x) for x in again.boot]
            assert "bad_state" in boot[0].args["warn"], (i, cut)
            assert damaged in " ".join(b.args.get("msg", "") for b in boot[1:]), (i, cut)
            assert again.app.settings == settings, (i, cut)
            if not newest:  # the game as acknowledged
                assert again.app.board.dumps() == boards[0], (i, cut)
            else:  # the newest save is in the damaged slot: the state before, and the
                # host's retry of that save applies it again, as it was answered
                assert again.app.board.dumps() == before, (i, cut)
                assert again.send(SCRIPT[-1]) == last, (i, cut)
            for k, line in enumerate(tail):
                assert again.send(line) == replies[k], (i, cut, line)
            assert again.app.board.dumps() == boards[1], (i, cut)
            runs += 1
    assert runs == 9 + 8 + 8
