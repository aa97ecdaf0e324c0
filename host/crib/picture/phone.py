"""The board at phone size: the lanes in play only, each lane's holes in rows of 30 (six
groups of five), big enough to read on a phone held upright, with the front and the back
peg marked differently.

The true-to-the-wood picture (crib.picture.snapshot) is 472 mm long: across a 360 px phone
its 4 mm holes come out under 3 px. Here a lane is drawn the way its score is read, hole 1
to the game hole in rows of 30 like lines of text (a 121 board: four rows, the skunk line
at 91 just into the last row), with the start hole before the first row and the game hole
after the last. The holes keep the colours their LEDs show (crib.picture.model); the pegs
come from the board's state: the front peg a filled disc ringed in white, the back peg an
open ring in the lane's colour.
"""

from collections.abc import Sequence
from xml.sax.saxutils import escape

from crib.picture.model import Picture
from crib.picture.snapshot import hex_colour

ROW = 30  # holes a row (six groups of five)
GROUP = 5
GROUP_GAP = 0.6  # extra space between groups, in hole pitches
ROW_PITCH = 1.1
LANE_GAP = 0.9
HOLE_R = 0.36  # of a pitch: 6.6 px wide holes when the picture is 344 px wide
PEG_R = 0.46
BAR_W = 0.35  # the lane's colour bar at its left
X0 = 3.1  # hole 1's centre
END_GAP = 1.6  # the start hole before a lane's first row, the game hole after its last
MARGIN = 0.7
FACE = "#261e18"
DARK = "#0c0a09"
RIM = "#54463a"


def _x(col: int) -> float:
    return X0 + col + (col // GROUP) * GROUP_GAP


def size(holes: int, lanes: int) -> tuple[float, float]:
    """(width, height) in pitches of the picture of `lanes` lanes of a board of `holes`."""
    return _x(ROW - 1) + END_GAP + MARGIN, place(holes, lanes - 1, holes)[1] + 0.5 + MARGIN


def place(holes: int, lane: int, hole: int) -> tuple[float, float]:
    """The centre (x, y) of a lane's hole in the picture."""
    rows = -(-(holes - 1) // ROW)
    top = MARGIN + 0.5 + lane * ((rows - 1) * ROW_PITCH + 1 + LANE_GAP)
    if hole <= 0:
        return X0 - END_GAP, top
    if hole >= holes:
        return _x(ROW - 1) + END_GAP, top + (rows - 1) * ROW_PITCH
    k = hole - 1
    return _x(k % ROW), top + (k // ROW) * ROW_PITCH


def svg(pic: Picture, holes: int, lanes: int,
        pegs: Sequence[Sequence[int]] | None = None) -> str:
    """The phone picture as SVG text: holes of the first `lanes` lanes (class hole,
    data-lane, data-hole) in their LEDs' colours, each lane's colour bar (class lane) and,
    given pegs [(back, front)] per lane, the pegs (class "peg front" and "peg back")."""
    lanes = max(1, min(lanes, len(pic.names)))
    w, h = size(holes, lanes)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.2f %.2f" '
           'class="phone-board">' % (w, h),
           '<rect class="face" x="0" y="0" width="%.2f" height="%.2f" rx="0.6" fill="%s"/>'
           % (w, h, FACE)]
    for lane in range(lanes):
        colour = hex_colour(pic.colours[lane])
        _, top = place(holes, lane, 1)
        _, bottom = place(holes, lane, holes)
        out.append('<rect class="lane" data-lane="%d" x="%.2f" y="%.2f" width="%.2f" '
                   'height="%.2f" rx="0.15" fill="%s"><title>%s</title></rect>'
                   % (lane, MARGIN - 0.3, top - 0.45, BAR_W, bottom - top + 0.9, colour,
                      escape(pic.names[lane])))
    for hole in pic.holes:
        if hole.lane >= lanes or hole.hole > holes:
            continue
        x, y = place(holes, hole.lane, hole.hole)
        fill = hex_colour(hole.colour) if hole.colour is not None else DARK
        out.append('<circle class="hole" data-lane="%d" data-hole="%d" cx="%.2f" cy="%.2f" '
                   'r="%.2f" fill="%s" stroke="%s" stroke-width="0.08"/>'
                   % (hole.lane, hole.hole, x, y, HOLE_R, fill, RIM))
    for lane, (back, front) in enumerate((pegs or [])[:lanes]):
        colour = hex_colour(pic.colours[lane])
        if back != front:
            x, y = place(holes, lane, back)
            out.append('<circle class="peg back" data-lane="%d" data-hole="%d" cx="%.2f" '
                       'cy="%.2f" r="%.2f" fill="none" stroke="%s" stroke-width="0.16"/>'
                       % (lane, back, x, y, PEG_R - 0.06, colour))
        x, y = place(holes, lane, front)
        out.append('<circle class="peg front" data-lane="%d" data-hole="%d" cx="%.2f" '
                   'cy="%.2f" r="%.2f" fill="%s" stroke="#ffffff" stroke-width="0.12"/>'
                   % (lane, front, x, y, PEG_R, colour))
    out.append("</svg>")
    return "\n".join(out) + "\n"
