"""Snapshots: a known position drawn from the runner's real LEDs, checked at hole centres."""

import struct
import xml.etree.ElementTree as ET
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crib.board.link import Link
from crib.layout.source import load_layout
from crib.picture import snapshot
from crib.picture.model import (
    LayoutMismatch,
    board_picture,
    check_layout,
    perceived,
    turn,
)
from crib.sim.virtual import VirtualBoard
from pegboard.light import gamma_table


@pytest.fixture(scope="module")
def position(tmp_path_factory):
    """Red 12 then 6 (back 12, front 18), Blue 8, Green none, Blue deals; animations done."""
    store = tmp_path_factory.mktemp("snap")
    with VirtualBoard(str(store), driven=True) as vb, Link.open(vb.url) as link:
        link.peg(0, 12)
        link.peg(1, 8)
        link.peg(0, 6)
        link.set(dealer=1)
        link.tick(3000)
        config = load_layout()
        pic = snapshot.take(link, config)
        yield config, pic, link.leds()


def _close(a, b, tol=30):  # the strip's 8 bits lose a dim channel or two
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def _svg_fills(text):
    root = ET.fromstring(text)
    out = {}
    for c in root.iter("{http://www.w3.org/2000/svg}circle"):
        if c.get("class") == "hole":
            key = (round(float(c.get("cx")), 1), round(float(c.get("cy")), 1))
            fill = c.get("fill")
            out[key] = tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return root, out


def _centre(config, lane, hole):
    pos, _ = turn(config)
    x, y = pos[lane][hole]
    return (round(x, 1), round(y, 1))


def test_svg_shows_the_position_at_the_hole_centres(position):
    config, pic, _ = position
    root, fills = _svg_fills(snapshot.svg(pic, caption="Red 18 (back 12)"))
    assert len(fills) == 3 * (config.holes + 1)  # every hole, none on top of another
    red, blue = config.lanes[0].colour, config.lanes[1].colour
    front = fills[_centre(config, 0, 18)]
    back = fills[_centre(config, 0, 12)]
    assert _close(front, red)  # the front peg: the lane's colour, full
    assert back[0] > 60 and back[0] < front[0] - 60 and back[2] == 0  # dimmer, same hue
    assert _close(fills[_centre(config, 1, 8)], blue)
    assert fills[_centre(config, 2, 1)] == snapshot.HOLE_RGB  # dark hole
    assert fills[_centre(config, 0, 0)] == snapshot.HOLE_RGB  # the start hole has no LED
    mark = fills[_centre(config, 2, 5)]  # every 5th hole: a faint warm mark
    assert 20 < max(mark) < 160 and mark[0] >= mark[2]
    dealer = fills[_centre(config, 1, 5)]  # the dealer's lane marks in its own colour
    assert dealer[2] > dealer[0] and max(dealer) < 160
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert [n.name for n in config.lanes] == texts[:3] and texts[3] == "Red 18 (back 12)"


def _png_pixels(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, size = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        assert struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + body)
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
            assert body[8:] == bytes((8, 2, 0, 0, 0))
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h = size
    raw = zlib.decompress(idat)
    assert len(raw) == h * (1 + 3 * w)
    rows = [raw[y * (1 + 3 * w) + 1:(y + 1) * (1 + 3 * w)] for y in range(h)]
    assert all(raw[y * (1 + 3 * w)] == 0 for y in range(h))
    return w, h, rows


def test_png_pixels_at_hole_centres_match_the_svg(position):
    config, pic, _ = position
    _, fills = _svg_fills(snapshot.svg(pic))
    w, h, rows = _png_pixels(snapshot.png(pic))
    assert (w, h) == (round(pic.width * 4), round(pic.height * 4))
    for hole in pic.holes:
        x, y = int(hole.x * 4), int(hole.y * 4)
        got = tuple(rows[y][3 * x:3 * x + 3])
        assert got == fills[(round(hole.x, 1), round(hole.y, 1))], hole
    corner = tuple(rows[1][3:6])
    assert corner == snapshot.BOARD_RGB


def test_the_picture_reads_the_leds_under_the_holes(position):
    config, pic, pixels = position
    for hole in pic.holes:
        if hole.led < 0:
            assert hole.colour is None
        else:
            assert hole.led == config.lane_leds[hole.lane][hole.hole]
            assert (hole.colour is None) == (pixels[hole.led] == (0, 0, 0))


def test_save_writes_svg_or_png_and_refuses_other_names(position, tmp_path):
    _, pic, _ = position
    assert snapshot.save(pic, tmp_path / "b.svg") == (tmp_path / "b.svg").stat().st_size
    assert (tmp_path / "b.png").exists() is False
    snapshot.save(pic, tmp_path / "b.PNG")
    assert (tmp_path / "b.PNG").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(snapshot.SnapshotError):
        snapshot.save(pic, tmp_path / "b.jpg")
    assert not (tmp_path / "b.jpg").exists()
    with pytest.raises(snapshot.SnapshotError):
        snapshot.save(pic, tmp_path / "missing" / "b.svg")


def test_layout_mismatch_is_refused():
    config = load_layout()
    check_layout(config, 3, 121, 363)
    for bad in ((4, 121, None), (3, 61, None), (None, None, 300)):
        with pytest.raises(LayoutMismatch):
            check_layout(config, *bad)


@given(st.integers(1, 255), st.integers(1, 100))
def test_perceived_undoes_the_firmware_gamma_and_brightness(level, brightness):
    g = gamma_table(2.8)
    bri = brightness * 256 // 100

    def sent(lv):  # what the renderer sends the strip for a perceived level
        return (g[lv] * bri) >> 8 or 1 if g[lv] else 0

    v = sent(level)
    if v == 0:
        return  # too dim to light at this brightness: nothing to undo
    got = perceived((v, 0, 0), 2.8, brightness)[0]
    # Levels the strip cannot tell apart come out as one: got lies among them.
    same = [lv for lv in range(1, 256) if sent(lv) == v]
    assert min(same) <= got <= max(same)


def test_a_dark_board_is_all_holes():
    config = load_layout()
    pic = board_picture(config, [(0, 0, 0)] * config.leds)
    assert all(h.colour is None for h in pic.holes)
    assert len(pic.holes) == len(config.lanes) * (config.holes + 1)
