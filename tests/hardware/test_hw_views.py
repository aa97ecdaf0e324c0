"""The views and previews of issue 40: each box assembled and exploded with every kind of
piece named, the PNGs the SVGs' size, and the cut files' previews with visible strokes where
the cut files cut. (Text collisions: test_hw_drawings checks every SVG of hardware.DOCS.)"""

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image
from support import ROOT
from test_hw_fabrication import LAYOUTS

from crib import hardware
from crib.hardware import preview, views

NS = "{http://www.w3.org/2000/svg}"
PREVIEWS = [n for n in hardware.DOCS if n.endswith("-preview.png")]


def test_every_cut_file_has_a_preview():
    cuts = sorted(n for n in hardware.DOCS if n.endswith("-cut.svg"))
    assert sorted(n.replace("-preview.png", ".svg") for n in PREVIEWS) == cuts
    guide = (ROOT / "hardware" / "README.md").read_text()
    for name in PREVIEWS:
        assert "](%s)" % name in guide


@pytest.mark.parametrize("name", PREVIEWS)
def test_a_preview_draws_every_cut_with_a_visible_stroke(name):
    for make in LAYOUTS.values():
        c = make()
        svg = str(hardware.document(name.replace("-preview.png", ".svg"), c, "x.json"))
        root = ET.fromstring(svg)
        _, _, w, h = (float(v) for v in root.get("viewBox").split())
        img = Image.open(io.BytesIO(hardware.document(name, c, "x.json"))).convert("RGB")
        m, px = preview.MARGIN, preview.PX
        assert img.size == (int(w * px) + 2 * m, int(h * px) + 2 * m)
        holes = [e for e in root.iter(NS + "circle")
                 if e.get("class", "").startswith("hole")]
        assert holes
        for e in holes:
            cx, cy, r = (float(e.get(k)) for k in ("cx", "cy", "r"))
            # A thick red stroke on the hole's edge, the board's white at its middle
            # (holes wider than the stroke).
            edge = [img.getpixel((int(m + (cx + r) * px) - k, int(m + cy * px)))
                    for k in range(preview.STROKE + 1)]
            assert (255, 0, 0) in edge, (name, e.get("data-label"))
            if r * px > 2 * preview.STROKE:
                assert img.getpixel((int(m + cx * px), int(m + cy * px))) == (255, 255, 255)


@pytest.mark.parametrize("which", ["laser", "hand"])
def test_the_views_name_every_kind_of_piece_and_match_their_png(which):
    for make in LAYOUTS.values():
        c = make()
        svg = views.views(c, which, "svg")
        root = ET.fromstring(svg)
        texts = ["".join(t.itertext()) for t in root.iter(NS + "text")]
        blocks = (views.laser_blocks if which == "laser" else views.hand_blocks)(c)
        assert sorted(set(texts) - {t for t in texts if ", " in t and "box" in t}) == \
            sorted({b[0] for b in blocks})
        assert any(t.endswith("assembled") for t in texts)
        assert any(t.endswith("exploded") for t in texts)
        # Each piece is drawn twice: assembled and exploded, three faces each.
        assert len([e for e in root.iter(NS + "path") if e.get("class") == "face"]) == \
            2 * 3 * len(blocks)
        img = Image.open(io.BytesIO(views.views(c, which, "png")))
        assert img.size == pytest.approx((float(root.get("width")) * 1.5,
                                          float(root.get("height")) * 1.5), abs=1)


def test_the_exploded_view_moves_every_piece_apart():
    """No two pieces of the exploded view overlap (the assembled view's touch)."""
    c = hardware.load_layout()[0]
    p = hardware.panel.panel(c)
    for make in (views.laser_blocks, views.hand_blocks):
        apart = views._exploded(make(c), p.width, p.height)
        boxes = [b for _, b, _, _ in apart]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                d = [min(a[k + 3], b[k + 3]) - max(a[k], b[k]) for k in range(3)]
                assert min(d) <= 1e-9


def test_the_depth_drawing_checks_the_button_bodies_against_the_room():
    from crib.hardware import box

    bs = box.DEFAULT_BOX
    root = ET.fromstring((ROOT / "hardware" / "section.svg").read_text())
    rects = {e.get("class"): e for e in root.iter(NS + "rect") if e.get("class")}
    scale = float(rects["face"].get("height")) / bs.face_t
    body = rects["button-body"]
    assert float(body.get("height")) == pytest.approx((bs.face_t + bs.button_body) * scale)
    bottoms = [e for e in root.iter(NS + "rect") if e.get("class") == "bottom"]
    bottom = [e for e in bottoms if float(e.get("x")) <= float(body.get("x"))][-1]
    gap = (float(bottom.get("y")) - float(body.get("y")) - float(body.get("height"))) / scale
    # The room under the face, less the body: from the stack, not from the drawing's code.
    want = bs.diffuser_t + bs.strip_h + bs.board_t + bs.room - bs.button_body
    assert gap == pytest.approx(want) and gap >= bs.button_wires
    text = " ".join("".join(t.itertext()) for t in root.iter(NS + "text"))
    assert "%g mm button: %g mm under the face" % (16, bs.button_body) in text
    assert "%g mm left for its wires" % want in text


@pytest.mark.parametrize("body, room, ok", [(25, 20, True), (27, 20, False), (27, 25, True),
                                            (40, 20, False)])
def test_a_button_too_long_for_the_room_is_refused(body, room, ok):
    from dataclasses import replace

    from crib.hardware import box
    from crib.hardware.errors import HardwareError

    bs = replace(box.DEFAULT_BOX, button_body=body, room=room)
    c = hardware.load_layout()[0]
    if ok:
        assert box.button_room(bs) >= bs.button_wires
        assert box.parts(c, bs=bs)
    else:
        with pytest.raises(HardwareError, match="raise room"):
            box.button_room(bs)
        with pytest.raises(HardwareError, match="raise room"):
            box.parts(c, bs=bs)
