"""face-template-a4.pdf / -letter.pdf: the drilling template, 1:1, tiled over paper.

A drill has no bed, so the template shows the whole face, never the pieces the cut files
split it into for a cutter. Each page shows one tile of it at full size: every hole at its real
diameter with a cross on its centre for the drill's point, the rings, lines and names to
engrave, the outline. Tiles overlap by OVERLAP mm and share alignment crosses in the
overlaps, so neighbouring pages are laid over each other cross on cross and taped. Every
page carries a 100 mm bar to check that it printed at 100 % (no "fit to page").
"""

import datetime

from crib.hardware.panel import DEFAULT_PANEL, Panel, PanelSpec, panel
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 8.0  # mm of paper a printer may not reach
FOOTER = 10.0  # mm under the tile: page name, tile origin, the 100 mm bar
MARK = 4.0  # arm of an alignment cross
PT = 72 / 25.4  # points per mm
DRILLED = {"led": "LEDs", "button": "buttons", "jack": "jack", "mount": "M3 corners",
           "wire": "wires"}
FIXED = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)  # reproducible files


def whole(p: Panel) -> list[tuple[float, float]]:
    """The template's one piece: the whole face (a drill, unlike a cutter, has no bed)."""
    return [(0.0, p.height)]


def overlap(p: Panel) -> float:
    """Overlap of neighbouring tiles: room for the widest hole whole on one page."""
    return max(15.0, max(h.d for h in p.holes) + 4.0)


def tiles(p: Panel, pieces: list[tuple[float, float]], paper: str) -> list[tuple]:
    """[(piece index, row, col, x0, y0, w, h)]: each page's window on the panel (mm)."""
    pw, ph = PAPERS[paper]
    cw, ch = pw - 2 * MARGIN, ph - 2 * MARGIN - FOOTER
    lap = overlap(p)
    out = []
    for i, (y0, y1) in enumerate(pieces):
        cols = max(1, -(-(p.width - lap) // (cw - lap)))
        rows = max(1, -(-((y1 - y0) - lap) // (ch - lap)))
        for r in range(int(rows)):
            for c in range(int(cols)):
                out.append((i, r, c, c * (cw - lap), y0 + r * (ch - lap), cw, ch))
    return out


def _clear(p, x, y) -> bool:
    """True if an alignment cross at (x, y) would touch no hole, ring or text."""
    reach = MARK + 1.5
    for h in p.holes + p.rings:
        if (h.x - x) ** 2 + (h.y - y) ** 2 < (h.d / 2 + reach) ** 2:
            return False
    for t in p.texts:
        x0, y0, x1, y1 = t.box()
        if x0 - reach < x < x1 + reach and y0 - reach < y < y1 + reach:
            return False
    return True


def _spots(p, points):
    """The first and last of points where a cross stays clear (blank paper first)."""
    ok = [pt for pt in points if _clear(p, *pt)]
    return {ok[0], ok[-1]} if ok else set()


def _marks(p, pieces, paper):
    """Alignment crosses (x, y) in panel mm, in the middle of each strip two tiles share,
    where they touch no hole or text (off the panel when the paper leaves room)."""
    lap = overlap(p)
    ts = tiles(p, pieces, paper)
    out = set()
    for piece, r, c, x0, y0, w, h in ts:
        for other in ts:
            if other[0] != piece:
                continue
            if other[1] == r + 1 and other[2] == c:  # the tile below: a horizontal strip
                y = other[4] + lap / 2
                out |= _spots(p, [(x0 + MARK + 2 + k, y) for k in range(int(w - 2 * MARK - 3))])
            if other[2] == c + 1 and other[1] == r:  # the tile to the right
                x = other[3] + lap / 2
                out |= _spots(p, [(x, y0 + MARK + 2 + k) for k in range(int(h - 2 * MARK - 3))])
    return sorted((round(x, 3), round(y, 3)) for x, y in out)


def template_pdf(config: Config, paper: str, spec: FaceSpec = face.DEFAULT_SPEC,
                 ps: PanelSpec = DEFAULT_PANEL) -> bytes:
    """The drilling template for one paper size ("a4" or "letter"), as PDF bytes."""
    return tiled_pdf(panel(config, spec, ps), paper,
                     "Cribbage board face: drilling template, 1:1, %s" % paper)


def tiled_pdf(p: Panel, paper: str, title: str) -> bytes:
    """A panel at 1:1 tiled over pages of paper, with crosses to join them, as PDF bytes."""
    from fpdf import FPDF

    pieces = whole(p)
    pw, ph = PAPERS[paper]
    pdf = FPDF(unit="mm", format=(pw, ph))
    pdf.set_auto_page_break(False)
    pdf.set_creation_date(FIXED)
    pdf.set_title(title)
    pdf.set_font("helvetica", size=8)
    pages = tiles(p, pieces, paper)
    marks = _marks(p, pieces, paper)
    sizes: dict = {}
    for hole in p.holes:
        sizes.setdefault(hole.d, hole.kind)
    drills = "Drill: " + ", ".join("%g mm %s" % (d, DRILLED[k]) for d, k in sorted(sizes.items()))
    for n, (piece, r, c, x0, y0, w, h) in enumerate(pages):
        pdf.add_page()
        ox, oy = MARGIN - x0, MARGIN - y0  # panel mm -> page mm
        py0, py1 = pieces[piece]
        with pdf.rect_clip(MARGIN, MARGIN, w, h):
            pdf.set_line_width(0.3)
            pdf.set_draw_color(0, 0, 0)
            if p.outlines:
                for poly in p.outlines:
                    pdf.polygon([(ox + px, oy + py) for px, py in poly])
            else:
                pdf.rect(ox, oy + py0, p.width, py1 - py0)
            _shapes(pdf, p, ox, oy, x0, y0, w, h, py0, py1)
            pdf.set_draw_color(0, 120, 0)
            pdf.set_line_width(0.2)
            for mx, my in marks:
                if x0 <= mx <= x0 + w and max(y0, py0) <= my <= min(y0 + h, py1):
                    pdf.line(ox + mx - MARK, oy + my, ox + mx + MARK, oy + my)
                    pdf.line(ox + mx, oy + my - MARK, ox + mx, oy + my + MARK)
        pdf.set_draw_color(160, 160, 160)
        pdf.set_line_width(0.1)
        pdf.rect(MARGIN, MARGIN, w, h)
        _footer(pdf, paper, n, len(pages), piece, len(pieces), r, c, x0, y0, h, drills)
    return bytes(pdf.output())


def _inside(x, y, reach, x0, y0, w, h, py0, py1):
    return (x0 - reach <= x <= x0 + w + reach and y0 - reach <= y <= y0 + h + reach
            and py0 <= y <= py1)


def _shapes(pdf, p, ox, oy, x0, y0, w, h, py0, py1) -> None:
    """Holes (black, a cross on the centre), rings (grey), lines and text of one tile."""
    for h_ in p.holes:
        if _inside(h_.x, h_.y, h_.d, x0, y0, w, h, py0, py1):
            r = h_.d / 2
            pdf.set_draw_color(0, 0, 0)
            pdf.set_line_width(0.2)
            pdf.circle(ox + h_.x, oy + h_.y, r)  # fpdf2 >= 2.8.1: x, y is the centre
            arm = min(1.0, r / 2)
            pdf.set_line_width(0.1)
            pdf.line(ox + h_.x - arm, oy + h_.y, ox + h_.x + arm, oy + h_.y)
            pdf.line(ox + h_.x, oy + h_.y - arm, ox + h_.x, oy + h_.y + arm)
    pdf.set_draw_color(150, 150, 150)
    pdf.set_line_width(0.2)
    for h_ in p.rings:
        if _inside(h_.x, h_.y, h_.d, x0, y0, w, h, py0, py1):
            pdf.circle(ox + h_.x, oy + h_.y, h_.d / 2)
    pdf.set_draw_color(120, 0, 200)
    pdf.set_dash_pattern(1.5, 1)
    for ln in p.lines:
        if _inside(ln.x1, ln.y1, 60, x0, y0, w, h, py0, py1):
            pdf.line(ox + ln.x1, oy + ln.y1, ox + ln.x2, oy + ln.y2)
    pdf.set_dash_pattern()
    pdf.set_text_color(0, 0, 0)
    for t in p.texts:
        if _inside(t.x, t.y, 20, x0, y0, w, h, py0, py1):
            pdf.set_font_size(t.size * PT)
            tw = pdf.get_string_width(t.text)
            dx = {"start": 0, "middle": -tw / 2, "end": -tw}[t.anchor]
            pdf.text(ox + t.x + dx, oy + t.y, t.text)


def _footer(pdf, paper, n, pages, piece, pieces, r, c, x0, y0, h, drills) -> None:
    """Page name, the tile's origin on the panel, the drill sizes, the 100 mm check bar."""
    y = MARGIN + h + 4
    pdf.set_font_size(7)
    pdf.set_text_color(0, 0, 0)
    pdf.text(MARGIN, y, "%s page %d of %d: piece %d of %d, row %d, column %d. Tile origin "
             "x=%.2f y=%.2f mm. %s."
             % (paper.upper() if paper == "a4" else "Letter", n + 1, pages, piece + 1,
                pieces, r + 1, c + 1, x0, y0, drills))
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.3)
    bar_y = y + 4.5
    pdf.line(MARGIN, bar_y, MARGIN + 100, bar_y)
    for k in range(0, 101, 10):
        pdf.line(MARGIN + k, bar_y - (1.5 if k % 50 else 2.5), MARGIN + k, bar_y)
    pdf.text(MARGIN + 102, bar_y + 1, "100 mm at 100 %%: measure it.%s"
             % (" Tape pages green cross on cross." if pages > pieces else ""))
