"""box-views.svg/.png and hand-box-views.svg/.png: each box assembled and exploded.

A box is a list of blocks (name, (x0, y0, z0, x1, y1, z1) in mm, colour): the laser box
from crib.hardware.box (its boards as plain slabs, fingers left out), the hand-tool box
from crib.hardware.hand. They are drawn in a fixed axonometric view (the long side to
the right, seen from the front, from the USB end's far side and from above) with the
painter's algorithm, nearest last; the exploded view lifts each layer and moves the walls
out, and names each kind of piece in a column on the right. One scene of polygons, lines
and texts is written as SVG and drawn as PNG with Pillow (fpdf2 brings it).
"""

import io

from crib.hardware import box, hand
from crib.hardware.box import DEFAULT_BOX, BoxSpec
from crib.hardware.panel import DEFAULT_PANEL, PanelSpec, panel
from crib.hardware.svg import Svg
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

SCALE = 1.25  # px per mm
FONT = 12  # px
WOOD, BOARD, ACRYLIC, METAL, PINE = "#d9b77e", "#c9a56b", "#eef3f6", "#9aa3ad", "#e8cf8f"
LIFT = 34.0  # mm between layers in the exploded view
SPREAD = 30.0  # mm the walls move out in the exploded view
LABEL_W = 230  # px: the column of names


def _proj(x, y, z):
    """mm in the box to px on the sheet (before the view's offset)."""
    return ((y * 0.95 + x * 0.42) * SCALE, (x * 0.42 - y * 0.12 - z) * SCALE)


def _shade(colour, f):
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#%02x%02x%02x" % tuple(min(255, int(c * f)) for c in (r, g, b))


def laser_blocks(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
                 ps: PanelSpec = DEFAULT_PANEL, bs: BoxSpec = DEFAULT_BOX) -> list:
    """[(name, box, colour, layer)] of the laser box: layer orders the exploded view."""
    p = panel(config, spec, ps)
    st = box.stack(bs)
    w, h, t, wall = p.width, p.height, bs.board_t, st["wall"]
    off = t + bs.clear
    z_plate = wall - bs.strip_h - t
    out = [("bottom", (0.0, 0.0, 0.0, w, h, t), BOARD, 0),
           ("side", (0.0, 0.0, 0.0, t, h, wall), BOARD, 1),
           ("side", (w - t, 0.0, 0.0, w, h, wall), BOARD, 1),
           ("end", (t, 0.0, 0.0, w - t, t, wall), BOARD, 1),
           ("end (USB slot)", (t, h - t, 0.0, w - t, h, wall), BOARD, 1)]
    return out + _stack_blocks(p, bs, st, t, z_plate, off, wall)


def _stack_blocks(p, bs, st, t, z_plate, off, top):
    """The standoffs, the strip plate, the diffuser and the face: the same in both boxes."""
    w, h = p.width, p.height
    out = []
    for hl in p.holes:
        if hl.kind == "mount":
            out.append(("M3 standoff", (hl.x - 2.75, hl.y - 2.75, t, hl.x + 2.75,
                                        hl.y + 2.75, t + st["standoff"]), METAL, 2))
    out += [("strip plate, strips on it", (off, off, z_plate, w - off, h - off, z_plate + t),
             WOOD, 3),
            ("diffuser, one piece", (0.0, 0.0, top, w, h, top + bs.diffuser_t), ACRYLIC, 4),
            ("face", (0.0, 0.0, top + bs.diffuser_t, w, h, top + bs.diffuser_t + bs.face_t),
             WOOD, 5)]
    return out


def hand_blocks(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
                ps: PanelSpec = DEFAULT_PANEL, bs: BoxSpec = DEFAULT_BOX) -> list:
    """[(name, box, colour, layer)] of the hand-tool box."""
    p = panel(config, spec, ps)
    st = box.stack(bs)
    out = []
    for pc in hand.pieces(config, spec, ps, bs):
        if pc.stock == "block":
            out.append(("pine glue block", pc.box, PINE, 1))
        elif pc.name.startswith(("side", "end", "bottom")):
            name = {"end (USB)": "end (USB slot)"}.get(pc.name, pc.name.split(" ")[0])
            out.append((name, pc.box, BOARD, 0 if pc.name == "bottom" else 1))
    t = bs.board_t
    top = t + st["inside"]
    return out + _stack_blocks(p, bs, st, t, top - bs.strip_h - t, t + bs.clear, top)


def _exploded(blocks, width, height):
    """The blocks moved apart: each layer lifted, the walls out from the middle."""
    out = []
    for name, (x0, y0, z0, x1, y1, z1), colour, layer in blocks:
        dz = layer * LIFT
        dx = dy = 0.0
        if layer == 1 and name != "pine glue block":
            if x1 - x0 < y1 - y0:
                dx = -SPREAD if x0 < width / 2 else SPREAD
            else:
                dy = -SPREAD if y0 < height / 2 else SPREAD
        out.append((name, (x0 + dx, y0 + dy, z0 + dz, x1 + dx, y1 + dy, z1 + dz), colour,
                    layer))
    return out


def _faces(b, colour):
    """The three faces of a block the view sees: top, front (+x), the near end (-y)."""
    x0, y0, z0, x1, y1, z1 = b
    return [([(x0, y0, z1), (x0, y1, z1), (x1, y1, z1), (x1, y0, z1)], colour),
            ([(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)], _shade(colour, 0.8)),
            ([(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)], _shade(colour, 0.65))]


def _order(e, width, height):
    """Painter's order: the bottom, the far walls, what is inside, the near walls, the
    diffuser and the face; within that, further back (x) and further along (y) first."""
    name, (x0, y0, z0, x1, y1, z1), _, layer = e
    wall = layer == 1 and name != "pine glue block"
    if wall:
        near = x0 > width / 2 if x1 - x0 < y1 - y0 else y0 < height / 2
        rank = 3 if near else 1
    else:
        rank = {0: 0, 1: 2, 2: 2, 3: 2}.get(layer, 4)
    return (rank, layer, (x0 + x1) / 2 - (y0 + y1) / 2 * 0.2, z0)


def scene(blocks, width, height, title):
    """(w, h, [("poly", pts, fill) | ("line", x1, y1, x2, y2) | ("text", x, y, s, size)])."""
    items: list = []
    views = [("assembled", blocks), ("exploded", _exploded(blocks, width, height))]
    y_at = 30.0
    anchors: dict = {}
    right = 0.0
    for label, bl in views:
        pts = [_proj(x, y, z) for _, b in ((n, b) for n, b, _, _ in bl)
               for x in (b[0], b[3]) for y in (b[1], b[4]) for z in (b[2], b[5])]
        u0, v0 = min(p[0] for p in pts), min(p[1] for p in pts)
        v1 = max(p[1] for p in pts)
        du, dv = 20.0 - u0, y_at + 24 - v0
        items.append(("text", 20.0, y_at + 8, "%s, %s" % (title, label), FONT + 1))
        for name, b, colour, _ in sorted(bl, key=lambda e: _order(e, width, height)):
            for poly, fill in _faces(b, colour):
                items.append(("poly", [(u + du, v + dv) for u, v in
                                       (_proj(*q) for q in poly)], fill))
            if label == "exploded":  # the name points at the right end of its front edge
                u, v = _proj(b[3], b[4] - min(12.0, (b[4] - b[1]) / 3), (b[2] + b[5]) / 2)
                if u + du > anchors.get(name, (-1e9, 0))[0]:
                    anchors[name] = (u + du, v + dv)
        right = max(right, max(p[0] for p in pts) + du)
        y_at += v1 - v0 + 60
    col = right + 30
    last = -1e9
    for name, (u, v) in sorted(anchors.items(), key=lambda kv: kv[1][1]):
        y = max(v + 4, last + FONT + 8)
        last = y
        items.append(("line", u, v, col - 4, y - 4))
        items.append(("text", col, y, name, FONT))
    return col + LABEL_W, max(y_at, last + 20), items


def to_svg(w, h, items, title) -> str:
    svg = Svg(w, h)
    svg.add("title", title)
    svg.add("rect", x=0, y=0, width=w, height=h, fill="#fff")
    for it in items:
        if it[0] == "poly":
            svg.add("path", class_="face", d="M" + " L".join("%.1f %.1f" % p for p in it[1])
                    + " Z", fill=it[2], stroke="#333", stroke_width=0.6)
        elif it[0] == "line":
            svg.add("line", class_="leader", x1=it[1], y1=it[2], x2=it[3], y2=it[4],
                    stroke="#888", stroke_width=0.8)
        else:
            svg.add("text", it[3], x=it[1], y=it[2], font_family="sans-serif",
                    font_size=it[4])
    return svg.text()


def to_png(w, h, items, zoom: float = 1.5) -> bytes:
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGB", (int(w * zoom), int(h * zoom)), "white")
    draw = ImageDraw.Draw(img)
    for it in items:
        if it[0] == "poly":
            draw.polygon([(u * zoom, v * zoom) for u, v in it[1]], fill=it[2], outline="#333")
        elif it[0] == "line":
            draw.line([(it[1] * zoom, it[2] * zoom), (it[3] * zoom, it[4] * zoom)],
                      fill="#888", width=1)
        else:
            font = ImageFont.load_default(size=it[4] * zoom)
            draw.text((it[1] * zoom, it[2] * zoom), it[3], fill="black", font=font,
                      anchor="ls")
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=False)
    return buf.getvalue()


def views(config: Config, which: str, fmt: str, spec: FaceSpec = face.DEFAULT_SPEC,
          ps: PanelSpec = DEFAULT_PANEL, bs: BoxSpec = DEFAULT_BOX):
    """The views of the laser ("laser") or hand-tool ("hand") box as "svg" text or "png"."""
    p = panel(config, spec, ps)
    make = laser_blocks if which == "laser" else hand_blocks
    title = "Laser box" if which == "laser" else "Hand-tool box"
    w, h, items = scene(make(config, spec, ps, bs), p.width, p.height, title)
    return to_svg(w, h, items, title + ", assembled and exploded") if fmt == "svg" else \
        to_png(w, h, items)
