"""config.json to the layout the app runs on: validated by pegboard.config, or, at the
Pico's boot, taken from the board's own record of the last validation.

Validating means importing pegboard.config and checking every field: about 75 ms of the
emulated Pico's boot. `boot_layout()` keeps what a validation produced in `layout.cache`
beside config.json: the layout as JSON, under a header with the CRC-32s of the
config.json text and of the validator's own file it came from (at the Pico's boot, the
code pack's index has that CRC: fastboot.crc), and of the JSON itself.
Any difference (a new config.json, new firmware, a damaged cache) and the board validates
again and rewrites the cache: one small file, written once per new layout. A layout that
fails validation is never cached (the board blinks red and says why at every boot).
`crib deploy` builds the cache for the layout it ships (cache_data, on the host), so even
the first boot after a deploy finds it.
"""

import json
from array import array
from struct import pack

from cribcore.boardtext import crc
from pegboard import Copy

CONFIG = "config.json"
CACHE = "layout.cache"
MAGIC = "crib-layout 3"  # a new number whenever _dump/_load change
VALIDATOR = ("pegboard/config.mpy", "pegboard/config.py")  # what the cache came from


def layout(text):
    """(config, problem): the layout from config.json text, or the built-in one and why.

    pegboard.config validates it; the app runs on a plain copy. Validation (and the
    built-in layout) is needed only at boot, so under MicroPython the module is dropped
    afterwards: with no Config alive, its code and data leave the heap (about 13K on the
    unix port, where it decides whether the desk runner fits in its heap).
    """
    from pegboard import drop
    from pegboard.config import ConfigError, default_config, load_config

    problem = None
    if text is None:
        config, problem = default_config(), "no config.json: using the built-in layout"
    else:
        try:
            config = load_config(text)
        except ConfigError as e:
            config, problem = default_config(), str(e)
    out = Copy(config)
    out.lanes = tuple([Copy(ln) for ln in config.lanes])
    for ln in out.lanes:  # as the cache gives them (_load): the same heap at every boot
        ln.leds = array("h", ln.leds)
    out.lane_leds = tuple([ln.leds for ln in out.lanes])
    del ConfigError, default_config, load_config, config
    drop("pegboard.config")
    return out, problem


def _read(name):
    try:
        with open(name, "rb") as f:
            return f.read()
    except OSError:
        return None


def _key(root, text):
    """The cache's key for config.json text: the text's CRC and the validator's (at the
    Pico's boot, from the code pack's index: fastboot.crc)."""
    for name in VALIDATOR:
        code = _packed(root, name)
        if code is None:
            code = _read(root + name)
            code = None if code is None else crc(code)
        if code is not None:
            return "%s %s %s" % (MAGIC, crc(text), code)
    return None


def _packed(root, name):
    """The validator's CRC as the code pack's index has it (8 hex digits), or None: no
    pack mounted (fastboot is main.py's: imported only at the Pico's boot), or a root
    other than the board's own. Its module is what the pack's import gives, checked
    against that CRC."""
    import sys

    fastboot = sys.modules.get("fastboot")
    got = fastboot.crc("/" + name) if fastboot is not None and not root else None
    return None if got is None else "%08x" % got


def cache_data(text, validator, config):
    """The bytes of layout.cache: config.json text and the validator file's bytes, and
    the layout validated from them (by layout())."""
    body = _dump(config)
    head = "%s %s %s %s\n" % (MAGIC, crc(text), crc(validator), crc(body))
    return head.encode() + body


# The cache's body: the layout as JSON on one line, but for its bulk, which follows it in
# binary: the gamma table (256 bytes), then each lane's LED of every hole (holes + 1
# signed 16-bit little-endian numbers). MicroPython's json reads a character at a time:
# the LED numbers as JSON took the emulated Pico's boot 10 ms more.
def _dump(config):
    d = dict(config.__dict__)
    d["lanes"] = [dict(ln.__dict__) for ln in config.lanes]
    for ln in d["lanes"]:
        del ln["leds"]
    del d["lane_leds"], d["levels"]
    bulk = [config.levels] + [pack("<%dh" % len(ln.leds), *ln.leds) for ln in config.lanes]
    return json.dumps(d).encode() + b"\n" + b"".join(bulk)


def _load(body):
    text, _, bulk = body.partition(b"\n")
    d = json.loads(text)
    n = d["holes"] + 1
    if len(bulk) != 256 + 2 * n * len(d["lanes"]):
        raise ValueError("layout.cache: the LEDs' part is cut short")
    lanes = []
    for i, ln in enumerate(d["lanes"]):
        ln["colour"] = tuple(ln["colour"])
        # an array of 16-bit numbers, 2 bytes a hole: a tuple of ints took 4 (about 750
        # bytes of the live heap for 3 lanes of 122 holes). Native order is the cache's
        # little-endian on the RP2040 and the RP2350 (and the hosts the tests run on).
        ln["leds"] = array("h", bulk[256 + 2 * n * i:256 + 2 * n * (i + 1)])
        ln["segments"] = tuple([tuple(s) for s in ln["segments"]])
        lanes.append(Copy(ln))
    d["lanes"] = tuple(lanes)
    d["levels"] = bulk[:256]
    d["lane_leds"] = tuple([ln.leds for ln in lanes])
    return Copy(d)


def cached(root, text, cache=None):
    """The layout the cache (root + CACHE, or the file `cache`) holds for config.json
    text, or None (no cache, another text or firmware, damage)."""
    key = _key(root, text)
    data = _read(cache or root + CACHE) if key is not None else None
    if not data:
        return None
    head, _, body = data.partition(b"\n")
    if head != (key + " " + crc(body)).encode():
        return None
    try:
        return _load(body)
    except (ValueError, KeyError, TypeError):
        return None


def remember(root, text, config, cache=None):
    """Write the cache (root + CACHE, or the file `cache`) for a layout validated from
    config.json text (best effort: a failed write costs the next boot a validation,
    nothing else)."""
    for name in VALIDATOR:
        code = _read(root + name)
        if code is not None:
            break
    else:
        return
    try:
        data = cache_data(text, code, config)
        with open(cache or root + CACHE, "wb") as f:
            f.write(data)
    except OSError:
        pass


def boot_layout(root="", config=None, cache=None):
    """(config, problem) for the Pico's boot: config.json in root (or the file `config`),
    through the cache (root + CACHE, or the file `cache`); root holds the validator."""
    text = _read(config or root + CONFIG)
    if text is None:
        return layout(None)
    config = cached(root, text, cache)
    if config is not None:
        return config, None
    try:
        decoded = text.decode()
    except ValueError:  # not UTF-8: refused as the validator refuses any non-JSON
        decoded = "(not UTF-8 text)"
    config, problem = layout(decoded)
    if problem is None:
        remember(root, text, config, cache)
    return config, problem
