"""face-cut.svg: the panel for a laser cutter, 1:1 in millimetres, cut and engrave layers.

Cut paths are red hairlines with no fill (the outline of each piece, every hole at its
real diameter); the engrave layer (blue) holds the rings of the holes without an LED, the
skunk lines and the numbers and names. A panel split for a small bed lies piece by piece
side by side, each piece with its own outline.
"""

from crib.hardware.panel import DEFAULT_PANEL, Panel, PanelSpec, panel, piece_of, split
from crib.hardware.svg import Svg, number
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

CUT, ENGRAVE = "#ff0000", "#0000ff"
HAIRLINE = 0.01  # mm: laser software takes a line this thin as a cut, not a fill
GAP = 10.0  # mm between pieces laid side by side


def sheet(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
          ps: PanelSpec = DEFAULT_PANEL) -> tuple[Panel, list, list]:
    """(panel, pieces, [(dx, dy) per piece]): where each piece lies on the cutting sheet."""
    p = panel(config, spec, ps)
    pieces = split(p, ps)
    return p, pieces, [(i * (p.width + GAP), -y0) for i, (y0, _) in enumerate(pieces)]


def laser_svg(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
              ps: PanelSpec = DEFAULT_PANEL) -> str:
    """face-cut.svg text."""
    p, pieces, offsets = sheet(config, spec, ps)
    return cut_svg(p, pieces, offsets, "Face to cut, 1:1 in mm: %s x %s mm in %d piece%s; "
                   "red: cut, blue: engrave" % (number(p.width), number(p.height),
                                                len(pieces), "s" if len(pieces) > 1 else ""))


def cut_svg(p: Panel, pieces: list, offsets: list, title: str) -> str:
    """A laser file of a panel: its pieces where offsets put them, red cuts, blue engraving.

    A panel with outlines (the box's boards) is cut along them, one piece as laid out.
    """
    width = len(pieces) * p.width + (len(pieces) - 1) * GAP
    height = max(y1 - y0 for y0, y1 in pieces)
    svg = Svg(width, height, "mm")
    svg.add("title", title)

    def at(x, y):
        dx, dy = offsets[piece_of(pieces, y)]
        return x + dx, y + dy

    svg.begin(id="cut", fill="none", stroke=CUT, stroke_width=HAIRLINE)
    for poly in p.outlines:
        svg.add("path", class_="outline", d="M" + " L".join(
            "%s %s" % (number(px), number(py)) for px, py in (at(*pt) for pt in poly)) + " Z")
    for i, (y0, y1) in enumerate(pieces if not p.outlines else ()):
        svg.add("rect", class_="outline", x=offsets[i][0], y=0.0, width=p.width,
                height=y1 - y0, data_piece=i + 1)
    for h in p.holes:
        x, y = at(h.x, h.y)
        svg.add("circle", class_="hole " + h.kind, cx=x, cy=y, r=h.d / 2, data_label=h.label)
    svg.end()
    svg.begin(id="engrave", fill="none", stroke=ENGRAVE, stroke_width=0.2)
    for h in p.rings:
        x, y = at(h.x, h.y)
        svg.add("circle", class_="ring", cx=x, cy=y, r=h.d / 2, data_label=h.label)
    for ln in p.lines:
        x1, y1 = at(ln.x1, ln.y1)
        x2, y2 = at(ln.x2, ln.y2)
        svg.add("line", class_=ln.kind, x1=x1, y1=y1, x2=x2, y2=y2)
    for t in p.texts:
        x, y = at(t.x, t.y)
        svg.add("text", t.text, class_=t.kind, x=x, y=y, font_size=t.size,
                font_family="sans-serif", text_anchor=t.anchor, fill=ENGRAVE, stroke="none")
    svg.end()
    return svg.text()
