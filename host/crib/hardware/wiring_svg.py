"""wiring.svg: the wiring diagram of a layout (a schematic, not to scale)."""

from crib import face
from crib.hardware.parts import buttons, pin_rows
from crib.hardware.power import power_plan
from crib.hardware.svg import Svg


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
    svg = Svg(960, height)
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
