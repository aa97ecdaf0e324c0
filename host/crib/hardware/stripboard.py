"""The stripboard (PCB1): where every part, cut, link and wire end goes, from the circuit.

Copper strips run along the rows. Rows 0 and 1 are the 5 V and GND rails. U2 sits upside
down (pin 1 at its lower right) so that its input 1A shares the strip of the Pico's LED
pin; the Pico (U1) stands on its headers below, USB to the top edge; the strips under it
are cut between its two header rows. Links (insulated wire on the component side) join
U2's tied-off pins, D1 and the Pico's ground to the rails; the wires of circuit.wires that
leave the board (to J1, the buttons, the strip) end at numbered pads. A test checks that
the strips, cuts and links join exactly what the circuit joins.

Coordinates are holes: (column, row), 2.54 mm apart, row 0 at the top.
"""

from dataclasses import dataclass

from crib.hardware import circuit
from crib.hardware.errors import HardwareError
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

PITCH = 2.54
COLS = 28
U2_L, U2_R, U2_TOP = 6, 9, 3  # U2's two pin columns and its top row
PICO_L, PICO_R, PICO_TOP = 16, 23, 8  # the Pico's header columns and its pin 1 row
RAIL = {"PCB1.5V": 0, "PCB1.GND": 1}
ON_BOARD = ("U1", "U2", "R1", "C2", "D1", "F1", "PCB1")


@dataclass(frozen=True)
class Board:
    """The layout: size, part leads {end: hole}, cuts, links and off-board pads."""

    cols: int
    rows: int
    leads: dict  # "U2.3" -> (col, row); parts' two leads: "R1.1", "R1.2"...
    cuts: frozenset
    links: tuple  # ((col, row), (col, row)): insulated wire on the component side
    pads: tuple  # (col, row, far end, on-board end): an off-board wire's hole


def _u2_pin(pin):
    """U2's hole, upside down: pins 1-7 up the right column, 8-14 down the left."""
    if pin <= 7:
        return (U2_R, U2_TOP + 7 - pin)
    return (U2_L, U2_TOP + pin - 8)


def pico_hole(pin):
    """The hole of a Pico header pin (pin 1 top left, 40 top right, USB up)."""
    if pin <= 20:
        return (PICO_L, PICO_TOP + pin - 1)
    return (PICO_R, PICO_TOP + 40 - pin)


def board(config: Config, spec: FaceSpec = face.DEFAULT_SPEC) -> Board:
    """The stripboard of a layout."""
    rows = PICO_TOP + 20
    leads = {"U1.%d" % pin: pico_hole(pin) for pin in range(1, 41)}
    leads.update({"U2.%d" % pin: _u2_pin(pin) for pin in range(1, 15)})
    cuts = {(U2_L + 1, r) for r in range(U2_TOP, U2_TOP + 7)}  # between U2's columns
    cuts |= {(PICO_L + 3, r) for r in range(PICO_TOP, rows)}  # under the Pico
    cuts |= {(14, r) for r in range(U2_TOP, U2_TOP + 4)} | {(14, U2_TOP + 6)}
    top = U2_TOP
    links = [
        # U2's left column (pins 8-14, rows 3-9): 9 to GND, 10, 13, 14 to 5 V, C2 beside.
        ((U2_L - 1, top + 1), (U2_L - 1, RAIL["PCB1.GND"])),
        ((U2_L - 2, top + 2), (U2_L - 2, RAIL["PCB1.5V"])),
        ((U2_L - 3, top + 4), (U2_L - 3, RAIL["PCB1.GND"])),
        ((U2_L - 1, top + 5), (U2_L - 1, top + 6)),
        ((U2_L - 4, top + 6), (U2_L - 4, RAIL["PCB1.5V"])),
        # U2's right column (pins 7-1, rows 3-9): 7, 5, 1 to GND, 4 to 5 V.
        ((U2_R + 1, top), (U2_R + 1, RAIL["PCB1.GND"])),
        ((U2_R + 2, top + 2), (U2_R + 2, RAIL["PCB1.GND"])),
        ((U2_R + 3, top + 3), (U2_R + 3, RAIL["PCB1.5V"])),
        ((U2_R + 4, top + 6), (U2_R + 4, RAIL["PCB1.GND"])),
        # D1's anode strip (row 5, right of the cut) to 5 V; the Pico's GND (pin 38).
        ((26, top + 2), (26, RAIL["PCB1.5V"])),
        ((27, pico_hole(38)[1]), (27, RAIL["PCB1.GND"])),
    ]
    leads.update({
        "C2.1": (U2_L - 5, top + 6), "C2.2": (U2_L - 5, top + 4),
        "R1.1": (15, top + 4), "R1.2": (19, top + 4),
        "D1.K": (25, pico_hole(39)[1]), "D1.A": (25, top + 2),
        "F1.2": (22, RAIL["PCB1.5V"]), "F1.1": (22, 2),
    })
    cuts.add((17, top + 4))  # under R1, between its leads
    data_pin = circuit.header_pin(config.pins["leds"])
    data_row = _u2_pin(2)[1]
    if data_pin != 1:  # the LED pin's strip linked to U2's 1A; pin 1's strip cut off
        if data_pin > 20:
            raise HardwareError("the stripboard takes the LED data from the Pico's left "
                                "header (GP0-GP15): pick one of those for the LEDs")
        cuts.add((15, data_row))
        links.append(((14, data_row), (14, pico_hole(data_pin)[1])))
    pads = _pads(config, spec, leads, links)
    return Board(COLS, rows, leads, frozenset(cuts), tuple(links), tuple(pads))


def _pads(config, spec, leads, links):
    """(col, row, far end, on-board end) of every wire that leaves the board."""
    used = set(leads.values())
    two_leads = [(leads[ref + ".1"], leads[ref + ".2"]) for ref in ("R1", "C2", "F1")]
    two_leads.append((leads["D1.A"], leads["D1.K"]))
    for a, z in list(links) + two_leads:  # the holes under a link or a part
        used |= span(a, z)
    out = []

    def free(row, cols):
        for c in cols:
            if (c, row) not in used:
                used.add((c, row))
                return c
        raise HardwareError("no room on the stripboard's row %d" % row)

    for w in circuit.wires(config, spec):
        a_on, b_on = (w.a.split(".")[0] in ON_BOARD, w.b.split(".")[0] in ON_BOARD)
        if a_on == b_on:
            continue  # both on the board (strips, leads, links) or both off it
        near, far = (w.a, w.b) if a_on else (w.b, w.a)
        if near in RAIL:
            row = RAIL[near]
            out.append((free(row, list(range(14, COLS)) + list(range(13, -1, -1))), row,
                        far, near))
        elif near.startswith("U1."):
            col, row = leads[near]
            side = range(col - 1, col - 4, -1) if col == PICO_L else range(col + 1, COLS)
            out.append((free(row, side), row, far, near))
        else:  # a part's lead: the next free hole along its strip, away from U2
            col, row = leads[near]
            out.append((free(row, range(col + 1, COLS)), row, far, near))
    return out


def span(a, z):
    """The holes a straight link or part from a to z lies over, its ends included."""
    (c0, r0), (c1, r1) = a, z
    if c0 == c1:
        return {(c0, r) for r in range(min(r0, r1), max(r0, r1) + 1)}
    return {(c, r0) for c in range(min(c0, c1), max(c0, c1) + 1)}


def nets(b: Board) -> list[set]:
    """The board's nets: sets of holes joined by copper (strips between cuts) and links."""
    parent: dict = {}

    def find(h):
        parent.setdefault(h, h)
        while parent[h] != h:
            parent[h] = parent[parent[h]]
            h = parent[h]
        return h

    for r in range(b.rows):
        run = None
        for c in range(b.cols):
            if (c, r) in b.cuts:
                run = None
                continue
            find((c, r))
            if run is not None:
                parent[find((c, r))] = find(run)
            run = (c, r)
    for a, z in b.links:
        parent[find(a)] = find(z)
    groups: dict = {}
    for h in list(parent):
        groups.setdefault(find(h), set()).add(h)
    return list(groups.values())


# -- stripboard.svg ----------------------------------------------------------------------------

STEP = 16.0  # px between holes on the drawing
MARGIN_L, MARGIN_T = 60.0, 40.0
COPPER, CUT_RED, LINK, PAD = "#e9c08a", "#d00000", "#5a5a5a", "#0050c0"


def _xy(hole):
    return MARGIN_L + hole[0] * STEP, MARGIN_T + hole[1] * STEP


def stripboard_svg(config: Config, spec: FaceSpec = face.DEFAULT_SPEC) -> str:
    """stripboard.svg: the strips, cuts (red crosses), links, parts and numbered pads, seen
    from the component side, with the pads' wires listed below."""
    from crib.hardware.svg import Svg

    b = board(config, spec)
    small = {"font_family": "sans-serif", "font_size": 10}
    w = MARGIN_L + b.cols * STEP + 20
    legend_y = MARGIN_T + b.rows * STEP + 30
    height = legend_y + 16 * (len(b.pads) + 2) + 10
    svg = Svg(w, height)
    svg.add("title", "Stripboard PCB1: %d x %d holes (%.0f x %.0f mm), component side"
            % (b.cols, b.rows, b.cols * PITCH, b.rows * PITCH))
    svg.add("rect", x=0, y=0, width=w, height=height, fill="#fff")
    for r in range(b.rows):
        x0, y = _xy((0, r))
        svg.add("rect", class_="strip", x=x0 - STEP / 2 + 1, y=y - STEP / 2 + 2,
                width=b.cols * STEP - 2, height=STEP - 4, fill=COPPER)
        for c in range(b.cols):
            cx, cy = _xy((c, r))
            svg.add("circle", class_="hole", cx=cx, cy=cy, r=1.6, fill="#fff")
    for row in RAIL.values():
        svg.add("text", "+5 V" if row == 0 else "GND", x=MARGIN_L - 12, y=_xy((0, row))[1] + 4,
                text_anchor="end", **small)
    # The Pico's outline, dashed: it stands on its headers over the cut strips.
    x0, y0 = _xy((PICO_L, PICO_TOP))
    x1, y1 = _xy((PICO_R, PICO_TOP + 19))
    svg.add("rect", class_="part pico", data_ref="U1", x=x0 - 10, y=y0 - 8,
            width=x1 - x0 + 20, height=y1 - y0 + 16, fill="none", stroke="#2f7d32",
            stroke_width=1.5, stroke_dasharray="5,3")
    mid = x0 + (x1 - x0) * 11 / 14  # between the cut column and the right header
    for k, text in enumerate(("U1", "Pico", "USB", "up")):
        svg.add("text", text, x=mid, y=(y0 + y1) / 2 + 16 * k, text_anchor="middle",
                fill="#2f7d32", **small)
    for pin in range(1, 41):
        cx, cy = _xy(pico_hole(pin))
        svg.add("rect", class_="header", x=cx - 4, y=cy - 4, width=8, height=8,
                fill="#2f7d32")
    # U2, upside down: its notch at the bottom, pin 1 at the lower right.
    x0, y0 = _xy((U2_L, U2_TOP))
    x1, y1 = _xy((U2_R, U2_TOP + 6))
    svg.add("rect", class_="part ic", data_ref="U2", x=x0 + 4, y=y0 - 7, width=x1 - x0 - 8,
            height=y1 - y0 + 14, fill="#333", stroke="#000")
    svg.add("circle", class_="notch", cx=(x0 + x1) / 2, cy=y1 + 7, r=4, fill="#fff")
    svg.add("text", "U2", x=(x0 + x1) / 2, y=y0 - 12, text_anchor="middle", **small)
    for pin in range(1, 15):
        cx, cy = _xy(_u2_pin(pin))
        svg.add("circle", class_="lead", cx=cx, cy=cy, r=3.5, fill="#999")
    # Two-lead parts.
    for ref, fill in (("R1", "#d9b38c"), ("D1", "#222"), ("C2", "#e0a000"), ("F1", "#f0d000")):
        (ax, ay), (kx, ky) = (_xy(b.leads[e]) for e in sorted(
            k for k in b.leads if k.startswith(ref + ".")))
        svg.begin(class_="part", data_ref=ref)
        svg.add("line", x1=ax, y1=ay, x2=kx, y2=ky, stroke="#777", stroke_width=2)
        mx, my = (ax + kx) / 2, (ay + ky) / 2
        horizontal = ay == ky
        bw, bh = (STEP * 2.2, 8) if horizontal else (8, STEP * 2.2 if ref != "C2" else 10)
        svg.add("rect", x=mx - bw / 2, y=my - bh / 2, width=bw, height=bh, fill=fill,
                stroke="#000", stroke_width=0.8)
        if ref == "D1":  # the band at the cathode
            k = _xy(b.leads["D1.K"])
            svg.add("rect", class_="band", x=mx - bw / 2, y=(my + bh / 2 - 3) if k[1] > my
                    else my - bh / 2, width=bw, height=3, fill="#ccc")
        for e in (ax, ay), (kx, ky):
            svg.add("circle", cx=e[0], cy=e[1], r=3, fill="#999")
        svg.end()
        if ref == "F1":  # the rails' pads lie beside it: named below it
            lx, ly, anchor = mx, max(ay, ky) + 20, "middle"
        elif horizontal:
            lx, ly, anchor = mx, my - 8, "middle"
        else:
            lx, ly, anchor = mx - 10, my + 4, "end"
        svg.add("text", ref, x=lx, y=ly, text_anchor=anchor, **small)
    for a, z in b.links:
        (ax, ay), (zx, zy) = _xy(a), _xy(z)
        svg.add("line", class_="link", x1=ax, y1=ay, x2=zx, y2=zy, stroke=LINK,
                stroke_width=3, stroke_linecap="round")
    # Cuts on top: they are made before the parts go on.
    for c, r in sorted(b.cuts):
        x, y = _xy((c, r))
        svg.add("path", class_="cut", d="M%s %s l8 8 m0 -8 l-8 8" % (x - 4, y - 4),
                stroke=CUT_RED, stroke_width=2, fill="none")
    for n, (c, r, far, near) in enumerate(b.pads, 1):
        x, y = _xy((c, r))
        svg.add("circle", class_="pad", cx=x, cy=y, r=7, fill=PAD, data_to=far,
                data_from=near)
        svg.add("text", n, x=x, y=y + 3, text_anchor="middle", fill="#fff",
                font_family="sans-serif", font_size=8)
    svg.add("text", "Component side. Red crosses: cut the strip at that hole.", x=20,
            y=legend_y - 16, **small)
    svg.add("text", "Grey: insulated links. Blue pads: the wires off the board:", x=20,
            y=legend_y, **small)
    for n, (_, _, far, _) in enumerate(b.pads, 1):
        svg.add("text", "%d: to %s (%s)" % (n, far, circuit.describe(config, far)), x=20,
                y=legend_y + 16 * n, **small)
    return svg.text()
