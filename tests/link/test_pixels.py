"""The `leds` reply's pixel text on the host (crib.board.pixels), against the runs the
board writes (cribcore.protocol.pixel_runs)."""

import pytest

from crib.board.pixels import format_pixels, parse_pixels
from cribcore.protocol import ProtocolError


def test_pixels_round_trip_as_runs():
    px = [(0, 0, 0)] * 10
    px[2] = (255, 1, 16)
    px[5] = px[6] = px[7] = (1, 2, 3)
    text = format_pixels(lambda i: px[i], len(px))
    assert text == "2:ff0110,5*3:010203"
    assert parse_pixels(text, 10) == px
    assert format_pixels(lambda i: px[i], 0) == "" and parse_pixels("", 3) == [(0, 0, 0)] * 3


@pytest.mark.parametrize("bad", ["9*2:010101", "x:010101", "1:01010", "1:zz0000",
                                 "-1:010101", "1*0:010101"])
def test_a_bad_pixel_run_is_refused(bad):
    with pytest.raises(ProtocolError) as e:
        parse_pixels(bad, 10)
    assert e.value.code == "bad_arg"
