"""The face as a panel to cut: every hole at its real diameter, what is engraved, the pieces.

The playing area comes from crib.layout.face (hole positions over their LEDs); under it a band of
controls holds the buttons (one per lane, undo, confirm) and the power jack, each with its
name engraved below it; an M3 mounting hole sits in each corner. A panel longer than the
cutter's bed is split across a gap between hole groups into pieces that each fit.
Coordinates are millimetres, x to the right, y downwards, origin at the top left corner.
"""

import math
from dataclasses import dataclass

from crib.hardware.circuit import buttons
from crib.hardware.errors import HardwareError
from crib.layout import face
from pegboard.config import Config


@dataclass(frozen=True)
class PanelSpec:
    """Sizes of the controls and of the cutter, in millimetres."""

    button_d: float = 16.0  # cut-out of a 16 mm panel push button (Omron A16 class)
    jack_d: float = 8.0  # panel-mount 2.1 mm barrel jack (check your jack's datasheet)
    mount_d: float = 3.2  # M3 clearance
    mount_inset: float = 8.0  # edge to the centre of a mounting hole: a standoff clears the walls
    control_pitch: float = 24.0  # centre to centre of two controls in a row
    control_row: float = 28.0  # a row of controls: the cut-out and its engraved name
    edge: float = 10.0  # board edge to the band's outermost cut-out
    bed_mm: float = 400.0  # the longest piece the cutter (laser, CNC) takes
    clear: float = 2.0  # kept between a split line and anything cut or engraved
    text_mm: float = 3.0  # engraved names


DEFAULT_PANEL = PanelSpec()


@dataclass(frozen=True)
class Hole:
    """A hole to cut: centre, diameter, what it holds, and a label ("Red 17", "Undo")."""

    x: float
    y: float
    d: float
    kind: str  # "led", "button", "jack", "mount"
    label: str


@dataclass(frozen=True)
class Text:
    """Engraved text: its anchor point (baseline), size (cap height about 0.7 x size)."""

    text: str
    x: float
    y: float
    size: float
    anchor: str  # "start", "middle", "end"
    kind: str

    def box(self):
        """(x0, y0, x1, y1): a generous box around the text (sans-serif, 0.6 em a glyph)."""
        w = 0.6 * self.size * len(self.text)
        x0 = {"start": self.x, "middle": self.x - w / 2, "end": self.x - w}[self.anchor]
        return (x0, self.y - 0.8 * self.size, x0 + w, self.y + 0.25 * self.size)


@dataclass(frozen=True)
class Line:
    """An engraved line (the skunk lines)."""

    x1: float
    y1: float
    x2: float
    y2: float
    kind: str


@dataclass(frozen=True)
class Panel:
    """A sheet to cut (the face, or the box's boards laid out): size, holes to cut, rings,
    text and lines to engrave, and the outlines to cut (none: the sheet's rectangle)."""

    width: float
    height: float
    holes: tuple
    rings: tuple  # engraved circles (holes without an LED: the start holes)
    texts: tuple
    lines: tuple
    outlines: tuple = ()  # closed polygons ((x, y), ...) cut: boards and slots


def _controls(config, width, top, ps):
    """Holes and names of the buttons and the jack, in rows from y = top."""
    items = [(name, "button", ps.button_d) for name, _ in buttons(config)]
    items.append(("5 V in", "jack", ps.jack_d))
    per_row = max(1, int((width - 2 * ps.edge - ps.button_d) // ps.control_pitch) + 1)
    holes, texts = [], []
    for i, (name, kind, d) in enumerate(items):
        row, col = divmod(i, per_row)
        n = min(per_row, len(items) - row * per_row)
        x = width / 2 + (col - (n - 1) / 2) * ps.control_pitch
        y = top + row * ps.control_row + ps.button_d / 2
        holes.append(Hole(x, y, d, kind, name))
        texts.append(Text(name, x, y + ps.button_d / 2 + 1.5 + ps.text_mm, ps.text_mm,
                          "middle", kind + "-name"))
    rows = -(-len(items) // per_row)
    return holes, texts, top + rows * ps.control_row


def panel(config: Config, spec: face.FaceSpec = face.DEFAULT_SPEC,
          ps: PanelSpec = DEFAULT_PANEL) -> Panel:
    """The Panel of a layout: its holes, rings, engraving and size."""
    width, face_h = face.board_size(config, spec)
    pos = face.hole_positions(config, spec)
    holes, rings, texts, lines = [], [], [], []
    r = spec.hole_d / 2
    for lane, ln in enumerate(config.lanes):
        for hole, (x, y) in enumerate(pos[lane]):
            label = "%s %d" % (ln.name, hole)
            if ln.leds[hole] >= 0:
                holes.append(Hole(x, y, spec.hole_d, "led", label))
            else:
                rings.append(Hole(x, y, spec.hole_d, "ring", label))
            kind = face.track_of(config.holes, hole)
            inward = 1 if x < width / 2 else -1
            if hole and hole % 5 == 0 and lane == 0 and kind in ("up", "down"):
                texts.append(Text(str(hole), x - inward * (r + 1.0), y + 0.9, 2.4,
                                  "end" if inward > 0 else "start", "hole-number"))
        x0, y0 = pos[lane][0]
        texts.append(Text(ln.name, x0, y0 + r + 4.5, 3.0, "middle", "lane-name"))
    gy = pos[0][config.holes][1]
    texts.append(Text("game %d" % config.holes, width / 2, gy - r - 1.5, 2.4, "middle",
                      "game-label"))
    half = spec.track_gap / 2
    for name, line, before, after in face.skunk_gaps(config):
        by, ay = pos[0][before][1], pos[0][after][1]
        same = face.track_of(config.holes, before) == face.track_of(config.holes, after)
        y = (ay + by) / 2 if same else ay - spec.game_gap / 4
        xs = [pos[lane][after][0] for lane in range(len(config.lanes))]
        lines.append(Line(min(xs) - half, y, max(xs) + half, y, "skunk"))
        texts.append(Text("%s %d" % (name, line), min(xs) - half, y - 0.8, 2.2, "start",
                          "skunk-label"))
    controls, names, bottom = _controls(config, width, face_h, ps)
    holes += controls
    texts += names
    height = bottom + ps.mount_inset
    m = ps.mount_inset
    for x, y in ((m, m), (width - m, m), (m, height - m), (width - m, height - m)):
        holes.append(Hole(x, y, ps.mount_d, "mount", "M3"))
    return Panel(width, height, tuple(holes), tuple(rings), tuple(texts), tuple(lines))


def _blocked(p, clear):
    """Sorted, merged y intervals a split line must not cross."""
    spans = [(h.y - h.d / 2 - clear, h.y + h.d / 2 + clear) for h in p.holes + p.rings]
    spans += [(t.box()[1] - clear, t.box()[3] + clear) for t in p.texts]
    spans += [(min(ln.y1, ln.y2) - clear, max(ln.y1, ln.y2) + clear) for ln in p.lines]
    merged: list = []
    for lo, hi in sorted(spans):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return merged


def split(p: Panel, ps: PanelSpec = DEFAULT_PANEL) -> list[tuple[float, float]]:
    """[(y0, y1)] of the pieces: one if the panel fits the bed, else cuts between holes.

    Each cut lies in a gap clear of every hole, ring, text and line, as near as it can to
    an even share of the length while keeping every piece within bed_mm.
    """
    if p.height <= ps.bed_mm:
        return [(0.0, p.height)]
    blocked = _blocked(p, ps.clear)
    gaps = [(a[1], b[0]) for a, b in zip(blocked, blocked[1:]) if b[0] > a[1]]
    cuts = [0.0]
    n = math.ceil(p.height / ps.bed_mm)
    while p.height - cuts[-1] > ps.bed_mm:
        target = cuts[-1] + (p.height - cuts[-1]) / (n - len(cuts) + 1)
        best = None
        for lo, hi in gaps:
            y = min(max(target, lo), hi)
            if cuts[-1] < y <= cuts[-1] + ps.bed_mm and (
                    best is None or abs(y - target) < abs(best - target)):
                best = y
        if best is None:
            raise HardwareError("cannot split the %.0f mm face into pieces of %.0f mm or "
                                "less between its holes: raise bed_mm"
                                % (p.height, ps.bed_mm))
        cuts.append(round(best, 2))
    return list(zip(cuts, cuts[1:] + [p.height]))


def piece_of(pieces: list[tuple[float, float]], y: float) -> int:
    """The index of the piece holding y."""
    for i, (y0, y1) in enumerate(pieces):
        if y0 <= y < y1 or (i == len(pieces) - 1 and y <= y1):
            return i
    raise HardwareError("y = %.2f lies outside the panel" % y)
