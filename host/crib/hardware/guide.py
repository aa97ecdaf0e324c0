"""README.md of hardware/: the builder's guide, from guide.md with the circuit filled in.

The wiring steps, the diode's orientation, the face's sizes and the power bank figures
come from the same circuit, panel and power budget as the drawings, so the guide cannot
disagree with them; the prose lives in guide.md beside this module.
"""

import math
import re
from pathlib import Path

from crib.hardware import box, circuit, hand, parts
from crib.hardware.panel import DEFAULT_PANEL, PanelSpec, panel, split
from crib.hardware.power import (
    BANK_EFFICIENCY,
    BANK_MAH,
    BANK_WH,
    C1_UF,
    PICO_MA,
    USB_MA,
    bank_hours,
    power_budget,
)
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

TEMPLATE = Path(__file__).with_name("guide.md")
STAGES = (("The supply", ("VIN", "5V", "GND"), ("J1", "F1")),
          ("The Pico's power", ("5V", "VSYS", "GND"), ("D1", "U1.38")),
          ("The level shifter", ("5V", "GND"), ("U2", "C2")),
          ("The data line", ("data",), ("U1", "U2", "R1")),
          ("Power into the strip", ("5V", "GND"), ("C1", "LED1")),
          ("Between strip pieces", ("chain",), ("LED1",)),
          ("The buttons", ("button", "GND"), ("SW",)))


def wire_line(config: Config, w: circuit.Wire) -> str:
    """One wire as a guide step: "`J1.+` J1 centre pin to `F1.1` F1 end 1 (22 AWG red)"."""
    how = "through a JST-SM pair" if w.colour == "three-core" else w.colour
    return "- `%s` %s to `%s` %s (%s, %s)" % (
        w.a, circuit.describe(config, w.a), w.b, circuit.describe(config, w.b), w.gauge, how)


def wire_steps(config: Config, spec: FaceSpec = face.DEFAULT_SPEC) -> str:
    """The wiring list, grouped as a builder would solder it: each wire exactly once."""
    todo = list(circuit.wires(config, spec))
    out = []
    for title, nets, refs in STAGES:
        mine = [w for w in todo if w.net in nets
                and any(e.startswith(refs) for e in (w.a, w.b))]
        if mine:
            out.append("%s:" % title)
            out.append("")
            out += [wire_line(config, w) for w in mine]
            out.append("")
            todo = [w for w in todo if w not in mine]
    if todo:
        raise RuntimeError("wires in no stage: %r" % todo)
    return "\n".join(out).rstrip()


def _diode(config, spec) -> str:
    anode, cathode = circuit.diode_ends(config, spec)
    return ("D1 goes with its band (the cathode, `D1.K`) towards %s and its anode "
            "(`D1.A`) on the %s: the supply feeds VSYS through the diode, and the "
            "diode keeps the supply off the Pico's USB 5 V, so the USB cable and the supply "
            "can be plugged in together." % (circuit.describe(config, cathode),
                                              circuit.describe(config, anode)))


def _power_bank(config) -> str:
    p = power_budget(config)
    need = p["plan"]["need_ma"]
    if need > 2100:
        return ("This layout may draw %d mA, more than a power bank's 2.1 A port gives: "
                "use the mains supply, or lower budget_ma." % need)
    waiting, playing = p["waiting_ma"] + PICO_MA, p["typical_ma"] + PICO_MA
    return ("The board never draws more than %d mA, so a USB power bank with a port of "
            "%s A or more runs it: plug it into J1 with a USB-A to 5.5/2.1 mm barrel cable "
            "(the fuse and the diode then protect it as they do the mains supply). By the "
            "firmware's own current model at brightness %d%%, a %s mAh bank (about %d Wh, "
            "%d%% of it reaching the board) lasts about **%.0f hours waiting** for a game "
            "(%d mA with the Pico) and about **%.0f hours in play** (%d mA). Most of that "
            "is the dark LEDs: %d LEDs draw %d mA even when off. For longer: a mains "
            "adapter on J1; a layout with fewer lanes (fewer LEDs: each takes %d mA dark); "
            "a lower brightness or budget_ma only trims the light above the dark draw. "
            "That dark draw also keeps banks that switch off at a low load awake."
            % (need, "1" if need <= 1000 else "2.1", config.brightness,
               "{:,}".format(BANK_MAH), BANK_WH, round(100 * BANK_EFFICIENCY),
               bank_hours(waiting), waiting, bank_hours(playing), playing, p["leds"], p["idle_ma"],
               config.led_ma["idle"]))


def _hold_up(config) -> str:
    p = power_budget(config)
    return ("C1 (%d uF) alone feeds the dark strip's %d mA for only about %.1f ms per volt "
            "it falls, so the LEDs go dark at once" % (C1_UF, p["idle_ma"], p["hold_up_ms"]))


def _stack_table(bs=box.DEFAULT_BOX):
    st = box.stack(bs)
    rows = [("M3 x %d screw, pan head, from above" % st["top_screw"], ""),
            ("face", "%g mm" % bs.face_t), ("diffuser", "%g mm" % bs.diffuser_t),
            ("nylon spacer: the strip's height (LEDs just touch the diffuser)",
             "%g mm" % bs.strip_h),
            ("strip plate, the strips stuck on it", "%g mm" % bs.board_t),
            ("the top screw's grip, so %d - %g = %g mm of it in the standoff"
             % (st["top_screw"], st["top_grip"], st["top_screw"] - st["top_grip"]),
             "**%g mm**" % st["top_grip"]),
            ("M3 hex standoff, female both ends: the room for the stripboard, the Pico, "
             "the wires and the buttons' bodies", "%g mm" % st["standoff"]),
            ("bottom", "%g mm" % bs.board_t),
            ("M3 x %d screw from below: %d - %g = %g mm in the standoff"
             % (st["bottom_screw"], st["bottom_screw"], bs.board_t,
                st["bottom_screw"] - bs.board_t), "")]
    return "\n".join(["| layer | thickness |", "| --- | ---: |"]
                     + ["| %s | %s |" % r for r in rows])


def _singles(config, spec) -> str:
    ones = [a for a, b in face.strip_pieces(config, spec) if a == b]
    if not ones:
        return "every piece is longer than one LED."
    return ("the pieces of one LED (LED %s) are the fiddly ones. Cut across the copper pads "
            "on both sides of one LED, so that half of each pad stays on the piece; tin "
            "the six half pads, solder the pigtails' leads flat along the strip, and put a "
            "drop of hot glue over the joints before you stick the piece down. Make them "
            "first, and check each with the next piece plugged in before mounting."
            % ", ".join(str(i) for i in ones))


def _wifi_power(w) -> str:
    """The Pico 2 W's power in a sentence: the radio's allowance and the supply."""
    text = ("Its radio adds about %d mA (power.md): %d mA in all, a 5 V %d A supply."
            % (w["radio_ma"], w["need_ma"], w["supply_a"]))
    if w["usb_ok"]:
        return text
    return text + (" That is more than a computer's USB 2.0 port gives: power the board from "
                   "a USB charger or power bank rated 1 A or more, through J1 as above.")


def guide_markdown(config: Config, source: str, spec: FaceSpec = face.DEFAULT_SPEC,
                   ps: PanelSpec = DEFAULT_PANEL) -> str:
    """hardware/README.md text."""
    p = power_budget(config)
    pnl = panel(config, spec, ps)
    pieces = split(pnl, ps)
    kinds = {k: [h for h in pnl.holes if h.kind == k] for k in ("led", "button", "mount")}
    split_text = ("It fits a cutter bed of %g mm in one piece." % ps.bed_mm
                  if len(pieces) == 1 else
                  "It is longer than a cutter bed of %g mm (`--bed MM` changes that), so the "
                  "cut files split it into %d pieces across gaps between hole groups (at y = "
                  "%s mm from the top); glue them edge to edge on the diffuser. The drilling "
                  "templates show the whole face (a drill has no bed)." % (ps.bed_mm, len(pieces),
                                 ", ".join("%g" % round(y0, 1) for y0, _ in pieces[1:])))
    usb = ("This layout's budget keeps the whole board within the %d mA of a USB 2.0 port."
           % USB_MA if p["usb_ok"] else
           "This layout needs more than a USB 2.0 port's %d mA: use the supply." % USB_MA)
    bs = box.DEFAULT_BOX
    st = box.stack(bs)
    box_split = ("the bottom, the sides and the strip plate are longer than the bed, so they "
                 "are cut where the face is and glued edge to edge: back each seam with a "
                 "strip of offcut glued across it inside, below the strip plate (under it "
                 "for the plate); "
                 if len(pieces) > 1 else "every board fits the cutter's bed whole; ")
    diffuser_bed = ("it needs a bed of %.0f mm. On a shorter bed, have the seller cut it "
                    "to size and drill its holes from the face template, as for hand tools "
                    "(hand-box.md)." % math.ceil(pnl.height) if pnl.height > ps.bed_mm else
                    "it fits the bed whole.")
    sticks = hand.stock_strips(config, spec, ps, bs)
    longest, sheet = hand.stock(config, spec, ps)
    values = {
        "source": "`%s`" % source,
        "board_t": "%g" % bs.board_t, "diffuser_t": "%g" % bs.diffuser_t,
        "wall": "%g" % st["wall"], "depth": "%g" % st["depth"],
        "price": parts.price_sentence(config, spec, ps),
        "button_body": "%g" % bs.button_body, "button_room": "%g" % box.button_room(bs),
        "button_wires": "%g" % bs.button_wires,
        "box_split": box_split, "diffuser_bed": diffuser_bed,
        "diffuser_size": "%g x %g mm" % (round(pnl.width, 1), round(pnl.height, 1)),
        "stock_mm": "%g" % longest, "sheet": "%g x %g" % sheet,
        "blocks": "%d length%s of %g mm" % (len(sticks), "s" if len(sticks) > 1 else "",
                                           longest),
        "block": "%g" % hand.BLOCK, "usb_slot": "%g x %g mm" % (bs.usb_w, bs.usb_h),
        "usb_z": "%g" % bs.usb_z, "stack": _stack_table(bs), "engage": "%g" % bs.engage,
        "wire_d": "%g" % bs.wire_d, "singles": _singles(config, spec),
        "panel_size": "%g x %g mm" % (round(pnl.width, 1), round(pnl.height, 1)),
        "led_holes": str(len(kinds["led"])), "hole_d": "%g" % spec.hole_d,
        "buttons": str(len(kinds["button"])), "button_d": "%g" % ps.button_d,
        "jack_d": "%g" % ps.jack_d, "mounts": str(len(kinds["mount"])),
        "mount_d": "%g" % ps.mount_d, "split": split_text,
        "pieces": str(len(face.strip_pieces(config, spec))),
        "wires": wire_steps(config, spec), "diode": _diode(config, spec),
        "usb": usb, "power_bank": _power_bank(config), "hold_up": _hold_up(config),
        "wifi_power": _wifi_power(p["wifi"]),
    }
    text = TEMPLATE.read_text()
    missing = set(re.findall(r"\{\{(\w+)\}\}", text)) - set(values)
    if missing:
        raise RuntimeError("guide.md asks for %s" % ", ".join(sorted(missing)))
    return re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], text)
