"""face.svg: the whole face to scale, drawn from the layout, the face geometry and the panel."""

from crib.hardware.panel import DEFAULT_PANEL, PanelSpec, panel
from crib.hardware.svg import Svg, hex_colour, number
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config

FONT = {"font_family": "sans-serif"}
TEXT_FILL = {"hole-number": "#000", "game-label": "#000", "skunk-label": "#7a00cc",
             "button-name": "#000", "jack-name": "#000"}


def face_svg(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
             ps: PanelSpec = DEFAULT_PANEL) -> str:
    """face.svg: the face to scale in mm: where each strip piece goes, and the README picture.

    Holes (class "hole") in lane colours with their LED index beside them; holes without
    an LED (the start holes) are open rings. The strip's LEDs are the faint squares under
    the holes; the skunk lines are dashed across the lanes. Under the tracks, the buttons
    and the power jack (class "control") with their names; mounting holes in the corners.
    The numbers, names and lines are the panel's engraving, as on face-cut.svg.
    """
    p = panel(config, spec, ps)
    holes = face.hole_positions(config, spec)
    leds = face.led_positions(config, spec)
    r = spec.hole_d / 2
    width, height = p.width, p.height
    svg = Svg(width, height, "mm")
    svg.add("title", "Cribbage board face: %d lanes x %d holes, %s x %s mm"
            % (len(config.lanes), config.holes, number(width), number(height)))
    svg.add("rect", class_="outline", x=0.0, y=0.0, width=width, height=height, rx=3,
            fill="#f3e6cf", stroke="#000", stroke_width=0.3)
    for _, (x, y) in sorted(leds.items()):
        svg.add("rect", class_="led", x=x - 2.5, y=y - 2.5, width=5, height=5,
                fill="none", stroke="#b9a98c", stroke_width=0.15)
    for lane, ln in enumerate(config.lanes):
        colour = hex_colour(ln.colour)
        for hole, (x, y) in enumerate(holes[lane]):
            led = ln.leds[hole]
            kind = face.track_of(config.holes, hole)
            svg.add("circle", class_="hole " + kind, cx=x, cy=y, r=r,
                    fill=colour if led >= 0 else "none", stroke="#000", stroke_width=0.2,
                    data_lane=lane, data_hole=hole, data_led=led)
            # LED numbers face the middle of the board, hole numbers (below) the edge.
            inward = 1 if x < width / 2 else -1
            if led >= 0:
                svg.add("text", led, class_="led-label", x=x + inward * (r + 0.4), y=y + 0.6,
                        font_size=1.6, fill="#555",
                        text_anchor="start" if inward > 0 else "end", **FONT)
    for h in p.holes:
        if h.kind != "led":
            svg.add("circle", class_="control " + h.kind, cx=h.x, cy=h.y, r=h.d / 2,
                    fill="#fff" if h.kind == "mount" else "#ddd", stroke="#000",
                    stroke_width=0.3, data_label=h.label)
    for ln in p.lines:
        svg.add("line", class_=ln.kind, x1=ln.x1, y1=ln.y1, x2=ln.x2, y2=ln.y2,
                stroke="#7a00cc", stroke_width=0.4, stroke_dasharray="1.5,1")
    names = {ln.name: hex_colour(ln.colour) for ln in config.lanes}
    for t in p.texts:
        if t.kind == "lane-name":
            extra = {"fill": names[t.text], "stroke": "#000", "stroke_width": 0.08}
        else:
            extra = {"fill": TEXT_FILL[t.kind]}
        svg.add("text", t.text, class_=t.kind, x=t.x, y=t.y, font_size=t.size,
                text_anchor=t.anchor, **extra, **FONT)
    return svg.text()
