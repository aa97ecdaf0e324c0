"""The board face: where every hole (and the LED under it) sits, in millimetres.

One geometry for everything that draws the board: the drilling guide (hardware/face.svg),
the wiring plan's strip cuts, the virtual board and the board snapshot picture.

The layout, as on a classic continuous cribbage board, for a Config with `holes` = H:
- Each lane has a start hole (hole 0), an up track (holes 1..H//2, from the bottom up),
  a down track (the rest up to H - 1, from the top down) and its game hole H.
- Up tracks stand side by side in the left block, down tracks in the right block, mirrored:
  lane 0 is the outermost track on both sides, so each lane's path is a U around the
  lanes after it. Start holes sit under the up tracks at the bottom; the game holes sit
  in a row at the top centre (a 61 game's game hole, 61, tops the down track).
- Along a track the LEDs are a plain strip at `led_pitch` (default 144 LEDs/m). The holes
  come in groups of five with a gap between groups, as players expect: inside a group
  they are `hole_pitch` apart (a little less than the LED pitch) around the group's middle
  LED, so a hole is at most 2 * (led_pitch - hole_pitch) (1.9 mm by default) off the LED
  under it, well inside a 5 mm LED behind a diffuser, and the strip needs no cuts.
Coordinates: x to the right, y downwards (SVG's convention), origin at the top left
corner of the board. Up means towards y = 0.
"""

from dataclasses import dataclass
from typing import Callable

from crib.errors import CribError
from cribcore.rules import skunk_lines
from pegboard.config import Config

Point = tuple[float, float]  # (x_mm, y_mm)


class FaceError(CribError):
    """A face spec whose holes cannot sit over their LEDs."""


@dataclass(frozen=True)
class FaceSpec:
    """Dimensions of the face in millimetres (the defaults suit a 144 LED/m strip)."""

    led_pitch: float = 1000 / 144  # LED spacing on the strip
    hole_pitch: float = 6.0  # hole spacing inside a 5-hole group
    hole_d: float = 4.0  # drill diameter of a hole
    track_gap: float = 15.0  # track to track: a 12 mm strip and a wall between
    centre_gap: float = 24.0  # between the up block and the down block
    margin: float = 14.0  # board edge to the nearest track or hole
    start_gap: float = 14.0  # hole 1 down to the start hole
    game_gap: float = 16.0  # the top holes up to the game holes
    label_space: float = 8.0  # under the start holes, for the lane names


DEFAULT_SPEC = FaceSpec()
GROUP = 5


def check_spec(spec: FaceSpec) -> FaceSpec:
    """Return spec if its holes fit over their LEDs, else raise FaceError."""
    if not spec.hole_d < spec.hole_pitch <= spec.led_pitch:
        raise FaceError("need hole_d < hole_pitch <= led_pitch (mm), got %r" % (spec,))
    if min(spec.track_gap, spec.centre_gap, spec.margin, spec.start_gap,
           spec.game_gap) <= spec.hole_d:
        raise FaceError("gaps and margin must exceed the hole diameter, got %r" % (spec,))
    return spec


def track_counts(holes: int) -> tuple[int, int]:
    """(holes on the up track, holes on the down track) for holes 1..holes - 1."""
    up = holes // 2
    return up, max(0, holes - 1 - up)


def track_of(holes: int, hole: int) -> str:
    """Where hole 0..holes lies: "start", "up", "down" or "game"."""
    up, _ = track_counts(holes)
    if hole == 0:
        return "start"
    if hole == holes:
        return "game"
    return "up" if hole <= up else "down"


def _hole_offset(k: int, spec: FaceSpec) -> float:
    """Distance of a track's k-th hole (0-based) from its first hole."""
    return GROUP * (k // GROUP) * spec.led_pitch + (k % GROUP) * spec.hole_pitch


def _led_offset(k: int, spec: FaceSpec) -> float:
    """Distance of the LED under a track's k-th hole from that track's first hole.

    Each group's middle hole sits exactly on its LED; so the strip starts
    2 * (led_pitch - hole_pitch) before the first hole.
    """
    return k * spec.led_pitch - (GROUP // 2) * (spec.led_pitch - spec.hole_pitch)


class _Frame:
    """The fixed lines of a face: track x positions and the rows' y positions."""

    def __init__(self, lanes: int, holes: int, spec: FaceSpec) -> None:
        check_spec(spec)
        self.spec = spec
        self.lanes = lanes
        self.holes = holes
        up, _ = track_counts(holes)
        span = _hole_offset(up - 1, spec) if up else 0.0
        self.width = 2 * spec.margin + 2 * (lanes - 1) * spec.track_gap + spec.centre_gap
        self.y_game = spec.margin
        self.y_top = self.y_game + spec.game_gap
        self.y_bottom = self.y_top + span
        self.y_start = self.y_bottom + spec.start_gap
        self.height = self.y_start + spec.label_space + spec.margin

    def x_up(self, lane: int) -> float:
        return self.spec.margin + lane * self.spec.track_gap

    def x_down(self, lane: int) -> float:
        return self.width - self.spec.margin - lane * self.spec.track_gap

    def x_game(self, lane: int) -> float:
        return self.width / 2 + (lane - (self.lanes - 1) / 2) * self.spec.track_gap

    def place(self, lane: int, hole: int, offset: Callable[[int, FaceSpec], float]) -> Point:
        """(x, y) of a hole, or of its LED when offset is _led_offset."""
        up, _ = track_counts(self.holes)
        where = track_of(self.holes, hole)
        if where == "start":
            return (self.x_up(lane), self.y_start)
        if where == "game":
            return (self.x_game(lane), self.y_game)
        if where == "up":
            return (self.x_up(lane), self.y_bottom - offset(hole - 1, self.spec))
        return (self.x_down(lane), self.y_top + offset(hole - up - 1, self.spec))


def board_size(config: Config, spec: FaceSpec = DEFAULT_SPEC) -> Point:
    """(width_mm, height_mm) of the face for a config."""
    f = _Frame(len(config.lanes), config.holes, spec)
    return (f.width, f.height)


def hole_positions(config: Config, spec: FaceSpec = DEFAULT_SPEC) -> dict[int, list[Point]]:
    """{lane: [(x_mm, y_mm) of hole 0, 1, ..., holes]} for every lane of the config."""
    f = _Frame(len(config.lanes), config.holes, spec)
    return {lane: [f.place(lane, h, _hole_offset) for h in range(config.holes + 1)]
            for lane in range(len(config.lanes))}


def led_positions(config: Config, spec: FaceSpec = DEFAULT_SPEC) -> dict[int, Point]:
    """{led index: (x_mm, y_mm) of that LED on the strip} for every LED under a hole."""
    f = _Frame(len(config.lanes), config.holes, spec)
    out = {}
    for lane, leds in enumerate(config.lane_leds):
        for hole, led in enumerate(leds):
            if led >= 0:
                out[led] = f.place(lane, hole, _led_offset)
    return out


def strip_pieces(config: Config, spec: FaceSpec = DEFAULT_SPEC) -> list[tuple[int, int]]:
    """The strip cut list: [(first LED, last LED)] of each piece, in data-chain order.

    Consecutive LEDs of the chain stay on one piece when they lie one LED pitch apart per
    index step (LEDs under no hole between them are skipped over, hidden under the face);
    anywhere else the strip is cut and the next piece is joined by a three-wire jumper.
    """
    pos = led_positions(config, spec)
    pieces = []
    first = 0
    prev = None
    for led in sorted(pos):
        if prev is not None:
            (x0, y0), (x1, y1) = pos[prev], pos[led]
            dist = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
            if abs(dist - (led - prev) * spec.led_pitch) > 0.01 * spec.led_pitch:
                # Unused LEDs before the cut stay on the end of the piece before it.
                pieces.append((first, led - 1))
                first = led
        prev = led
    if prev is not None:
        pieces.append((first, config.leds - 1))
    return pieces


def skunk_gaps(config: Config,
               target: int | None = None) -> list[tuple[str, int, int, int]]:
    """[(name, line, hole before, hole after)] of the skunk lines of target (default: holes).

    A line marks the score a loser must pass: "skunk" 91 on a 121 board lies between holes
    90 and 91, "double skunk" 61 between 60 and 61. Lines off the board are left out.
    """
    target = config.holes if target is None else target
    names = ("skunk", "double skunk")
    return [(names[i], s, s - 1, s) for i, s in enumerate(skunk_lines(target))
            if 1 < s < config.holes]
