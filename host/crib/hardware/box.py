"""The box under the face and the stack that holds it together, from the face's panel.

The box is a tray of 3 mm board with finger joints: a bottom, two long sides and two ends,
the size of the face. Inside it, a strip plate (the strips stick to it, LEDs up) sits on
spacers just under the diffuser. At each corner one stack holds everything, top down:

    M3 screw | face | diffuser | spacer (the strip's height) | strip plate |
    M3 standoff, female both ends (the room for the electronics) | bottom | M3 screw

so each screw's length follows from the thicknesses (stack). The walls stand on the
bottom, the face and diffuser rest on their top edges, and the stacks clamp them between.

Finger joints: each joint runs along a bar where two boards would overlap (t x t in
section); the bar is cut into an odd number of equal fingers that belong to the two
boards in turn, and the corner cubes where three boards meet belong to the long sides.
Coordinates are millimetres, y downwards, in each part's own frame.
"""

from dataclasses import dataclass

from crib.hardware.errors import HardwareError
from crib.hardware.panel import DEFAULT_PANEL, PanelSpec, panel
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

M3_LENGTHS = (6, 8, 10, 12, 16, 20, 25, 30, 35, 40)  # screws sold everywhere


@dataclass(frozen=True)
class BoxSpec:
    """Thicknesses of the stack and sizes of the box, in millimetres."""

    face_t: float = 6.0  # the face: 6 mm plywood or MDF
    diffuser_t: float = 3.0  # opal acrylic
    strip_h: float = 3.0  # strip and LED: the spacers between the diffuser and the plate
    board_t: float = 3.0  # box and strip plate: 3 mm plywood
    room: float = 20.0  # standoff: room for the stripboard, the Pico, wires, button bodies
    engage: float = 4.0  # the least thread a screw keeps in its standoff
    finger: float = 15.0  # a finger's width, about
    clear: float = 0.5  # strip plate to the walls
    control_clear: float = 3.0  # strip plate around a button's or the jack's body
    wire_d: float = 4.0  # holes for the wires down through the strip plate
    usb_w: float = 13.0  # the slot for the Pico's USB plug in the end wall
    usb_h: float = 9.0
    usb_z: float = 9.0  # its centre above the bottom (Pico on the stripboard, foam tape)
    # A generic 16 mm panel push button below the panel: body and solder lugs (check
    # yours), and the room its wires need under the lugs.
    button_body: float = 25.0
    button_wires: float = 3.0


DEFAULT_BOX = BoxSpec()


def screw_mm(grip: float, bs: BoxSpec = DEFAULT_BOX) -> int:
    """The shortest M3 screw through grip mm that keeps engage mm in a standoff, never
    reaching past the standoff's middle (the other end takes the other screw)."""
    for length in M3_LENGTHS:
        if length >= grip + bs.engage:
            if length - grip > bs.room / 2:
                break
            return length
    raise HardwareError("no M3 screw between %.1f and %.1f mm: change the stack"
                        % (grip + bs.engage, grip + bs.room / 2))


def stack(bs: BoxSpec = DEFAULT_BOX) -> dict:
    """Every height of the build and the two screws' lengths (mm)."""
    grip = bs.face_t + bs.diffuser_t + bs.strip_h + bs.board_t
    inside = bs.strip_h + bs.board_t + bs.room  # bottom's top to the diffuser's underside
    return {
        "top_grip": grip, "top_screw": screw_mm(grip, bs),
        "bottom_grip": bs.board_t, "bottom_screw": screw_mm(bs.board_t, bs),
        "standoff": bs.room, "inside": inside, "wall": bs.board_t + inside,
        "depth": bs.board_t + inside + bs.diffuser_t + bs.face_t,
    }


def button_room(bs: BoxSpec = DEFAULT_BOX) -> float:
    """mm below a button's body and lugs to the bottom: the face's underside to the bottom's
    top, less the body; a HardwareError when the wires have no room."""
    left = bs.diffuser_t + bs.strip_h + bs.board_t + bs.room - bs.button_body
    if left < bs.button_wires:
        raise HardwareError("a button's %g mm body leaves %.1f mm under it for its wires, "
                            "less than %g mm: raise room (the standoffs)"
                            % (bs.button_body, left, bs.button_wires))
    return left


def _fingers(length, target):
    """An odd number (3 or more) of equal fingers along length."""
    n = max(3, int(length // target))
    return n if n % 2 else n - 1


def _profile(length, t, cut0, cut1, n, cut_even):
    """[(s0, s1, cut)] along an edge: its corners (t long) and n fingers between them;
    with n = 0 the edge is plain. cut: the board is cut back by t there."""
    segs = [(0.0, t, cut0)]
    inner = length - 2 * t
    if n:
        step = inner / n
        segs += [(t + i * step, t + (i + 1) * step, (i % 2 == 0) == cut_even)
                 for i in range(n)]
    else:
        segs.append((t, length - t, False))
    return segs + [(length - t, length, cut1)]


def _outline(w, h, t, edges):
    """The polygon of a w x h board whose four edges (top, right, bottom, left, clockwise
    from the top left corner) follow their profiles."""
    frames = (((0, 0), (1, 0), (0, 1), w), ((w, 0), (0, 1), (-1, 0), h),
              ((w, h), (-1, 0), (0, -1), w), ((0, h), (0, -1), (1, 0), h))
    pts: list = []
    for (origin, u, v, length), segs in zip(frames, edges):

        def at(s, d, origin=origin, u=u, v=v):
            return (round(origin[0] + s * u[0] + d * v[0], 4),
                    round(origin[1] + s * u[1] + d * v[1], 4))

        for k, (s0, s1, cut) in enumerate(segs):
            d = t if cut else 0.0
            corner = k in (0, len(segs) - 1)
            if corner and cut:
                pts.append(at(t if k == 0 else length - t, t))
            else:
                pts += [at(s0, d), at(s1, d)]
    return _tidy(pts)


def _tidy(pts):
    """Drop repeated points and the middle of three on a line."""
    out: list = []
    for p in pts:
        if not out or p != out[-1]:
            out.append(p)
    if len(out) > 1 and out[0] == out[-1]:
        out.pop()
    changed = True
    while changed:
        changed = False
        for i in range(len(out)):
            a, b, c = out[i - 1], out[i], out[(i + 1) % len(out)]
            if (b[0] - a[0]) * (c[1] - b[1]) == (b[1] - a[1]) * (c[0] - b[0]):
                del out[i]
                changed = True
                break
    return tuple(out)


@dataclass(frozen=True)
class Part:
    """One board to cut: its outline, holes (x, y, d, kind) and slots (polygons)."""

    name: str
    width: float
    height: float
    outline: tuple
    holes: tuple
    slots: tuple


def _rect(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def wire_holes(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
               bs: BoxSpec = DEFAULT_BOX) -> list[tuple[float, float, int]]:
    """[(x, y, LED)] on the face: a hole beside each end of each strip piece where its
    wires go down through the strip plate, clear of every piece and other hole."""
    pos = face.led_positions(config, spec)
    half_w, half_l = 6.0, spec.led_pitch / 2  # a 12 mm strip, an LED's share of it
    pieces = face.strip_pieces(config, spec)
    boxes = []
    for first, last in pieces:
        on = [pos[i] for i in range(first, last + 1) if i in pos]
        xs, ys = [p[0] for p in on], [p[1] for p in on]
        vertical = len(on) == 1 or max(xs) - min(xs) < 0.5
        if vertical:
            boxes.append((min(xs) - half_w, min(ys) - half_l, max(xs) + half_w,
                          max(ys) + half_l))
        else:
            boxes.append((min(xs) - half_l, min(ys) - half_w, max(xs) + half_l,
                          max(ys) + half_w))
    r = bs.wire_d / 2
    gap = r + 1.0
    out: list = []
    for first, last in pieces:
        for led in dict.fromkeys(i for i in (first, last) if i in pos):
            x, y = pos[led]
            neighbour = [i for i in (led - 1, led + 1) if first <= i <= last and i in pos]
            dirs = [(0, -1), (0, 1), (-1, 0), (1, 0)]
            if neighbour:  # away from the rest of the piece first
                nx, ny = pos[neighbour[0]]
                away = (round((x - nx) / spec.led_pitch), round((y - ny) / spec.led_pitch))
                dirs.remove(away)
                dirs.insert(0, away)
            for dx, dy in dirs:
                hx, hy = x + dx * (half_l + gap), y + dy * (half_l + gap)
                if dx:
                    hx = x + dx * (half_w + gap)
                if all(not (b[0] - r < hx < b[2] + r and b[1] - r < hy < b[3] + r)
                       for b in boxes) and all((hx - ox) ** 2 + (hy - oy) ** 2 >
                                               (2 * r + 1) ** 2 for ox, oy, _ in out):
                    out.append((round(hx, 2), round(hy, 2), led))
                    break
            else:
                raise HardwareError("no room for the wires at LED %d" % led)
    return out


def parts(config: Config, spec: FaceSpec = face.DEFAULT_SPEC, ps: PanelSpec = DEFAULT_PANEL,
          bs: BoxSpec = DEFAULT_BOX) -> list[Part]:
    """The boards of the box, each in its own frame: the diffuser, the strip plate, the
    bottom, the two long sides, the two ends (the second with the USB slot)."""
    p = panel(config, spec, ps)
    st = stack(bs)
    button_room(bs)
    t, x, y, z = bs.board_t, p.width, p.height, st["wall"]
    if t + 3.5 > ps.mount_inset:  # an M3 standoff is 5.5 mm across its flats
        raise HardwareError("the mounting holes (%.1f mm in) leave no room for a standoff "
                            "beside %.1f mm walls" % (ps.mount_inset, t))
    mounts = tuple((h.x, h.y, h.d, "mount") for h in p.holes if h.kind == "mount")
    controls = [h for h in p.holes if h.kind in ("button", "jack")]
    out = [Part("diffuser", x, y, _rect(0, 0, x, y), mounts + tuple(
        (h.x, h.y, h.d, h.kind) for h in controls), ())]
    off = t + bs.clear
    plate_holes = tuple((hx - off, hy - off, d, k) for hx, hy, d, k in mounts)
    plate_holes += tuple((h.x - off, h.y - off, h.d + 2 * bs.control_clear, h.kind)
                         for h in controls)
    plate_holes += tuple((hx - off, hy - off, bs.wire_d, "wire")
                         for hx, hy, _ in wire_holes(config, spec, bs))
    out.append(Part("strip plate", x - 2 * off, y - 2 * off,
                    _rect(0, 0, x - 2 * off, y - 2 * off), plate_holes, ()))
    nx, ny, nz = (_fingers(x - 2 * t, bs.finger), _fingers(y - 2 * t, bs.finger),
                  _fingers(z - 2 * t, min(bs.finger, (z - 2 * t) / 3)))
    bottom = _outline(x, y, t, [_profile(x, t, True, True, nx, False),
                                _profile(y, t, True, True, ny, False),
                                _profile(x, t, True, True, nx, False),
                                _profile(y, t, True, True, ny, False)])
    out.append(Part("bottom", x, y, bottom, mounts, ()))
    # A long side: x from its bottom edge (0) up to its top (z), y along the box.
    side = _outline(z, y, t, [_profile(z, t, False, False, nz, False),
                              _profile(y, t, False, False, 0, False),
                              _profile(z, t, False, False, nz, False),
                              _profile(y, t, False, False, ny, True)])
    out += [Part("side %s" % s, z, y, side, (), ()) for s in ("left", "right")]
    # An end: x across the box, y from its top (0) down to its bottom edge (z).
    end = _outline(x, z, t, [_profile(x, t, True, True, 0, False),
                             _profile(z, t, True, True, nz, True),
                             _profile(x, t, True, True, nx, True),
                             _profile(z, t, True, True, nz, True)])
    cz = z - t - bs.usb_z
    usb = _rect(x / 2 - bs.usb_w / 2, cz - bs.usb_h / 2, x / 2 + bs.usb_w / 2,
                cz + bs.usb_h / 2)
    out += [Part("end (top)", x, z, end, (), ()), Part("end (USB)", x, z, end, (), (usb,))]
    return out
