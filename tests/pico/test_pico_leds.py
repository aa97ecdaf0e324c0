"""The WS2812 pin of an emulated Pico: the waveform's timings, and every frame decoded from
it equal to what the renderer drew (the board's own `leds` reply)."""

import pytest

from crib.board.pixels import parse_pixels
from cribcore.protocol import decode

pytestmark = pytest.mark.pico

LEDS = 363
# WS2812B: T0H 250..550 ns, T1H 650..950 ns; the bit period within 1.25 us +- 600 ns.
T0H = (250, 550)
T1H = (650, 950)
BIT = (650, 1850)


def rgb(px):
    """A decoded frame's hex (G, R, B per LED, as sent) as a list of (r, g, b)."""
    out = []
    for i in range(0, len(px), 6):
        g, r, b = int(px[i:i + 2], 16), int(px[i + 2:i + 4], 16), int(px[i + 4:i + 6], 16)
        out.append((r, g, b))
    return out


def settled_frame(pico, line, settle_ms=300):
    """Send a change, let its animation finish, ask `leds`: (reply pixels, the frame the
    strip got last before that reply)."""
    pico.ask(line)
    pico.sleep(settle_ms)
    reply = pico.request("leds")[0]
    msg = decode(reply.text)
    assert msg.kind == "ok" and msg.args["leds"] == LEDS
    before = [f for f in pico.frames if f["end"] < reply.t]
    assert before, "no frame reached the strip"
    return parse_pixels(msg.args["px"], LEDS), before[-1]


def test_the_waveform_is_within_the_parts_timings(pico):
    pico.ask("peg p=0 n=3")
    pico.sleep(200)
    assert pico.frames
    for f in pico.frames:
        assert f["extra"] == 0 and len(f["px"]) == 6 * LEDS  # whole LEDs, all of them
        assert T0H[0] <= f["t0h"][0] <= f["t0h"][1] <= T0H[1], f["t0h"]
        assert T1H[0] <= f["t1h"][0] <= f["t1h"][1] <= T1H[1], f["t1h"]
        assert BIT[0] <= f["bit"][0] <= f["bit"][1] <= BIT[1], f["bit"]
        assert f["t0h"][0] == f["t0h"][1] and f["bit"][0] == f["bit"][1]  # PIO: no jitter
        assert f["end"] - f["t"] == pytest.approx(LEDS * 24 * f["bit"][0], rel=0.01)


@pytest.mark.parametrize("line", ["peg p=1 n=17", "set brightness=80", "peg p=2 n=40",
                                  "new players=2"])
def test_each_frame_is_what_the_renderer_drew(pico, line):
    shown, frame = settled_frame(pico, line)
    assert rgb(frame["px"]) == shown
    assert any(c != (0, 0, 0) for c in shown)  # pegs are lit: a real comparison
