"""schematic.svg: the circuit in standard symbols, drawn with schemdraw from circuit.wires.

schemdraw (pure Python, its own SVG backend: no matplotlib) places the symbols; the +5 V
and GND rails are drawn as supply and ground symbols, so the drawing stays readable. The
strip's further feed points and the jumpers between strip pieces are on wiring.svg.
"""

from crib.hardware.circuit import AHCT125, Wire, buttons, header_pin, pico_pin_name, wires
from crib.hardware.power import power_plan
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

RAILS = {"PCB1.5V": "5V", "PCB1.GND": "GND"}
U2_NAME_OFST, U2_NUMBER_OFST = 0.5, 0.3  # drawing units: U2's top and bottom pin labels


def _pin(elm, end, name, side, pin=None):
    return elm.IcPin(name=name, pin=pin or end.split(".")[1], side=side, anchorname=end)


def schematic(config: Config, spec: FaceSpec = face.DEFAULT_SPEC) -> tuple:
    """(schemdraw Drawing, {wire end: (x, y)}, [(point, rail)]): the schematic and where
    each end of circuit.wires (those it shows) and each rail symbol sits on it."""
    import schemdraw
    import schemdraw.elements as elm

    schemdraw.use("svg")
    p = power_plan(config)
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=11, unit=2.5, lw=1.2, margin=1.5)
    ends, rails = {}, []

    def two(el, ref, a, b):
        d.add(el)
        ends["%s.%s" % (ref, a)] = el.absanchors["start"]
        ends["%s.%s" % (ref, b)] = el.absanchors["end"]
        return el

    def rail(at, kind, direction) -> None:
        el = elm.Vdd(label="+5V") if kind == "5V" else elm.Ground()
        d.add(elm.Line().at(at).length(0.6).theta(direction))
        d.add(el.at(d.here).theta(direction - 90 if kind == "5V" else direction + 90))
        rails.append((at, kind))

    # The Pico: power and buttons on its left, the LED data on its right.
    btns = [(i, name, header_pin(gpio)) for i, (name, gpio) in enumerate(buttons(config))]
    gp = "U1.%d" % header_pin(config.pins["leds"])
    left = ([_pin(elm, "U1.40", "VBUS", "left"), _pin(elm, "U1.39", "VSYS", "left")]
            + [_pin(elm, "U1.%d" % pin, pico_pin_name(config, pin), "left")
               for _, _, pin in btns]
            + [_pin(elm, "U1.38", "GND", "left")])
    u1 = elm.Ic(pins=left[::-1] + [_pin(elm, gp, "GP%d" % config.pins["leds"], "right")],
                size=(3.2, 1.5 * len(left)), pinspacing=1.5)
    d.add(u1.at((0, 0)).label("U1 Raspberry Pi Pico", loc="top"))
    for end in [pn.anchorname for pn in left] + [gp]:
        ends[end] = u1.absanchors[end]
    d.add(elm.NoConnect().at(ends["U1.40"]))
    d.add(elm.Line().at(ends["U1.38"]).left().length(0.8))
    rail(d.here, "GND", -90)
    # Supply: J1, F1 in its + lead, the 5 V node, D1 from it to VSYS (band at VSYS).
    d.add(elm.Line().at(ends["U1.39"]).left().length(0.5))
    d1 = two(elm.Diode().left().reverse().label("D1 1N5817"), "D1", "A", "K")
    d1_k, d1_a = d1.absanchors["start"], d1.absanchors["end"]  # drawn from VSYS leftwards
    ends["D1.K"], ends["D1.A"] = d1_k, d1_a
    d.add(elm.Line().at(d1_a).left().length(1.0))
    n5 = d.here
    d.add(elm.Dot().at(n5))
    rail(n5, "5V", 90)
    f1 = two(elm.Fuse().at(n5).left().label("F1 fuse"), "F1", "2", "1")
    d.add(elm.Line().at(f1.absanchors["end"]).left().length(0.5))
    # J1's two contacts as terminals (open circles), its minus to ground.
    ends["J1.+"] = d.here
    d.add(elm.Dot(open=True).at(d.here).label("J1 +5 V in", loc="left"))
    ends["J1.-"] = (d.here[0], d.here[1] - 1.5)
    d.add(elm.Dot(open=True).at(ends["J1.-"]).label("J1 -", loc="left"))
    d.add(elm.Line().at(ends["J1.-"]).right().length(0.6))
    rail(d.here, "GND", -90)
    # Buttons: each GPIO through its switch to one ground line.
    last = None
    for i, name, pin in btns:
        d.add(elm.Line().at(ends["U1.%d" % pin]).left().length(0.5))
        sw = two(elm.Button().left().label("SW%d %s" % (i + 1, name), fontsize=10),
                 "SW%d" % (i + 1), "1", "2")
        d.add(elm.Line().at(sw.absanchors["end"]).left().length(0.5))
        here = d.here
        if last is not None:
            d.add(elm.Line().at(last).to(here))
            d.add(elm.Dot().at(here))
        d.add(elm.Line().at(here).to(sw.absanchors["end"]))
        last = here
    rail(last, "GND", -90)
    # Data: GPIO -> U2 1A; 1Y -> R1 -> the strip's DIN. U2's spare pins tied to the rails.
    u2_pins = [_pin(elm, "U2.2", "1A", "left"), _pin(elm, "U2.3", "1Y", "right")]
    u2_pins += [_pin(elm, "U2." + n, AHCT125[n], "top") for n in ("14", "4", "10", "13")]
    u2_pins += [_pin(elm, "U2." + n, AHCT125[n], "bottom") for n in ("7", "1", "5", "9", "12")]
    d.add(elm.Line().at(ends[gp]).right().length(1.5))
    # Pin names sit well inside the box and numbers well off its edge on the top and
    # bottom, wherever a renderer puts the baseline (librsvg ignores dominant-baseline).
    u2 = elm.Ic(pins=u2_pins, size=(6, 3.2))
    for side in ("T", "B"):
        u2.side(side, label_ofst=U2_NAME_OFST, pinlabel_ofst=U2_NUMBER_OFST)
    d.add(u2.anchor("U2.2").label("U2 74AHCT125"))
    for u2pin in AHCT125:
        ends["U2." + u2pin] = u2.absanchors["U2." + u2pin]
    for n in ("4", "10", "13"):
        rail(ends["U2." + n], "5V", 90)
    for n in ("7", "1", "5", "9", "12"):
        rail(ends["U2." + n], "GND", -90)
    # VCC up to the rail; C2 from the VCC lead to ground, beside U2.
    d.add(elm.Line().at(ends["U2.14"]).up().length(1.5))
    vcc = d.here
    d.add(elm.Dot().at(vcc))
    rail(vcc, "5V", 90)
    d.add(elm.Line().at(vcc).left().length(1.5))
    c2 = two(elm.Capacitor().down().length(1.5).label("C2\n100 nF", loc="top"), "C2", "1", "2")
    d.add(elm.Line().at(c2.absanchors["start"]).to(vcc))
    rail(c2.absanchors["end"], "GND", -90)
    d.add(elm.Line().at(ends["U2.3"]).right().length(0.8))
    two(elm.Resistor().right().label("R1 330 Ω"), "R1", "1", "2")
    d.add(elm.Line().right().length(0.8))
    strip = elm.Ic(pins=[_pin(elm, "LED1.DIN@0", "DIN", "left", "DIN"),
                         _pin(elm, "LED1.GND@0", "GND", "right", "GND"),
                         _pin(elm, "LED1.5V@0", "5V", "right", "5V")],
                   size=(3.4, 3), pinspacing=1.6)
    d.add(strip.anchor("LED1.DIN@0").label("LED1 WS2812B\nstrip, LED 0", loc="top"))
    for pad in ("DIN", "5V", "GND"):
        ends["LED1.%s@0" % pad] = strip.absanchors["LED1.%s@0" % pad]
    # C1 across the first feed, the feed from the rails.
    v, g = ends["LED1.5V@0"], ends["LED1.GND@0"]
    d.add(elm.Line().at(v).right().length(1.2))
    vx = d.here
    d.add(elm.Dot().at(vx))
    rail(vx, "5V", 90)
    d.add(elm.Line().at(vx).down().length(0.5))  # C1's "+" clear of the 5 V line
    c1 = two(elm.Capacitor(polar=True).at(d.here).down().toy(g[1]).label("C1 1000 µF", loc="bot"),
             "C1", "+", "-")
    d.add(elm.Line().at(c1.absanchors["end"]).to(g))
    d.add(elm.Dot().at(c1.absanchors["end"]))
    rail(c1.absanchors["end"], "GND", -90)
    bottom = min(pt[1] for pt in ends.values()) - 3
    d.add(elm.Label().at((ends["J1.+"][0], bottom)).label(
        "Strip feeds from the rails at LED %s (%s); pieces joined DOUT to DIN: see wiring.svg"
        % (", ".join(str(f) for f in p["feeds"]), p["tap_wire"]), halign="left",
        fontsize=10))
    return d, ends, rails


def schematic_svg(config: Config, spec: FaceSpec = face.DEFAULT_SPEC) -> str:
    """schematic.svg text."""
    d, _, _ = schematic(config, spec)
    return d.get_imagedata("svg").decode()


def shown_wires(config: Config, spec: FaceSpec = face.DEFAULT_SPEC) -> list[Wire]:
    """The circuit's wires the schematic shows (both ends on it or on a rail)."""
    _, ends, _ = schematic(config, spec)
    return [w for w in wires(config, spec)
            if all(e in ends or e in RAILS for e in (w.a, w.b))]
