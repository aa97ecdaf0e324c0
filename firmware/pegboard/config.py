"""The board layout (lanes, hole-to-LED maps, pins, light, timings), read from config.json.

load_config(text) checks every field and raises ConfigError naming the bad one; default_config()
is the shipped 3 x 121 serpentine layout at a low brightness, the fallback for a bad file.
"""

import json

from cribcore import CoreError
from cribcore.pegs import MAX_UNDO
from cribcore.settings import RANGES
from pegboard.light import budget_problem, gamma_table

VERSION = 1
MAX_LEDS = 4096
MAX_HOLES = 1000
MAX_PIN = 29  # the RP2040's GPIOs are 0..29
FULL_WHITE = (255, 255, 255)
# Settings taken as plain ints: (key, lowest, highest). Those `set` can change have the
# protocol's ranges (one range: a layout must never hold a setting its own saves refuse).
_INTS = RANGES + (
    ("hold_ms", 100, 10000),
    ("long_ms", 200, 60000),
    ("undo_depth", 1, MAX_UNDO),
)
_TOP = ("version", "leds", "holes", "lanes", "pins", "led_ma", "gamma") + tuple(
    k for k, _, _ in _INTS)
# "palette": "lanes" (each lane's own name and colour) or "colour-blind": names and colours
# that stay apart under red-green colour blindness (checked under a deuteranopia
# simulation in tests/test_palette.py); lane i takes entry i.
PALETTES = {"lanes": None,
            "colour-blind": (("Sky", (60, 180, 255)), ("Yellow", (255, 255, 0)),
                             ("Pink", (255, 0, 120)), ("Orange", (255, 60, 0)))}


class ConfigError(CoreError):
    """A layout file that does not validate: the message names the field and its value."""


class Lane:
    """One lane: name, colour, button pin, segments; leds[hole] is its LED (-1 for none)."""

    def __init__(self, name, colour, button, segments, leds):
        self.name = name
        self.colour = colour
        self.button = button
        self.segments = segments
        self.leds = leds

    def __repr__(self):
        return "Lane(%r, %r, %r, %r)" % (self.name, self.colour, self.button, self.segments)


class Config:
    """A validated layout; build it with load_config or from_dict, never by hand."""

    def __init__(self, d):
        self.version = d["version"]
        self.leds = d["leds"]
        self.holes = d["holes"]
        self.lanes = tuple(Lane(ln["name"], ln["colour"], ln["button"], ln["segments"],
                                ln["leds"]) for ln in d["lanes"])
        self.lane_leds = tuple(ln.leds for ln in self.lanes)
        self.pins = d["pins"]
        self.led_ma = d["led_ma"]
        self.gamma = d["gamma"]
        # The gamma table, made once here and kept in layout.cache: 256 powers of a float
        # took the emulated Pico 40 ms of every boot.
        self.levels = gamma_table(self.gamma)
        self.palette = d["palette"]
        for key, _, _ in _INTS:
            setattr(self, key, d[key])

    def to_dict(self):
        """The plain dict that load_config reads back to an equal Config."""
        d = {"version": self.version, "leds": self.leds, "holes": self.holes,
             "pins": dict(self.pins), "led_ma": dict(self.led_ma), "gamma": self.gamma}
        if self.palette != "lanes":
            d["palette"] = self.palette
        d["lanes"] = [{"name": ln.name, "colour": list(ln.colour), "button": ln.button,
                       "segments": [list(s) for s in ln.segments]} for ln in self.lanes]
        for key, _, _ in _INTS:
            d[key] = getattr(self, key)
        return d

    def __eq__(self, other):
        return isinstance(other, Config) and self.to_dict() == other.to_dict()

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "load_config(%r)" % (json.dumps(self.to_dict()),)


def _fail(field, value, why):
    raise ConfigError("config %s: %s, got %r" % (field, why, value))


def _int(value, field, lo, hi):
    # type() not isinstance: True is an int on CPython, and must not pass for 1.
    if type(value) is not int or not lo <= value <= hi:
        _fail(field, value, "must be a whole number %d..%d" % (lo, hi))
    return value


def _dict(value, field, required, optional=()):
    if type(value) is not dict:
        _fail(field, value, "must be an object")
    for key in value:
        # Keys starting with "_" are comments (JSON has no other way to write one).
        if key not in required and key not in optional and not str(key).startswith("_"):
            _fail(field + "." + str(key), value[key], "is not a known setting")
    for key in required:
        if key not in value:
            _fail(field + "." + key, None, "is missing")
    return value


def _list(value, field, lo, hi):
    if type(value) is not list or not lo <= len(value) <= hi:
        _fail(field, value, "must be a list of %d..%d items" % (lo, hi))
    return value


def _segments(value, field, leds, holes, used):
    """Check one lane's segments; return the LED of every hole 0..holes (-1 for none)."""
    out: list = []
    for i, seg in enumerate(_list(value, field, 1, holes + 1)):
        where = "%s[%d]" % (field, i)
        _list(seg, where, 3, 3)
        start = _int(seg[0], where + ".start", -1, leds - 1)
        count = _int(seg[1], where + ".count", 1, holes + 1)
        step = _int(seg[2], where + ".step", -leds, leds)
        if step == 0:
            _fail(where + ".step", step, "must not be 0")
        if len(out) + count > holes + 1:
            _fail(field, value, "must cover holes 0..%d exactly (too many)" % holes)
        if start < 0:
            out.extend([-1] * count)
            continue
        last = start + step * (count - 1)
        if not 0 <= last < leds:
            _fail(where, seg, "runs past LED 0..%d" % (leds - 1))
        for k in range(count):
            led = start + step * k
            if used[led]:
                _fail(where, seg, "uses LED %d twice" % led)
            used[led] = 1
            out.append(led)
    if len(out) != holes + 1:
        _fail(field, value, "must cover holes 0..%d exactly (too few)" % holes)
    return tuple(out)


def _colour(value, field):
    _list(value, field, 3, 3)
    for c in value:
        _int(c, field, 0, 255)
    if not (value[0] or value[1] or value[2]):
        _fail(field, value, "must not be black")
    return tuple(value)


def _gamma(value):
    if type(value) not in (int, float) or not 1.0 <= value <= 4.0:
        _fail("gamma", value, "must be a number 1.0..4.0")
    return value


def from_dict(d):
    """Validate a parsed layout dict and return its Config; raise ConfigError if bad."""
    _dict(d, "config", _TOP, ("palette",))
    if d["version"] != VERSION or type(d["version"]) is not int:
        _fail("version", d["version"], "must be %d" % VERSION)
    palette = d.get("palette", "lanes")
    if type(palette) is not str or palette not in PALETTES:
        _fail("palette", palette, "must be one of %s" % ", ".join(sorted(PALETTES)))
    out: dict = {"version": VERSION, "palette": palette}
    leds = out["leds"] = _int(d["leds"], "leds", 1, MAX_LEDS)
    holes = out["holes"] = _int(d["holes"], "holes", 1, MAX_HOLES)
    used = bytearray(leds)
    pins = _dict(d["pins"], "pins", ("leds", "undo"), ("confirm",))
    out["pins"] = {"leds": _int(pins["leds"], "pins.leds", 0, MAX_PIN),
                   "undo": _int(pins["undo"], "pins.undo", 0, MAX_PIN),
                   "confirm": None}
    if pins.get("confirm") is not None:
        out["pins"]["confirm"] = _int(pins["confirm"], "pins.confirm", 0, MAX_PIN)
    taken = [v for v in out["pins"].values() if v is not None]
    chosen = PALETTES[palette]
    lanes = []
    for i, ln in enumerate(_list(d["lanes"], "lanes", 2, 4)):
        where = "lanes[%d]" % i
        _dict(ln, where, ("name", "colour", "button", "segments"))
        name = ln["name"]
        if type(name) is not str or not 1 <= len(name) <= 16:
            _fail(where + ".name", name, "must be a name of 1..16 characters")
        colour = _colour(ln["colour"], where + ".colour")
        if chosen is not None:
            name, colour = chosen[i]
        button = _int(ln["button"], where + ".button", 0, MAX_PIN)
        hole_leds = _segments(ln["segments"], where + ".segments", leds, holes, used)
        lanes.append({"name": name, "colour": colour, "button": button, "leds": hole_leds,
                      "segments": tuple(tuple(s) for s in ln["segments"])})
        taken.append(lanes[-1]["button"])
    for pin in taken:
        if taken.count(pin) > 1:
            _fail("pins", pin, "each pin (LED data, buttons) must be used once")
    out["lanes"] = lanes
    model = _dict(d["led_ma"], "led_ma", ("full_white", "idle"))
    out["led_ma"] = {"full_white": _int(model["full_white"], "led_ma.full_white", 1, 200),
                     "idle": _int(model["idle"], "led_ma.idle", 0, 20)}
    out["gamma"] = _gamma(d["gamma"])
    for key, lo, hi in _INTS:
        out[key] = _int(d[key], key, lo, hi)
    if out["long_ms"] <= out["hold_ms"]:
        _fail("long_ms", out["long_ms"], "must be longer than hold_ms")
    problem = budget_problem(out["budget_ma"], leds, out["led_ma"])
    if problem:
        # The strip's idle draw alone would use the budget: the limiter could light nothing.
        _fail("budget_ma", out["budget_ma"], problem)
    return Config(out)


def load_config(text):
    """Parse and validate config.json text; raise ConfigError naming the bad field."""
    try:
        d = json.loads(text)
    except ValueError:
        raise ConfigError("config is not JSON: %r" % (text[:40],)) from None
    return from_dict(d)


def lane_layout(lanes, holes):
    """Serpentine segments for lanes of holes 1..holes on one chain (start hole unlit)."""
    out = []
    for i in range(lanes):
        if i % 2:
            out.append([[-1, 1, 1], [(i + 1) * holes - 1, holes, -1]])
        else:
            out.append([[-1, 1, 1], [i * holes, holes, 1]])
    return out


def default_dict(brightness=40):
    """The shipped layout (what firmware/config.json holds) as a plain dict."""
    names = (("Red", [255, 24, 0], 2), ("Blue", [0, 60, 255], 3), ("Green", [0, 255, 40], 4))
    segs = lane_layout(3, 121)
    return {
        "version": VERSION, "leds": 363, "holes": 121,
        "lanes": [{"name": n, "colour": c, "button": b, "segments": s}
                  for (n, c, b), s in zip(names, segs)],
        "pins": {"leds": 0, "undo": 5, "confirm": 6},
        "brightness": brightness, "budget_ma": 450,
        "led_ma": {"full_white": 55, "idle": 1}, "gamma": 2.8,
        "pause_ms": 1500, "hold_ms": 600, "long_ms": 3000, "idle_ms": 600000,
        "undo_depth": 64,
    }


def default_config():
    """The fallback when config.json is missing or bad: the shipped layout, dimmed. Built
    when asked for, not at import: validating it cost every boot about 30 ms on the Pico."""
    return from_dict(default_dict(brightness=10))
