"""Hardware documents from the layout config: power budget, parts, pins, wiring, face.

Everything is computed from a pegboard Config (the same file the firmware reads), the
firmware's own LED current model and limiter (pegboard.light, pegboard.render) and the face
geometry (crib.face), so `crib hardware all --out hardware` regenerates hardware/ and a
test keeps the checked-in copies equal to it. The assumptions are the constants below.
"""

import csv
import io
from pathlib import Path
from xml.sax.saxutils import escape

from crib import build, face
from crib.errors import CribError
from cribcore.pegs import Board
from pegboard import light
from pegboard.config import default_dict, from_dict, load_config
from pegboard.render import Renderer

VOLTS = 5
PICO_MA = 50  # the Pico draws about 25 mA busy (datasheet); the rest covers the 74AHCT125
HEADROOM = (5, 4)  # run a supply at no more than 80% of its rating: need * 5 / 4
SUPPLY_A = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60)  # common 5 V supplies
USB_MA = 500  # what a USB 2.0 port promises
DROP_MV = 250  # allowed sag along the strip, and again in the feed wires: LEDs see >= 4.5 V
STRIP_MOHM_M = 150  # one rail of a 12 mm, 1 oz copper strip, per metre (measure yours)
FEED_M = 1.0  # cable length from the supply to the farthest feed point
TAP_M = 0.3  # a tap from the 5 V bus to a strip piece, or a jumper between pieces
MIN_POWER_AWG = 22  # thinner wire is too fragile for power, whatever the current
# Stranded copper hook-up wire: gauge, milliohm per metre, a conservative current in mA.
AWG = ((24, 84.2, 2000), (22, 53.0, 3000), (20, 33.3, 5000), (18, 21.0, 7000),
       (16, 13.2, 10000), (14, 8.3, 15000), (12, 5.2, 20000), (10, 3.3, 30000))
LEDS_PER_M = 144  # the strip of the default face (crib.face.FaceSpec.led_pitch)
# Raspberry Pi Pico header pin of each GPIO; 23, 24, 25 and 29 stay on the board.
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}
DOCS = ("power.md", "BOM.csv", "BOM.md", "pins.md", "wiring.svg", "face.svg")


class HardwareError(CribError):
    """A layout the hardware documents cannot be made for (a pin without a header pin)."""


# -- power ---------------------------------------------------------------------------------

class _Strip:
    """A pixel buffer for the firmware's renderer."""

    def __init__(self, n):
        self.px = [(0, 0, 0)] * n

    def __len__(self):
        return len(self.px)

    def __setitem__(self, i, rgb):
        self.px[i] = rgb

    def write(self):
        pass


def typical_ma(config):
    """The firmware renderer's estimate for a game in progress at the configured light.

    Every lane has both pegs out, the hole marks show, the limiter is on: what the board
    draws most of the time.
    """
    board = Board(len(config.lanes), config.holes, config.undo_depth)
    for lane in range(board.players):
        for n in (max(1, config.holes // 5 + 3 * lane), max(1, config.holes // 12)):
            if board.winner < 0:
                board.peg(lane, n)
    renderer = Renderer(config, _Strip(config.leds))
    renderer.draw(board, None, 0)
    renderer.draw(board, None, 60000)  # long after the jump animations
    return renderer.last_ma


def worst_ma(config):
    """Every LED full white, nothing limiting: the strip's absolute worst case."""
    return light.sum_ma(light.FULL * config.leds, config.leds, config.led_ma)


def limited_ma(config, budget_ma=None):
    """The most the limiter ever lets the strip draw: the budget (or the worst case if less).

    The limiter scales each frame until its estimate fits budget_ma, idle draw included.
    """
    budget = config.budget_ma if budget_ma is None else budget_ma
    return min(budget, worst_ma(config))


def all_white_limited(config, budget_ma=None):
    """(scale 0..256, mA) of the all-white frame after the limiter: how dim it gets."""
    n = config.leds
    budget = config.budget_ma if budget_ma is None else budget_ma
    scale = light.limit_scale(light.FULL * n, n, config.led_ma, budget)
    # The renderer scales each channel as (value * scale) >> 8.
    return scale, light.sum_ma(3 * n * ((255 * scale) >> 8), n, config.led_ma)


def supply_a(need_ma):
    """The smallest common 5 V supply (A) that carries need_ma with the headroom."""
    want = need_ma * HEADROOM[0]
    for amps in SUPPLY_A:
        if amps * 1000 * HEADROOM[1] >= want:
            return amps
    return -(-want // (HEADROOM[1] * 10000)) * 10


def wire_awg(ma, metres, power=True):
    """The thinnest gauge carrying ma with at most DROP_MV lost over metres (both ways)."""
    for awg, mohm, max_ma in AWG:
        if power and awg > MIN_POWER_AWG:
            continue
        if ma <= max_ma and ma * mohm * 2 * metres <= DROP_MV * 1000:
            return awg
    raise HardwareError("%d mA over %.1f m needs thicker wire than %d AWG: use several "
                        "feeds" % (ma, metres, AWG[-1][0]))


def wire_runs(ma, metres):
    """(runs, gauge): parallel runs of one gauge carrying ma, one run whenever one will do."""
    runs = 1
    while True:
        try:
            return runs, wire_awg(-(-ma // runs), metres)
        except HardwareError:
            runs += 1


def gauge_text(runs, awg):
    """ "22 AWG", or "2 x 10 AWG" for parallel runs."""
    return "%d AWG" % awg if runs == 1 else "%d x %d AWG" % (runs, awg)


def leds_per_feed(config, supply_ma, pitch_mm):
    """How many LEDs one feed point can power with at most DROP_MV of sag along the strip.

    Fed at one end, a strip of n LEDs drawing I in total sags I * R / 2 on each rail, so
    I * r * n * pitch over both; I is all n LEDs at full white, or the supply's whole
    rating if that is less.
    """
    full = light.sum_ma(light.FULL, 1, config.led_ma)
    n = 1
    while n < config.leds:
        m = n + 1
        if min(m * full, supply_ma) * STRIP_MOHM_M * m * pitch_mm / 1000 > DROP_MV * 1000:
            break
        n = m
    return n


def power_plan(config, budget_ma=None, pitch_mm=face.DEFAULT_SPEC.led_pitch):
    """Supply, wires and feed points for a strip budget (default: the config's)."""
    budget = config.budget_ma if budget_ma is None else budget_ma
    strip = limited_ma(config, budget)
    need = strip + PICO_MA
    amps = supply_a(need)
    every = leds_per_feed(config, amps * 1000, pitch_mm)
    full = light.sum_ma(light.FULL, 1, config.led_ma)
    feed = wire_runs(amps * 1000, FEED_M)
    tap = wire_runs(min(every * full, amps * 1000), TAP_M)
    return {
        "budget_ma": budget, "strip_ma": strip, "need_ma": need, "supply_a": amps,
        "feed_wire": gauge_text(*feed), "feed_awg": feed[1], "feed_runs": feed[0],
        "leds_per_feed": every, "feeds": list(range(0, config.leds, every)),
        "tap_wire": gauge_text(*tap), "tap_awg": tap[1],
    }


def power_budget(config):
    """Every power figure of a layout, as a dict of ints (mA, mW, A, AWG)."""
    model = config.led_ma
    n = config.leds
    worst = worst_ma(config)
    plan = power_plan(config)
    scale, white = all_white_limited(config)
    uncapped = power_plan(config, worst)
    budgets = sorted(set(b for b in (config.budget_ma, 1000, 2000, 5000, 10000, worst)
                         if n * model["idle"] < b <= worst))
    return {
        "leds": n, "lanes": len(config.lanes), "brightness": config.brightness,
        "model": dict(model), "led_full_ma": light.sum_ma(light.FULL, 1, model),
        "worst_ma": worst, "worst_mw": worst * VOLTS,
        "idle_ma": light.sum_ma(0, n, model),
        "typical_ma": typical_ma(config),
        "limited_ma": plan["strip_ma"], "limited_mw": plan["strip_ma"] * VOLTS,
        "white_scale": scale, "white_limited_ma": white,
        "pico_ma": PICO_MA, "plan": plan, "uncapped": uncapped,
        "options": [power_plan(config, b) for b in budgets],
        "usb_ok": plan["need_ma"] <= USB_MA,
    }


def _w(mw):
    return "%d.%d W" % (mw // 1000, mw % 1000 // 100)


def power_markdown(config, source):
    """power.md: the figures, the supply and wire that follow, and why."""
    p = power_budget(config)
    plan, model = p["plan"], p["model"]
    feeds = ", ".join(str(f) for f in plan["feeds"])
    lines = [
        "# Power budget",
        "",
        "Generated by `crib hardware power` from `%s` (%d lanes, %d LEDs); do not edit."
        % (source, p["lanes"], p["leds"]),
        "",
        "The LED model is the firmware's own (`pegboard.light`, WLED's estimate): %d mA per "
        "LED at full white, linear in r + g + b, plus %d mA per LED even when dark."
        % (model["full_white"], model["idle"]),
        "",
        "| case | strip current | power at 5 V |",
        "| --- | ---: | ---: |",
        "| worst: every LED full white, no limiter | %d mA | %s |"
        % (p["worst_ma"], _w(p["worst_mw"])),
        "| limited: the most the firmware's limiter allows (budget_ma = %d) | %d mA | %s |"
        % (config.budget_ma, p["limited_ma"], _w(p["limited_mw"])),
        "| typical: a game in progress at brightness %d%% (the renderer's own estimate) | "
        "%d mA | %s |" % (p["brightness"], p["typical_ma"], _w(p["typical_ma"] * VOLTS)),
        "| dark: every LED off | %d mA | %s |" % (p["idle_ma"], _w(p["idle_ma"] * VOLTS)),
        "",
        "The limiter scales each frame until its estimate, idle draw included, fits "
        "budget_ma. An all-white frame is scaled to %d/256 of full and draws %d mA; the "
        "dark strip alone takes %d mA of the budget." % (
            p["white_scale"], p["white_limited_ma"], p["idle_ma"]),
        "",
        "## Supply",
        "",
        "With the limiter on, the strip never needs more than the limited case: %d mA, "
        "plus %d mA for the Pico and "
        "the level shifter = %d mA. A supply should run at no more than 80%% of its rating, "
        "so it must give %d mA or more: **a 5 V %d A supply**."
        % (plan["strip_ma"], PICO_MA, plan["need_ma"],
           -(-plan["need_ma"] * HEADROOM[0] // HEADROOM[1]), plan["supply_a"]),
        "",
        ("That is within the %d mA a USB 2.0 port promises: the Pico's USB cable alone can "
         "power the board." % USB_MA) if p["usb_ok"] else
        ("That is more than the %d mA a USB 2.0 port promises: power the board from the "
         "5 V supply on the barrel jack (USB 3 ports give 900 mA, many laptops cope, but "
         "do not count on it)." % USB_MA),
        "",
        "## Wire and power injection",
        "",
        "Wires are sized for the supply's full rating (a raised budget or a fault can draw "
        "it), allowing %d mV of drop in the cable and %d mV along the strip so every LED "
        "sees at least %.2f V." % (DROP_MV, DROP_MV, VOLTS - 2 * DROP_MV / 1000),
        "",
        "- Supply to board (%.1f m, both ways): **%s** red and black."
        % (FEED_M, plan["feed_wire"]),
        "- One strip rail is about %d mOhm per metre; fed at one end, n LEDs sag "
        "I x r x n x pitch over both rails. With %d mA per LED at full white (capped by the "
        "supply's %d A), one feed point powers at most **%d LEDs**."
        % (STRIP_MOHM_M, p["led_full_ma"], plan["supply_a"], plan["leds_per_feed"]),
        "- Feed 5 V and GND into the chain at LED %s (the first LED of the chain is LED 0); "
        "taps and the jumpers between strip pieces: **%s**." % (feeds, plan["tap_wire"]),
        "- Put the 1000 uF capacitor across 5 V and GND at the first feed point.",
        "",
        "## Raising budget_ma",
        "",
        "`crib board set budget_ma=...` (or budget_ma in config.json) lets the strip draw "
        "more; the supply and wires must grow with it:",
        "",
        "| budget_ma | strip at most | supply | supply wire | feed every | feed points |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for o in p["options"]:
        lines.append("| %d | %d mA | %d A | %s | %d LEDs | %d |"
                     % (o["budget_ma"], o["strip_ma"], o["supply_a"], o["feed_wire"],
                        o["leds_per_feed"], len(o["feeds"])))
    lines += ["", "The last row is the worst case: no limiting at all.", ""]
    return "\n".join(lines)


# -- parts and pins ------------------------------------------------------------------------

def buttons(config):
    """[(name, gpio)] of every button: one per lane, undo, then confirm if the layout has it."""
    out = [(lane.name, lane.button) for lane in config.lanes]
    out.append(("Undo", config.pins["undo"]))
    if config.pins.get("confirm") is not None:
        out.append(("Confirm", config.pins["confirm"]))
    return out


def header_pin(gpio):
    """The Pico header pin of a GPIO; HardwareError for those not on the header."""
    if gpio not in PICO_PIN:
        raise HardwareError("GP%d is not on the Pico's header (GP23, 24, 25 and 29 drive "
                            "the board's regulator, VBUS sense, LED and VSYS sense): pick "
                            "another pin in the layout" % gpio)
    return PICO_PIN[gpio]


def pin_rows(config):
    """[(gpio or "-", header pin, function, wire to)] for the pin map, by header pin."""
    rows = [("GP%d" % config.pins["leds"], header_pin(config.pins["leds"]), "LED data out",
             "74AHCT125 pin 2 (1A); its pin 3 (1Y) through 330 Ohm to the strip's DIN")]
    for name, gpio in buttons(config):
        rows.append(("GP%d" % gpio, header_pin(gpio), "%s button" % name,
                     "button, other leg to GND (internal pull-up: pressed reads 0)"))
    rows += [
        ("-", 38, "GND", "GND bus: supply, strip, 74AHCT125 pin 7, buttons (one ground)"),
        ("-", 39, "VSYS", "1N5817 cathode; its anode to the 5 V bus"),
        ("-", 40, "VBUS", "not connected (USB 5 V; the diode keeps the supply off it)"),
    ]
    return sorted(rows, key=lambda r: r[1])


def _md_cell(value):
    return str(value).replace("|", "\\|")


def pins_markdown(config, source):
    """pins.md: the pin map."""
    lines = ["# Pin map", "",
             "Generated by `crib hardware pins` from `%s`; do not edit." % source, "",
             "| GPIO | Pico pin | function | wire to |", "| --- | ---: | --- | --- |"]
    for gpio, pin, what, to in pin_rows(config):
        lines.append("| %s | %d | %s | %s |" % (gpio, pin, _md_cell(what), _md_cell(to)))
    lines += ["", "74AHCT125 (U2): VCC (pin 14) to 5 V with the 100 nF capacitor to GND, GND "
              "(pin 7) to GND, 1OE (pin 1) to GND so the buffer in use is on. The three "
              "unused buffers: inputs (pins 5, 9, 12) to GND, enables (pins 4, 10, 13) to "
              "5 V.", ""]
    return "\n".join(lines)


def _round_up(metres, step=0.5):
    return -(-int(metres * 100) // int(step * 100)) * step


def jumper_metres(config, spec=face.DEFAULT_SPEC):
    """Three-core wire for the jumpers between strip pieces, with 5 cm slack each (m)."""
    pos = face.led_positions(config, spec)
    pieces = face.strip_pieces(config, spec)
    total = 0.0
    for (_, last), (first, _) in zip(pieces, pieces[1:]):
        a = max([i for i in pos if i <= last], default=None)
        b = min([i for i in pos if i >= first], default=None)
        if a is not None and b is not None:
            (x0, y0), (x1, y1) = pos[a], pos[b]
            total += (abs(x1 - x0) + abs(y1 - y0)) / 1000 + 0.05
    return _round_up(total + TAP_M * len(power_plan(config)["feeds"]))


def bom_rows(config, spec=face.DEFAULT_SPEC):
    """The bill of materials: [(ref, qty, part, notes)]."""
    p = power_plan(config)
    pieces = face.strip_pieces(config, spec)
    width, height = face.board_size(config, spec)
    per_lane = ", ".join("%s %d" % (ln.name, len([x for x in ln.leds if x >= 0]))
                         for ln in config.lanes)
    btns = buttons(config)
    lit = sum(len([x for x in ln.leds if x >= 0]) for ln in config.lanes)
    blind = sum(len(ln.leds) for ln in config.lanes) - lit
    return [
        ("U1", "1", "Raspberry Pi Pico (RP2040), MicroPython 1.22 or newer",
         "Pico H has the headers fitted"),
        ("LED1", "%d m" % -(-config.leds // LEDS_PER_M),
         "WS2812B LED strip, 5 V, %d LEDs/m, 12 mm wide, IP30" % LEDS_PER_M,
         "%d LEDs on one data chain (%s); cut into %d pieces, see wiring.svg"
         % (config.leds, per_lane, len(pieces))),
        ("U2", "1", "74AHCT125 quad buffer, DIP-14 (74HCT125 works too)",
         "lifts the Pico's 3.3 V data to 5 V for the first LED"),
        ("R1", "1", "330 Ohm resistor, 1/4 W", "in the data line, next to the first LED"),
        ("C1", "1", "1000 uF 10 V electrolytic capacitor",
         "across 5 V and GND at the first feed point"),
        ("C2", "1", "100 nF ceramic capacitor", "74AHCT125 VCC to GND"),
        ("D1", "1", "1N5817 Schottky diode",
         "5 V bus to the Pico's VSYS: USB and the supply can be plugged in together"),
        ("SW1-SW%d" % len(btns), str(len(btns)), "momentary push button, normally open, 12 mm",
         ", ".join("%s (GP%d)" % b for b in btns)),
        ("PS1", "1", "5 V %d A power supply, 5.5/2.1 mm barrel plug" % p["supply_a"],
         "sized in power.md for budget_ma = %d" % p["budget_ma"]),
        ("J1", "1", "DC barrel jack 5.5/2.1 mm, panel mount, %d A or more" % p["supply_a"],
         "power in"),
        ("J2-J%d" % (len(pieces) + 1), str(len(pieces)), "JST-SM 3-pin plug and socket pair",
         "one per strip piece, so a piece can be unplugged"),
        ("W1", "%.1f m each" % _round_up((width + height) / 1000 + FEED_M),
         "%s stranded wire, red and black" % p["feed_wire"],
         "supply to board and the 5 V / GND bus"),
        ("W2", "%.1f m" % jumper_metres(config, spec),
         "%s three-core cable (5 V, data, GND)" % p["tap_wire"],
         "jumpers between strip pieces and taps at feed points (LED %s)"
         % ", ".join(str(f) for f in p["feeds"])),
        ("W3", "2 m", "26 AWG hook-up wire", "data line and buttons"),
        ("PCB1", "1", "stripboard or perfboard, about 50 x 70 mm",
         "carries U2, R1, C2, D1 and the Pico's headers"),
        ("F1", "1", "face: 4-6 mm plywood, MDF or acrylic, %d x %d mm"
         % (-(-width // 1), -(-height // 1)),
         "drill the %d holes of %.1f mm in face.svg; the %d rings (no LED, e.g. the "
         "start holes) are for engraving" % (lit, spec.hole_d, blind)),
        ("F2", "1", "diffuser: 2-3 mm opal acrylic, the size of the face",
         "between the face and the strip"),
    ]


def bom_csv(config, spec=face.DEFAULT_SPEC):
    """BOM.csv text."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("ref", "qty", "part", "notes"))
    w.writerows(bom_rows(config, spec))
    return buf.getvalue()


def bom_markdown(config, source, spec=face.DEFAULT_SPEC):
    """BOM.md: the bill of materials as a table."""
    lines = ["# Bill of materials", "",
             "Generated by `crib hardware bom` from `%s`; do not edit. The same list is in "
             "BOM.csv." % source, "",
             "| ref | qty | part | notes |", "| --- | ---: | --- | --- |"]
    for row in bom_rows(config, spec):
        lines.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
    lines.append("")
    return "\n".join(lines)


# -- drawings ------------------------------------------------------------------------------

def _hex(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


def _n(v):
    return ("%.2f" % v).rstrip("0").rstrip(".")


class _Svg:
    """A tiny SVG writer: elements in order, numbers rounded, text escaped."""

    def __init__(self, width, height, unit=""):
        self.head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%s%s" height="%s%s" '
                     'viewBox="0 0 %s %s">' % (_n(width), unit, _n(height), unit,
                                              _n(width), _n(height)))
        self.body = []

    @staticmethod
    def _open(tag, attrs):
        parts = [tag]
        for k, v in attrs.items():
            v = _n(v) if isinstance(v, float) else str(v)
            parts.append('%s="%s"' % (k.rstrip("_").replace("_", "-"),
                                      escape(v, {'"': "&quot;"})))
        return "<" + " ".join(parts)

    def add(self, tag, text=None, **attrs):
        """One element; text (escaped) inside it if given."""
        if text is None:
            self.body.append(self._open(tag, attrs) + "/>")
        else:
            self.body.append("%s>%s</%s>" % (self._open(tag, attrs), escape(str(text)), tag))

    def begin(self, **attrs):
        """Open a group: the elements added until end() belong to it."""
        self.body.append(self._open("g", attrs) + ">")

    def end(self):
        """Close the group begin() opened."""
        self.body.append("</g>")

    def text(self):
        return "\n".join([self.head] + self.body + ["</svg>", ""])


def face_svg(config, spec=face.DEFAULT_SPEC):
    """face.svg: the board face to scale in mm, a drilling guide and the README picture.

    Holes (class "hole") in lane colours with their LED index beside them; holes without
    an LED (the start holes) are open rings. The strip's LEDs are the faint squares under
    the holes; the skunk lines are dashed across the lanes.
    """
    width, height = face.board_size(config, spec)
    holes = face.hole_positions(config, spec)
    leds = face.led_positions(config, spec)
    r = spec.hole_d / 2
    svg = _Svg(width, height, "mm")
    svg.add("title", "Cribbage board face: %d lanes x %d holes, %s x %s mm"
            % (len(config.lanes), config.holes, _n(width), _n(height)))
    svg.add("rect", class_="outline", x=0.0, y=0.0, width=width, height=height, rx=6,
            fill="#f3e6cf", stroke="#000", stroke_width=0.3)
    for _, (x, y) in sorted(leds.items()):
        svg.add("rect", class_="led", x=x - 2.5, y=y - 2.5, width=5, height=5,
                fill="none", stroke="#b9a98c", stroke_width=0.15)
    for lane, ln in enumerate(config.lanes):
        colour = _hex(ln.colour)
        for hole, (x, y) in enumerate(holes[lane]):
            led = ln.leds[hole]
            kind = face.track_of(config.holes, hole)
            svg.add("circle", class_="hole " + kind, cx=x, cy=y, r=r,
                    fill=colour if led >= 0 else "none", stroke="#000", stroke_width=0.2,
                    data_lane=lane, data_hole=hole, data_led=led)
            # LED numbers face the middle of the board, hole numbers the edge.
            inward = 1 if x < width / 2 else -1
            if led >= 0:
                svg.add("text", led, class_="led-label", x=x + inward * (r + 0.4), y=y + 0.6,
                        font_size=1.6, font_family="sans-serif", fill="#555",
                        text_anchor="start" if inward > 0 else "end")
            if hole and hole % 5 == 0 and lane == 0 and kind in ("up", "down"):
                svg.add("text", hole, class_="hole-number", x=x - inward * (r + 1.0),
                        y=y + 0.9, font_size=2.4, font_family="sans-serif", fill="#000",
                        text_anchor="end" if inward > 0 else "start")
        x0, y0 = holes[lane][0]
        svg.add("text", ln.name, class_="lane-name", x=x0, y=y0 + r + 4.5, font_size=3,
                font_family="sans-serif", fill=colour, stroke="#000", stroke_width=0.08,
                text_anchor="middle")
    half = spec.track_gap / 2
    gx, gy = holes[0][config.holes]
    svg.add("text", "game hole %d" % config.holes, class_="game-label", x=width / 2,
            y=gy - r - 1.5, font_size=2.4, font_family="sans-serif", fill="#000",
            text_anchor="middle")
    for name, line, before, after in face.skunk_gaps(config):
        bx, by = holes[0][before]
        ax, ay = holes[0][after]
        same_track = face.track_of(config.holes, before) == face.track_of(config.holes,
                                                                        after)
        y = (ay + by) / 2 if same_track else ay - spec.game_gap / 4
        xs = [holes[lane][after][0] for lane in range(len(config.lanes))]
        svg.add("line", class_="skunk", x1=min(xs) - half, y1=y, x2=max(xs) + half, y2=y,
                stroke="#7a00cc", stroke_width=0.4, stroke_dasharray="1.5,1")
        svg.add("text", "%s %d" % (name, line), class_="skunk-label", x=min(xs) - half,
                y=y - 0.8, font_size=2.2, font_family="sans-serif", fill="#7a00cc")
    return svg.text()


def _piece_label(config, first, last):
    """"LEDs a-b: Red holes 1-60" for a strip piece (lanes whose holes it carries)."""
    where = []
    for ln in config.lanes:
        hs = [h for h, led in enumerate(ln.leds) if first <= led <= last]
        if hs:
            a, b = ln.leds[hs[0]], ln.leds[hs[-1]]
            h0, h1 = (hs[0], hs[-1]) if a <= b else (hs[-1], hs[0])
            where.append("%s hole%s %s" % (ln.name, "s" if h0 != h1 else "",
                                           h0 if h0 == h1 else "%d-%d" % (h0, h1)))
    return "LEDs %s: %s" % (first if first == last else "%d-%d" % (first, last),
                            ", ".join(where) or "no holes")


def wiring_svg(config, spec=face.DEFAULT_SPEC):
    """wiring.svg: supply, Pico, level shifter, strip pieces with feed points, buttons.

    A schematic, not to scale: the strip pieces (class "piece") in data-chain order with
    the jumpers between them, a "feed" group per power injection point, a "button" group
    per button.
    """
    p = power_plan(config)
    pieces = face.strip_pieces(config, spec)
    btns = buttons(config)
    used = pin_rows(config)
    red, black, blue = "#d00000", "#000", "#0050c0"
    font = {"font_family": "sans-serif", "font_size": 12}
    small = {"font_family": "sans-serif", "font_size": 10}
    row, top = 34, 120  # strip pieces: one per row from y = top
    pico_y = 110
    pico_h = 24 + 18 * len(used)
    btn_y = pico_y + pico_h + 70
    gnd_y = btn_y + 30 * len(btns)  # the buttons' common ground line
    bus5, busg = 560, 580
    last_y = top + row * len(pieces)
    height = max(last_y, gnd_y) + 40
    svg = _Svg(960, height)
    svg.add("title", "Wiring: %d LEDs in %d strip pieces, %d buttons, 5 V %d A supply"
            % (config.leds, len(pieces), len(btns), p["supply_a"]))
    svg.add("rect", x=0, y=0, width=960, height=height, fill="#fff")
    # Supply and the two buses down the side of the strip.
    svg.add("rect", class_="supply", x=20, y=20, width=150, height=50, fill="#eee",
            stroke=black)
    svg.add("text", "5 V %d A supply" % p["supply_a"], x=30, y=42, **font)
    svg.add("text", "J1 barrel jack", x=30, y=60, **small)
    feed_rows = [i for i, (a, b) in enumerate(pieces) if [f for f in p["feeds"] if a <= f <= b]]
    svg.add("path", d="M170 35 H %d V %d" % (bus5, top + row * max(feed_rows) + 13),
            fill="none", stroke=red, stroke_width=3)
    svg.add("path", d="M170 55 H %d V %d" % (busg, max(gnd_y, top + row * max(feed_rows) + 27)),
            fill="none", stroke=black, stroke_width=3)
    svg.add("text", "+5 V bus, %s" % p["feed_wire"], x=200, y=30, fill=red, **small)
    svg.add("text", "GND bus, %s: one ground for all" % p["feed_wire"], x=200, y=70,
            **small)
    # The Pico, its power through D1, its ground.
    svg.add("rect", class_="pico", x=20, y=pico_y, width=170, height=pico_h, fill="#e8f4e8",
            stroke=black)
    svg.add("text", "Raspberry Pi Pico", x=30, y=pico_y + 16, **font)
    pin_y = {}
    for i, (gpio, pin, what, _) in enumerate(used):
        y = pico_y + 36 + 18 * i
        name = gpio if gpio != "-" else what
        svg.add("text", "%s (pin %d)" % (name, pin), x=30, y=y, **small)
        pin_y[name] = y - 4
    svg.add("path", d="M190 %d H 230 V 35" % pin_y["VSYS"], fill="none", stroke=red)
    svg.add("text", "D1 1N5817 (band up)", x=236, y=pin_y["VSYS"] - 40, **small)
    svg.add("path", d="M190 %d H 270 V 55" % pin_y["GND"], fill="none", stroke=black)
    # GPIO to the level shifter, R1, into the first piece.
    data_y = top + 16
    svg.add("rect", class_="shifter", x=300, y=110, width=160, height=70, fill="#eef",
            stroke=black)
    svg.add("text", "U2 74AHCT125", x=310, y=128, **font)
    svg.add("text", "1A in (2), 1Y out (3)", x=310, y=146, **small)
    svg.add("text", "1OE (1), GND (7) to GND", x=310, y=160, **small)
    svg.add("text", "VCC (14) to +5 V, C2 100 nF", x=310, y=174, **small)
    svg.add("path", class_="data", d="M190 %d H 285 V 142 H 300"
            % pin_y["GP%d" % config.pins["leds"]], fill="none", stroke=blue, stroke_width=2)
    svg.add("path", d="M380 110 V 35", stroke=red, fill="none")
    svg.add("path", d="M400 110 V 55", stroke=black, fill="none")
    svg.add("path", class_="data", d="M460 142 H 500 V %d H 620" % data_y, fill="none",
            stroke=blue, stroke_width=2)
    svg.add("text", "R1 330 Ohm", x=505, y=data_y - 40, **small)
    svg.add("text", "C1 1000 uF across +5 V and GND at the first feed", x=600, y=top - 24,
            **small)
    # Strip pieces in chain order, DOUT-to-DIN jumpers, feed points.
    for i, (first, last) in enumerate(pieces):
        y = top + row * i
        svg.add("rect", class_="piece", x=620, y=y + 4, width=320, height=row - 10,
                fill="#fafafa", stroke=black, data_first=first, data_last=last)
        svg.add("text", "%d. %s" % (i + 1, _piece_label(config, first, last)), x=628,
                y=y + 20, **small)
        if i:
            svg.add("path", class_="jumper", d="M940 %d h 12 v %d h -12" % (y - 10, 24),
                    fill="none", stroke=blue, stroke_width=1.5)
        for f in p["feeds"]:
            if first <= f <= last:
                svg.begin(class_="feed", data_led=f)
                svg.add("line", x1=bus5, y1=y + 9, x2=620, y2=y + 9, stroke=red,
                        stroke_width=2)
                svg.add("line", x1=busg, y1=y + 23, x2=620, y2=y + 23, stroke=black,
                        stroke_width=2)
                svg.add("text", "feed at LED %d" % f, x=bus5 - 6, y=y + 13, fill=red,
                        text_anchor="end", **small)
                svg.end()
    svg.add("text", "blue: DOUT to the next DIN, with 5 V and GND (%s three-core)"
            % p["tap_wire"], x=620, y=last_y + 12, **small)
    # Buttons: GPIO, switch, common ground to the GND bus.
    svg.add("text", "Buttons: GPIO to GND, internal pull-ups (pressed reads 0)", x=20,
            y=btn_y - 24, **font)
    for i, (name, gpio) in enumerate(btns):
        y = btn_y + 30 * i
        svg.begin(class_="button", data_gpio=gpio)
        svg.add("text", "GP%d" % gpio, x=20, y=y + 4, **small)
        svg.add("path", d="M60 %d H 120 l 30 -10 M150 %d H 340" % (y, y), fill="none",
                stroke=black)
        svg.add("text", "%s button" % name, x=180, y=y - 4, **small)
        svg.end()
    svg.add("path", d="M340 %d V %d H %d" % (btn_y, gnd_y, busg), fill="none", stroke=black,
            stroke_width=2)
    svg.add("text", "GND", x=346, y=gnd_y - 4, **small)
    return svg.text()


# -- all together --------------------------------------------------------------------------

def load_layout(path=None):
    """(Config, its name for the documents): path's layout, else firmware/config.json."""
    if path is None:
        shipped = build.FIRMWARE / "config.json"
        if not shipped.exists():  # an installed crib without the source tree
            return from_dict(default_dict()), "the built-in layout"
        path, source = shipped, "firmware/config.json"
    else:
        source = str(path)
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise HardwareError("cannot read %s: %s" % (path, e)) from None
    return load_config(text), source


def documents(config, source, spec=face.DEFAULT_SPEC):
    """{file name: text} of every hardware document."""
    return {
        "power.md": power_markdown(config, source),
        "BOM.csv": bom_csv(config, spec),
        "BOM.md": bom_markdown(config, source, spec),
        "pins.md": pins_markdown(config, source),
        "wiring.svg": wiring_svg(config, spec),
        "face.svg": face_svg(config, spec),
    }
