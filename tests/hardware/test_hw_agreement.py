"""Every document shows the same circuit: the wiring sheet, the schematic, the pin map, the
guide and the BOM agree on each connection, and all put D1's band towards VSYS.

The documents are read back as a builder's tools would (XML, Markdown tables, the
schematic's geometry), not through the code that wrote them.
"""

import math
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from test_hw_documents import classes, config

from crib import hardware
from crib.hardware import box, circuit, guide, parts, schematic, wiring_svg
from crib.layout import face

END = r"`([A-Z]+\d*\.[\w+\-]+(?:@\d+)?)`"


def pair(a, b):
    return tuple(sorted((a, b)))


def circuit_pairs(c):
    return Counter(pair(w.a, w.b) for w in circuit.wires(c))


LAYOUTS = {"shipped": lambda: hardware.load_layout()[0],
           "2 lanes, no confirm": lambda: _no_confirm(config(lanes=2)),
           "4 lanes, 61 holes": lambda: config(lanes=4, holes=61, budget=5000)}


def _no_confirm(c):
    c.pins["confirm"] = None
    return c


@pytest.fixture(params=sorted(LAYOUTS))
def layout(request):
    return LAYOUTS[request.param]()


def test_the_diode_feeds_vsys_from_the_rail():
    # The physics, stated once: the external 5 V feeds VSYS through D1, cathode on VSYS.
    for c in (LAYOUTS[k]() for k in LAYOUTS):
        assert circuit.diode_ends(c) == ("PCB1.5V", "U1.39")
        assert circuit.pico_pin_name(c, 39) == "VSYS"


def test_the_wiring_sheet_draws_every_wire_once(layout):
    svg = wiring_svg.wiring_svg(layout)
    drawn = Counter(pair(e.get("data-from"), e.get("data-to")) for e in classes(svg, "wire"))
    assert drawn == circuit_pairs(layout)


def test_the_guide_lists_every_wire_once(layout):
    text = guide.guide_markdown(layout, "x.json")
    listed = Counter()
    for line in text.splitlines():
        if line.startswith("- `"):
            ends = re.findall(END, line)
            if len(ends) == 2 and " to `" in line:
                listed[pair(*ends)] += 1
    assert listed == circuit_pairs(layout)


def _table_rows(text, heading):
    """Rows (cells) of the Markdown table after the line `heading`."""
    lines = text.splitlines()
    start = lines.index(heading)
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_pin_map_lists_every_wire_at_the_pico_and_the_shifter(layout):
    text = parts.pins_markdown(layout, "x.json")
    found = Counter()
    for row in _table_rows(text, parts.PIN_HEAD[0]):
        for end in re.findall(END, row[3]):
            found[pair("U1.%s" % row[0], end)] += 1
    for row in _table_rows(text, "| pin | name | wires to |"):
        for end in re.findall(END, row[2]):
            found[pair("U2.%s" % row[0], end)] += 1
    # A wire between U1 and U2 shows in both tables: count it once.
    found = Counter({k: 1 for k in found})
    want = Counter({k: 1 for k in circuit_pairs(layout)
                    if any(e.startswith(("U1.", "U2.")) for e in k)})
    assert found == want


def _refs(cell):
    """"SW1-SW5" -> SW1..SW5; "J2-J10" -> J2..J10; "U1" -> U1."""
    m = re.fullmatch(r"([A-Z]+)(\d+)-[A-Z]+(\d+)", cell)
    if m:
        return {"%s%d" % (m.group(1), i) for i in range(int(m.group(2)), int(m.group(3)) + 1)}
    return {cell}


def test_the_bom_has_every_part_the_wires_touch_and_adds_up(layout):
    rows = _table_rows(parts.bom_markdown(layout, "x.json"),
                       "| ref | qty | part | part number | each | cost | notes |")
    refs = set().union(*(_refs(r[0]) for r in rows[:-1]))
    wired = {e.split(".")[0] for w in circuit.wires(layout) for e in (w.a, w.b)}
    assert wired <= refs
    total = rows[-1]
    assert total[0] == "total"
    assert abs(float(total[5]) - sum(float(r[5]) for r in rows[:-1])) < 0.01
    for r in rows[:-1]:
        n = float(r[1].split()[0])
        assert abs(float(r[5]) - n * float(r[4])) < 0.01, r
        assert r[3], "part number missing: %r" % r
    fuse = [r for r in rows if r[0] == "F1"][0]
    assert "fuse" in fuse[2]


def test_the_bom_counts_every_part_the_wiring_and_schematic_use(layout):
    rows = _table_rows(parts.bom_markdown(layout, "x.json"),
                       "| ref | qty | part | part number | each | cost | notes |")[:-1]
    qty = {}
    for r in rows:
        refs = _refs(r[0])
        n = float(r[1].split()[0])
        for ref in refs:  # a range names one part each: its quantity is their count
            qty[ref] = n / len(refs) if len(refs) > 1 else n
    ws = circuit.wires(layout)
    # Every numbered part on a wire once, and as many JST-SM pairs as joints between pieces.
    singles = {e.split(".")[0] for w in ws for e in (w.a, w.b)} - {"LED1", "PCB1"}
    for ref in singles:
        assert qty.get(ref) == 1, ref
    joints = [w for w in ws if w.net == "chain"]
    jst = [r for r in rows if "JST-SM" in r[2]]
    assert len(jst) == 1 and float(jst[0][1]) == len(joints)
    assert len(joints) == len(face.strip_pieces(layout)) - 1
    assert not [w for w in joints if w.a.endswith("@0") or w.b.endswith("@0")]
    # Every part the schematic names is in the BOM.
    svg = schematic.schematic_svg(layout)
    named = set(re.findall(r">((?:SW|U|D|F|R|C|J|LED)\d+)\b", svg))
    assert named and named <= set(qty), named - set(qty)
    # The bare Pico's 40 pins come as headers; its cable and the power bank's are listed.
    hdr = [r for r in rows if "header" in r[2]]
    assert sum(float(r[1]) * int(re.search(r"(\d+)-pin", r[2]).group(1)) for r in hdr) == 40
    assert [r for r in rows if "micro-B" in r[2]] and [r for r in rows if "barrel cable" in r[2]]
    assert [r for r in rows if "DIP-14 IC socket" in r[2]]


def test_the_bom_holds_the_box_and_its_stack(layout):
    rows = _table_rows(parts.bom_markdown(layout, "x.json"),
                       "| ref | qty | part | part number | each | cost | notes |")
    text = " ".join(" ".join(r) for r in rows)
    st = box.stack()
    corners = 4
    for what in ("M3 x %d screw" % st["top_screw"], "M3 x %d screw" % st["bottom_screw"],
                 "M3 x %g mm hex standoff" % st["standoff"], "nylon spacer"):
        (row,) = [r for r in rows if what in r[2]]
        assert float(row[1]) == corners
    sheet = [r for r in rows if "plywood" in r[2] and "sheet" in r[2]]
    assert len(sheet) == 1 and float(sheet[0][5]) > 0
    area = sum(p.width * p.height for p in box.parts(layout) if p.name != "diffuser")
    assert float(sheet[0][1]) * parts.BOARD_SHEET[0] * parts.BOARD_SHEET[1] >= area
    assert "box-cut.svg" in text and "diffuser" in text
    assert rows[-1][0] == "total"
    assert float(rows[-1][5]) == pytest.approx(sum(float(r[5]) for r in rows[:-1]), abs=0.01)


def _union_find(d):
    """Nets of a schemdraw drawing: points joined by its lines, rail symbols as names."""
    import schemdraw.elements as elm

    parent = {}

    def key(p):
        return (round(p[0], 3), round(p[1], 3)) if not isinstance(p, str) else p

    def find(p):
        p = key(p)
        parent.setdefault(p, p)
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    def union(a, b):
        parent[find(a)] = find(b)

    for el in d.elements:
        if type(el) is elm.Line:
            union(el.absanchors["start"], el.absanchors["end"])
        elif isinstance(el, elm.Vdd):
            union(el.absanchors["start"], "5V")
        elif isinstance(el, elm.Ground):
            union(el.absanchors["start"], "GND")
    return find


def test_the_schematic_joins_what_the_wires_join(layout):
    d, ends, _ = schematic.schematic(layout)
    find = _union_find(d)

    def node(end):
        return find(schematic.RAILS[end]) if end in schematic.RAILS else find(ends[end])

    shown = schematic.shown_wires(layout)
    for w in shown:
        assert node(w.a) == node(w.b), w
    # Everything but the further strip feeds and the jumpers (on wiring.svg) is shown.
    hidden = [w for w in circuit.wires(layout) if w not in shown]
    assert all("@0" not in w.a + w.b or w.net == "chain" for w in hidden), hidden
    # Distinct nets stay apart: VSYS is not the rail, the data is not ground.
    assert node("U1.39") != node("PCB1.5V") and node("U2.2") != node("PCB1.GND")
    assert node("U1.39") != node("PCB1.GND")


def _tip_towards(points, a, b):
    """Of a triangle's points, the one apart from the base; True if it lies towards b."""
    ax, ay = a
    ux, uy = b[0] - ax, b[1] - ay
    proj = [round((x - ax) * ux + (y - ay) * uy, 6) for x, y in points]
    tip = [p for p in proj if proj.count(p) == 1][0]
    return tip > min(proj)


def test_every_drawing_puts_the_band_towards_vsys(layout):
    # The schematic: the triangle of D1 points at the end wired to VSYS.
    import schemdraw.elements as elm

    d, ends, _ = schematic.schematic(layout)
    find = _union_find(d)
    diode = [el for el in d.elements if isinstance(el, elm.Diode)][0]
    poly = [s for s in diode.segments if type(s).__name__ == "SegmentPoly"][0]
    pts = [tuple(diode.transform.transform(p)) for p in poly.verts]
    assert _tip_towards(pts, ends["D1.A"], ends["D1.K"])
    assert find(ends["D1.K"]) == find(ends["U1.39"])
    assert find(ends["D1.A"]) == find("5V")
    # The wiring sheet: the band sits at the terminal whose wire goes to VSYS.
    svg = wiring_svg.wiring_svg(layout)
    part = [e for e in classes(svg, "diode") if e.get("data-ref") == "D1"][0]
    k = tuple(float(v) for v in part.get("data-k").split(","))
    a = tuple(float(v) for v in part.get("data-a").split(","))
    band = [e for e in part if e.get("class") == "band"][0]
    mid = ((float(band.get("x1")) + float(band.get("x2"))) / 2, float(band.get("y1")))
    assert math.dist(mid, k) < math.dist(mid, a)
    wires = {(e.get("data-from"), e.get("data-to")): e.get("d") for e in classes(svg, "wire")}
    assert wires[("D1.K", "U1.39")].startswith("M%d %d" % k)
    assert wires[("PCB1.5V", "D1.A")].split()[-1] == str(int(a[1]))  # ends at the anode
    # The pin map and the guide say it in words.
    pins = parts.pins_markdown(layout, "x")
    vsys = [r for r in _table_rows(pins, parts.PIN_HEAD[0]) if r[1] == "VSYS"][0]
    assert re.findall(END, vsys[3]) == ["D1.K"] and "banded end" in vsys[3]
    text = guide.guide_markdown(layout, "x")
    assert "band (the cathode, `D1.K`) towards Pico pin 39 (VSYS)" in text
    assert "anode (`D1.A`) on the PCB1 +5 V rail" in text


def test_the_checked_in_sheet_no_longer_says_band_up():
    from support import ROOT

    svg = (ROOT / "hardware" / "wiring.svg").read_text()
    assert "band up" not in svg
    root = ET.fromstring(svg)
    assert root.find("{http://www.w3.org/2000/svg}desc").text.startswith("D1.A = D1 anode")
