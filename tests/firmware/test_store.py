"""The state file store: framing, newest good copy, corrupt and truncated copies, real files."""

from apprig import Files, PowerCut

from pegboard.store import Store, frame, unframe


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


def test_save_then_load_gives_the_newest_text():
    files = Files()
    s = Store("state", files)
    assert s.load() is None and s.problems == []
    s.save("one")
    s.save("two")
    assert sorted(files.files) == ["state", "state.old"]
    again = Store("state", files)
    assert again.load() == "two" and again.seq == 2
    again.save("three")
    assert Store("state", files).load() == "three"
    assert unframe(files.files["state.old"]) == (2, "two")


def test_a_corrupt_current_copy_falls_back_to_the_previous_one_and_is_reported():
    files = Files()
    s = Store("state", files)
    s.save("one")
    s.save("two")
    files.files["state"] = files.files["state"][:-1] + b"X"
    again = Store("state", files)
    assert again.load() == "one"
    assert len(again.problems) == 1 and "state" in again.problems[0]
    again.save("three")  # the bad copy is replaced; the good old one is kept
    assert unframe(files.files["state.old"]) == (1, "one")
    assert Store("state", files).load() == "three"


def test_a_cut_at_any_step_of_a_save_leaves_the_old_or_the_new_text():
    for cut in (1, 2, 3):
        for keep in (0, 10, 10000):
            files = Files()
            s = Store("state", files)
            s.save("one")
            s.save("two")
            files.ops, files.cut_at, files.keep = 0, cut, keep
            try:
                s.save("three")
            except PowerCut:
                pass
            files.cut_at = None
            again = Store("state", files)
            got = again.load()
            assert got in ("two", "three"), (cut, keep, got)
            # A complete .new is the newest copy: it is finished at boot, not lost.
            assert got == "three" if cut > 1 or keep == 10000 else got == "two"
            again.save("four")
            assert Store("state", files).load() == "four"
            assert unframe(files.files["state.old"])[1] == got


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


def test_real_files(tmp_path):
    path = str(tmp_path / "state")
    s = Store(path)
    assert s.load() is None
    s.save("one\ntwo")
    s.save("three")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state", "state.old"]
    assert Store(path).load() == "three"
    (tmp_path / "state").write_bytes(b"crib-state 9 5 00000000\nhello")
    again = Store(path)
    assert again.load() == "one\ntwo" and len(again.problems) == 1
