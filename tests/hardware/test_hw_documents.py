"""`crib hardware`: power figures, parts, pins and drawings follow the layout config."""

import csv
import io
import json
import math
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import ROOT

from crib import hardware
from crib.cli import main
from crib.hardware import errors as hw_errors
from crib.hardware import face_svg as hw_face_svg
from crib.hardware import panel
from crib.hardware import parts as hw_parts
from crib.hardware import power as hw_power
from crib.hardware import power_doc as hw_power_doc
from crib.hardware import svg as hw_svg
from crib.hardware import wiring_svg as hw_wiring_svg
from crib.layout import face
from pegboard import light
from pegboard.config import default_dict, from_dict, lane_layout

NAMES = (("Red", [255, 24, 0]), ("Blue", [0, 60, 255]), ("Green", [0, 255, 40]),
         ("White", [255, 255, 255]))


def layout(lanes=3, holes=121, budget=None, brightness=40, **extra):
    """A serpentine layout dict of lanes x holes (buttons GP2.., undo GP7, confirm GP8).

    budget None keeps the shipped budget's light above the dark chain: the shipped
    budget_ma itself for the shipped chain.
    """
    d = default_dict(brightness)
    if budget is None:
        budget = d["budget_ma"] + (lanes * holes - d["leds"]) * d["led_ma"]["idle"]
    d["holes"] = holes
    d["leds"] = lanes * holes
    d["lanes"] = [{"name": NAMES[i][0], "colour": NAMES[i][1], "button": 2 + i,
                   "segments": seg} for i, seg in enumerate(lane_layout(lanes, holes))]
    d["pins"] = {"leds": 0, "undo": 7, "confirm": 8}
    d["budget_ma"] = budget
    d.update(extra)
    return d


def config(**kw):
    return from_dict(layout(**kw))


def classes(svg_text, name):
    """Elements of an SVG whose class list holds name."""
    root = ET.fromstring(svg_text)
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


# -- the checked-in documents ----------------------------------------------------------------

def test_checked_in_hardware_files_are_what_the_command_makes_now(tmp_path):
    assert main(["hardware", "all", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(hardware.DOCS)
    for name in hardware.DOCS:
        assert (ROOT / "hardware" / name).read_bytes() == (tmp_path / name).read_bytes(), (
            "hardware/%s is stale: run `crib hardware all --out hardware`" % name)


def test_the_documents_are_the_same_every_time():
    c, source = hardware.load_layout()
    assert hardware.documents(c, source) == hardware.documents(c, source)


def test_the_guide_and_the_readme_show_the_drawings():
    guide = (ROOT / "hardware" / "README.md").read_text()
    for name in hardware.DOCS:
        if name != "README.md":
            assert "(%s)" % name in guide, name
    assert "crib deploy" in guide
    readme = (ROOT / "README.md").read_text()
    assert 'src="hardware/schematic.svg"' in readme and 'src="hardware/face.svg"' in readme


# -- power ---------------------------------------------------------------------------------

def test_power_figures_match_an_independent_calculation():
    d = layout()
    per_led = d["led_ma"]["full_white"] + d["led_ma"]["idle"]
    p = hw_power.power_budget(from_dict(d))
    assert p["worst_ma"] == d["leds"] * per_led
    assert p["worst_mw"] == d["leds"] * per_led * 5
    assert p["idle_ma"] == d["leds"] * d["led_ma"]["idle"]
    assert p["limited_ma"] == min(d["budget_ma"], p["worst_ma"])
    need = p["limited_ma"] + hw_power.PICO_MA
    assert p["plan"]["supply_a"] == min(a for a in hw_power.SUPPLY_A if a * 1000 * 0.8 >= need)
    assert p["idle_ma"] <= p["typical_ma"] <= p["limited_ma"]


def test_the_shipped_layout_is_safe_on_a_usb_2_port():
    c, _ = hardware.load_layout()
    p = hw_power.power_budget(c)
    assert p["plan"]["need_ma"] == c.budget_ma + hw_power.PICO_MA <= hw_power.USB_MA
    assert p["usb_ok"]
    assert "USB-A to 5.5/2.1 mm barrel cable" in hw_power_doc.power_markdown(c, "x")


def test_a_budget_over_usb_asks_for_the_supply():
    c = config(budget=hw_power.USB_MA)
    assert not hw_power.power_budget(c)["usb_ok"]
    assert "USB-A to 5.5/2.1 mm barrel cable" not in hw_power_doc.power_markdown(c, "x")


def test_the_limiter_keeps_an_all_white_frame_within_budget():
    for budget in (400, 500, 2000, 30000):
        c = config(budget=budget)
        scale, ma = hw_power.all_white_limited(c)
        v = (255 * scale) >> 8
        assert ma == light.frame_ma([(v, v, v)] * c.leds, c.led_ma) <= max(budget, ma)
        assert ma <= budget or scale == light.ONE


def test_typical_draw_grows_with_brightness():
    assert (hw_power.typical_ma(config(brightness=10, budget=20000))
            < hw_power.typical_ma(config(brightness=100, budget=20000)))


@given(st.integers(400, 60000))
@settings(max_examples=40, deadline=None)
def test_supply_carries_the_need_with_headroom_and_grows_with_the_budget(budget):
    c = config(budget=budget)
    plan = hw_power.power_plan(c)
    assert plan["supply_a"] * 1000 * 4 >= plan["need_ma"] * 5
    smaller = [a for a in hw_power.SUPPLY_A if a < plan["supply_a"]]
    assert not smaller or smaller[-1] * 1000 * 4 < plan["need_ma"] * 5
    assert hw_power.power_plan(c, budget + 1000)["supply_a"] >= plan["supply_a"]


def test_feed_spacing_keeps_the_sag_within_limit():
    c = config(budget=20000)
    plan = hw_power.power_plan(c)
    n = plan["leds_per_feed"]
    full = c.led_ma["full_white"] + c.led_ma["idle"]

    def sag_mv(k):  # amps x ohms per metre x metres, in mV
        amps = min(k * full, plan["supply_a"] * 1000) / 1000
        return amps * hw_power.STRIP_MOHM_M / 1000 * k * face.DEFAULT_SPEC.led_pitch / 1000 * 1000

    assert sag_mv(n) <= hw_power.DROP_MV < sag_mv(n + 1)
    assert plan["feeds"] == list(range(0, c.leds, n))
    assert len(plan["feeds"]) == math.ceil(c.leds / n)


def test_wire_gauge_carries_the_current_with_little_drop():
    for ma in (500, 3000, 9000, 25000):
        awg = hw_power.wire_awg(ma, 1.0)
        mohm, max_ma = [(r, m) for g, r, m in hw_power.AWG if g == awg][0]
        assert ma <= max_ma and ma * mohm * 2 <= hw_power.DROP_MV * 1000
    assert hw_power.wire_awg(100, 1.0) == hw_power.MIN_POWER_AWG
    with pytest.raises(hw_errors.HardwareError):
        hw_power.wire_awg(90000, 1.0)


# -- the documents follow the layout -------------------------------------------------------

@pytest.mark.parametrize("lanes", [2, 3, 4])
def test_bom_counts_follow_the_layout(lanes):
    c = config(lanes=lanes)
    rows = list(csv.DictReader(io.StringIO(hw_parts.bom_csv(c))))
    strip = [r for r in rows if r["ref"] == "LED1"][0]
    assert strip["qty"] == "%d m" % math.ceil(lanes * 121 / hw_parts.LEDS_PER_M)
    assert "%d LEDs" % (lanes * 121) in strip["notes"]
    for name, _ in NAMES[:lanes]:
        assert "%s 121" % name in strip["notes"]
    buttons = [r for r in rows if r["part"].startswith("momentary")][0]
    assert buttons["qty"] == str(lanes + 2)
    supply = [r for r in rows if r["ref"] == "PS1"][0]
    assert "5 V %d A" % hw_power.power_plan(c)["supply_a"] in supply["part"]
    pieces = [r for r in rows if r["part"].startswith("JST")][0]
    assert pieces["qty"] == str(len(face.strip_pieces(c)) - 1)  # the joints between pieces


def test_a_bigger_budget_buys_a_bigger_supply_and_thicker_wire():
    small = hw_parts.bom_rows(config(budget=500))
    big = hw_parts.bom_rows(config(budget=9000))
    assert [r for r in small if r[0] == "PS1"][0][3].startswith("5 V 1 A")
    assert [r for r in big if r[0] == "PS1"][0][3].startswith("5 V 12 A")
    assert [r for r in big if r[0] == "W1"][0][3] != [r for r in small if r[0] == "W1"][0][3]


@pytest.mark.parametrize("lanes, holes", [(2, 121), (3, 121), (4, 121), (2, 61)])
def test_face_svg_has_a_hole_per_hole_with_its_led(lanes, holes):
    c = config(lanes=lanes, holes=holes)
    svg = hw_face_svg.face_svg(c)
    found = classes(svg, "hole")
    assert len(found) == lanes * (holes + 1)
    leds = sorted(int(e.get("data-led")) for e in found if int(e.get("data-led")) >= 0)
    assert leds == list(range(lanes * holes))
    assert len(classes(svg, "led-label")) == lanes * holes
    assert len(classes(svg, "start")) == lanes and len(classes(svg, "game")) == lanes
    assert len(classes(svg, "skunk")) == len(face.skunk_gaps(c))
    root = ET.fromstring(svg)
    p = panel.panel(c)
    assert p.width == face.board_size(c)[0] and p.height > face.board_size(c)[1]
    assert root.get("viewBox") == "0 0 %s %s" % (hw_svg.number(p.width),
                                                 hw_svg.number(p.height))
    controls = classes(svg, "control")
    assert sorted(e.get("data-label") for e in controls if "button" in e.get("class")) == (
        sorted([ln.name for ln in c.lanes] + ["Undo", "Confirm"]))
    assert len([e for e in controls if "mount" in e.get("class")]) == 4


@pytest.mark.parametrize("lanes", [2, 4])
def test_wiring_svg_has_every_piece_feed_and_button(lanes):
    c = config(lanes=lanes, budget=5000)
    svg = hw_wiring_svg.wiring_svg(c)
    pieces = classes(svg, "piece")
    assert [(int(e.get("data-first")), int(e.get("data-last"))) for e in pieces] == (
        face.strip_pieces(c))
    assert [int(e.get("data-led")) for e in classes(svg, "feed")] == (
        hw_power.power_plan(c)["feeds"])
    assert [int(e.get("data-gpio")) for e in classes(svg, "switch")] == [2 + i for i in
                                                                         range(lanes)] + [7, 8]
    assert len(classes(svg, "chain")) == len(pieces) - 1


def test_pins_follow_the_layout():
    c = config(lanes=4)
    rows = hw_parts.pin_rows(c)
    by_name = {r[1]: r[0] for r in rows}
    assert by_name == {"GP0": 1, "GP2": 4, "GP3": 5, "GP4": 6, "GP5": 7, "GP7": 10,
                       "GP8": 11, "GND": 38, "VSYS": 39, "VBUS": 40}
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)
    text = hw_parts.pins_markdown(c, "x.json")
    assert "White button" in text and "| 11 | GP8 |" in text


def test_a_pin_off_the_header_is_refused(tmp_path, capsys):
    d = layout()
    d["lanes"][1]["button"] = 25
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    assert main(["hardware", "pins", "--config", str(path)]) == 1
    assert "crib: error:" in capsys.readouterr().err


def test_cli_writes_documents_for_another_layout(tmp_path):
    path = tmp_path / "four.json"
    path.write_text(json.dumps(layout(lanes=4, budget=3000)))
    out = tmp_path / "out"
    assert main(["hardware", "all", "--config", str(path), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(hardware.DOCS)
    assert "484 LEDs" in (out / "BOM.csv").read_text()
    assert len(classes((out / "face.svg").read_text(), "hole")) == 4 * 122
    assert str(path) in (out / "power.md").read_text()
    assert (out / "BOM.md").read_text() != (ROOT / "hardware" / "BOM.md").read_text()


def test_cli_prints_one_document_or_its_json(capsys):
    assert main(["hardware", "power"]) == 0
    assert capsys.readouterr().out.startswith("# Power budget")
    assert main(["hardware", "face"]) == 0
    ET.fromstring(capsys.readouterr().out)
    assert main(["hardware", "bom", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["ref"] == "U1"
    assert main(["hardware", "all", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["power"]["leds"] == 363
    assert main(["hardware", "all"]) == 1


def test_an_unreadable_layout_is_a_clear_error(tmp_path, capsys):
    assert main(["hardware", "power", "--config", str(tmp_path / "missing.json")]) == 1
    assert "crib: error:" in capsys.readouterr().err


# -- the face geometry ---------------------------------------------------------------------

def _dist(a, b):
    return math.hypot(a[0] - b[0], a[1] - b[1])


@given(st.integers(2, 4), st.integers(2, 300))
@settings(max_examples=40, deadline=None)
def test_face_geometry_holds_for_any_layout(lanes, holes):
    c = config(lanes=lanes, holes=holes, budget=100000)
    spec = face.DEFAULT_SPEC
    w, h = face.board_size(c)
    pos = face.hole_positions(c)
    leds = face.led_positions(c)
    every = [p for lane in pos for p in pos[lane]]
    assert len(every) == lanes * (holes + 1)
    for x, y in every:
        assert spec.margin - 1e-9 <= x <= w - spec.margin + 1e-9
        assert spec.margin - 1e-9 <= y <= h - spec.margin + 1e-9
    # No two holes closer than the in-group pitch; each hole over its own LED.
    pts = sorted(every)
    for i, a in enumerate(pts):
        for b in pts[i + 1:i + 8]:
            assert _dist(a, b) >= spec.hole_pitch - 1e-6
    worst = 2 * (spec.led_pitch - spec.hole_pitch) + 1e-6
    for lane, ln in enumerate(c.lanes):
        for hole, led in enumerate(ln.leds):
            if led >= 0:
                assert _dist(pos[lane][hole], leds[led]) <= worst
    pieces = face.strip_pieces(c)
    assert pieces[0][0] == 0 and pieces[-1][1] == c.leds - 1
    assert all(a[1] + 1 == b[0] for a, b in zip(pieces, pieces[1:]))


def test_the_face_reads_like_a_cribbage_board():
    c = config()
    pos = face.hole_positions(c)[0]
    ys = [y for _, y in pos]
    assert ys[121] == min(ys) and ys[0] == max(ys)  # game hole on top, start at the bottom
    assert all(pos[h + 1][1] < pos[h][1] for h in range(1, 60))  # 1..60 go up
    assert all(pos[h + 1][1] > pos[h][1] for h in range(61, 120))  # 61..120 come down
    inside = pos[1][1] - pos[2][1]
    between = pos[5][1] - pos[6][1]
    assert between > 1.5 * inside  # groups of five with a gap
    # Lane 0 is the outermost track on both sides.
    lanes = face.hole_positions(c)
    assert lanes[0][1][0] < lanes[1][1][0] < lanes[2][1][0]
    assert lanes[0][61][0] > lanes[1][61][0] > lanes[2][61][0]
    assert face.skunk_gaps(c) == [("skunk", 91, 90, 91), ("double skunk", 61, 60, 61)]


def test_default_strip_is_cut_into_tracks_and_game_holes():
    assert face.strip_pieces(config()) == [(0, 59), (60, 119), (120, 120), (121, 121),
                                           (122, 181), (182, 241), (242, 301), (302, 361),
                                           (362, 362)]


def test_a_spec_whose_holes_miss_their_leds_is_refused():
    with pytest.raises(face.FaceError):
        face.hole_positions(config(), face.FaceSpec(hole_pitch=8.0))
    with pytest.raises(face.FaceError):
        face.board_size(config(), face.FaceSpec(track_gap=3.0))


def test_the_guide_covers_power_banks_unplugging_and_serial_permissions():
    text = hardware.document("README.md", *hardware.load_layout())
    for heading in ("### From a USB power bank", "### Unplugging a strip piece safely",
                    "## Linux: permission to use the serial port",
                    "## Colours for colour-blind players"):
        assert heading in text
    assert "usermod -aG dialout" in text and 'ATTRS{idVendor}=="2e8a"' in text
    big = hardware.document("README.md", config(budget=9000), "x")
    assert "use the mains supply" in big


@given(st.integers(400, 60000))
@settings(max_examples=40, deadline=None)
def test_the_fuse_carries_the_need_and_stays_within_the_supply(budget):
    c = config(budget=budget)
    plan = hw_power.power_plan(c)
    rows = {r[0]: r for r in hw_parts.bom_rows(c)}
    part, mpn = rows["F1"][3], rows["F1"][4]
    amps = float(re.search(r"hold (\d+) mA", part).group(1)) / 1000 if "PTC" in part else (
        float(re.search(r"fuse ([\d.]+) A", part).group(1)))
    assert amps * 1000 >= plan["need_ma"] * 1.2  # no nuisance blows at the budget
    # ...and it blows before the supply wire (W1, sized in power.md) overheats.
    awg = int(re.match(r"(?:(\d+) x )?(\d+) AWG", rows["W1"][3]).group(2))
    runs = int(re.match(r"(?:(\d+) x )?", rows["W1"][3]).group(1) or 1)
    assert amps * 1000 <= runs * [m for g, _, m in hw_power.AWG if g == awg][0]
    assert mpn.startswith("Littelfuse")


# -- power truths: C1's hold-up, the dark LEDs' share, a power bank's hours -------------------

def test_c1_drains_in_milliseconds_and_the_guide_says_so():
    c, _ = hardware.load_layout()
    dark_a = c.leds * c.led_ma["idle"] / 1000
    ms = 1000e-6 * 1.0 / dark_a * 1000  # t = C dV / I, one volt
    assert hw_power.hold_up_ms(c) == pytest.approx(ms)
    assert ms < 10
    guide = (ROOT / "hardware" / "README.md").read_text()
    assert "few seconds" not in guide
    assert "%.1f ms per volt" % ms in guide


def test_the_budget_says_what_the_dark_leds_take():
    c, _ = hardware.load_layout()
    dark = c.leds * c.led_ma["idle"]
    text = (ROOT / "hardware" / "power.md").read_text()
    assert "dark LEDs take %d mA of the %d mA budget" % (dark, c.budget_ma) in text
    assert "%d mA is left for light" % (c.budget_ma - dark) in text


def test_power_bank_hours_come_from_the_firmware_model_waiting_and_in_play():
    from cribcore.pegs import Board
    from pegboard.render import Renderer

    c, _ = hardware.load_layout()
    r = Renderer(c, hw_power._Strip(c.leds))
    r.draw(Board(len(c.lanes), c.holes, c.undo_depth), None, 0)
    waiting = r.last_ma + hw_power.PICO_MA
    playing = hw_power.typical_ma(c) + hw_power.PICO_MA
    assert c.leds * c.led_ma["idle"] < waiting < playing
    wh = 10 * 3.7 * 0.85  # a 10,000 mAh bank's cells at 3.7 V, 85 % reaching the board
    guide = (ROOT / "hardware" / "README.md").read_text()
    assert "about **%.0f hours waiting**" % (wh / (5 * waiting / 1000)) in guide
    assert "about **%.0f hours in play**" % (wh / (5 * playing / 1000)) in guide
    assert "(%d mA with the Pico)" % waiting in guide
    for way in ("mains adapter", "fewer lanes", "budget_ma"):
        assert way in guide
