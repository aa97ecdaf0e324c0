"""box-cut.svg, box.dxf and box-template-*.pdf: the box's boards laid out to cut, 1:1 in mm;
diffuser-cut.svg and diffuser.dxf: the diffuser alone.

The boards of crib.hardware.box lie side by side, long sides upright, each with its name
engraved. A board longer than the cutter's bed is cut across where the face is split (a
gap between hole groups), so its pieces line up with the face's; each piece is laid out
on its own, named "1/2", "2/2". The diffuser never is: a seam in it shows over the LEDs,
so it has its own file, one piece (a bed as long as the face, or a seller's cut to size).
"""

from dataclasses import replace

from crib.hardware import box
from crib.hardware.box import DEFAULT_BOX, BoxSpec
from crib.hardware.errors import HardwareError
from crib.hardware.laser_svg import GAP, cut_svg
from crib.hardware.panel import DEFAULT_PANEL, Hole, Panel, PanelSpec, Text, panel, split
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

NAME_MM = 4.0  # engraved board names


def _clip(poly, y, keep_below):
    """Sutherland-Hodgman: the part of a polygon with y' >= y (keep_below) or y' <= y."""
    def inside(p):
        return p[1] >= y if keep_below else p[1] <= y

    out = []
    for i, cur in enumerate(poly):
        prev = poly[i - 1]
        if inside(cur) != inside(prev):
            t = (y - prev[1]) / (cur[1] - prev[1])
            out.append((round(prev[0] + t * (cur[0] - prev[0]), 4), y))
        if inside(cur):
            out.append(cur)
    return tuple(out)


def _pieces(part, cuts):
    """[(y0, y1, outline)] of a board cut across at the ys in cuts (its own frame)."""
    ys = [0.0] + [c for c in cuts if 0 < c < part.height] + [part.height]
    out = []
    for y0, y1 in zip(ys, ys[1:]):
        poly = _clip(_clip(part.outline, y0, True), y1, False)
        for _, hy, d, _ in part.holes:
            if hy - d / 2 < y0 < hy + d / 2 or hy - d / 2 < y1 < hy + d / 2:
                raise HardwareError("the %s's split at y = %.1f runs through a hole"
                                    % (part.name, y0 if abs(hy - y0) < d else y1))
        out.append((y0, y1, poly))
    return out


def sheet(config: Config, spec: FaceSpec = face.DEFAULT_SPEC, ps: PanelSpec = DEFAULT_PANEL,
          bs: BoxSpec = DEFAULT_BOX, diffuser: bool = False) -> Panel:
    """Every board of the box but the diffuser (or, with diffuser, that alone) laid out as
    one Panel: outlines and slots to cut, holes to cut, names to engrave."""
    face_cuts = [y0 for y0, _ in split(panel(config, spec, ps), ps)[1:]]
    off = bs.board_t + bs.clear  # the strip plate's frame starts this far into the face's
    holes, texts, outlines = [], [], []
    x = 0.0
    height = 0.0
    for part in box.parts(config, spec, ps, bs):
        if (part.name == "diffuser") != diffuser:
            continue
        shift = off if part.name == "strip plate" else 0.0
        whole = diffuser or part.height <= ps.bed_mm
        cuts = [] if whole else [c - shift for c in face_cuts]
        pieces = _pieces(part, cuts)
        for k, (y0, y1, poly) in enumerate(pieces):
            outlines.append(tuple((x + px, py - y0) for px, py in poly))
            outlines += [tuple((x + px, py - y0) for px, py in slot) for slot in part.slots
                         if y0 <= min(q[1] for q in slot) and max(q[1] for q in slot) <= y1]
            holes += [Hole(x + hx, hy - y0, d, kind, "%s %s" % (part.name, kind))
                      for hx, hy, d, kind in part.holes if y0 <= hy <= y1]
            name = part.name + (" %d/%d" % (k + 1, len(pieces)) if len(pieces) > 1 else "")
            tall = y1 - y0 > part.width
            if part.name != "diffuser":  # engraving on the diffuser would show over LEDs
                texts.append(_name(name, x + part.width / 2, (y1 - y0) / 2, tall, part))
            height = max(height, y1 - y0)
            x += part.width + GAP
    return Panel(x - GAP, height, tuple(holes), (), tuple(texts), (), tuple(outlines))


def _name(name, cx, cy, tall, part):
    """A board's engraved name at its middle (above its USB slot on that end)."""
    if part.slots:
        cy = min(q[1] for q in part.slots[0]) - 2.5 - NAME_MM / 3
    return Text(name, cx, cy + (0.0 if tall else NAME_MM / 3), NAME_MM * 0.75, "middle",
                "board-name")


def box_svg(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
            ps: PanelSpec = DEFAULT_PANEL, bs: BoxSpec = DEFAULT_BOX) -> str:
    """box-cut.svg text."""
    p = sheet(config, spec, ps, bs)
    st = box.stack(bs)
    return cut_svg(p, [(0.0, p.height)], [(0.0, 0.0)],
                   "Box to cut, 1:1 in mm: %g mm board, walls %g mm high, red: cut, blue: "
                   "engrave" % (bs.board_t, st["wall"]))


def diffuser_svg(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
                 ps: PanelSpec = DEFAULT_PANEL, bs: BoxSpec = DEFAULT_BOX) -> str:
    """diffuser-cut.svg text: the diffuser in one piece."""
    p = sheet(config, spec, ps, bs, diffuser=True)
    return cut_svg(p, [(0.0, p.height)], [(0.0, 0.0)],
                   "Diffuser to cut, 1:1 in mm: %g mm opal acrylic in one piece, %g x %g mm; "
                   "red: cut, blue: engrave" % (bs.diffuser_t, round(p.width, 1),
                                                round(p.height, 1)))


def diffuser_dxf(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
                 ps: PanelSpec = DEFAULT_PANEL, bs: BoxSpec = DEFAULT_BOX) -> str:
    """diffuser.dxf text (DXF R2010, mm)."""
    from crib.hardware.dxf import cut_dxf

    p = sheet(config, spec, ps, bs, diffuser=True)
    return cut_dxf(p, [(0.0, p.height)], [(0.0, 0.0)])


def box_dxf(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
            ps: PanelSpec = DEFAULT_PANEL, bs: BoxSpec = DEFAULT_BOX) -> str:
    """box.dxf text (DXF R2010, mm)."""
    from crib.hardware.dxf import cut_dxf

    p = sheet(config, spec, ps, bs)
    return cut_dxf(p, [(0.0, p.height)], [(0.0, 0.0)])


def box_pdf(config: Config, paper: str, spec: FaceSpec = face.DEFAULT_SPEC,
            ps: PanelSpec = DEFAULT_PANEL, bs: BoxSpec = DEFAULT_BOX) -> bytes:
    """box-template-PAPER.pdf: the boards 1:1 over pages, to saw and drill by hand."""
    from crib.hardware.template_pdf import tiled_pdf

    whole = replace(ps, bed_mm=float("inf"))  # paper has no bed: every board whole
    return tiled_pdf(sheet(config, spec, whole, bs), paper,
                     "Cribbage board box: the boards 1:1, %s" % paper)
