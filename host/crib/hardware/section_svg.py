"""section.svg: the depth drawing, a section through the box's left side at a corner stack.

To scale (SCALE px per mm) from the box spec, the stack and the face: the corner screw
through face, diffuser, spacer and strip plate into its standoff; the strips of the left
tracks on the plate with their LEDs under the diffuser; the stripboard and the Pico in the
room below; the wall on the bottom. Each layer is named on the right with its thickness.
Beside it, a button's section to the same scale: its body against the room under the face
(box.button_room refuses a body that leaves its wires no room).
"""

from crib.hardware import box
from crib.hardware.box import DEFAULT_BOX, BoxSpec
from crib.hardware.panel import DEFAULT_PANEL, PanelSpec, panel
from crib.hardware.svg import Svg
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

SCALE = 8.0  # px per mm
LEFT, TOP = 20.0, 40.0  # px: where the box's outer corner (face top) lies
SMALL = {"font_family": "sans-serif", "font_size": 11}
WOOD, ACRYLIC, METAL, STRIP, BOARD = "#e8d2a6", "#f4f4f4", "#9aa3ad", "#ffffff", "#2f7d32"
PICO_T, HEADER_T, STRIPBOARD_T, TAPE_T = 1.0, 2.5, 1.6, 1.0  # mm
BUTTON_SIDE = 6.0  # mm of the boards drawn each side of the button's hole
CAP_T = 3.0  # mm: the button's cap above the face


def section_svg(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
                ps: PanelSpec = DEFAULT_PANEL, bs: BoxSpec = DEFAULT_BOX) -> str:
    """section.svg text."""
    st = box.stack(bs)
    p = panel(config, spec, ps)
    xs = [round(x, 2) for x, _ in face.led_positions(config, spec).values() if x < p.width / 2]
    tracks = sorted({x for x in xs if xs.count(x) > 2})  # the left tracks, not game holes
    span = tracks[-1] + 14  # mm of the box shown, from its left side
    z_diff = bs.face_t
    z_plate = z_diff + bs.diffuser_t + bs.strip_h
    z_room = z_plate + bs.board_t
    z_bottom = z_room + bs.room
    z_end = z_bottom + bs.board_t
    m = ps.mount_inset
    inset = LEFT + span * SCALE + 330  # px: the button's own section, right of the names
    width = inset + (ps.button_d + 2 * BUTTON_SIDE) * SCALE + 150
    height = TOP + (z_end + 6) * SCALE + 60
    svg = Svg(width, height)
    svg.add("title", "Section through the box at a corner: the stack, %g mm deep" % st["depth"])
    svg.add("rect", x=0, y=0, width=width, height=height, fill="#fff")

    def box_(x0, z0, x1, z1, fill, cls, stroke: str = "#000") -> None:
        svg.add("rect", class_=cls, x=LEFT + x0 * SCALE, y=TOP + z0 * SCALE,
                width=(x1 - x0) * SCALE, height=(z1 - z0) * SCALE, fill=fill, stroke=stroke,
                stroke_width=1)

    # The face with its LED holes, the diffuser, the plate, the bottom, the wall.
    edges = [0.0] + [e for x in tracks for e in (x - spec.hole_d / 2, x + spec.hole_d / 2)]
    edges.append(span)
    screw = (m - 1.6, m + 1.6)
    for x0, x1 in zip(edges[::2], edges[1::2]):
        for a, b in ((x0, min(x1, screw[0])), (max(x0, screw[1]), x1)):
            if b > a:
                box_(a, 0, b, bs.face_t, WOOD, "face")
    box_(0, z_diff, span, z_diff + bs.diffuser_t, ACRYLIC, "diffuser")
    box_(bs.board_t + bs.clear, z_plate, span, z_room, WOOD, "plate")
    box_(0, z_diff + bs.diffuser_t, bs.board_t, z_end, WOOD, "wall")
    box_(bs.board_t, z_bottom, span, z_end, WOOD, "bottom")
    # The strips and their LEDs on the plate, just under the diffuser.
    for x in tracks:
        box_(x - 6, z_plate - 0.5, x + 6, z_plate, STRIP, "strip")
        box_(x - 2.5, z_plate - 2.1, x + 2.5, z_plate - 0.5, "#fff3b0", "led")
    # The corner stack: spacer, standoff, the two screws.
    box_(m - 3, z_diff + bs.diffuser_t, m + 3, z_plate, "#fff", "spacer")
    box_(m - 2.75, z_room, m + 2.75, z_bottom, METAL, "standoff")
    box_(m - 2.75, -2.0, m + 2.75, 0, METAL, "screw-head")
    box_(m - 1.5, 0, m + 1.5, st["top_screw"], METAL, "screw")
    box_(m - 2.75, z_end, m + 2.75, z_end + 2.0, METAL, "screw-head")
    box_(m - 1.5, z_end - st["bottom_screw"], m + 1.5, z_end, METAL, "screw")
    # The stripboard and the Pico on foam tape in the room.
    z = z_bottom - TAPE_T
    box_(tracks[0], z, span - 2, z_bottom, "#ddd", "tape")
    box_(tracks[0], z - STRIPBOARD_T, span - 2, z, "#c98b4a", "stripboard")
    z -= STRIPBOARD_T
    box_(tracks[0] + 4, z - HEADER_T, tracks[0] + 6.5, z, "#222", "header")
    box_(tracks[0] + 4, z - HEADER_T - PICO_T, span - 8, z - HEADER_T, BOARD, "pico")
    # Names and thicknesses on the right, one per layer, with a leader.
    right = LEFT + span * SCALE + 14
    labels = [
        (-1.0, "M3 x %d screw: %g mm in the standoff" % (st["top_screw"],
                                                          st["top_screw"] - st["top_grip"])),
        (bs.face_t / 2, "face %g mm" % bs.face_t),
        (z_diff + bs.diffuser_t / 2, "diffuser %g mm (opal acrylic)" % bs.diffuser_t),
        (z_plate - 1.2, "LED strip, %g mm spacer" % bs.strip_h),
        (z_plate + bs.board_t / 2, "strip plate %g mm" % bs.board_t),
        (z_room + 4, "standoff %g mm: the room" % st["standoff"]),
        (z_bottom - TAPE_T - STRIPBOARD_T - 2, "Pico on HDR1, stripboard, foam tape"),
        (z_bottom + bs.board_t / 2, "bottom %g mm" % bs.board_t),
        (z_end + 1.0, "M3 x %d screw: %g mm in the standoff" % (
            st["bottom_screw"], st["bottom_screw"] - bs.board_t)),
    ]
    last = -1e9
    for z_mm, text in labels:
        y = max(TOP + z_mm * SCALE + 4, last + 15)
        last = y
        svg.add("line", class_="leader", x1=LEFT + span * SCALE, y1=TOP + z_mm * SCALE,
                x2=right - 4, y2=y - 4, stroke="#888", stroke_width=0.8)
        svg.add("text", text, x=right, y=y, **SMALL)
    _button(svg, inset, bs, ps, z_diff, z_plate, z_room, z_bottom, z_end)
    svg.add("text", "Section at a corner, to scale: %g mm deep in all, walls %g mm"
            % (st["depth"], st["wall"]), x=LEFT, y=height - 14, **SMALL)
    return svg.text()


def _button(svg, x0, bs, ps, z_diff, z_plate, z_room, z_bottom, z_end):
    """A button's section beside the corner's, to the same scale: its body and lugs hang
    from the face through the diffuser and the plate; the room left under them is named."""
    left = box.button_room(bs)
    d, side = ps.button_d, BUTTON_SIDE
    hole = d + 2 * bs.control_clear  # the plate's hole round the body

    def rect(a, z0, b, z1, fill, cls):
        svg.add("rect", class_=cls, x=x0 + a * SCALE, y=TOP + z0 * SCALE,
                width=(b - a) * SCALE, height=(z1 - z0) * SCALE, fill=fill, stroke="#000",
                stroke_width=1)

    full = d + 2 * side
    for a, b in ((0.0, side), (side + d, full)):
        rect(a, 0, b, bs.face_t, WOOD, "face")
        rect(a, z_diff, b, z_diff + bs.diffuser_t, ACRYLIC, "diffuser")
    for a, b in ((0.0, full / 2 - hole / 2), (full / 2 + hole / 2, full)):
        if b > a:
            rect(a, z_plate, b, z_room, WOOD, "plate")
    rect(0.0, z_bottom, full, z_end, WOOD, "bottom")
    rect(side - 2, -CAP_T, side + d + 2, 0, "#d33", "button-cap")
    rect(side + 1, 0, side + d - 1, bs.face_t + bs.button_body, METAL, "button-body")
    svg.add("text", "%g mm button: %g mm under the face," % (d, bs.button_body),
            x=x0, y=TOP + (z_end + 4) * SCALE + 14, **SMALL)
    svg.add("text", "%g mm left for its wires" % round(left, 1), x=x0,
            y=TOP + (z_end + 4) * SCALE + 29, **SMALL)
