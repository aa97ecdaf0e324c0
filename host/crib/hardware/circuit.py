"""The circuit of a layout, described once: parts, their pins, and every wire between them.

The wiring sheet, the schematic, the pin map, the guide and the BOM all read this; a test
checks that each document shows the same wires and puts the diode the same way round.

An end of a wire is "REF.PIN": "U1.39" is the Pico's pin 39, "D1.K" the diode's cathode
(its banded end), "PCB1.5V" / "PCB1.GND" the stripboard's 5 V and ground rails, and
"LED1.DIN@0" the data-in pad of strip LED 0 (LED1 is the strip).

The supply: J1 (the barrel jack) feeds the 5 V rail through the fuse F1. The rail feeds the
strip and, through D1 (anode on the rail, cathode on VSYS), the Pico: D1 keeps the rail off
the Pico's USB 5 V, so a USB cable and the supply can be plugged in together.
"""

from dataclasses import dataclass

from crib.hardware.errors import HardwareError
from crib.hardware.power import power_plan
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

# Raspberry Pi Pico header pin of each GPIO; 23, 24, 25 and 29 stay on the board.
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}
PICO_POWER = {38: "GND", 39: "VSYS", 40: "VBUS"}
# A Pico W / Pico 2 W drives its radio (CYW43439) from these: power, data, chip select and
# clock. None is on the header, so a layout that maps to the header leaves the radio alone.
RADIO_GPIOS = (23, 24, 25, 29)
# 74AHCT125 (DIP-14): the pins in use. Buffer 1 carries the data; 2-4 are tied off.
AHCT125 = {"1": "1OE", "2": "1A", "3": "1Y", "4": "2OE", "5": "2A", "7": "GND", "9": "3A",
           "10": "3OE", "12": "4A", "13": "4OE", "14": "VCC"}
PIN_NAMES = {
    "D1": {"A": "anode", "K": "cathode, the banded end"},
    "R1": {"1": "end 1", "2": "end 2"},
    "F1": {"1": "end 1", "2": "end 2"},
    "C1": {"+": "plus lead (the longer one)", "-": "minus lead (the striped side)"},
    "C2": {"1": "lead 1", "2": "lead 2"},
    "J1": {"+": "centre pin (+5 V)", "-": "sleeve (GND)"},
    "PCB1": {"5V": "+5 V rail", "GND": "GND rail"},
}


@dataclass(frozen=True)
class Wire:
    """One wire: its two ends ("REF.PIN"), what it carries, its gauge and colour."""

    a: str
    b: str
    net: str  # "5V", "GND", "VSYS", "VIN", "data", "button", "chain"
    gauge: str
    colour: str


def header_pin(gpio: int) -> int:
    """The Pico header pin of a GPIO; HardwareError for those not on the header."""
    if gpio not in PICO_PIN:
        raise HardwareError("GP%d is not on the Pico's header (GP23, 24, 25 and 29 drive "
                            "the board's regulator, VBUS sense, LED and VSYS sense): pick "
                            "another pin in the layout" % gpio)
    return PICO_PIN[gpio]


def buttons(config: Config) -> list[tuple[str, int]]:
    """[(name, gpio)] of every button: one per lane, undo, then confirm if the layout has it."""
    out = [(lane.name, lane.button) for lane in config.lanes]
    out.append(("Undo", config.pins["undo"]))
    if config.pins.get("confirm") is not None:
        out.append(("Confirm", config.pins["confirm"]))
    return out


def pico_pin_name(config: Config, pin: int) -> str:
    """"GP0", "VSYS"... of a Pico header pin."""
    if pin in PICO_POWER:
        return PICO_POWER[pin]
    for gpio, p in PICO_PIN.items():
        if p == pin:
            return "GP%d" % gpio
    raise HardwareError("no Pico pin %d" % pin)


def describe(config: Config, end: str) -> str:
    """A builder's words for a wire end: "U1.39" -> "Pico pin 39 (VSYS)"."""
    ref, pin = end.split(".", 1)
    if ref == "U1":
        return "Pico pin %s (%s)" % (pin, pico_pin_name(config, int(pin)))
    if ref == "U2":
        return "74AHCT125 pin %s (%s)" % (pin, AHCT125[pin])
    if ref == "LED1":
        pad, led = pin.split("@")
        return "strip %s pad at LED %s" % (pad, led)
    if ref.startswith("SW"):
        return "%s leg %s" % (ref, pin)
    return "%s %s" % (ref, PIN_NAMES[ref][pin])


def wires(config: Config, spec: FaceSpec = face.DEFAULT_SPEC) -> list[Wire]:
    """Every wire of the build, in the order a builder would solder them."""
    p = power_plan(config)
    feed, tap, thin = p["feed_wire"], p["tap_wire"], "26 AWG"
    data = "U1.%d" % header_pin(config.pins["leds"])
    out = [
        Wire("J1.+", "F1.1", "VIN", feed, "red"),
        Wire("F1.2", "PCB1.5V", "5V", feed, "red"),
        Wire("J1.-", "PCB1.GND", "GND", feed, "black"),
        Wire("PCB1.5V", "D1.A", "5V", thin, "red"),
        Wire("D1.K", "U1.39", "VSYS", thin, "red"),
        Wire("U1.38", "PCB1.GND", "GND", thin, "black"),
        Wire(data, "U2.2", "data", thin, "blue"),
        Wire("U2.3", "R1.1", "data", thin, "blue"),
        Wire("R1.2", "LED1.DIN@0", "data", thin, "blue"),
        Wire("U2.14", "PCB1.5V", "5V", thin, "red"),
        Wire("U2.7", "PCB1.GND", "GND", thin, "black"),
        Wire("U2.1", "PCB1.GND", "GND", thin, "black"),
        Wire("C2.1", "U2.14", "5V", thin, "red"),
        Wire("C2.2", "U2.7", "GND", thin, "black"),
    ]
    out += [Wire("U2.%s" % pin, "PCB1.GND", "GND", thin, "black") for pin in ("5", "9", "12")]
    out += [Wire("U2.%s" % pin, "PCB1.5V", "5V", thin, "red") for pin in ("4", "10", "13")]
    out += [Wire("C1.+", "LED1.5V@0", "5V", tap, "red"),
            Wire("C1.-", "LED1.GND@0", "GND", tap, "black")]
    for f in p["feeds"]:
        out += [Wire("PCB1.5V", "LED1.5V@%d" % f, "5V", tap, "red"),
                Wire("PCB1.GND", "LED1.GND@%d" % f, "GND", tap, "black")]
    pieces = face.strip_pieces(config, spec)
    for (_, last), (first, _) in zip(pieces, pieces[1:]):
        out.append(Wire("LED1.DOUT@%d" % last, "LED1.DIN@%d" % first, "chain",
                        "%s three-core" % tap, "three-core"))
    for i, (_, gpio) in enumerate(buttons(config)):
        sw = "SW%d" % (i + 1)
        out += [Wire("U1.%d" % header_pin(gpio), sw + ".1", "button", thin, "yellow"),
                Wire(sw + ".2", "PCB1.GND", "GND", thin, "black")]
    return out


def far_ends(config: Config, end: str, spec: FaceSpec = face.DEFAULT_SPEC) -> list[str]:
    """The other ends of every wire at `end` ("U1.39" -> ["D1.K"])."""
    return [w.b if w.a == end else w.a for w in wires(config, spec) if end in (w.a, w.b)]


def pico_pins(config: Config) -> list[int]:
    """The Pico header pins the build uses, in header order (VBUS listed, unconnected)."""
    pins = {header_pin(config.pins["leds"])} | {header_pin(g) for _, g in buttons(config)}
    return sorted(pins | set(PICO_POWER))


def diode_ends(config: Config, spec: FaceSpec = face.DEFAULT_SPEC) -> tuple[str, str]:
    """(what D1's anode wires to, what its cathode wires to)."""
    return far_ends(config, "D1.A", spec)[0], far_ends(config, "D1.K", spec)[0]
