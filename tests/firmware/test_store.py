"""The state file store: framing, newest good copy, corrupt and truncated copies, real files."""

from apprig import Files, PowerCut

from pegboard.store import Store, frame, names, unframe


def test_frame_round_trip_and_every_truncation_or_flip_is_caught():
    lines = ["board v1/x*1", "set brightness=4", "id 1 abc ok rev=1"]
    text = "\n".join(lines)
    data = "".join(frame(7, lines)).encode()
    assert unframe(data) == (7, text)
    assert unframe("".join(frame(7, [text])).encode()) == (7, text)
    assert unframe("".join(frame(3, [])).encode()) == (3, "")
    for i in range(len(data)):
        assert unframe(data[:i]) is None, i
        flipped = data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1:]
        assert unframe(flipped) is None, i
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


def state(files, name):
    return unframe(files.files[name])


def test_save_then_load_gives_the_newest_text():
    files = Files()
    s = Store("state", files)
    assert s.load() is None and s.problems == []
    s.save("one")
    s.save("two")
    assert sorted(files.files) == ["state.a", "state.b"]
    again = Store("state", files)
    assert again.load() == "two" and again.seq == 2
    again.save("three")  # over the older copy: "two" stays
    assert Store("state", files).load() == "three"
    assert state(files, "state.b")[1].startswith("two")


def test_ids_are_records_of_their_own_written_once():
    files = Files()
    s = Store("state", files)
    s.save(["board 1", "set x", "id a k ok rev=1"])
    s.save(["board 2", "set x", "id a k ok rev=1", "id b k ok rev=2"])
    ops = files.ops
    s.save(["board 3", "set x", "id b k ok rev=2", "id c k ok rev=3"])
    assert files.ops - ops == 2  # the new id's record, then the board copy
    assert Store("state", files).load() == "board 3\nset x\nid b k ok rev=2\nid c k ok rev=3"
    for n in range(4, 30):  # the slot of an id no longer vouched for is reused
        ids = ["id %d k ok rev=%d" % (i, i) for i in range(max(0, n - 8), n)]
        s.save(["board %d" % n, "set x"] + ids)
        assert Store("state", files).load() == "\n".join(["board %d" % n, "set x"] + ids)
    # 9 records vouched for (settings, 8 ids) and the one written next: 10 slots
    assert sorted(files.files) == sorted(names("state")[:2] + names("state")[6:-1])


def test_the_earlier_format_is_read_so_a_deploy_keeps_the_game():
    old = "".join(frame(7, ["board v", "set y", "id q k ok rev=7"])).encode()
    files = Files({"state": old, "state.old": old})
    s = Store("state", files)
    assert s.load() == "board v\nset y\nid q k ok rev=7" and s.problems == []
    s.save(["board w", "set y", "id q k ok rev=7"])
    assert s.seq > 7 and Store("state", files).load() == "board w\nset y\nid q k ok rev=7"


def test_a_damaged_newest_copy_falls_back_to_the_previous_one_and_is_reported():
    files = Files()
    s = Store("state", files)
    s.save("one")
    s.save("two")
    files.files["state.b"] = files.files["state.b"][:-1] + b"X"
    again = Store("state", files)
    assert again.load() == "one"
    assert len(again.problems) == 1 and "state.b" in again.problems[0]
    again.save("three")  # over the damaged copy; the good one stays
    assert state(files, "state.a")[1].startswith("one")
    assert Store("state", files).load() == "three"


def test_a_cut_at_any_step_of_a_save_leaves_the_old_or_the_new_text():
    for cut in (1, 2):
        for keep in (0, 10, 10000):
            files = Files()
            s = Store("state", files)
            s.save(["board 1", "set x", "id a k ok"])
            s.save(["board 2", "set x", "id a k ok", "id b k ok"])
            files.ops, files.cut_at, files.keep = 0, cut, keep
            try:
                s.save(["board 3", "set x", "id a k ok", "id b k ok", "id c k ok"])
            except PowerCut:
                pass
            files.cut_at = None
            again = Store("state", files)
            got = again.load()
            done = cut == 2 and keep == 10000
            assert got.startswith("board 3" if done else "board 2"), (cut, keep, got)
            assert ("id c" in got) == done  # an id of a change that did not land: gone
            # A cut leaves an empty file where LittleFS had only made the name: no damage.
            assert (again.problems == []) == (keep in (0, 10000)), again.problems
            again.save(["board 4", "set x", "id d k ok"])
            assert Store("state", files).load() == "board 4\nset x\nid d k ok"


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


def test_fault_3_a_refused_change_never_comes_back():
    # The save of a change fails, then so does the app's save of the old state (its
    # rollback): at the next boot the refused change must not win.
    for first in (1, 2):  # the id record or the state copy fails
        files = Failing()
        s = Store("state", files)
        s.save(["board old", "set x", "id a k ok"])
        files.ops, files.fail_at = 0, {first, first + 1, first + 2}
        for lines in (["board refused", "set x", "id a k ok", "id r k ok"],
                      ["board old", "set x", "id a k ok"]):
            try:
                s.save(lines)
            except OSError:
                pass
        files.fail_at = set()
        got = Store("state", files).load()
        assert got == "board old\nset x\nid a k ok", (first, got)
        again = Store("state", files)
        again.load()
        again.save(["board next", "set x", "id a k ok", "id n k ok"])
        assert Store("state", files).load() == "board next\nset x\nid a k ok\nid n k ok"


def test_fault_5_a_refused_copy_is_kept_and_the_older_one_offered():
    files = Files()
    s = Store("state", files)
    s.save("players 3")
    s.save("players 4")
    again = Store("state", files)
    assert again.load() == "players 4"
    again.refuse("4 players on 3 lanes")
    assert again.older() == "players 3"
    for n in range(5):  # changes go on: the refused game is still kept
        again.save("players 3 change %d" % n)
    kept = files.files["state.kept"].decode()
    assert kept.startswith("# refused: 4 players on 3 lanes\n")
    seq, text = unframe(kept.split("\n", 1)[1].encode())  # the copy as it was on flash
    assert (seq, text.split("\n")[0]) == (2, "players 4")
    third = Store("state", files)
    assert third.load() == "players 3 change 4"
    third.refuse("another")  # something is kept already: it is not overwritten
    assert files.files["state.kept"].decode() == kept


def test_fault_12_an_interrupted_create_is_no_damage():
    files = Files({"state.a": "".join(frame(3, ["one"])).encode(), "state.b": b"",
                   "state.i0": b""})
    s = Store("state", files)
    assert s.load() == "one" and s.problems == []


def test_real_files(tmp_path):
    path = str(tmp_path / "state")
    s = Store(path)
    assert s.load() is None
    s.save("one\ntwo")
    s.save("three")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.a", "state.b", "state.r0"]
    assert Store(path).load() == "three"
    (tmp_path / "state.b").write_bytes(b"crib-state 9 5 00000000\nhello")
    again = Store(path)
    assert again.load() == "one\ntwo" and len(again.problems) == 1
