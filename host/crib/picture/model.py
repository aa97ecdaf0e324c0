"""The board as lit now, for eyes: every hole where face.py puts it, in the colour its LED
shows, for the snapshot images and the virtual board's terminal drawing.

Pictures lie on their side (the face turned a quarter left: start holes on the left,
game holes on the right), which suits screens and terminals. LED values are what the
firmware sends the strip (gamma-corrected, scaled by brightness); a screen shows the
perceived colour, so the picture undoes the brightness and the gamma.
"""

from collections.abc import Sequence

from crib.errors import CribError
from crib.layout import face
from pegboard.config import Config
from pegboard.light import gamma_table

RGB = tuple[int, ...]  # (r, g, b)
UNLIT = None


class LayoutMismatch(CribError):
    """The board reports another layout than the config the picture is drawn from."""


def check_layout(config: Config, lanes: int | None = None, holes: int | None = None,
                 leds: int | None = None) -> None:
    """Raise LayoutMismatch if the board's lanes, holes or LED count differ from config."""
    theirs = (lanes, holes, leds)
    ours = (len(config.lanes), config.holes, config.leds)
    for a, b in zip(theirs, ours):
        if a is not None and a != b:
            raise LayoutMismatch("the board has %r lanes, %r holes, %r LEDs; the layout has "
                                 "%r, %r, %r: give its config with --config" % (theirs + ours))


def perceived(rgb: Sequence[int], gamma: float, brightness: int) -> RGB:
    """The colour a screen should show for an LED value: brightness and gamma undone."""
    inverse = _inverse(gamma, brightness)
    return tuple([inverse[min(255, max(0, v))] for v in rgb])


_INVERSES: dict[tuple[float, int], list[int]] = {}  # (gamma, brightness) -> the inverse table


def _inverse(gamma: float, brightness: int) -> list[int]:
    """For each value 0..255 sent to the strip, the perceived level it stands for.

    Built from the firmware's own gamma table and brightness scaling, so it is exact: a
    value that several levels share maps to the middle of them; a value no level sends
    (the current limiter scaled it) maps to the level whose value is nearest.
    """
    key = (gamma, brightness)
    if key not in _INVERSES:
        g = gamma_table(gamma)
        bri = max(1, min(100, brightness)) * 256 // 100
        levels: dict[int, list[int]] = {}
        for lv in range(1, 256):
            if g[lv]:
                levels.setdefault((g[lv] * bri) >> 8 or 1, []).append(lv)
        sent = sorted(levels)
        table = [0]
        for v in range(1, 256):
            near = min(sent, key=lambda s: (abs(s - v), s))
            same = levels[near]
            table.append((same[0] + same[-1] + 1) // 2)
        _INVERSES[key] = table
    return _INVERSES[key]


class Hole:
    """One hole of the picture: lane, hole number, centre (mm, on its side), its LED and the
    colour it shows (None when dark or without an LED)."""

    def __init__(self, lane: int, hole: int, x: float, y: float, led: int,
                 colour: RGB | None) -> None:
        self.lane = lane
        self.hole = hole
        self.x = x
        self.y = y
        self.led = led
        self.colour = colour

    def __repr__(self) -> str:
        return "Hole(%r, %r, %.1f, %.1f, %r, %r)" % (self.lane, self.hole, self.x, self.y,
                                                      self.led, self.colour)


class Picture:
    """Holes of every lane with their colours; width and height in mm; lane names."""

    def __init__(self, holes: list[Hole], width: float, height: float, names: list[str],
                 colours: list[RGB]) -> None:
        self.holes = holes
        self.width = width
        self.height = height
        self.names = names
        self.colours = colours

    def hole(self, lane: int, number: int) -> Hole:
        """The Hole of a lane's hole number."""
        for h in self.holes:
            if h.lane == lane and h.hole == number:
                return h
        raise KeyError((lane, number))


def turn(config: Config) -> tuple[dict[int, list[tuple[float, float]]], tuple[float, float]]:
    """{lane: [(x, y) mm of hole 0..holes]} on its side, and (width, height) in mm."""
    w, h = face.board_size(config)
    pos = face.hole_positions(config)
    # A quarter turn left: the face's top (game holes) goes right, its left edge up.
    return ({lane: [(h - y, x) for x, y in pts] for lane, pts in pos.items()}, (h, w))


def board_picture(config: Config, pixels: Sequence[Sequence[int]],
                  brightness: int | None = None) -> Picture:
    """The Picture of a pixel buffer on a layout (brightness: the board's setting)."""
    if brightness is None:
        brightness = config.brightness  # type: ignore[attr-defined]  # a setting: setattr
    pos, (width, height) = turn(config)
    holes = []
    for lane, leds in enumerate(config.lane_leds):
        for number, led in enumerate(leds):
            colour = UNLIT
            if 0 <= led < len(pixels) and any(pixels[led]):
                colour = perceived(pixels[led], config.gamma, brightness)
            x, y = pos[lane][number]
            holes.append(Hole(lane, number, x, y, led, colour))
    return Picture(holes, width, height, [ln.name for ln in config.lanes],
                   [tuple(ln.colour) for ln in config.lanes])
