"""The state store: framing, a slot per save, lines named not rewritten, the newest whole
state and its fallback, damage, power cuts, earlier formats, real files."""

from apprig import Files, PowerCut
from hypothesis import given, settings
from hypothesis import strategies as st
from support import earlier_state_file as earlier

from cribcore.boardtext import crc
from pegboard.slots import KEEP, SLOTS, frame, names
from pegboard.store import Store
from pegboard.storeboot import unframe


def test_frame_round_trip_and_every_truncation_or_flip_is_caught():
    lines = ["board v2/x*1", "set brightness=4", "id 1 abc ok rev=1", "@A02"]
    data = "".join(frame(7, lines)).encode()
    assert unframe(data) == (7, lines)
    assert unframe("".join(frame(3, [])).encode()) == (3, [])
    for i in range(len(data)):
        assert unframe(data[:i]) is None, i
        for bit in (0x01, 0x80):
            flipped = data[:i] + bytes([data[i] ^ bit]) + data[i + 1:]
            assert unframe(flipped) is None, (i, bit)
    assert unframe(b"\xff" + data) is None and unframe(b"") is None


class Failing(Files):
    """Files whose k-th operation from now raises OSError (nothing written)."""

    def __init__(self, files=None):
        super().__init__(files)
        self.fail_at = set()

    def _cut(self):
        if self.ops + 1 in self.fail_at:
            self.ops += 1
            raise OSError(5, "flash failed")
        return super()._cut()


def slot(files, seq):
    return unframe(files.files[f"state.{seq % SLOTS}/h"])


def state(n, ids=8, settings="set x"):
    """The lines of a state after change n: board, settings, the last `ids` ids."""
    return ["board %d" % n, settings] + ["id %d k ok rev=%d" % (i, i)
                                         for i in range(max(0, n - ids + 1), n + 1)]


def test_save_then_load_gives_the_newest_text():
    files = Files()
    s = Store("state", files)
    assert s.load() is None and s.problems == []
    s.save("one")
    s.save("two")
    assert sorted(files.files) == ["state.1/h", "state.2/h"]
    again = Store("state", files)
    assert again.load() == "two" and again.seq == 2
    again.save("three")  # a slot of its own: "two" stays
    assert Store("state", files).load() == "three"
    assert slot(files, 2) == (2, ["two", "@"])


def test_a_save_is_one_write_of_the_board_and_the_new_lines_only():
    files = Files()
    s = Store("state", files)
    s.save(state(0))
    for n in range(1, 40):
        ops = files.ops
        s.save(state(n))
        assert files.ops - ops == 1
        seq, lines = slot(files, s.seq)
        # the board, this change's id, now and then the settings, carried before the slot
        # that holds them is rewritten; every other line is named, not written again
        assert lines[0] == "board %d" % n and lines[1] in ("id %d k ok rev=%d" % (n, n),
                                                          "set x")
        assert len(lines) <= 4 and lines[-1].startswith("@")
        assert Store("state", files).load() == "\n".join(state(n))
    assert sorted(files.files) == sorted(names("state")[:SLOTS])


def test_a_line_kept_longer_than_the_ring_is_carried_and_ids_keep_their_order():
    files = Files()
    s = Store("state", files)
    for n in range(1, 3 * SLOTS):  # buttons: no new id, the same ids and settings stay
        lines = state(5) if n > 5 else state(n)
        lines[0] = "board %d" % n
        s.save(lines)
        assert Store("state", files).load() == "\n".join(lines), n
    for seq in range(s.seq - KEEP, s.seq + 1):  # every line is in one of the last slots
        assert slot(files, seq)[0] == seq


def test_the_state_before_the_newest_stays_whole_as_its_fallback():
    files = Files()
    s = Store("state", files)
    for n in range(1, 3 * SLOTS):
        s.save(state(n, ids=n % 9, settings="set %d" % (n // 5)))
        again = Store("state", files)
        assert again.load() == "\n".join(state(n, ids=n % 9, settings="set %d" % (n // 5)))
        if n > 1:
            prev = n - 1
            want = state(prev, ids=prev % 9, settings="set %d" % (prev // 5))
            assert again.older() == "\n".join(want)


def test_the_boot_gets_the_lines_themselves():
    """load(lines=True) and older(lines=True): the same state as a list of its lines (the
    boot's restore reads them without joining and splitting a text)."""
    files = Files()
    s = Store("state", files)
    for n in range(1, 12):
        s.save(state(n, ids=n % 9))
    again = Store("state", files)
    assert again.load(lines=True) == state(11, ids=11 % 9)
    assert again.older(lines=True) == state(10, ids=10 % 9)
    assert Store("state", Files()).load(lines=True) is None


def raw_slot(seq, lines):
    """A slot file's bytes around any bytes lines, its CRC made to match."""
    body = b"\n".join([b"%d" % seq] + lines)
    return b"H" + crc(body).encode() + b" " + body


def test_a_slot_that_passes_its_crc_but_is_no_text_loses_only_its_own_lines():
    """Lines are decoded only when used (pegboard.storeboot): bytes no store writes, in
    a slot whose CRC was made to match, cost that slot's lines, as damage does."""
    files = Files()
    s = Store("state", files)
    for n in range(1, 12):
        s.save(state(n))
    newest = s.seq
    older = "state.%d/h" % ((newest - 1) % SLOTS)
    seq, lines = unframe(files.files[older])
    assert lines[1].startswith("id ")
    files.files[older] = raw_slot(seq, [lines[0].encode(), b"id \xff",
                                        *[x.encode() for x in lines[2:]]])
    again = Store("state", files)
    want = state(newest)
    assert again.load().split("\n") == [x for x in want if x != lines[1]]
    assert again.problems == ["state.%d/h: line of save %d missing, left out"
                              % (newest % SLOTS, seq)]
    newest_name = "state.%d/h" % (newest % SLOTS)
    seq, lines = unframe(files.files[newest_name])
    files.files[newest_name] = raw_slot(seq, [b"board \xff", *[x.encode() for x in lines[1:]]])
    again = Store("state", files)
    assert again.load() is not None and again.seq == newest
    assert newest_name + ": no line list, ignored" in again.problems


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", "b", "c", "set 1", "set 2", "id x", "id y",
                                          "", "id z ok rev=3"]), max_size=9),
                min_size=1, max_size=30))
def test_any_sequence_of_states_loads_the_newest_and_its_fallback(states):
    files = Files()
    s = Store("state", files)
    for n, others in enumerate(states):
        s.save(["board %d" % n] + others)
        again = Store("state", files)
        assert again.load() == "\n".join(["board %d" % n] + others)
        if n:
            assert again.older() == "\n".join(["board %d" % (n - 1)] + states[n - 1])
        assert again.problems == []


def test_the_earlier_formats_are_not_read_here():
    """`crib deploy` moves an earlier firmware's game into a slot (crib.deploy.migrate,
    tests/test_deploy_migrate.py): the store reads its own slots only."""
    files = Files({"state.a": earlier(5, ["board a", "recs 0"]), "state.r0": earlier(3, ["set y"]),
                   "state": earlier(7, ["board v", "set y"], "crib-state")})
    s = Store("state", files)
    assert s.load() is None and s.problems == [] and s.seq == 0


def test_a_damaged_newest_slot_falls_back_to_the_previous_one_and_is_reported():
    files = Files()
    s = Store("state", files)
    s.save(["one", "set x"])
    s.save(["two", "set x"])
    files.files["state.2/h"] = files.files["state.2/h"][:-1] + b"X"
    again = Store("state", files)
    assert again.load() == "one\nset x"
    assert len(again.problems) == 1 and "state.2/h" in again.problems[0]
    again.save(["three", "set x"])
    assert Store("state", files).load() == "three\nset x"
    files.files["state.1/h"] = b"junk"  # a line the newest names is gone: real damage
    again = Store("state", files)
    assert again.load() is None and len(again.problems) == 2


def test_a_cut_during_a_save_leaves_the_old_or_the_new_text():
    for keep in (0, 10, 10000):
        files = Files()
        s = Store("state", files)
        for n in range(1, 12):
            s.save(state(n))
        files.ops, files.cut_at, files.keep = 0, 1, keep
        try:
            s.save(state(12))
        except PowerCut:
            pass
        files.cut_at = None
        again = Store("state", files)
        got = again.load()
        assert got == "\n".join(state(12 if keep == 10000 else 11)), keep
        # A cut leaves an empty file where LittleFS had only made the name: no damage.
        assert (again.problems == []) == (keep in (0, 10000)), again.problems
        again.save(state(13))
        assert Store("state", files).load() == "\n".join(state(13))


def test_a_failed_write_raises_and_keeps_the_state():
    files = Files()
    s = Store("state", files)
    s.save("one")
    files.fail = True
    try:
        s.save("two")
    except OSError:
        pass
    else:
        raise AssertionError("save on a failed flash must raise")
    files.fail = False
    assert Store("state", files).load() == "one"
    for n in range(1, 12):  # saves go on after a failed one, naming only whole slots
        s.save(state(n))
        assert Store("state", files).load() == "\n".join(state(n))


def test_fault_3_a_refused_change_never_comes_back():
    # The save of a change fails, then so does the app's save of the old state (its
    # rollback): at the next boot the refused change must not win.
    files = Failing()
    s = Store("state", files)
    s.save(["board old", "set x", "id a k ok"])
    files.ops, files.fail_at = 0, {1, 2}
    for lines in (["board refused", "set x", "id a k ok", "id r k ok"],
                  ["board old", "set x", "id a k ok"]):
        try:
            s.save(lines)
        except OSError:
            pass
    files.fail_at = set()
    got = Store("state", files).load()
    assert got == "board old\nset x\nid a k ok", got
    again = Store("state", files)
    again.load()
    again.save(["board next", "set x", "id a k ok", "id n k ok"])
    assert Store("state", files).load() == "board next\nset x\nid a k ok\nid n k ok"


def test_fault_5_a_refused_copy_is_kept_and_the_older_one_offered():
    files = Files()
    s = Store("state", files)
    s.save(["players 3", "set x"])
    s.save(["players 4", "set x"])
    again = Store("state", files)
    assert again.load() == "players 4\nset x"
    again.refuse("4 players on 3 lanes")
    assert again.older() == "players 3\nset x"
    for n in range(2 * SLOTS):  # changes go on: the refused game is still kept
        again.save(["players 3 change %d" % n, "set x"])
    kept = files.files["state.kept"].decode()
    assert kept.startswith("# refused: 4 players on 3 lanes\n")
    seq, lines = unframe(kept.split("\n", 1)[1].encode())  # every line, in one file
    assert (seq, lines[:2]) == (2, ["players 4", "set x"])
    third = Store("state", files)
    assert third.load() == "players 3 change %d\nset x" % (2 * SLOTS - 1)
    third.refuse("another")  # something is kept already: it is not overwritten
    assert files.files["state.kept"].decode() == kept


def test_fault_12_an_interrupted_create_is_no_damage():
    files = Files({"state.3/h": "".join(frame(3, ["one", "@"])).encode(), "state.4/h": b""})
    s = Store("state", files)
    assert s.load() == "one" and s.problems == []


def test_a_slot_holding_another_slots_save_is_reported():
    files = Files({"state.3/h": "".join(frame(5, ["one", "@"])).encode()})
    s = Store("state", files)
    assert s.load() is None and "state.3/h" in s.problems[0]


def test_real_files(tmp_path):
    path = str(tmp_path / "state")
    s = Store(path)
    assert s.load() is None
    s.save("one\ntwo")
    s.save("three\ntwo")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.1", "state.2"]
    assert Store(path).load() == "three\ntwo"
    (tmp_path / "state.2" / "h").write_bytes(b"Hffffffff 2\nthree")
    again = Store(path)
    assert again.load() == "one\ntwo" and len(again.problems) == 1


def test_prepare_makes_the_missing_slot_directories_ahead_one_a_call():
    files = Files()
    s = Store("state", files)
    assert s.load() is None
    s.save(state(1))  # slot 1, saved before prepare got to it
    calls = 0
    while s.prepare():
        calls += 1
    assert calls == SLOTS - 1 and not s.prepare()
    assert files.dirs == set("state.%d" % i for i in range(SLOTS) if i != 1)
    assert sorted(files.files) == ["state.1/h"]  # directories only: no file written ahead
    for n in range(2, 2 * SLOTS):  # the ring goes on as before
        s.save(state(n))
        assert Store("state", files).load() == "\n".join(state(n))
    again = Store("state", files)
    again.load()
    assert not again.prepare()  # every slot's file there: nothing to make


def test_prepare_goes_on_past_a_directory_that_is_there_or_fails():
    files = Failing()
    files.dirs.add("state.8")  # its file was missing, not its directory
    s = Store("state", files)
    s.load()
    files.fail_at = {files.ops + 2}
    while s.prepare():
        pass
    assert files.dirs == set("state.%d" % i for i in range(SLOTS) if i != 7)
    assert files.files == {}


def test_a_damaged_older_slot_costs_only_its_own_lines_never_the_newest_board():
    """Defect A at the store: for every older slot of a full ring, one flipped byte leaves
    the newest board, the settings (kept twice) and every remembered reply not held in
    that slot; a settings line written only there (a `set` one save back) is the one
    before: the save that truly depends on the damaged slot."""
    def run(last_set):
        files = Files()
        s = Store("state", files)
        for n in range(1, 3 * SLOTS):
            s.save(state(n, settings="set 2" if n >= last_set else "set 1"))
        return files, s.seq

    for last_set in (1, 3 * SLOTS - 2):
        files, newest = run(last_set)
        for back in range(1, SLOTS):
            damaged = "state.%d/h" % ((newest - back) % SLOTS)
            held = unframe(files.files[damaged])[1]
            f = Files(files.files)
            data = f.files[damaged]
            f.files[damaged] = data[:20] + bytes([data[20] ^ 1]) + data[21:]
            again = Store("state", f)
            got = again.load().split("\n")
            want = state(newest, settings="set 2")
            if last_set > 1 and back == 1:
                want[1] = "set 1"  # the `set` saved only in the damaged slot
            assert got[:2] == want[:2], (last_set, back)
            assert got[2:] == [x for x in want[2:] if x not in held], (last_set, back)
            assert again.problems[0] == damaged + ": corrupt or truncated, ignored"
