"""*-cut-preview.png: a cut file drawn with strokes a person can see.

The laser files' cuts are 0.01 mm hairlines (a laser's software wants them so), which a
viewer draws as an almost blank page. The preview reads the cut SVG itself (its paths,
rects, circles, lines and texts, as cut_svg writes them) and draws it with Pillow at PX
pixels per mm, every stroke STROKE px wide in the file's own colours.
"""

import io
import re
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
PX = 3.0  # px per mm
STROKE = 3  # px
MARGIN = 10  # px


def _points(d):
    nums = [float(v) for v in re.findall(r"-?[\d.]+", d)]
    return list(zip(nums[::2], nums[1::2]))


def _f(e, key) -> float:
    return float(e.get(key) or 0)


def preview_png(svg_text: str) -> bytes:
    """The PNG of a cut SVG (crib.hardware.laser_svg.cut_svg's output)."""
    from PIL import Image, ImageDraw, ImageFont

    root = ET.fromstring(svg_text)
    _, _, w, h = (float(v) for v in (root.get("viewBox") or "").split())
    img = Image.new("RGB", (int(w * PX) + 2 * MARGIN, int(h * PX) + 2 * MARGIN), "white")
    draw = ImageDraw.Draw(img)

    def at(x, y):
        return (MARGIN + x * PX, MARGIN + y * PX)

    for group in root.iter(NS + "g"):
        colour = group.get("stroke")
        for e in group:
            tag = e.tag.replace(NS, "")
            if tag == "path":
                pts = [at(x, y) for x, y in _points(e.get("d") or "")]
                draw.line(pts + pts[:1], fill=colour, width=STROKE)
            elif tag == "rect":
                x, y = _f(e, "x"), _f(e, "y")
                x1, y1 = x + _f(e, "width"), y + _f(e, "height")
                draw.rectangle([at(x, y), at(x1, y1)], outline=colour, width=STROKE)
            elif tag == "circle":
                cx, cy, r = (_f(e, k) for k in ("cx", "cy", "r"))
                draw.ellipse([at(cx - r, cy - r), at(cx + r, cy + r)], outline=colour,
                             width=STROKE)
            elif tag == "line":
                draw.line([at(_f(e, "x1"), _f(e, "y1")),
                           at(_f(e, "x2"), _f(e, "y2"))], fill=colour,
                          width=STROKE)
            elif tag == "text":
                font = ImageFont.load_default(size=_f(e, "font-size") * PX)
                anchor = {"start": "ls", "middle": "ms", "end": "rs"}[
                    e.get("text-anchor", "start")]
                draw.text(at(_f(e, "x"), _f(e, "y")), e.text or "",
                          fill=e.get("fill") or colour, font=font, anchor=anchor)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()
