"""The face's fabrication files, read back: every hole at its place and diameter, 1:1.

Expected holes come from the layout (crib.face's hole positions, one LED hole per hole
that has an LED) and the panel spec (buttons, jack, mounting holes); each file is parsed
with a reader of its own format (XML for the SVG, ezdxf for the DXF, pdfminer for the
PDF), never with the code that wrote it.
"""

import io
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hw_documents import config

from crib import hardware
from crib.hardware import dxf, laser_svg, panel, template_pdf
from crib.layout import face

NS = "{http://www.w3.org/2000/svg}"
PS = panel.DEFAULT_PANEL
TOL = 0.011  # the SVG writer keeps two decimals


def expected(c, ps=PS):
    """[(x, y, d, kind)] on the whole panel: from the layout and the panel spec alone."""
    spec = face.DEFAULT_SPEC
    out = []
    pos = face.hole_positions(c, spec)
    for lane, ln in enumerate(c.lanes):
        out += [(x, y, spec.hole_d, "led") for hole, (x, y) in enumerate(pos[lane])
                if ln.leds[hole] >= 0]
    buttons = len(c.lanes) + 1 + (c.pins.get("confirm") is not None)
    p = panel.panel(c, spec, ps)
    found = {k: [(h.x, h.y, h.d, k) for h in p.holes if h.kind == k]
             for k in ("button", "jack", "mount")}
    assert [h[2] for h in found["button"]] == [ps.button_d] * buttons
    assert [h[2] for h in found["jack"]] == [ps.jack_d]
    m = ps.mount_inset
    assert sorted((x, y) for x, y, _, _ in found["mount"]) == sorted(
        [(m, m), (m, p.height - m), (p.width - m, m), (p.width - m, p.height - m)])
    w, h = face.board_size(c, spec)
    assert p.width == w and all(y > h for _, y, _, _ in found["button"] + found["jack"])
    return out + found["button"] + found["jack"] + found["mount"]


def on_sheet(c, holes, ps=PS):
    """Expected holes moved to where laser_svg lays each piece (side by side)."""
    p = panel.panel(c, face.DEFAULT_SPEC, ps)
    pieces = panel.split(p, ps)
    out = []
    for x, y, d, kind in holes:
        i = [k for k, (y0, y1) in enumerate(pieces) if y0 <= y <= y1][0]
        out.append((x + i * (p.width + laser_svg.GAP), y - pieces[i][0], d, kind))
    return out


def match(found, want):
    """Pair found (x, y, d) with wanted holes: every one once, same diameter."""
    left = sorted(want)
    assert len(found) == len(want)
    for x, y, d in sorted(found):
        near = [h for h in left if abs(h[0] - x) < TOL and abs(h[1] - y) < TOL]
        assert len(near) == 1, (x, y, d)
        assert abs(near[0][2] - d) < TOL, (x, y, d, near[0])
        left.remove(near[0])
    assert not left


LAYOUTS = {"shipped": lambda: hardware.load_layout()[0],
           "2 lanes x 61": lambda: config(lanes=2, holes=61),
           "4 lanes": lambda: config(lanes=4, budget=5000)}


@pytest.fixture(params=sorted(LAYOUTS))
def layout(request):
    return LAYOUTS[request.param]()


# -- the laser SVG -------------------------------------------------------------------------

def _svg_circles(root, group):
    g = [e for e in root if e.get("id") == group][0]
    return g, [(float(e.get("cx")), float(e.get("cy")), 2 * float(e.get("r")))
               for e in g.iter(NS + "circle")]


def test_laser_svg_cuts_every_hole_at_its_place_and_diameter(layout):
    root = ET.fromstring(laser_svg.laser_svg(layout))
    cut, circles = _svg_circles(root, "cut")
    match(circles, on_sheet(layout, expected(layout)))
    # 1:1 in millimetres: the size in mm equals the user units of the view box.
    w, h = root.get("width"), root.get("height")
    assert w.endswith("mm") and h.endswith("mm")
    assert root.get("viewBox") == "0 0 %s %s" % (w[:-2], h[:-2])
    # Cut paths only: hairline, no fill; nothing but outlines and holes in the layer.
    assert cut.get("fill") == "none" and float(cut.get("stroke-width")) <= 0.01
    assert {e.tag for e in cut} == {NS + "rect", NS + "circle"}
    assert all(e.get("fill") in (None, "none") for e in cut)
    p = panel.panel(layout)
    outlines = [e for e in cut if e.tag == NS + "rect"]
    assert sum(float(e.get("height")) for e in outlines) == pytest.approx(p.height, abs=0.02)
    assert all(float(e.get("width")) == pytest.approx(p.width, abs=0.01) for e in outlines)


def test_laser_svg_engraves_rings_lines_and_text_apart(layout):
    root = ET.fromstring(laser_svg.laser_svg(layout))
    engrave, rings = _svg_circles(root, "engrave")
    starts = [h for h in on_sheet(layout, [(x, y, face.DEFAULT_SPEC.hole_d, "ring")
                                           for lane, ln in enumerate(layout.lanes)
                                           for hole, (x, y) in enumerate(
                                               face.hole_positions(layout)[lane])
                                           if ln.leds[hole] < 0])]
    match(rings, starts)
    texts = [e.text for e in engrave.iter(NS + "text")]
    for n in range(5, layout.holes, 5):
        assert str(n) in texts
    assert [ln.name for ln in layout.lanes] == [t for t in texts if t in
                                                {ln.name for ln in layout.lanes}][:len(
                                                    layout.lanes)]
    assert len(list(engrave.iter(NS + "line"))) == len(face.skunk_gaps(layout))


def _text_box(x, y, size, anchor, text):
    w = 0.6 * size * len(text)
    x0 = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
    return x0, y - 0.8 * size, x0 + w, y + 0.25 * size


def _overlaps(box, cx, cy, r):
    x0, y0, x1, y1 = box
    nx, ny = min(max(cx, x0), x1), min(max(cy, y0), y1)
    return math.hypot(nx - cx, ny - cy) < r


@pytest.mark.parametrize("name", ["face-cut.svg", "face.svg"])
def test_no_label_overlaps_a_hole(layout, name):
    text = (laser_svg.laser_svg(layout) if name == "face-cut.svg"
            else hardware.document("face.svg", layout, "x"))
    root = ET.fromstring(text)
    circles = [(float(e.get("cx")), float(e.get("cy")), float(e.get("r")))
               for e in root.iter(NS + "circle")]
    labels = list(root.iter(NS + "text"))
    assert labels and circles
    for t in labels:
        box = _text_box(float(t.get("x")), float(t.get("y")), float(t.get("font-size")),
                        t.get("text-anchor") or "start", t.text)
        for cx, cy, r in circles:
            assert not _overlaps(box, cx, cy, r), (t.text, t.get("x"), t.get("y"), cx, cy)


# -- the DXF -------------------------------------------------------------------------------

def test_dxf_has_every_hole_in_millimetres_on_the_cut_layer(layout):
    import ezdxf

    doc = ezdxf.read(io.StringIO(dxf.dxf_text(layout)))
    assert doc.units == ezdxf.units.MM
    msp = doc.modelspace()
    cut = [e for e in msp if e.dxf.layer == "CUT"]
    top = max(v[1] for e in cut if e.dxftype() == "LWPOLYLINE" for v in e.get_points())
    circles = [(e.dxf.center.x, top - e.dxf.center.y, 2 * e.dxf.radius)
               for e in cut if e.dxftype() == "CIRCLE"]
    match(circles, on_sheet(layout, expected(layout)))
    outlines = [e for e in cut if e.dxftype() == "LWPOLYLINE"]
    assert len(outlines) == len(panel.split(panel.panel(layout))) and all(
        e.closed for e in outlines)
    engrave = [e.dxftype() for e in msp if e.dxf.layer == "ENGRAVE"]
    assert engrave.count("TEXT") == len(panel.panel(layout).texts)
    assert engrave.count("LINE") == len(face.skunk_gaps(layout))


# -- the drilling template -------------------------------------------------------------------

def _pdf_pages(data):
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTCurve, LTLine, LTRect, LTTextContainer

    for page in extract_pages(io.BytesIO(data)):
        texts = " ".join(e.get_text() for e in page if isinstance(e, LTTextContainer))
        curves = [e for e in page if isinstance(e, LTCurve)
                  and not isinstance(e, (LTLine, LTRect))]
        lines = [e for e in page if isinstance(e, LTLine)]
        yield page, texts, curves, lines


def _chars(item):
    from pdfminer.layout import LTChar

    if isinstance(item, LTChar):
        yield item
    elif hasattr(item, "__iter__"):
        for child in item:
            yield from _chars(child)


def test_no_label_on_the_template_overlaps_a_hole():
    pt = 72 / 25.4
    data = template_pdf.template_pdf(hardware.load_layout()[0], "letter")
    pw, ph = template_pdf.PAPERS["letter"]
    # The tile window in PDF points (y up); what lies outside it is clipped away.
    x0, x1 = template_pdf.MARGIN * pt, (pw - template_pdf.MARGIN) * pt
    y0, y1 = (template_pdf.MARGIN + template_pdf.FOOTER) * pt, (ph - template_pdf.MARGIN) * pt
    checked = 0
    for page, _, curves, _ in _pdf_pages(data):
        circles = [((c.x0 + c.x1) / 2, (c.y0 + c.y1) / 2, (c.x1 - c.x0) / 2) for c in curves
                   if c.x1 > x0 and c.x0 < x1 and c.y1 > y0 and c.y0 < y1]
        for ch in _chars(page):
            if not ch.get_text().strip() or not (x0 <= ch.x0 and ch.x1 <= x1
                                                  and y0 <= ch.y0 and ch.y1 <= y1):
                continue
            for cx, cy, r in circles:
                assert not _overlaps((ch.x0, ch.y0, ch.x1, ch.y1), cx, cy, r), (
                    ch.get_text(), ch.x0, ch.y0, cx, cy)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_template_shows_every_hole_1_to_1_on_tiled_pages(layout, paper):
    pt = 72 / 25.4
    data = template_pdf.template_pdf(layout, paper)
    want = {(round(x, 2), round(y, 2)): d for x, y, d, _ in expected(layout)}
    seen = {}
    pages = 0
    for page, texts, curves, lines in _pdf_pages(data):
        pages += 1
        pw, ph = template_pdf.PAPERS[paper]
        assert page.width == pytest.approx(pw * pt, abs=0.1)  # the real paper size
        assert page.height == pytest.approx(ph * pt, abs=0.1)
        m = re.search(r"Tile origin x=([\d.]+) y=([\d.]+) mm", texts)
        x0, y0 = float(m.group(1)), float(m.group(2))
        # The 100 mm bar is 100 mm long.
        assert any(abs(ln.width - 100 * pt) < 0.05 for ln in lines), "no 100 mm bar"
        win = (template_pdf.MARGIN, template_pdf.MARGIN,
               pw - template_pdf.MARGIN, ph - template_pdf.MARGIN - template_pdf.FOOTER)
        for cv in curves:
            if cv.stroking_color not in (0, (0,), (0, 0, 0), [0], [0, 0, 0]):
                continue  # rings are grey, alignment marks green
            left, right = cv.x0 / pt, cv.x1 / pt
            top, bottom = ph - cv.y1 / pt, ph - cv.y0 / pt
            if left < win[0] or right > win[2] or top < win[1] or bottom > win[3]:
                continue  # clipped away: another page shows it whole
            d = right - left
            assert bottom - top == pytest.approx(d, abs=0.02)  # a circle, not an ellipse
            x = (left + right) / 2 - template_pdf.MARGIN + x0
            y = (top + bottom) / 2 - template_pdf.MARGIN + y0
            key = [k for k in want if abs(k[0] - x) < 0.02 and abs(k[1] - y) < 0.02]
            assert len(key) == 1, (x, y, d)
            assert d == pytest.approx(want[key[0]], abs=0.02)
            seen[key[0]] = d
    assert sorted(seen) == sorted(want)  # every hole whole on some page
    p = panel.panel(layout)
    assert pages == len(template_pdf.tiles(p, template_pdf.whole(p), paper))


def test_tiles_overlap_and_share_alignment_marks():
    c = hardware.load_layout()[0]
    p = panel.panel(c)
    pieces = template_pdf.whole(p)
    lap = template_pdf.overlap(p)
    assert lap >= max(h.d for h in p.holes)  # the widest hole fits whole in an overlap
    for paper in template_pdf.PAPERS:
        tiles = template_pdf.tiles(p, pieces, paper)
        marks = template_pdf._marks(p, pieces, paper)
        for i, (y0, y1) in enumerate(pieces):
            mine = sorted(t for t in tiles if t[0] == i)
            covered = max(t[4] + t[6] for t in mine)
            assert min(t[4] for t in mine) == y0 and covered >= y1
            for a, b in zip(mine, mine[1:]):
                if b[1] == a[1] + 1:
                    assert a[4] + a[6] - b[4] == pytest.approx(lap)
                    shared = [mk for mk in marks if b[4] <= mk[1] <= a[4] + a[6]]
                    assert len(shared) >= 2  # two crosses on both pages of the seam
        assert len(mine) > 1  # the face is longer than a page: pages to join cross on cross
        for x, y in marks:
            for h in p.holes:
                assert math.hypot(h.x - x, h.y - y) > h.d / 2 + template_pdf.MARK


# -- splitting for the bed -------------------------------------------------------------------

def test_the_shipped_face_splits_in_two_for_a_400_mm_bed():
    p = panel.panel(hardware.load_layout()[0])
    assert p.height > 400
    pieces = panel.split(p)
    assert len(pieces) == 2 and all(y1 - y0 <= 400 for y0, y1 in pieces)
    assert panel.split(p, replace(PS, bed_mm=1000)) == [(0.0, p.height)]


@given(st.floats(min_value=150, max_value=900), st.sampled_from(sorted(LAYOUTS)))
@settings(max_examples=25, deadline=None)
def test_pieces_fit_the_bed_and_cut_through_nothing(bed, name):
    c = LAYOUTS[name]()
    ps = replace(PS, bed_mm=bed)
    p = panel.panel(c, face.DEFAULT_SPEC, ps)
    try:
        pieces = panel.split(p, ps)
    except hardware.HardwareError:
        assert bed < 250  # only a bed shorter than a hole group's stretch can fail
        return
    assert pieces[0][0] == 0 and pieces[-1][1] == p.height
    assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:]))
    assert all(y1 - y0 <= bed + 1e-9 for y0, y1 in pieces)
    for y0, _ in pieces[1:]:
        for h in p.holes + p.rings:
            assert abs(h.y - y0) > h.d / 2
        for t in p.texts:
            assert not t.box()[1] <= y0 <= t.box()[3]


def test_the_cli_splits_for_the_bed_it_is_given(tmp_path, capsys):
    from crib.cli import main

    assert main(["hardware", "cut", "--bed", "1000", "--out", str(tmp_path)]) == 0
    one = ET.fromstring((tmp_path / "face-cut.svg").read_text())
    assert len([e for e in one.iter(NS + "rect")]) == 1
    assert main(["hardware", "cut", "--bed", "10"]) == 1
    assert "--bed" in capsys.readouterr().err


@given(st.integers(2, 4), st.sampled_from([61, 121]), st.booleans())
@settings(max_examples=20, deadline=None)
def test_holes_keep_apart_and_inside_the_outline(lanes, holes, confirm):
    c = config(lanes=lanes, holes=holes, budget=5000)
    if not confirm:
        c.pins["confirm"] = None
    p = panel.panel(c)
    cut = p.holes + p.rings
    for i, a in enumerate(cut):
        assert a.d / 2 + 2 <= a.x <= p.width - a.d / 2 - 2, a  # wood left at the edge
        assert a.d / 2 + 2 <= a.y <= p.height - a.d / 2 - 2, a
        for b in cut[i + 1:]:
            assert math.hypot(a.x - b.x, a.y - b.y) >= (a.d + b.d) / 2 + 1.5, (a, b)
