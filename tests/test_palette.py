"""The colour-blind lane palette: a layout option, told apart under a deuteranopia simulation.

Colours are compared as sRGB (what the face drawing, the virtual board and the pictures
show; an LED is close enough for the comparison) with the CIEDE2000 difference, after
coloraide's Machado (2009) simulation of full deuteranopia (and protanopia, the other
red-green kind). A difference under about 20 reads as "similar" at a glance.
"""

import itertools
import json

import pytest
from coloraide import Color
from hypothesis import given
from hypothesis import strategies as st

from pegboard import render
from pegboard.config import PALETTES, ConfigError, default_dict, from_dict, lane_layout

APART_3 = 25  # every pair of a 2- or 3-lane board
APART_4 = 15  # the fourth colour has less room (the marks take white, violet and amber)


def _seen(rgb, deficiency):
    colour = Color("srgb", [v / 255 for v in rgb])
    return colour.filter(deficiency, method="machado") if deficiency else colour


def apart(a, b, deficiency="deutan"):
    """CIEDE2000 difference of two colours as a person with the deficiency sees them."""
    return _seen(a, deficiency).delta_e(_seen(b, deficiency), method="2000")


def closest(colours, deficiency="deutan"):
    return min(apart(a, b, deficiency) for a, b in itertools.combinations(colours, 2))


def layout(lanes, palette):
    d = default_dict()
    d["leds"] = lanes * 121
    d["lanes"] = [{"name": "L%d" % i, "colour": [255, 24, 0], "button": 2 + i,
                   "segments": s} for i, s in enumerate(lane_layout(lanes, 121))]
    d["pins"] = {"leds": 0, "undo": 7, "confirm": 8}
    d["palette"] = palette
    d["budget_ma"] = 1000
    return d


def test_the_default_red_and_green_look_alike_to_a_deuteranope():
    shipped = [tuple(ln["colour"]) for ln in default_dict()["lanes"]]
    assert apart(shipped[0], shipped[2], None) > 80  # plainly apart with normal vision
    assert closest(shipped) < 20  # red and green merge under deuteranopia


@pytest.mark.parametrize("deficiency", ["deutan", "protan", None])
def test_the_colour_blind_palette_stays_apart(deficiency):
    colours = [rgb for _, rgb in PALETTES["colour-blind"]]
    assert closest(colours[:3], deficiency) >= APART_3
    assert closest(colours, deficiency) >= APART_4


def test_the_colour_blind_palette_beats_the_default_for_a_deuteranope():
    colours = [rgb for _, rgb in PALETTES["colour-blind"]]
    shipped = [tuple(ln["colour"]) for ln in default_dict()["lanes"]]
    assert closest(colours[:3]) > 1.5 * closest(shipped)


def test_the_palette_keeps_clear_of_the_board_marks():
    marks = (render.MARK_RGB, render.SKUNK_RGB, render.GAME_RGB)
    for _, rgb in PALETTES["colour-blind"]:
        for mark in marks:
            assert apart(rgb, mark) >= 10, (rgb, mark)


@pytest.mark.parametrize("lanes", [2, 3, 4])
def test_the_palette_option_names_and_colours_the_lanes(lanes):
    c = from_dict(layout(lanes, "colour-blind"))
    assert [(ln.name, tuple(ln.colour)) for ln in c.lanes] == list(
        PALETTES["colour-blind"][:lanes])
    assert from_dict(json.loads(json.dumps(c.to_dict()))) == c
    plain = from_dict(layout(lanes, "lanes"))
    assert [ln.name for ln in plain.lanes] == ["L%d" % i for i in range(lanes)]
    assert "palette" not in plain.to_dict()  # the default writes nothing new


@given(st.one_of(st.text(max_size=12), st.integers(), st.lists(st.integers(), max_size=2)))
def test_an_unknown_palette_is_refused_by_name(value):
    if value in ("lanes", "colour-blind"):
        return
    with pytest.raises(ConfigError, match="palette"):
        from_dict(layout(3, value))
