"""The box for hand tools: stock boards cut with a saw, drilled, glued on pine blocks.

The same stack as the laser box (crib.hardware.box: corner screws, standoffs, the strip
plate under the diffuser), but every board is a plain rectangle a saw cuts, every piece
within a common length of sheet and strip (600 mm for the shipped face; a longer face
takes the next of STOCK_LENGTHS), and the joints are butt joints glued on square pine
blocks instead of fingers:

- bottom, two sides, two ends and the strip plate from one sheet of 3 mm hardboard or MDF;
  the walls stand on the bottom (the sides run its whole length, the ends fit between);
- square pine strip glued along the foot of each wall, on the bottom, clear of the corner
  standoffs, the buttons' and jack's bodies and the USB slot;
- the face (6 mm) and the diffuser (3 mm opal acrylic, one piece: no seam over the LEDs)
  cut to the face's size and drilled from the face template.

Each piece has its place in the box (x across, y along, z up from the bottom's underside,
mm) so a test can check that the cut list builds the box, and the views can draw it.
"""

from dataclasses import dataclass

from crib.hardware import box
from crib.hardware.box import DEFAULT_BOX, BoxSpec
from crib.hardware.errors import HardwareError
from crib.hardware.panel import DEFAULT_PANEL, PanelSpec, panel
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

STOCK_LENGTHS = (600.0, 1200.0, 2400.0)  # mm: sheets and strips are sold in these lengths
SHEET_W = 400.0  # mm: the 3 mm hardboard or MDF sheet's width
BLOCK = 10.0  # mm: square pine strip for the glue blocks
KERF = 2.0  # mm a saw cut takes, kept between pieces on the sheet and the strip
CLEAR = 2.0  # mm a glue block keeps from a standoff, a control's body, the USB slot
SHORTEST = 15.0  # mm: a shorter glue block holds too little to be worth cutting
STANDOFF_R = 3.2  # mm: half an M3 standoff's width across its corners


@dataclass(frozen=True)
class Piece:
    """One piece to cut: where it lies in the box, what it is cut from, its holes."""

    name: str
    stock: str  # "sheet", "block", "face", "diffuser"
    box: tuple  # (x0, y0, z0, x1, y1, z1), mm
    holes: tuple = ()  # (x, y, d, kind) in the piece's top view (box x, y)
    slot: tuple = ()  # (x0, z0, x1, z1) of the USB slot in an end

    @property
    def size(self):
        """(length, width, thickness): its sizes, longest first, thickness last."""
        x0, y0, z0, x1, y1, z1 = self.box
        length, width, thick = sorted((x1 - x0, y1 - y0, z1 - z0), reverse=True)
        return (round(length, 1), round(width, 1), round(thick, 1))


def stock(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
          ps: PanelSpec = DEFAULT_PANEL) -> tuple[float, tuple[float, float]]:
    """(the stock's length, the sheet (length, width)): the shortest of STOCK_LENGTHS that
    holds the face, whose size the longest pieces are."""
    p = panel(config, spec, ps)
    for length in STOCK_LENGTHS:
        if max(p.width, p.height) <= length:
            return length, (length, SHEET_W)
    raise HardwareError("the face (%.0f x %.0f mm) is longer than the %g mm stock the "
                        "hand-tool box is cut from" % (p.width, p.height, STOCK_LENGTHS[-1]))


def _free(lo, hi, blocked):
    """The stretches of [lo, hi] outside the blocked (a, b) ranges, each SHORTEST or more."""
    out, at = [], lo
    for a, b in sorted(blocked):
        if b <= at or a >= hi:
            continue
        if a - at >= SHORTEST:
            out.append((at, a))
        at = max(at, b)
    if hi - at >= SHORTEST:
        out.append((at, hi))
    return out


def _across(centres, band):
    """The ranges along a wall that round bodies (u, v, r) block in the band (v0, v1)
    across it: u is along the wall, v across."""
    v0, v1 = band
    out = []
    for u, v, r in centres:
        dv = max(v0 - v, 0.0, v - v1)
        if dv < r + CLEAR:
            half = ((r + CLEAR) ** 2 - dv ** 2) ** 0.5
            out.append((u - half, u + half))
    return out


def pieces(config: Config, spec: FaceSpec = face.DEFAULT_SPEC, ps: PanelSpec = DEFAULT_PANEL,
           bs: BoxSpec = DEFAULT_BOX) -> list[Piece]:
    """Every piece of the hand-tool box, in the order they are cut."""
    p = panel(config, spec, ps)
    st = box.stack(bs)
    w, h, t = p.width, p.height, bs.board_t
    longest = stock(config, spec, ps)[0]
    top = t + st["inside"]  # the walls' top edge: the diffuser's underside
    mounts = tuple((hl.x, hl.y, hl.d, "mount") for hl in p.holes if hl.kind == "mount")
    controls = [hl for hl in p.holes if hl.kind in ("button", "jack")]
    plate = next(b for b in box.parts(config, spec, ps, bs) if b.name == "strip plate")
    off = t + bs.clear
    z_plate = top - bs.strip_h - t
    out = [
        Piece("bottom", "sheet", (0.0, 0.0, 0.0, w, h, t), mounts),
        Piece("side left", "sheet", (0.0, 0.0, t, t, h, top)),
        Piece("side right", "sheet", (w - t, 0.0, t, w, h, top)),
        Piece("end (top)", "sheet", (t, 0.0, t, w - t, t, top)),
        Piece("end (USB)", "sheet", (t, h - t, t, w - t, h, top),
              slot=(w / 2 - bs.usb_w / 2, t + bs.usb_z - bs.usb_h / 2,
                    w / 2 + bs.usb_w / 2, t + bs.usb_z + bs.usb_h / 2)),
        Piece("strip plate", "sheet", (off, off, z_plate, off + plate.width,
                                       off + plate.height, z_plate + t),
              tuple((x + off, y + off, d, k) for x, y, d, k in plate.holes)),
    ]
    # Glue blocks on the bottom along each wall's foot, around what stands in the room.
    bodies = [(hl.x, hl.y, hl.d / 2 + bs.control_clear) for hl in controls]
    bodies += [(x, y, STANDOFF_R) for x, y, _, _ in mounts]
    z0, z1 = t, t + BLOCK
    if z1 > z_plate:
        raise HardwareError("no room for %g mm glue blocks under the strip plate" % BLOCK)
    slot = out[4].slot
    walls = [("side left", (t, t + BLOCK), False), ("side right", (w - t - BLOCK, w - t), False),
             ("end (top)", (t, t + BLOCK), True), ("end (USB)", (h - t - BLOCK, h - t), True)]
    for wall, band, across in walls:
        if across:  # along x, between the side blocks
            lo, hi = t + BLOCK, w - t - BLOCK
            blocked = _across([(x, y, r) for x, y, r in bodies], band)
            if wall == "end (USB)" and slot[1] < z1:
                blocked.append((slot[0] - CLEAR, slot[2] + CLEAR))
        else:
            lo, hi = t, h - t
            blocked = _across([(y, x, r) for x, y, r in bodies], band)
        for k, (a, b) in enumerate(_free(lo, hi, blocked)):
            name = "block %s %d" % (wall.split(" ", 1)[1].strip("()"), k + 1)
            if across:
                out.append(Piece(name, "block", (a, band[0], z0, b, band[1], z1)))
            else:
                out.append(Piece(name, "block", (band[0], a, z0, band[1], b, z1)))
    out += [Piece("diffuser", "diffuser", (0.0, 0.0, top, w, h, top + bs.diffuser_t),
                  mounts + tuple((hl.x, hl.y, hl.d, hl.kind) for hl in controls)),
            Piece("face", "face", (0.0, 0.0, top + bs.diffuser_t, w, h,
                                   top + bs.diffuser_t + bs.face_t))]
    for pc in out:
        if pc.size[0] > longest:
            raise HardwareError("%s is %.0f mm, longer than the %g mm stock"
                                % (pc.name, pc.size[0], longest))
    return out


def sheet_layout(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
                 ps: PanelSpec = DEFAULT_PANEL, bs: BoxSpec = DEFAULT_BOX
                 ) -> list[tuple[Piece, float, float, float, float]]:
    """[(piece, x, y, length, width)] of the sheet's pieces on the sheet (stock): rip
    strips across it, widest first, each strip's pieces end to end along it, a kerf apart."""
    sheet = stock(config, spec, ps)[1]
    todo = sorted((pc for pc in pieces(config, spec, ps, bs) if pc.stock == "sheet"),
                  key=lambda pc: (-pc.size[1], -pc.size[0], pc.name))
    shelves: list = []  # [y, width, used length, [(piece, x)]]
    y = 0.0
    for pc in todo:
        length, width, _ = pc.size
        for shelf in shelves:
            if width <= shelf[1] and shelf[2] + KERF + length <= sheet[0]:
                shelf[3].append((pc, shelf[2] + KERF))
                shelf[2] += KERF + length
                break
        else:
            shelves.append([y, width, length, [(pc, 0.0)]])
            y += width + KERF
    if y - KERF > sheet[1]:
        raise HardwareError("the box's boards need %.0f mm of a %g mm sheet" % (y, sheet[1]))
    return [(pc, x, shelf[0], pc.size[0], pc.size[1])
            for shelf in shelves for pc, x in shelf[3]]


def stock_strips(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
                 ps: PanelSpec = DEFAULT_PANEL, bs: BoxSpec = DEFAULT_BOX) -> list[list]:
    """The glue blocks packed into lengths of pine strip (stock), longest first."""
    longest = stock(config, spec, ps)[0]
    blocks = sorted((pc for pc in pieces(config, spec, ps, bs) if pc.stock == "block"),
                    key=lambda pc: (-pc.size[0], pc.name))
    sticks: list = []
    for pc in blocks:
        for s in sticks:
            if sum(b.size[0] + KERF for b in s) + pc.size[0] <= longest:
                s.append(pc)
                break
        else:
            sticks.append([pc])
    return sticks
