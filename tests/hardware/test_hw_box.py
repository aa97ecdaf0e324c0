"""The box and the stack: screws that reach, joints that interlock, every hole in the files.

Expected sizes and holes come from the face's panel and the box spec; the files are read
back with ezdxf and XML, the joints are checked by asking which board holds each finger.
"""

import io
import math
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import ROOT
from test_hw_fabrication import LAYOUTS

from crib import hardware
from crib.hardware import box, box_files, panel
from crib.hardware.errors import HardwareError
from crib.layout import face

BS = box.DEFAULT_BOX
NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(params=sorted(LAYOUTS))
def layout(request):
    return LAYOUTS[request.param]()


def inside(poly, x, y):
    """Ray casting: is (x, y) inside the polygon?"""
    hit = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def by_name(c):
    return {p.name: p for p in box.parts(c)}


# -- the stack ---------------------------------------------------------------------------------

def test_the_shipped_stack_leaves_thread_at_both_ends():
    s = box.stack()
    grip = 6 + 3 + 3 + 3  # face, diffuser, spacer, strip plate
    assert s["top_grip"] == grip and s["top_screw"] == 20 and s["bottom_screw"] == 8
    assert s["top_screw"] - grip >= BS.engage and s["bottom_screw"] - 3 >= BS.engage
    assert (s["top_screw"] - grip) + (s["bottom_screw"] - 3) <= s["standoff"]
    assert s["wall"] == 3 + 3 + 3 + 20 and s["depth"] == s["wall"] + 3 + 6


@given(st.floats(3, 12), st.floats(1, 5), st.floats(1, 6), st.floats(8, 40))
@settings(max_examples=60, deadline=None)
def test_screws_reach_their_standoff_and_never_meet(face_t, diffuser_t, strip_h, room):
    bs = replace(BS, face_t=face_t, diffuser_t=diffuser_t, strip_h=strip_h, room=room)
    try:
        s = box.stack(bs)
    except HardwareError as e:
        assert "M3 screw" in str(e)
        return
    for length, grip in ((s["top_screw"], s["top_grip"]), (s["bottom_screw"], bs.board_t)):
        assert length in box.M3_LENGTHS
        assert bs.engage <= length - grip <= room / 2
        assert not [m for m in box.M3_LENGTHS if grip + bs.engage <= m < length]


def test_the_bom_and_guide_give_the_computed_screws():
    bom = (ROOT / "hardware" / "BOM.md").read_text()
    guide = (ROOT / "hardware" / "README.md").read_text()
    s = box.stack()
    assert "M3 x %d" % s["top_screw"] in bom and "M3 x %d" % s["bottom_screw"] in bom
    assert "M3 x 16 screw, nut and 10 mm spacer" not in bom
    assert "M3 x %d" % s["top_screw"] in guide


# -- the boards --------------------------------------------------------------------------------

def test_the_box_has_the_face_size_and_the_stack_height(layout):
    p = panel.panel(layout)
    parts = by_name(layout)
    s = box.stack()
    bottom = parts["bottom"].outline
    assert (min(x for x, _ in bottom), max(x for x, _ in bottom)) == pytest.approx((0, p.width))
    assert (min(y for _, y in bottom), max(y for _, y in bottom)) == pytest.approx(
        (0, p.height), abs=1e-3)
    assert parts["side left"].height == p.height and parts["side left"].width == s["wall"]
    assert parts["end (top)"].width == p.width and parts["end (top)"].height == s["wall"]
    plate = parts["strip plate"]
    assert plate.width == pytest.approx(p.width - 2 * (BS.board_t + BS.clear))


def _joint_points(length, t):
    """Sample positions along a joint: the middle of every 1 mm step off the corners."""
    return [t + 0.5 + k for k in range(int(length - 2 * t - 1))]


def test_the_fingers_interlock(layout):
    parts = by_name(layout)
    t = BS.board_t
    b, s, e = (parts[n].outline for n in ("bottom", "side left", "end (top)"))
    x, y, z = parts["bottom"].width, parts["bottom"].height, parts["side left"].width
    # bottom and side: along y, the bar x in [0, t] of the bottom, [0, t] from the side's foot
    for v in _joint_points(y, t):
        assert inside(b, t / 2, v) != inside(s, t / 2, v), v
        assert inside(b, x - t / 2, v) != inside(s, t / 2, v), v  # the other side
    # bottom and end: along x, at both ends
    for u in _joint_points(x, t):
        assert inside(b, u, t / 2) != inside(e, u, z - t / 2), u
        assert inside(b, u, y - t / 2) != inside(e, u, z - t / 2), u
    # side and end: up the corner
    for w in _joint_points(z, t):
        assert inside(s, w, t / 2) != inside(e, t / 2, z - w), w
    # the corner cubes are the sides'
    assert inside(s, t / 2, t / 2) and not inside(b, t / 2, t / 2)
    assert not inside(e, t / 2, z - t / 2)


def test_the_usb_slot_lies_in_the_end_clear_of_the_joints(layout):
    end = by_name(layout)["end (USB)"]
    (slot,) = end.slots
    t = BS.board_t
    for x, y in slot:
        assert t < x < end.width - t and t < y < end.height - t
        assert inside(end.outline, x, y)
    assert box.stack()["wall"] - t - max(y for _, y in slot) > 0  # above the bottom board


def test_wire_holes_sit_beside_every_piece_end_and_on_no_strip(layout):
    spec = face.DEFAULT_SPEC
    pos = face.led_positions(layout, spec)
    r = BS.wire_d / 2
    holes = box.wire_holes(layout)
    for first, last in face.strip_pieces(layout, spec):
        for led in {i for i in (first, last) if i in pos}:
            lx, ly = pos[led]
            assert [1 for hx, hy, h in holes if h == led
                    and math.hypot(hx - lx, hy - ly) < 6 + r + 2], led
    for hx, hy, _ in holes:
        for lx, ly in pos.values():  # a 12 mm strip, each LED's share of it
            assert abs(hx - lx) >= 6 + r - 1e-6 or abs(hy - ly) >= spec.led_pitch / 2 + r - 1e-6
    for i, a in enumerate(holes):
        for b in holes[i + 1:]:
            assert math.hypot(a[0] - b[0], a[1] - b[1]) > 2 * r


# -- the files ---------------------------------------------------------------------------------

def expected_holes(c):
    """Sorted diameters of every hole of the box's boards (the diffuser has its own file),
    from the face's panel and the spec."""
    p = panel.panel(c)
    mounts = [h.d for h in p.holes if h.kind == "mount"]
    controls = [h.d for h in p.holes if h.kind in ("button", "jack")]
    wires = [BS.wire_d] * len(box.wire_holes(c))
    return sorted(mounts + [d + 2 * BS.control_clear for d in controls] + wires  # plate
                  + mounts)  # the bottom


def test_the_dxf_cuts_every_hole_and_board(layout):
    import ezdxf

    doc = ezdxf.read(io.StringIO(box_files.box_dxf(layout)))
    cut = doc.modelspace().query('*[layer=="CUT"]')
    circles = sorted(round(2 * e.dxf.radius, 3) for e in cut if e.dxftype() == "CIRCLE")
    assert circles == [round(d, 3) for d in expected_holes(layout)]
    polys = [e for e in cut if e.dxftype() == "LWPOLYLINE"]
    p = panel.panel(layout)
    pieces = len(panel.split(p))
    assert len(polys) == 2 * pieces + 2 * pieces + 2 + 1  # long boards split, ends, slot


def test_the_diffuser_is_one_piece_with_its_holes_whatever_the_bed(layout):
    """Issue 40: a seam in the diffuser shows over the LEDs, so it is never split: it has
    its own file, one outline the face's size, and box-cut.svg has none of it."""
    import ezdxf

    p = panel.panel(layout)
    for bed in (200.0, 400.0, 2000.0):
        ps = replace(panel.DEFAULT_PANEL, bed_mm=bed)
        d = box_files.sheet(layout, face.DEFAULT_SPEC, ps, diffuser=True)
        (outline,) = d.outlines
        xs, ys = [x for x, _ in outline], [y for _, y in outline]
        assert (max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx((p.width, p.height))
        assert d.texts == ()  # nothing engraved: it would show over the LEDs
        rest = box_files.sheet(layout, face.DEFAULT_SPEC, ps)
        assert not [t for t in rest.texts if t.text.startswith("diffuser")]
    want = sorted(h.d for h in p.holes if h.kind in ("mount", "button", "jack"))
    doc = ezdxf.read(io.StringIO(box_files.diffuser_dxf(layout)))
    cut = doc.modelspace().query('*[layer=="CUT"]')
    assert sorted(round(2 * e.dxf.radius, 3) for e in cut if e.dxftype() == "CIRCLE") == [
        round(d, 3) for d in want]
    assert len([e for e in cut if e.dxftype() == "LWPOLYLINE"]) == 1


def test_the_checked_in_svg_holds_the_diffusers_corner_holes():
    root = ET.fromstring((ROOT / "hardware" / "diffuser-cut.svg").read_text())
    c = hardware.load_layout()[0]
    want = [h for h in panel.panel(c).holes if h.kind == "mount"]
    found = [e for e in root.iter(NS + "circle") if e.get("data-label") == "diffuser mount"]
    assert len(found) == len(want) == 4
    assert {float(e.get("r")) * 2 for e in found} == {want[0].d}


@given(st.floats(min_value=560, max_value=2000))
@settings(max_examples=10, deadline=None)
def test_a_bed_long_enough_cuts_every_board_whole(bed):
    c = hardware.load_layout()[0]
    ps = replace(panel.DEFAULT_PANEL, bed_mm=bed)
    s = box_files.sheet(c, face.DEFAULT_SPEC, ps)
    assert len([t for t in s.texts if "/" in t.text]) == 0
    assert s.height == pytest.approx(panel.panel(c).height)


def test_every_piece_fits_the_bed(layout):
    s = box_files.sheet(layout)
    assert s.height <= panel.DEFAULT_PANEL.bed_mm


def test_the_depth_drawing_shows_the_stack_it_is_drawn_from():
    root = ET.fromstring((ROOT / "hardware" / "section.svg").read_text())
    text = " ".join("".join(t.itertext()) for t in root.iter(NS + "text"))
    s = box.stack()
    for want in ("M3 x %d screw" % s["top_screw"], "M3 x %d screw" % s["bottom_screw"],
                 "face %g mm" % BS.face_t, "diffuser %g mm" % BS.diffuser_t,
                 "standoff %g mm" % s["standoff"], "%g mm deep" % s["depth"]):
        assert want in text, want
    rects = {e.get("class"): e for e in root.iter(NS + "rect") if e.get("class")}
    scale = float(rects["face"].get("height")) / BS.face_t  # px per mm, from the face
    assert float(rects["standoff"].get("height")) == pytest.approx(s["standoff"] * scale)
    assert float(rects["wall"].get("height")) == pytest.approx(s["wall"] * scale)
