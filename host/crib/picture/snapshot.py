"""Pictures of the board as lit now: SVG (vector, labelled) and PNG (a tiny encoder on zlib,
no imaging library), both from a crib.picture.model.Picture.
"""

import struct
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from crib.errors import CribError
from crib.picture.model import Picture, board_picture, check_layout
from pegboard.config import Config

BOARD_RGB = (38, 30, 24)  # the face: dark wood
HOLE_RGB = (12, 10, 9)  # an unlit hole
RIM_RGB = (84, 70, 58)  # its rim
HOLE_R = 2.0  # mm: a 4 mm drill
GLOW_R = 3.6  # mm: the light spills a little around a lit hole
GLOW_ALPHA = 0.35
PNG_SCALE = 4  # pixels per mm


class SnapshotError(CribError):
    """A snapshot that cannot be written (unknown file type, unwritable path)."""


def take(link: Any, config: Config) -> Picture:
    """The Picture of a linked board now (its LEDs, its brightness) on layout `config`."""
    check_layout(config, link.info.get("lanes"), link.info.get("holes"))
    pixels = link.leds()
    check_layout(config, leds=len(pixels))
    state = link.state()
    return board_picture(config, pixels, state.settings.get("brightness"))


def hex_colour(rgb: Sequence[int]) -> str:
    """'#rrggbb' of an (r, g, b)."""
    return "#%02x%02x%02x" % tuple(rgb)


def svg(pic: Picture, caption: str | None = None) -> str:
    """The picture as SVG text: the face, every hole (class hole, data-lane, data-hole),
    lit ones in their colour with a glow, lane names; a caption line if given."""
    extra = 8 if caption else 0
    w, h = pic.width, pic.height + extra
    out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.2f %.2f" '
           'width="%d" height="%d">' % (w, h, round(w * PNG_SCALE), round(h * PNG_SCALE)),
           '<rect class="face" x="0" y="0" width="%.2f" height="%.2f" rx="4" fill="%s"/>'
           % (w, h, hex_colour(BOARD_RGB))]
    for hole in pic.holes:
        if hole.colour is not None:
            out.append('<circle class="glow" cx="%.2f" cy="%.2f" r="%.2f" fill="%s" '
                       'fill-opacity="%.2f"/>' % (hole.x, hole.y, GLOW_R, hex_colour(hole.colour),
                                                  GLOW_ALPHA))
    for hole in pic.holes:
        fill = hex_colour(hole.colour) if hole.colour is not None else hex_colour(HOLE_RGB)
        out.append('<circle class="hole" data-lane="%d" data-hole="%d" cx="%.2f" cy="%.2f" '
                   'r="%.2f" fill="%s" stroke="%s" stroke-width="0.4"/>'
                   % (hole.lane, hole.hole, hole.x, hole.y, HOLE_R, fill, hex_colour(RIM_RGB)))
    for lane, name in enumerate(pic.names):
        start = pic.hole(lane, 0)
        out.append('<text class="lane" x="%.2f" y="%.2f" font-family="sans-serif" '
                   'font-size="3.2" fill="%s" text-anchor="end" dominant-baseline="middle">'
                   '%s</text>' % (start.x - 4, start.y, hex_colour(pic.colours[lane]),
                                  _escape(name)))
    if caption:
        out.append('<text class="caption" x="%.2f" y="%.2f" font-family="sans-serif" '
                   'font-size="4" fill="#d8cfc4">%s</text>' % (4, h - 3, _escape(caption)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def raster(pic: Picture, scale: float = PNG_SCALE) -> tuple[int, int, list[bytearray]]:
    """(width, height, rows): the picture as RGB rows (bytearrays), holes antialiased."""
    w, h = int(round(pic.width * scale)), int(round(pic.height * scale))
    rows = [bytearray(bytes(BOARD_RGB) * w) for _ in range(h)]
    for hole in pic.holes:
        if hole.colour is not None:
            _disc(rows, w, h, hole.x * scale, hole.y * scale, GLOW_R * scale, hole.colour,
                  GLOW_ALPHA)
    for hole in pic.holes:
        cx, cy = hole.x * scale, hole.y * scale
        _disc(rows, w, h, cx, cy, (HOLE_R + 0.2) * scale, RIM_RGB, 1.0)
        _disc(rows, w, h, cx, cy, HOLE_R * scale,
              hole.colour if hole.colour is not None else HOLE_RGB, 1.0)
    return w, h, rows


def _disc(rows: list[bytearray], w: int, h: int, cx: float, cy: float, r: float,
          rgb: Sequence[int], alpha: float) -> None:
    """Blend a filled disc into rows; edge pixels by how much of them it covers."""
    x0, x1 = max(0, int(cx - r - 1)), min(w, int(cx + r + 2))
    y0, y1 = max(0, int(cy - r - 1)), min(h, int(cy + r + 2))
    for y in range(y0, y1):
        row = rows[y]
        dy = y + 0.5 - cy
        for x in range(x0, x1):
            dx = x + 0.5 - cx
            cover = r + 0.5 - (dx * dx + dy * dy) ** 0.5
            if cover <= 0:
                continue
            a = alpha * min(1.0, cover)
            k = 3 * x
            for c in range(3):
                row[k + c] = int(row[k + c] * (1 - a) + rgb[c] * a + 0.5)


def png(pic: Picture, scale: float = PNG_SCALE) -> bytes:
    """The picture as PNG bytes (8-bit RGB, no filtering, zlib)."""
    w, h, rows = raster(pic, scale)
    return encode_png(w, h, rows)


def encode_png(width: int, height: int, rows: Sequence[bytes | bytearray]) -> bytes:
    """PNG bytes of RGB rows (each a bytes-like of 3 * width)."""
    raw = b"".join(b"\x00" + bytes(r) for r in rows)  # filter type 0 on every row

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def save(pic: Picture, path: str | Path, caption: str | None = None) -> int:
    """Write the picture to path: .svg or .png by its suffix."""
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        data = svg(pic, caption).encode()
    elif suffix == ".png":
        data = png(pic)
    else:
        raise SnapshotError("snapshot files end in .svg or .png, got %r" % (str(path),))
    try:
        Path(path).write_bytes(data)
    except OSError as e:
        raise SnapshotError("cannot write %r: %s" % (str(path), e)) from None
    return len(data)
