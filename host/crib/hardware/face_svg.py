"""face.svg: the board face to scale, drawn from the layout and the face geometry."""

from crib import face
from crib.hardware.svg import Svg, hex_colour, number


def face_svg(config, spec=face.DEFAULT_SPEC):
    """face.svg: the board face to scale in mm, a drilling guide and the README picture.

    Holes (class "hole") in lane colours with their LED index beside them; holes without
    an LED (the start holes) are open rings. The strip's LEDs are the faint squares under
    the holes; the skunk lines are dashed across the lanes.
    """
    width, height = face.board_size(config, spec)
    holes = face.hole_positions(config, spec)
    leds = face.led_positions(config, spec)
    r = spec.hole_d / 2
    svg = Svg(width, height, "mm")
    svg.add("title", "Cribbage board face: %d lanes x %d holes, %s x %s mm"
            % (len(config.lanes), config.holes, number(width), number(height)))
    svg.add("rect", class_="outline", x=0.0, y=0.0, width=width, height=height, rx=6,
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
            # LED numbers face the middle of the board, hole numbers the edge.
            inward = 1 if x < width / 2 else -1
            if led >= 0:
                svg.add("text", led, class_="led-label", x=x + inward * (r + 0.4), y=y + 0.6,
                        font_size=1.6, font_family="sans-serif", fill="#555",
                        text_anchor="start" if inward > 0 else "end")
            if hole and hole % 5 == 0 and lane == 0 and kind in ("up", "down"):
                svg.add("text", hole, class_="hole-number", x=x - inward * (r + 1.0),
                        y=y + 0.9, font_size=2.4, font_family="sans-serif", fill="#000",
                        text_anchor="end" if inward > 0 else "start")
        x0, y0 = holes[lane][0]
        svg.add("text", ln.name, class_="lane-name", x=x0, y=y0 + r + 4.5, font_size=3,
                font_family="sans-serif", fill=colour, stroke="#000", stroke_width=0.08,
                text_anchor="middle")
    half = spec.track_gap / 2
    gx, gy = holes[0][config.holes]
    svg.add("text", "game hole %d" % config.holes, class_="game-label", x=width / 2,
            y=gy - r - 1.5, font_size=2.4, font_family="sans-serif", fill="#000",
            text_anchor="middle")
    for name, line, before, after in face.skunk_gaps(config):
        bx, by = holes[0][before]
        ax, ay = holes[0][after]
        same_track = face.track_of(config.holes, before) == face.track_of(config.holes,
                                                                        after)
        y = (ay + by) / 2 if same_track else ay - spec.game_gap / 4
        xs = [holes[lane][after][0] for lane in range(len(config.lanes))]
        svg.add("line", class_="skunk", x1=min(xs) - half, y1=y, x2=max(xs) + half, y2=y,
                stroke="#7a00cc", stroke_width=0.4, stroke_dasharray="1.5,1")
        svg.add("text", "%s %d" % (name, line), class_="skunk-label", x=min(xs) - half,
                y=y - 0.8, font_size=2.2, font_family="sans-serif", fill="#7a00cc")
    return svg.text()
