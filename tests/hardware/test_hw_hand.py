"""The hand-tool box (issue 40): its cut list builds the box, every piece within the stock,
the sheet's plan and the pine strips hold every piece, and `crib hardware box --tools hand`.

The box is rebuilt from the cut list's rows and checked by sampling points, not with the
code that placed the pieces: the walls close the tray around the bottom, nothing overlaps,
every glue block sits on the bottom against a wall and clear of what stands in the room.
"""

import csv
import io
import itertools

import pytest
from support import ROOT
from test_hw_fabrication import LAYOUTS

from crib import hardware
from crib.cli import main
from crib.hardware import box, hand, hand_doc, panel

BS = box.DEFAULT_BOX


@pytest.fixture(params=sorted(LAYOUTS))
def layout(request):
    return LAYOUTS[request.param]()


def by_name(c):
    return {p.name: p for p in hand.pieces(c)}


def overlap(a, b):
    """The volume two boxes share (mm3)."""
    d = [min(a[i + 3], b[i + 3]) - max(a[i], b[i]) for i in range(3)]
    return d[0] * d[1] * d[2] if min(d) > 0 else 0.0


def inside(b, x, y, z):
    return b[0] < x < b[3] and b[1] < y < b[4] and b[2] < z < b[5]


def touch(a, b):
    """True if two boxes share a face (touch along an area, without overlapping)."""
    for i in range(3):
        if abs(a[i + 3] - b[i]) < 1e-6 or abs(b[i + 3] - a[i]) < 1e-6:
            j, k = [n for n in range(3) if n != i]
            if min(a[j + 3], b[j + 3]) - max(a[j], b[j]) > 0 and \
                    min(a[k + 3], b[k + 3]) - max(a[k], b[k]) > 0:
                return True
    return False


def test_the_cut_list_holds_every_piece_at_its_size(layout):
    rows = list(csv.DictReader(io.StringIO(hand_doc.cutlist_csv(layout))))
    listed = sorted((float(r["length_mm"]), float(r["width_mm"]), float(r["thickness_mm"]))
                    for r in rows for _ in range(int(r["qty"])))
    pieces = hand.pieces(layout)
    placed = sorted(tuple(sorted((round(b[3] - b[0], 1), round(b[4] - b[1], 1),
                                  round(b[5] - b[2], 1)), reverse=True))
                    for b in (p.box for p in pieces))
    assert listed == placed
    assert sum(int(r["qty"]) for r in rows) == len(pieces)
    assert hand.stock(layout)[0] == 600  # the shipped faces fit the common length
    assert all(float(r["length_mm"]) <= 600 for r in rows)


def test_the_pieces_make_the_box(layout):
    p = panel.panel(layout)
    st = box.stack(BS)
    parts = by_name(layout)
    t, w, h = BS.board_t, p.width, p.height
    bottom, diffuser, face_, plate = (parts[n].box for n in
                                      ("bottom", "diffuser", "face", "strip plate"))
    walls = [parts[n].box for n in ("side left", "side right", "end (top)", "end (USB)")]
    assert bottom[:2] + bottom[3:5] == pytest.approx((0, 0, w, h))
    assert face_[5] - bottom[2] == pytest.approx(st["depth"])
    # The walls stand on the bottom and carry the diffuser, the face on the diffuser.
    for wall in walls:
        assert wall[2] == pytest.approx(bottom[5]) and wall[5] == pytest.approx(diffuser[2])
    assert face_[2] == pytest.approx(diffuser[5])
    # Every point of the ring round the edge, at every height, lies in exactly one wall.
    z0, z1 = bottom[5], diffuser[2]
    steps = [k + 0.5 for k in range(int(max(w, h)))]
    ring = [(x, y) for x in steps if x < w for y in (t / 2, h - t / 2)]
    ring += [(x, y) for y in steps if y < h for x in (t / 2, w - t / 2)]
    for x, y in ring:
        for z in (z0 + 0.5, (z0 + z1) / 2, z1 - 0.5):
            assert sum(inside(b, x, y, z) for b in walls) == 1, (x, y, z)
    # Inside the ring, no wall.
    for x, y in itertools.product((t + 0.5, w / 2, w - t - 0.5), (t + 0.5, h / 2, h - t - 0.5)):
        assert not any(inside(b, x, y, (z0 + z1) / 2) for b in walls)
    # Each end meets both sides; nothing overlaps anything.
    for end in walls[2:]:
        assert touch(end, walls[0]) and touch(end, walls[1])
    boxes = [pc.box for pc in hand.pieces(layout)]
    for a, b in itertools.combinations(boxes, 2):
        assert overlap(a, b) == 0, (a, b)
    # The strip plate: the strip's height under the diffuser, the standoffs' room above
    # the bottom, clear of the walls.
    assert diffuser[2] - plate[5] == pytest.approx(BS.strip_h)
    assert plate[2] - bottom[5] == pytest.approx(st["standoff"])
    assert plate[0] > t and plate[3] < w - t and plate[1] > t and plate[4] < h - t


def test_glue_blocks_join_a_wall_to_the_bottom_clear_of_the_room(layout):
    p = panel.panel(layout)
    parts = by_name(layout)
    blocks = [pc for pc in parts.values() if pc.stock == "block"]
    walls = [parts[n].box for n in ("side left", "side right", "end (top)", "end (USB)")]
    bottom, plate = parts["bottom"].box, parts["strip plate"].box
    assert len(blocks) >= 4
    held = set()
    for b in blocks:
        assert b.box[2] == pytest.approx(bottom[5]) and b.box[5] < plate[2]
        mine = [i for i, wall in enumerate(walls) if touch(b.box, wall)]
        assert len(mine) == 1, b.name
        held.add(mine[0])
        x0, y0, _, x1, y1, _ = b.box
        for hl in p.holes:  # standoffs (M3, 5.5 mm across) and the controls' bodies
            if hl.kind == "mount":
                r = hand.STANDOFF_R
            elif hl.kind in ("button", "jack"):
                r = hl.d / 2 + BS.control_clear
            else:
                continue
            nx, ny = min(max(hl.x, x0), x1), min(max(hl.y, y0), y1)
            assert (nx - hl.x) ** 2 + (ny - hl.y) ** 2 >= r ** 2 - 1e-6, (b.name, hl.label)
    assert held == {0, 1, 2, 3}  # every wall has its blocks
    (slot,) = [parts["end (USB)"].slot]
    for b in blocks:
        if touch(b.box, walls[3]):
            assert b.box[3] <= slot[0] or b.box[0] >= slot[2] or b.box[5] <= slot[1]


def test_the_diffuser_and_the_face_are_one_piece_each(layout):
    p = panel.panel(layout)
    parts = [pc for pc in hand.pieces(layout) if pc.stock in ("diffuser", "face")]
    assert sorted(pc.stock for pc in parts) == ["diffuser", "face"]
    for pc in parts:
        assert pc.box[3] - pc.box[0] == pytest.approx(p.width)
        assert pc.box[4] - pc.box[1] == pytest.approx(p.height)


def test_the_sheet_plan_fits_the_sheet_with_a_kerf_between_pieces(layout):
    plan = hand.sheet_layout(layout)
    sheet = [pc for pc in hand.pieces(layout) if pc.stock == "sheet"]
    assert sorted(pc.name for pc, *_ in plan) == sorted(pc.name for pc in sheet)
    rects = []
    for pc, x, y, length, width in plan:
        assert (length, width) == pc.size[:2]
        sheet = hand.stock(layout)[1]
        assert x >= 0 and y >= 0 and x + length <= sheet[0] and y + width <= sheet[1]
        rects.append((x - hand.KERF / 2, y - hand.KERF / 2, 0, x + length + hand.KERF / 2,
                      y + width + hand.KERF / 2, 1))
    for a, b in itertools.combinations(rects, 2):
        assert overlap(a, b) == pytest.approx(0.0, abs=1e-9)


def test_the_pine_strips_hold_every_block(layout):
    sticks = hand.stock_strips(layout)
    blocks = sorted(pc.name for pc in hand.pieces(layout) if pc.stock == "block")
    assert sorted(b.name for s in sticks for b in s) == blocks
    for s in sticks:
        assert sum(b.size[0] for b in s) + hand.KERF * (len(s) - 1) <= hand.stock(layout)[0]


def test_the_cli_writes_the_hand_tool_files(tmp_path, capsys):
    out = tmp_path / "hand"
    assert main(["hardware", "box", "--tools", "hand", "--out", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(("hand-box.md", "hand-cutlist.csv", "hand-sheet.svg",
                            "hand-box-views.svg", "hand-box-views.png"))
    for name in names:
        assert (out / name).read_bytes() == (ROOT / "hardware" / name).read_bytes()
    capsys.readouterr()
    assert main(["hardware", "box", "--tools", "hand"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("# The box with hand tools") and "## Assembly" in page
    assert main(["hardware", "bom", "--tools", "hand", "--out", str(tmp_path / "x")]) == 1
    assert "--tools" in capsys.readouterr().err and not (tmp_path / "x").exists()


def test_the_guide_builds_the_board_two_ways():
    guide = (ROOT / "hardware" / "README.md").read_text()
    assert "### With a laser cutter" in guide and "### With hand tools" in guide
    page = (ROOT / "hardware" / "hand-box.md").read_text()
    c = hardware.load_layout()[0]
    for r in hand_doc.rows(c):
        assert r[0] in page
    for n, s in enumerate(hand.stock_strips(c)):
        assert ", ".join("%g" % b.size[0] for b in s) in page, n


def test_a_longer_face_takes_longer_stock_and_the_box_still_closes():
    from test_hw_documents import config

    c = config(lanes=3, holes=181)
    p = panel.panel(c)
    assert p.height > 600
    length, sheet = hand.stock(c)
    assert length == 1200 and sheet[0] == 1200 and p.height <= length
    test_the_pieces_make_the_box(c)
    test_the_sheet_plan_fits_the_sheet_with_a_kerf_between_pieces(c)
    assert hand_doc.cutlist_markdown(c, "x.json").count("1200") >= 2


def test_the_box_template_draws_every_board_whole():
    """Paper has no bed: the strip plate the hand-tool box drills from it is one piece."""
    from pdfminer.high_level import extract_text

    for paper in ("a4", "letter"):
        text = extract_text(io.BytesIO((ROOT / "hardware" /
                                        ("box-template-%s.pdf" % paper)).read_bytes()))
        assert "strip plate" in text and "bottom" in text
        assert "1/2" not in text and "2/2" not in text
