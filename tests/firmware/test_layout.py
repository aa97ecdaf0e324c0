"""pegboard.layout: config.json to the layout the app runs on, or the built-in one; the
boot's cache of the last validation."""

from array import array

from support import FIRMWARE, run_micropython

from pegboard.config import default_config, load_config
from pegboard.layout import layout

TEXT = (FIRMWARE / "config.json").read_text()


def same(copy, config):
    """The copy holds what config does (a lane's LEDs as a sequence of the same numbers:
    the cache's are an array)."""
    assert copy.lanes is not config.lanes

    def plain(ln):
        return dict(ln.__dict__, leds=list(ln.leds))
    assert [plain(ln) for ln in copy.lanes] == [plain(ln) for ln in config.lanes]
    for name in config.__dict__:
        if name == "lane_leds":
            assert [list(x) for x in copy.lane_leds] == [list(x) for x in config.lane_leds]
            assert all(a is ln.leds for a, ln in zip(copy.lane_leds, copy.lanes))
        elif name != "lanes":
            assert getattr(copy, name) == getattr(config, name), name


def test_a_good_file_is_copied_whole():
    got, problem = layout(TEXT)
    assert problem is None
    same(got, load_config(TEXT))
    # each lane's LEDs 2 bytes a hole, as the cache's copy has them (the board's heap)
    assert all(type(leds) is array and leds.typecode == "h" for leds in got.lane_leds)
    assert all(type(ln.leds) is array for ln in layout(None)[0].lanes)  # built-in too


def test_a_bad_or_missing_file_gives_the_built_in_layout_and_says_why():
    for text in (None, "{", '{"version": 2}', TEXT.replace('"leds": 363', '"leds": 3')):
        got, problem = layout(text)
        assert problem and type(problem) is str, text
        same(got, default_config())


def test_micropython_drops_the_validator_after_boot():
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from pegboard.layout import layout\n"
            "c, p = layout(open(%r).read())\n"
            "print(p, 'pegboard.config' in sys.modules, c.leds, len(c.lanes), c.lanes[1].colour)\n"
            % (str(FIRMWARE), str(FIRMWARE / "config.json")))
    proc = run_micropython(["-c", code], heap="256K")
    assert proc.stdout.split() == ["None", "False", "363", "3", "(0,", "60,", "255)"], (
        proc.stdout + proc.stderr)


# -- the boot's cache (pegboard.layout.boot_layout) -------------------------------------------

import shutil  # noqa: E402

import pytest  # noqa: E402

from pegboard import layout as layout_module  # noqa: E402


@pytest.fixture
def board(tmp_path):
    """A board's filesystem: config.json and the validator's file."""
    (tmp_path / "pegboard").mkdir()
    shutil.copy(FIRMWARE / "pegboard" / "config.py", tmp_path / "pegboard" / "config.py")
    (tmp_path / "config.json").write_text(TEXT)
    return tmp_path


def boot(root):
    return layout_module.boot_layout(str(root) + "/")


def no_validation(monkeypatch):
    def refuse(text):
        raise AssertionError("validated again")
    monkeypatch.setattr(layout_module, "layout", refuse)


def test_the_first_boot_validates_and_keeps_the_result(board, monkeypatch):
    got, problem = boot(board)
    assert problem is None and (board / "layout.cache").exists()
    same(got, load_config(TEXT))
    no_validation(monkeypatch)
    again, problem = boot(board)  # from the cache: the validator is not run
    assert problem is None
    same(again, load_config(TEXT))
    assert type(again.lanes[0].colour) is tuple
    # each lane's LEDs 2 bytes a hole in the cache's copy, not a tuple's 4 (the board's heap)
    assert all(type(leds) is array and leds.typecode == "h" for leds in again.lane_leds)


@pytest.mark.parametrize("change", ["config", "validator", "damage", "truncate"])
def test_a_changed_layout_firmware_or_cache_is_validated_again(board, change):
    boot(board)
    text = TEXT
    if change == "config":
        text = TEXT.replace('"brightness": 40', '"brightness": 41')
        assert text != TEXT
        (board / "config.json").write_text(text)
    elif change == "validator":
        with open(board / "pegboard" / "config.py", "a") as f:
            f.write("\n# a new firmware\n")
    else:
        cache = board / "layout.cache"
        data = cache.read_bytes()
        cache.write_bytes(data.replace(b'"holes": 121', b'"holes": 120') if change == "damage"
                          else data[:len(data) // 2])
    got, problem = boot(board)
    assert problem is None
    same(got, load_config(text))
    assert layout_module.cached(str(board) + "/", text.encode()) is not None  # rewritten


def test_a_bad_layout_is_never_cached(board):
    (board / "config.json").write_text(TEXT.replace('"leds": 363', '"leds": 3'))
    got, problem = boot(board)
    assert problem and not (board / "layout.cache").exists()
    same(got, default_config())
    (board / "config.json").write_bytes(b"\xff\xfe not text")
    got, problem = boot(board)
    assert "not JSON" in problem and not (board / "layout.cache").exists()
    (board / "config.json").unlink()
    got, problem = boot(board)
    assert "no config.json" in problem


def test_micropython_boots_from_the_cache_of_the_mpy_build(tmp_path):
    from crib.deploy import build

    build.build(tmp_path)
    code = ("import sys; sys.path.insert(0, '')\n"
            "from pegboard import layout as L\n"
            "def show(c, p):\n"
            "    print(p, 'pegboard.config' in sys.modules, c.leds, len(c.lanes),"
            " c.lanes[1].colour, c.lane_leds[2][121], c.gamma, c.brightness)\n"
            "c, p = L.boot_layout()\n"
            "show(c, p)\n"
            "c.brightness = 77  # what the cache says is what the next boot gets\n"
            "L.remember('', open('config.json', 'rb').read(), c)\n"
            "show(*L.boot_layout())\n")
    proc = run_micropython(["-c", code], heap="256K", cwd=tmp_path)
    first, second = proc.stdout.splitlines()
    want = load_config(TEXT)
    assert first == "None False 363 3 (0, 60, 255) %d %s %d" % (
        want.lane_leds[2][121], want.gamma, want.brightness), proc.stdout + proc.stderr
    assert second == first[:first.rindex(" ")] + " 77"


def test_the_build_ships_the_cache_the_board_reads(tmp_path):
    """`crib deploy`'s build makes layout.cache on the host: the first boot after a deploy
    reads it (under MicroPython, from the .mpy build) instead of validating."""
    from crib.deploy import build

    written = build.build(tmp_path)
    assert tmp_path / "layout.cache" in written
    code = ("import sys; sys.path.insert(0, '')\n"
            "from pegboard import layout as L\n"
            "c = L.cached('', open('config.json', 'rb').read())\n"
            "print(c.leds, c.lanes[2].colour, c.lane_leds[0][121], c.brightness)\n")
    proc = run_micropython(["-c", code], heap="256K", cwd=tmp_path)
    want = load_config(TEXT)
    assert proc.stdout.split() == [str(want.leds), *("%s" % (want.lanes[2].colour,)).split(),
                                   str(want.lane_leds[0][121]), str(want.brightness)], (
        proc.stdout + proc.stderr)


def test_the_pico_boot_takes_the_validators_crc_from_the_code_pack(tmp_path):
    """At the Pico's boot (fastboot's pack mounted) the cache's key comes from the pack's
    index, not from reading and summing the validator's module (7.6 ms of the emulated
    Pico's boot): with that file gone the cache is still read, and the key is the file's."""
    from crib.deploy import build

    build.build(tmp_path)
    code = ("import sys; sys.path.insert(0, '')\n"
            "from pegboard import layout as L\n"
            "text = open('config.json', 'rb').read()\n"
            "print(L._key('', text))\n"
            "import fastboot\n"
            "fastboot.PACK = 'code.pack'\n"
            "fastboot.setup()\n"
            "import os\n"
            "os.rename('pegboard/config.mpy', 'config.mpy.away')\n"
            "print(L._key('', text))\n"
            "c = L.cached('', text)\n"
            "print(c is not None and c.leds, 'pegboard.config' in sys.modules)\n"
            "fastboot.done()\n"
            "print(L._key('', text))\n")
    proc = run_micropython(["-c", code], heap="256K", cwd=tmp_path)
    from_file, from_pack, read, after = proc.stdout.splitlines()
    assert from_file.startswith(layout_module.MAGIC + " "), proc.stdout + proc.stderr
    assert from_pack == from_file
    assert read == "%d False" % load_config(TEXT).leds
    assert after == "None"  # unmounted: the file is read again, and it is gone
