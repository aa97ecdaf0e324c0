"""The `leds` reply's pixels on the host: the `px` text (docs/protocol.md) to and from a
list of (r, g, b). The board only writes it, run by run (cribcore.protocol.pixel_runs):
these live here so the Pico does not hold them in its heap.
"""

from collections.abc import Callable

from cribcore.protocol import ProtocolError, pixel_runs


def format_pixels(pixel: Callable[[int], tuple[int, int, int]], count: int) -> str:
    """The whole `px` text (cribcore.protocol.pixel_runs, which the board writes run by run)."""
    return ",".join(pixel_runs(pixel, count))


def parse_pixels(text: str, count: int) -> list[tuple[int, int, int]]:
    """The (r, g, b) list of `count` LEDs from a `px` text."""
    pixels = [(0, 0, 0)] * count
    for run in text.split(",") if text else ():
        where, _, rgb = run.partition(":")
        first, _, many = where.partition("*")
        try:
            start, k = int(first), int(many or "1")
            px = (int(rgb[0:2], 16), int(rgb[2:4], 16), int(rgb[4:6], 16))
        except ValueError:
            raise ProtocolError(f"bad pixel run {run!r}", "bad_arg") from None
        if len(rgb) != 6 or k < 1 or start < 0 or start + k > count:
            raise ProtocolError(f"bad pixel run {run!r}", "bad_arg")
        pixels[start:start + k] = [px] * k
    return pixels
