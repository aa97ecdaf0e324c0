"""Lay out an SVG drawing as a renderer would and find text that leaves the sheet or
collides with a stroke or with other text.

Text is measured with the advance widths of DejaVu Sans, the font librsvg, Chromium and
Firefox on Linux draw "sans-serif" in (read from the font file with fontTools; where the
file is missing, Helvetica's widths with 12 % added), not with the code that wrote the
drawing or its guesses; strokes are
the segments of every line, path, polyline, polygon and rect. A text's box is its ink:
from the cap height above the baseline to the descender below it.
"""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from fontTools.ttLib import TTFont
from fpdf.fonts import CORE_FONTS_CHARWIDTHS

NS = "{http://www.w3.org/2000/svg}"
CAP, DESC = 0.76, 0.24  # of the font size: ink above and (descenders) below the baseline
DESCENDERS = set("gjpqyQ,;()[]{}|@µ")


DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def _widths():
    """{character: advance width in em} of the sans-serif font."""
    if DEJAVU.exists():
        font = TTFont(str(DEJAVU))
        upm = font["head"].unitsPerEm
        hmtx = font["hmtx"]
        return {chr(c): hmtx[g][0] / upm for c, g in font.getBestCmap().items()}
    return {c: 1.12 * w / 1000 for c, w in CORE_FONTS_CHARWIDTHS["helvetica"].items()}


WIDTHS = _widths()


def text_width(text, size):
    """The width of text at a font size, in the drawing's units."""
    return size * sum(WIDTHS.get(c, 0.6) for c in text)


def _num(v, default=0.0):
    if v is None:
        return default
    return float(re.match(r"-?[\d.]+(?:e-?\d+)?", v.strip()).group(0))


def _style(e, name, inherited):
    m = re.search(r"%s\s*:\s*([^;]+)" % name, e.get("style") or "")
    return m.group(1).strip() if m else e.get(name, inherited.get(name))


def _path_segments(d):
    """Straight segments of a path (M L H V Z and their relative forms; curves by ends)."""
    toks = re.findall(r"[MLHVZCSQTAmlhvzcsqta]|-?[\d.]+(?:e-?\d+)?", d)
    out, i, cmd = [], 0, None
    x = y = sx = sy = 0.0
    counts = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
    while i < len(toks):
        if toks[i].isalpha():
            cmd = toks[i]
            i += 1
            if cmd in "Zz":
                out.append((x, y, sx, sy))
                x, y = sx, sy
                continue
        n = counts[cmd.upper()]
        args = [float(t) for t in toks[i:i + n]]
        i += n
        rel = cmd.islower()
        c = cmd.upper()
        if c == "H":
            nx, ny = (x + args[0] if rel else args[0]), y
        elif c == "V":
            nx, ny = x, (y + args[0] if rel else args[0])
        else:
            nx, ny = args[-2], args[-1]
            if rel:
                nx, ny = x + nx, y + ny
        if c == "M":
            sx, sy = nx, ny
            cmd = "l" if rel else "L"  # further pairs after M are lines
        else:
            out.append((x, y, nx, ny))
        x, y = nx, ny
    return out


def _points(s):
    v = [float(t) for t in re.findall(r"-?[\d.]+(?:e-?\d+)?", s)]
    return list(zip(v[::2], v[1::2]))


class Drawing:
    """texts [(text, (x0, y0, x1, y1), element id)], strokes [segments], the sheet."""

    def __init__(self, svg_text, backdrop=()):
        self.backdrop = set(backdrop)
        root = ET.fromstring(svg_text)
        vb = [float(v) for v in root.get("viewBox").replace(",", " ").split()]
        self.sheet = (vb[0], vb[1], vb[0] + vb[2], vb[1] + vb[3])
        self.texts = []
        self.strokes = []
        self._walk(root, {})

    def _walk(self, e, inherited):
        mine = dict(inherited)
        for k in ("font-size", "text-anchor", "font-family", "stroke", "dominant-baseline"):
            v = _style(e, k, inherited)
            if v is not None:
                mine[k] = v
        tag = e.tag.replace(NS, "")
        if tag == "text":
            self._text(e, mine)
            return
        if tag in ("title", "desc", "defs", "clipPath"):
            return
        stroked = mine.get("stroke") not in (None, "none") and not (
            self.backdrop & set((e.get("class") or "").split()))
        if stroked:
            if tag == "line":
                self.strokes.append(tuple(_num(e.get(k)) for k in ("x1", "y1", "x2", "y2")))
            elif tag == "path":
                self.strokes += _path_segments(e.get("d"))
            elif tag in ("polyline", "polygon"):
                pts = _points(e.get("points"))
                if tag == "polygon":
                    pts.append(pts[0])
                self.strokes += [a + b for a, b in zip(pts, pts[1:])]
            elif tag == "rect":
                x, y = _num(e.get("x")), _num(e.get("y"))
                w, h = _num(e.get("width")), _num(e.get("height"))
                pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
                self.strokes += [a + b for a, b in zip(pts, pts[1:])]
        for child in e:
            self._walk(child, mine)

    def _text(self, e, style):
        size = _num(style.get("font-size"), 16)
        anchor = style.get("text-anchor", "start")
        base = style.get("dominant-baseline", "alphabetic")
        x, y = _num(e.get("x")), _num(e.get("y"))
        lines = []
        spans = list(e.iter(NS + "tspan"))
        if spans:
            for sp in spans:
                x = _num(sp.get("x"), x)
                y = y + _num(sp.get("dy"), 0) if sp.get("dy") else _num(sp.get("y"), y)
                lines.append((sp.text or "", x, y))
            if base == "ideographic":  # schemdraw: the block's bottom at y
                shift = y - _num(e.get("y"))
                lines = [(t, lx, ly - shift) for t, lx, ly in lines]
        else:
            lines.append(("".join(e.itertext()), x, y))
        for text, lx, ly in lines:
            if not text.strip():
                continue
            w = text_width(text, size)
            x0 = {"start": lx, "middle": lx - w / 2, "end": lx - w}[anchor]
            # Renderers disagree on dominant-baseline (librsvg ignores it, browsers honour
            # it, on tspans too): the box holds the text wherever either puts it.
            shifted = ly + {"central": CAP * size / 2, "ideographic": -DESC * size,
                            "hanging": CAP * size}.get(base, 0.0)
            below = DESC * size if DESCENDERS & set(text) else 0.0
            top, bottom = min(ly, shifted) - CAP * size, max(ly, shifted) + below
            self.texts.append((text, (x0, top, x0 + w, bottom), id(e)))


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(box, seg):
    """True if the segment passes through the box's inside (Liang-Barsky clipping)."""
    x0, y0, x1, y1 = seg
    t0, t1 = 0.0, 1.0
    dx, dy = x1 - x0, y1 - y0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]),
                 (dy, box[3] - y0)):
        if p == 0:
            if q <= 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    return t1 - t0 > 1e-9


def problems(svg_text, backdrop=()):
    """Every text off the sheet, over a stroke or over another text, as sentences.

    Strokes of the classes in backdrop (faint guides text may sit on) are left out; the
    lines of one text element are not compared with each other.
    """
    d = Drawing(svg_text, backdrop)
    out = []
    sx0, sy0, sx1, sy1 = d.sheet
    for text, (x0, y0, x1, y1), _ in d.texts:
        if x0 < sx0 or y0 < sy0 or x1 > sx1 or y1 > sy1:
            out.append("%r leaves the sheet" % text)
    for i, (a, ba, ea) in enumerate(d.texts):
        for b, bb, eb in d.texts[i + 1:]:
            if ea != eb and _overlap(ba, bb):
                out.append("%r overlaps %r" % (a, b))
        for seg in d.strokes:
            if _crosses(ba, seg):
                out.append("%r is drawn over a line %s" % (a, tuple(round(v, 1) for v in seg)))
                break
    return out
