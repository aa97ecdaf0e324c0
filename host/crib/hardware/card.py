"""The join card of a board with Wi-Fi (`crib hardware card`): two QR codes, join the
board's network and open its page, with the network's name, password and the page's
address printed for people who type. A PNG of the card and an A4 PDF with the card at
its real size (print at 100 %, cut along the line).

The QR payloads: WIFI:T:WPA;S:NAME;P:PASSWORD;; (the format phones' cameras read, from
ZXing: `\\ ; , : "` escaped with a backslash, a value that reads as hex quoted) and
http://ADDRESS/?k=KEY, or by the board's name, http://NAME.local/?k=KEY, when the board has
one (a board that can join a home network: pegboard.homenet), with the name and its home
network under the second code. One list of drawn items (Item) feeds both files.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from crib.hardware.errors import HardwareError
from pegboard import homenet, joining, wifi

WIDTH, HEIGHT = 100.0, 68.0  # mm: the card
QR = 36.0  # mm: each code with its quiet zone
DPI = 300
A4 = (210.0, 297.0)
AT = (20.0, 20.0)  # mm: the card's corner on the PDF's page
FIXED = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)  # reproducible files
ADDRESS = wifi.ADDRESS
_HEX = set("0123456789abcdefABCDEF")


class Details:
    """A board's join details: network name, WPA2 password, page key, page address."""

    def __init__(self, ssid: str, password: str, key: str, address: str = ADDRESS,
                 name: str | None = None, home: str | None = None):
        why = joining.problem({"ssid": ssid, "password": password, "key": key})
        if name is not None and homenet.parse(homenet.text(name, None).encode()) is None:
            why = "a board's name is cribbage- and up to 8 of %s" % joining.TYPABLE
        if why:
            raise HardwareError(why)
        self.ssid, self.password, self.key, self.address = ssid, password, key, address
        self.name, self.home = name, home  # the board's name (mDNS), its home network

    def page_host(self) -> str:
        """Where the page is: by name (name.local) when the board has one, which both its
        networks answer (mDNS at home; on its own network its DNS answers every name),
        else the own network's address."""
        return self.name + ".local" if self.name else self.address

    def join_payload(self) -> str:
        """The join-the-network QR payload."""
        return "WIFI:T:WPA;S:%s;P:%s;;" % (escape(self.ssid), escape(self.password))

    def page_url(self) -> str:
        """The page's address with its key (the page QR payload)."""
        return "http://%s/?k=%s" % (self.page_host(), self.key)

    def to_dict(self) -> dict:
        return {"ssid": self.ssid, "password": self.password, "key": self.key,
                "address": self.address, "name": self.name, "home": self.home,
                "join_qr": self.join_payload(), "page_qr": self.page_url()}


def _short(text: str, most: int = 16) -> str:
    """text cut to most characters (the column is a code's width)."""
    return text if len(text) <= most else text[:most - 2] + ".."


def escape(value: str) -> str:
    """A WIFI: payload's value: `\\ ; , : "` after a backslash; all hex digits quoted
    (else a reader may take it for a hex key)."""
    out = "".join("\\" + c if c in '\\;,:"' else c for c in value)
    return '"%s"' % out if value and set(value) <= _HEX else out


@dataclass
class Item:
    """One thing drawn on the card, in mm from its top left: a QR code (payload) or a
    line of text (size: its height in mm; style "", "B" bold or "M" monospace)."""

    kind: str
    x: float
    y: float
    size: float
    text: str
    style: str = ""


def items(d: Details) -> list[Item]:
    """What the card shows, in mm."""
    left, right = 8.0, WIDTH - 8.0 - QR
    return [
        Item("text", 6, 4, 4.2, "Play without a computer", "B"),
        Item("text", 6, 9.5, 2.6, "Scan 1 with a phone's camera, then 2. No app needed."),
        Item("qr", left, 13, QR, d.join_payload()),
        Item("qr", right, 13, QR, d.page_url()),
        Item("text", left, 49.5, 2.8, "1  Join the board's Wi-Fi", "B"),
        Item("text", right, 49.5, 2.8, "2  Open the game", "B"),
        Item("text", left, 53.5, 2.5, "Wi-Fi  " + d.ssid, "M"),
        Item("text", left, 57, 2.5, "Password  " + d.password, "M"),
        # The words right over the address they announce (the address is too long for
        # the second code's column: both run the card's width).
        Item("text", left, 60.5, 2.5, "or type the address:"),
        Item("text", left, 63.8, 2.5, d.page_url(), "M"),
    ] + ([] if d.name is None else [
        # Under the second code: the board by name, and the home network it joins (a
        # player there needs only the second code).
        Item("text", right, 53.5, 2.5, d.name + ".local", "M"),
        Item("text", right, 57, 2.5, ("at home on " + _short(d.home)) if d.home else
             "on the board's Wi-Fi (1)"),
    ])


def modules(payload: str) -> list[list[bool]]:
    """The dark modules of payload's QR code (error level M), with a 4-module quiet zone."""
    import segno

    code = segno.make(payload, error="m", micro=False)
    return [[bool(v) for v in row] for row in code.matrix_iter(scale=1, border=4)]


def _runs(row: list[bool]):
    """(start, length) of each run of dark modules in a row."""
    i = 0
    while i < len(row):
        if row[i]:
            j = i
            while j < len(row) and row[j]:
                j += 1
            yield i, j - i
            i = j
        else:
            i += 1


def png(d: Details) -> bytes:
    """The card as a PNG at DPI."""
    from io import BytesIO

    from PIL import Image, ImageDraw, ImageFont

    px = DPI / 25.4
    img = Image.new("L", (round(WIDTH * px), round(HEIGHT * px)), 255)
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, img.width - 1, img.height - 1], outline=160, width=2)
    for it in items(d):
        if it.kind == "qr":
            grid = modules(it.text)
            step = it.size * px / len(grid)
            for r, row in enumerate(grid):
                for c, n in _runs(row):
                    x0, y0 = (it.x * px + c * step), (it.y * px + r * step)
                    draw.rectangle([round(x0), round(y0), round(x0 + n * step) - 1,
                                    round(y0 + step) - 1], fill=0)
        else:
            font = ImageFont.load_default(size=it.size * px)
            draw.text((it.x * px, it.y * px), it.text, fill=0, font=font, anchor="lt",
                      stroke_width=1 if it.style == "B" else 0, stroke_fill=0)
    out = BytesIO()
    img.save(out, "PNG", dpi=(DPI, DPI))
    return out.getvalue()


def pdf(d: Details, compress: bool = True) -> bytes:
    """An A4 page with the card at its real size, a cut line round it (compress=False: its
    drawing left readable, for tests)."""
    from fpdf import FPDF

    doc = FPDF(unit="mm", format=A4)
    doc.compress = compress
    doc.set_creation_date(FIXED)
    doc.set_auto_page_break(False)
    doc.add_page()
    ox, oy = AT
    doc.set_draw_color(150)
    doc.set_dash_pattern(dash=2, gap=1.5)
    doc.rect(ox, oy, WIDTH, HEIGHT)
    doc.set_dash_pattern()
    doc.set_font("Helvetica", size=9)
    doc.text(ox, oy + HEIGHT + 6, "Print at 100 % (actual size), cut along the dashed line "
             "and stick the card on the board.")
    doc.set_fill_color(0)
    for it in items(d):
        if it.kind == "qr":
            grid = modules(it.text)
            step = it.size / len(grid)
            for r, row in enumerate(grid):
                for c, n in _runs(row):
                    doc.rect(ox + it.x + c * step, oy + it.y + r * step, n * step, step,
                             style="F")
        else:
            family = "Courier" if it.style == "M" else "Helvetica"
            doc.set_font(family, "B" if it.style == "B" else "", size=it.size * 72 / 25.4)
            doc.text(ox + it.x, oy + it.y + it.size * 0.8, it.text)  # at its baseline
    return bytes(doc.output())
