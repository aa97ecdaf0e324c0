"""pegboard.app.layout: config.json to the layout the app runs on, or the built-in one."""

from support import FIRMWARE, run_micropython

from pegboard.app import layout
from pegboard.config import default_config, load_config

TEXT = (FIRMWARE / "config.json").read_text()


def same(copy, config):
    assert copy.lanes is not config.lanes
    assert [ln.__dict__ for ln in copy.lanes] == [ln.__dict__ for ln in config.lanes]
    for name in config.__dict__:
        if name != "lanes":
            assert getattr(copy, name) == getattr(config, name), name


def test_a_good_file_is_copied_whole():
    got, problem = layout(TEXT)
    assert problem is None
    same(got, load_config(TEXT))


def test_a_bad_or_missing_file_gives_the_built_in_layout_and_says_why():
    for text in (None, "{", '{"version": 2}', TEXT.replace('"leds": 363', '"leds": 3')):
        got, problem = layout(text)
        assert problem and type(problem) is str, text
        same(got, default_config())


def test_micropython_drops_the_validator_after_boot():
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from pegboard.app import layout\n"
            "c, p = layout(open(%r).read())\n"
            "print(p, 'pegboard.config' in sys.modules, c.leds, len(c.lanes), c.lanes[1].colour)\n"
            % (str(FIRMWARE), str(FIRMWARE / "config.json")))
    proc = run_micropython(["-c", code], heap="256K")
    assert proc.stdout.split() == ["None", "False", "363", "3", "(0,", "60,", "255)"], (
        proc.stdout + proc.stderr)
