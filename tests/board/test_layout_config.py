"""pegboard.config: the shipped layout, the serpentine map, and every bad field refused.

Plain asserts: runs under pytest and under MicroPython (tests/mp_run.py).
"""

import json

from pegboard.config import (
    Config,
    ConfigError,
    default_config,
    default_dict,
    from_dict,
    lane_layout,
    load_config,
)

DEFAULT = default_config()

# The repository root is what precedes tests/board/ in this file's path ("" if relative).
CONFIG_JSON = __file__[:__file__.rfind("tests/board")] + "firmware/config.json"


def raises(fn, *args):
    try:
        fn(*args)
    except ConfigError:
        return True
    return False


def shipped_text():
    with open(CONFIG_JSON) as f:
        return f.read()


def test_shipped_config_is_the_default_layout_at_its_brightness():
    c = load_config(shipped_text())
    assert c == from_dict(default_dict())
    assert c.brightness == 40 and DEFAULT.brightness < c.brightness
    d = c.to_dict()
    d["brightness"] = DEFAULT.brightness
    assert from_dict(d) == DEFAULT


def test_default_is_three_lanes_of_121_on_363_leds():
    assert (DEFAULT.leds, DEFAULT.holes, len(DEFAULT.lanes)) == (363, 121, 3)
    assert [ln.button for ln in DEFAULT.lanes] == [2, 3, 4]
    assert DEFAULT.pins == {"leds": 0, "undo": 5, "confirm": 6}
    assert DEFAULT.led_ma == {"full_white": 55, "idle": 1}


def test_serpentine_mapping_is_exact():
    leds = DEFAULT.lane_leds
    for lane in range(3):
        assert len(leds[lane]) == 122 and leds[lane][0] == -1
    for h in range(1, 122):
        assert leds[0][h] == h - 1
        assert leds[1][h] == 242 - h
        assert leds[2][h] == 241 + h
    used = sorted(led for lane in leds for led in lane if led >= 0)
    assert used == list(range(363))
    assert DEFAULT.lanes[1].leds is leds[1]


def test_round_trip_through_json():
    for c in (DEFAULT, load_config(shipped_text())):
        assert load_config(json.dumps(c.to_dict())) == c
    assert load_config(shipped_text()) != DEFAULT  # brightness differs


def test_repr_pastes_back():
    c = eval(repr(DEFAULT), {"load_config": load_config})
    assert c == DEFAULT and isinstance(c, Config)


def test_lane_layout_builds_other_boards():
    segs = lane_layout(4, 61)
    d = default_dict()
    d["holes"], d["leds"] = 61, 244
    d["lanes"] = [{"name": "P%d" % i, "colour": [255, 0, i * 60], "button": 10 + i,
                   "segments": segs[i]} for i in range(4)]
    c = from_dict(d)
    assert len(c.lanes) == 4 and c.lane_leds[3][1] == 243 and c.lane_leds[3][61] == 183


def test_gaps_and_lit_start_hole():
    d = default_dict()
    # Lane 0: the start hole gets LED 0, holes 1..60 LEDs 1..60, a gap at hole 61 (the
    # bridge between two strips), holes 62..121 LEDs 61..120.
    d["lanes"][0]["segments"] = [[0, 61, 1], [-1, 1, 1], [61, 60, 1]]
    c = from_dict(d)
    leds = c.lane_leds[0]
    assert leds[0] == 0 and leds[60] == 60 and leds[61] == -1 and leds[62] == 61
    assert leds[121] == 120


def test_confirm_pin_is_optional():
    for value in (None, "absent"):
        d = default_dict()
        if value == "absent":
            del d["pins"]["confirm"]
        else:
            d["pins"]["confirm"] = value
        assert from_dict(d).pins["confirm"] is None


def test_comment_keys_are_ignored():
    d = default_dict()
    d["_comment"] = "wired on the back"
    d["lanes"][0]["_note"] = 1
    assert from_dict(d) == from_dict(default_dict())


def _set(path, value):
    """A default layout with one field (a path of keys and indexes) changed or removed."""
    d = default_dict()
    node = d
    for k in path[:-1]:
        node = node[k]
    if value == "DELETE":
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return d


BAD = (
    (("version",), 2), (("version",), "1"), (("version",), True), (("version",), "DELETE"),
    (("leds",), 0), (("leds",), 5000), (("leds",), "363"), (("leds",), 363.0),
    (("leds",), True), (("leds",), 300),  # lanes then run past the last LED
    (("holes",), 0), (("holes",), 1001), (("holes",), 120),  # segments cover 0..121
    (("lanes",), []), (("lanes",), "three"),
    (("lanes", 0, "name"), ""), (("lanes", 0, "name"), "x" * 17), (("lanes", 0, "name"), 5),
    (("lanes", 0, "colour"), [0, 0, 0]), (("lanes", 0, "colour"), [256, 0, 0]),
    (("lanes", 0, "colour"), [1, 2]), (("lanes", 0, "colour"), "red"),
    (("lanes", 0, "colour"), [1.0, 2, 3]), (("lanes", 0, "colour"), [-1, 2, 3]),
    (("lanes", 0, "button"), 30), (("lanes", 0, "button"), -1),
    (("lanes", 0, "button"), 3),  # lane 1's button
    (("lanes", 0, "button"), 0),  # the LED data pin
    (("lanes", 0, "button"), "DELETE"), (("lanes", 0, "colr"), [1, 2, 3]),
    (("lanes", 0, "segments"), [[-1, 1, 1], [0, 120, 1]]),  # holes 0..120 only
    (("lanes", 0, "segments"), [[-1, 1, 1], [0, 122, 1]]),  # one hole too many
    (("lanes", 0, "segments"), [[-1, 1, 1], [0, 121, 1], [-1, 1, 1]]),
    (("lanes", 0, "segments"), [[-1, 1, 1], [363, 121, 1]]),  # LED out of range
    (("lanes", 0, "segments"), [[-1, 1, 1], [300, 121, 1]]),  # runs past the end
    (("lanes", 0, "segments"), [[-1, 1, 1], [119, 121, -1]]),  # runs below 0
    (("lanes", 0, "segments"), [[-1, 1, 1], [0, 121, 0]]),  # step 0
    (("lanes", 0, "segments"), [[-1, 1, 1], [121, 121, 1]]),  # LEDs of lane 1 twice
    (("lanes", 0, "segments"), [[-1, 1, 1], [0, 60, 1], [0, 61, 1]]),  # own LED twice
    (("lanes", 0, "segments"), [[-1, 1], [0, 121, 1]]),
    (("lanes", 0, "segments"), [[-1, 1, 1], [0, "121", 1]]),
    (("lanes", 0, "segments"), [[-1, 1, 1], [0, 0, 1], [0, 121, 1]]),  # empty segment
    (("lanes", 0, "segments"), "0-120"), (("lanes", 0, "segments"), []),
    (("pins",), "DELETE"), (("pins", "undo"), "DELETE"), (("pins", "leds"), 30),
    (("pins", "confirm"), 40), (("pins", "confirm"), 5), (("pins", "buzzer"), 9),
    (("pins", "undo"), 2),
    (("brightness",), 0), (("brightness",), 101), (("brightness",), 40.5),
    (("budget_ma",), 0), (("budget_ma",), 363),  # no more than the idle draw
    (("led_ma",), {"full_white": 55}), (("led_ma", "full_white"), 0),
    (("led_ma", "idle"), 21), (("led_ma", "idle"), "1"), (("led_ma",), [55, 1]),
    (("gamma",), 0.5), (("gamma",), 5), (("gamma",), "2.8"), (("gamma",), True),
    (("pause_ms",), 100), (("hold_ms",), 50), (("long_ms",), 600), (("long_ms",), 500),
    (("idle_ms",), -1), (("undo_depth",), 0), (("undo_depth",), 257),
    (("colour",), [1, 2, 3]), (("gamma",), "DELETE"), (("undo_depth",), "DELETE"),
)


def test_every_bad_field_is_refused():
    for path, value in BAD:
        d = _set(path, value)
        assert raises(from_dict, d), (path, value)
        assert raises(load_config, json.dumps(d)), (path, value)


def test_too_many_and_too_few_lanes():
    for n in (1, 5):
        d = default_dict()
        d["lanes"] = [dict(d["lanes"][0]) for _ in range(n)]
        assert raises(from_dict, d), n


def test_not_json_or_not_an_object():
    for text in ("", "{", "nope", "[1, 2]", "121", "null", '{"version": 1'):
        assert raises(load_config, text), text


def test_config_error_is_a_value_error_and_default_is_untouched():
    before = json.dumps(DEFAULT.to_dict())
    try:
        load_config("{}")
        ok = False
    except ValueError:
        ok = True
    assert ok
    for path, value in BAD[:10]:
        raises(from_dict, _set(path, value))
    assert json.dumps(DEFAULT.to_dict()) == before
