"""The price a builder pays (issue 40): the BOM per board (Pico, Pico W, Pico 2 W), parts
named as they are priced, and a separate list of what else a build needs, out of the
totals. Totals are summed again here from BOM.csv's own rows."""

import csv
import io
import re

import pytest
from support import ROOT
from test_hw_fabrication import LAYOUTS

from crib import hardware
from crib.hardware import parts


@pytest.fixture(params=sorted(LAYOUTS))
def layout(request):
    return LAYOUTS[request.param]()


def _csv_rows(c):
    return list(csv.DictReader(io.StringIO(parts.bom_csv(c))))


def _section(md, title):
    return md.split("## %s" % title)[1].split("\n## ")[0]


def _table(text):
    return [[c.strip() for c in ln.strip("|").split(" | ")] for ln in text.splitlines()
            if ln.startswith("| ") and not ln.startswith("| ---")][1:]


def test_the_bom_totals_each_board_with_each_box(layout):
    rows = _csv_rows(layout)
    cost = {r["ref"]: float(r["total_usd"]) for r in rows[:-1]}
    rest = sum(v for k, v in cost.items() if k not in ("U1", "MP9"))
    table = _table(_section(parts.bom_markdown(layout, "x.json"), "Per board"))
    assert [r[0] for r in table] == ["Raspberry Pi Pico", "Raspberry Pi Pico W",
                                     "Raspberry Pi Pico 2 W"]
    for _, mpn, each, laser, hand_usd in table:
        assert float(laser) == pytest.approx(rest + float(each))
        assert float(hand_usd) == pytest.approx(rest + float(each) + cost["MP9"])
        assert mpn.startswith("Raspberry Pi SC")
    # The parts list itself is the Pico 2 W build the guide leads with, pine strip and all.
    u1 = [r for r in rows if r["ref"] == "U1"][0]
    assert "Pico 2 W" in u1["part"] and u1["mpn"] == table[-1][1]
    assert float(u1["unit_usd"]) == float(table[-1][2])
    assert float(rows[-1]["total_usd"]) == pytest.approx(float(table[-1][4]))
    assert float(table[0][2]) < float(table[1][2]) < float(table[2][2])


def test_parts_are_named_as_they_are_priced(layout):
    rows = _csv_rows(layout)
    buttons = [r for r in rows if r["part"].startswith("momentary")][0]
    assert "generic" in buttons["part"] and "generic" in buttons["mpn"]
    assert "Omron" not in buttons["mpn"]  # priced as generic ones: named as generic ones
    m = re.search(r"Omron A16 series fit the same hole at about (\d+\.\d\d) each",
                  buttons["notes"])
    assert m and float(m.group(1)) > float(buttons["unit_usd"])
    pine = [r for r in rows if r["ref"] == "MP9"][0]
    assert "pine" in pine["part"] and "hand-tool" in pine["notes"]


def test_the_extras_are_listed_apart_and_left_out_of_the_totals(layout):
    md = parts.bom_markdown(layout, "x.json")
    extras = _table(_section(md, "Also needed"))
    what = " ".join(r[0] for r in extras)
    for word in ("laser cutting", "saw", "drill", "solder", "glue", "finish", "shipping"):
        assert word in what, word
    rows = _csv_rows(layout)
    assert float(rows[-1]["total_usd"]) == pytest.approx(
        sum(float(r["total_usd"]) for r in rows[:-1]))
    assert not [r for r in rows if "shipping" in r["part"] or "solder," in r["part"]]
    every = sum(float(r[2]) for r in extras if r[1] == "every build")
    laser = sum(float(r[2]) for r in extras if r[1].startswith("laser box"))
    table = _table(_section(md, "Per board"))
    m = re.search(r"about \*\*([\d.]+)\*\* with hand tools you have, or \*\*([\d.]+)\*\*", md)
    assert m
    assert float(m.group(1)) == pytest.approx(float(table[-1][4]) + every)
    assert float(m.group(2)) == pytest.approx(float(table[-1][3]) + every + laser)


def test_the_guide_gives_the_price_the_bom_gives():
    guide = (ROOT / "hardware" / "README.md").read_text()
    c = hardware.load_layout()[0]
    assert parts.price_sentence(c) in guide
    assert parts.price_sentence(c) in (ROOT / "hardware" / "BOM.md").read_text()
