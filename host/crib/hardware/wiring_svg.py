"""wiring.svg: the wiring sheet of a layout, every wire of crib.hardware.circuit drawn.

Not to scale. Each wire is a path of class "wire" with data-from / data-to naming its two
ends as the circuit does ("D1.K", "U1.39"); parts sit in their lines as symbols (class
"part", data-ref): the fuse in the supply lead, the diode between the 5 V rail and VSYS
with its band on the cathode, the resistor in the data line, the capacitors across their
leads, a switch per button.
"""

from crib.hardware.circuit import buttons, describe, header_pin, pico_pin_name, pico_pins, wires
from crib.hardware.power import power_plan
from crib.hardware.svg import Svg
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

RED, BLACK, BLUE, YELLOW = "#d00000", "#000", "#0050c0", "#b08000"
COLOURS = {"red": RED, "black": BLACK, "blue": BLUE, "yellow": YELLOW, "three-core": BLUE}
FONT = {"font_family": "sans-serif", "font_size": 12}
SMALL = {"font_family": "sans-serif", "font_size": 10}
BUS5, BUSG = 520, 540  # x of the 5 V and GND rails running down beside the strip
STRIP_X, TOP, ROW = 620, 210, 40  # the strip pieces: one per row from y = TOP
PICO_Y = 110
WIDTH = 960


def _piece_label(config, first, last) -> str:
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


class _Sheet:
    """The SVG plus the circuit's wires, each drawn once by its two ends."""

    def __init__(self, svg, circuit_wires) -> None:
        self.svg = svg
        self.todo = {(w.a, w.b): w for w in circuit_wires}

    def wire(self, a, b, d, width: float = 1.5) -> None:
        """Draw the circuit's wire between ends a and b along path d."""
        w = self.todo.pop((a, b))
        self.svg.add("path", class_="wire " + w.net, d=d, fill="none",
                     stroke=COLOURS[w.colour], stroke_width=width, data_from=a, data_to=b)

    def dot(self, x, y) -> None:
        self.svg.add("circle", class_="junction", cx=x, cy=y, r=2.5, fill=BLACK)


def _diode(svg, x, ya, yk, ref, label) -> None:
    """A diode drawn downwards: anode terminal at (x, ya), cathode (band) at (x, yk)."""
    top, bot = ya + 6, yk - 6
    svg.begin(class_="part diode", data_ref=ref, data_a="%d,%d" % (x, ya),
              data_k="%d,%d" % (x, yk))
    svg.add("path", class_="lead", d="M%d %d V %d M%d %d V %d" % (x, ya, top, x, bot, yk),
            stroke=BLACK, fill="none")
    svg.add("path", class_="body", d="M%d %d L %d %d L %d %d Z" % (x - 7, top, x + 7, top, x, bot),
            fill=BLACK)
    svg.add("line", class_="band", x1=x - 7, y1=bot, x2=x + 7, y2=bot, stroke=BLACK,
            stroke_width=2.5)
    svg.add("text", label, x=x - 11, y=(top + bot) // 2 + 4, text_anchor="end", **SMALL)
    svg.end()


def _box(svg, kind, ref, x1, y, x2, label) -> None:
    """A two-lead part drawn left to right (resistor, fuse): a box on the line."""
    svg.begin(class_="part " + kind, data_ref=ref, data_1="%d,%d" % (x1, y),
              data_2="%d,%d" % (x2, y))
    svg.add("path", class_="lead", d="M%d %d H %d M%d %d H %d" % (x1, y, x1 + 6, x2 - 6, y, x2),
            stroke=BLACK, fill="none")
    svg.add("rect", class_="body", x=x1 + 6, y=y - 5, width=x2 - x1 - 12, height=10,
            fill="#fff", stroke=BLACK)
    if kind == "fuse":
        svg.add("line", x1=x1 + 6, y1=y, x2=x2 - 6, y2=y, stroke=BLACK)
    svg.add("text", label, x=(x1 + x2) // 2, y=y - 9, text_anchor="middle", **SMALL)
    svg.end()


def _cap(svg, ref, x, y1, y2, polar, label_x, label_anchor: str = "start") -> None:
    """A capacitor drawn downwards between (x, y1) and (x, y2); + at the top if polar."""
    mid = (y1 + y2) // 2
    svg.begin(class_="part capacitor", data_ref=ref)
    svg.add("path", class_="lead", d="M%d %d V %d M%d %d V %d" % (x, y1, mid - 2, x, mid + 2, y2),
            stroke=BLACK, fill="none")
    svg.add("line", x1=x - 6, y1=mid - 2, x2=x + 6, y2=mid - 2, stroke=BLACK, stroke_width=2)
    svg.add("line", x1=x - 6, y1=mid + 2, x2=x + 6, y2=mid + 2, stroke=BLACK, stroke_width=2,
            stroke_dasharray="2,1" if polar else "none")
    if polar:
        svg.add("text", "+", x=x + 8, y=mid - 3, **SMALL)
    svg.add("text", ref, x=label_x, y=mid + 4, text_anchor=label_anchor, **SMALL)
    svg.end()


def wiring_svg(config: Config, spec: FaceSpec = face.DEFAULT_SPEC) -> str:
    """wiring.svg: supply, fuse, Pico, diode, level shifter, strip pieces, buttons."""
    p = power_plan(config)
    pieces = face.strip_pieces(config, spec)
    btns = buttons(config)
    pins = pico_pins(config)
    pico_h = 30 + 18 * len(pins)
    btn_y = PICO_Y + pico_h + 60
    gnd_y = btn_y + 34 * len(btns)
    last_y = TOP + ROW * len(pieces)
    height = max(last_y + 30, gnd_y + 40)
    svg = Svg(WIDTH, height)
    sheet = _Sheet(svg, wires(config, spec))
    svg.add("title", "Wiring: %d LEDs in %d strip pieces, %d buttons, 5 V %d A supply"
            % (config.leds, len(pieces), len(btns), p["supply_a"]))
    svg.add("rect", x=0, y=0, width=WIDTH, height=height, fill="#fff")
    # The supply: J1, F1 in its + lead, the two rails (PCB1) down beside the strip.
    svg.add("rect", class_="part jack", data_ref="J1", x=20, y=20, width=100, height=50,
            fill="#eee", stroke=BLACK)
    svg.add("text", "J1 5 V in", x=28, y=40, **FONT)
    svg.add("text", "PS1 %d A" % p["supply_a"], x=28, y=58, **SMALL)
    sheet.wire("J1.+", "F1.1", "M120 35 H 136")
    _box(svg, "fuse", "F1", 136, 35, 176, "F1 fuse")
    sheet.wire("F1.2", "PCB1.5V", "M176 35 H 200")
    sheet.wire("J1.-", "PCB1.GND", "M120 55 H 200")
    feed_rows = [i for i, (a, b) in enumerate(pieces) if any(a <= f <= b for f in p["feeds"])]
    svg.add("path", class_="bus", data_ref="PCB1.5V", fill="none", stroke=RED, stroke_width=3,
            d="M200 35 H %d V %d" % (BUS5, TOP + ROW * max(feed_rows) + 8))
    svg.add("path", class_="bus", data_ref="PCB1.GND", fill="none", stroke=BLACK,
            stroke_width=3, d="M200 55 H %d V %d" % (BUSG, max(gnd_y, TOP + ROW * max(feed_rows)
                                                              + 30)))
    svg.add("text", "PCB1 +5 V rail, %s" % p["feed_wire"], x=BUSG + 10, y=39, fill=RED, **SMALL)
    svg.add("text", "PCB1 GND rail: one ground for all", x=BUSG + 10, y=59, **SMALL)
    svg.add("text", "+", x=124, y=31, **SMALL)
    svg.add("text", "-", x=124, y=51, **SMALL)
    # The Pico and its pins.
    svg.add("rect", class_="part pico", data_ref="U1", x=20, y=PICO_Y, width=170, height=pico_h,
            fill="#e8f4e8", stroke=BLACK)
    svg.add("text", "U1 Raspberry Pi Pico", x=28, y=PICO_Y + 16, **FONT)
    pin_y = {}
    for i, pin in enumerate(pins):
        y = PICO_Y + 36 + 18 * i
        # VBUS stays unconnected: said inside the box, clear of the button wires outside.
        svg.add("text", "%s (pin %d)%s" % (pico_pin_name(config, pin), pin,
                                           " not connected" if pin == 40 else ""),
                x=30, y=y + 4, **SMALL)
        pin_y[pin] = y
    # D1: the rail to VSYS, band (cathode) towards VSYS.
    sheet.dot(230, 35)
    sheet.wire("PCB1.5V", "D1.A", "M230 35 V 64")
    _diode(svg, 230, 64, 96, "D1", "D1 1N5817")
    sheet.wire("D1.K", "U1.39", "M230 96 V %d H 190" % pin_y[39])
    sheet.dot(255, 55)
    sheet.wire("U1.38", "PCB1.GND", "M190 %d H 255 V 55" % pin_y[38])
    # U2, its supply pins up to the rails, C2 across VCC and GND.
    svg.add("rect", class_="part shifter", data_ref="U2", x=300, y=110, width=160, height=70,
            fill="#eef", stroke=BLACK)
    svg.add("text", "U2 74AHCT125", x=320, y=156, **FONT)
    svg.add("text", "1A (2)", x=304, y=174, **SMALL)
    svg.add("text", "1Y (3)", x=456, y=174, text_anchor="end", **SMALL)
    stubs = ("7", "14", "1", "5", "9", "12", "4", "10", "13")
    stub_x = {stub: 308 + 18 * k for k, stub in enumerate(stubs)}
    for stub, x in stub_x.items():
        to = "PCB1.5V" if stub in ("14", "4", "10", "13") else "PCB1.GND"
        svg.add("text", stub, x=x, y=124, text_anchor="middle", font_family="sans-serif",
                font_size=8)
        rail = 35 if to == "PCB1.5V" else 55
        sheet.dot(x, rail)
        sheet.wire("U2." + stub, to, "M%d 110 V %d" % (x, rail), width=1)
    # C2 right beside U2: its top lead meets pin 14's wire above the GND rail, so the two
    # leads cross nothing.
    sheet.dot(stub_x["14"], 45)
    sheet.wire("C2.1", "U2.14", "M290 66 V 45 H %d" % stub_x["14"], width=1)
    sheet.dot(stub_x["7"], 96)
    sheet.wire("C2.2", "U2.7", "M290 86 V 96 H %d" % stub_x["7"], width=1)
    _cap(svg, "C2", 290, 66, 86, False, 282, "end")
    svg.add("text", "U2: unused inputs 5, 9, 12 to GND, enables 4, 10, 13 to 5 V; "
            "C2 100 nF", x=BUSG + 10, y=110, **SMALL)
    # GPIO to U2, R1, into the first piece's DIN.
    data_y = TOP - 8
    gp = header_pin(config.pins["leds"])
    sheet.wire("U1.%d" % gp, "U2.2", "M190 %d H 280 V 165 H 300" % pin_y[gp], width=2)
    sheet.wire("U2.3", "R1.1", "M460 165 H 466 V %d H 474" % data_y, width=2)
    _box(svg, "resistor", "R1", 474, data_y, 512, "R1 330 Ω")
    sheet.wire("R1.2", "LED1.DIN@0", "M512 %d H 630 V %d" % (data_y, TOP + 4), width=2)
    svg.add("text", "DIN", x=634, y=TOP, fill=BLUE, **SMALL)
    # Strip pieces in chain order, jumpers, feed points, C1 at the first feed.
    for i, (first, last) in enumerate(pieces):
        y = TOP + ROW * i
        svg.add("rect", class_="piece", x=STRIP_X, y=y + 4, width=320, height=ROW - 8,
                fill="#fafafa", stroke=BLACK, data_first=first, data_last=last)
        svg.add("text", "%d. %s" % (i + 1, _piece_label(config, first, last)), x=STRIP_X + 16,
                y=y + 24, **SMALL)
        if i:
            prev = pieces[i - 1][1]
            sheet.wire("LED1.DOUT@%d" % prev, "LED1.DIN@%d" % first,
                       "M940 %d h 12 v %d h -12" % (y - 14, 28), width=1.5)
        for f in p["feeds"]:
            if first <= f <= last:
                svg.begin(class_="feed", data_led=f)
                sheet.dot(BUS5, y + 8)
                sheet.wire("PCB1.5V", "LED1.5V@%d" % f, "M%d %d H %d" % (BUS5, y + 8, STRIP_X),
                           width=2)
                sheet.dot(BUSG, y + 30)
                sheet.wire("PCB1.GND", "LED1.GND@%d" % f, "M%d %d H %d" % (BUSG, y + 30,
                                                                         STRIP_X), width=2)
                svg.add("text", "feed at LED %d" % f, x=BUS5 - 6, y=y + 12, fill=RED,
                        text_anchor="end", **SMALL)
                svg.end()
                if f == 0:
                    sheet.wire("C1.+", "LED1.5V@0", "M580 %d V %d" % (y + 13, y + 8), width=1)
                    sheet.wire("C1.-", "LED1.GND@0", "M580 %d V %d" % (y + 25, y + 30), width=1)
                    _cap(svg, "C1", 580, y + 13, y + 25, True, 600)
    svg.add("text", "blue loops: DOUT to the next DIN, with 5 V and GND (%s three-core)"
            % p["tap_wire"], x=WIDTH - 12, y=last_y + 16, text_anchor="end", **SMALL)
    svg.add("text", "C1 1000 uF across the first feed, + to 5 V", x=STRIP_X, y=TOP - 20,
            **SMALL)
    # Buttons: each GPIO through its switch to the ground line.
    # Under the switches, where no wire runs.
    svg.add("text", "Buttons: GPIO to GND, internal pull-ups (pressed reads 0)", x=20,
            y=gnd_y + 24, **FONT)
    for i, (name, gpio) in enumerate(btns):
        y = btn_y + 34 * i
        sw = "SW%d" % (i + 1)
        pin = header_pin(gpio)
        x = 196 + 5 * i
        sheet.wire("U1.%d" % pin, sw + ".1", "M190 %d H %d V %d H 260" % (pin_y[pin], x, y),
                   width=1)
        svg.begin(class_="part switch", data_ref=sw, data_gpio=gpio)
        svg.add("circle", cx=262, cy=y, r=2, fill="none", stroke=BLACK)
        svg.add("circle", cx=298, cy=y, r=2, fill="none", stroke=BLACK)
        svg.add("path", d="M264 %d L 296 %d M280 %d V %d" % (y - 2, y - 12, y - 7, y - 16),
                stroke=BLACK, fill="none")
        svg.add("text", "%s %s" % (sw, name), x=60, y=y + 4, **SMALL)
        svg.end()
        sheet.dot(340, y)
        sheet.wire(sw + ".2", "PCB1.GND", "M300 %d H 340" % y, width=1)
    svg.add("path", class_="bus", data_ref="PCB1.GND", d="M340 %d V %d H %d"
            % (btn_y, gnd_y, BUSG), fill="none", stroke=BLACK, stroke_width=3)
    sheet.dot(BUSG, gnd_y)
    if sheet.todo:  # every wire of the circuit must be on the sheet
        raise RuntimeError("wires not drawn: %s" % ", ".join(
            "%s-%s" % k for k in sheet.todo))
    svg.add("desc", "; ".join("%s = %s" % (e, describe(config, e)) for e in ("D1.A", "D1.K")))
    return svg.text()
