"""The stripboard joins exactly what the circuit joins: strips between cuts and the links
make its nets, every wire of the circuit lands on the right one, and nothing else touches.
"""

import xml.etree.ElementTree as ET

import pytest
from support import ROOT
from test_hw_documents import layout as layout_dict
from test_hw_fabrication import LAYOUTS

from crib import hardware
from crib.hardware import circuit, stripboard
from crib.hardware.errors import HardwareError
from pegboard.config import from_dict

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(params=sorted(LAYOUTS) + ["LED data on GP3"])
def layout(request):
    if request.param == "LED data on GP3":
        d = layout_dict(lanes=2)
        d["pins"] = {"leds": 3, "undo": 7, "confirm": 8}
        d["lanes"][0]["button"], d["lanes"][1]["button"] = 2, 4
        return from_dict(d)
    return LAYOUTS[request.param]()


def _circuit_root(c):
    parent = {}

    def find(e):
        parent.setdefault(e, e)
        while parent[e] != e:
            parent[e] = parent[parent[e]]
            e = parent[e]
        return e

    for w in circuit.wires(c):
        parent[find(w.a)] = find(w.b)
    return find


def _placed(b):
    """{circuit end: hole}: the leads, one hole of each rail, the pads' far ends."""
    place = dict(b.leads)
    for rail, row in stripboard.RAIL.items():
        place[rail] = (b.cols - 1, row)
    for col, row, far, _ in b.pads:
        assert far not in place, far
        place[far] = (col, row)
    return place


def test_the_strips_join_exactly_what_the_circuit_joins(layout):
    b = stripboard.board(layout)
    net_of = {h: i for i, n in enumerate(stripboard.nets(b)) for h in n}
    place = _placed(b)
    holes = [h for e, h in place.items() if e not in stripboard.RAIL]
    assert len(holes) == len(set(holes))  # one end to a hole
    for h in holes + [h for ln in b.links for h in ln]:
        assert 0 <= h[0] < b.cols and 0 <= h[1] < b.rows and h not in b.cuts, h
    for w in circuit.wires(layout):
        if w.a in place and w.b in place:
            assert net_of[place[w.a]] == net_of[place[w.b]], (w.a, w.b)
    root = _circuit_root(layout)
    members: dict = {}
    for end, hole in place.items():
        members.setdefault(net_of[hole], set()).add(root(end))
    shorts = {k: v for k, v in members.items() if len(v) > 1}
    assert not shorts  # no two of the circuit's nets (or a spare pin) share copper


def test_every_wire_leaving_the_board_has_a_pad(layout):
    b = stripboard.board(layout)
    on = stripboard.ON_BOARD
    leaving = [w for w in circuit.wires(layout)
               if (w.a.split(".")[0] in on) != (w.b.split(".")[0] in on)]
    assert sorted((far, near) for _, _, far, near in b.pads) == sorted(
        (w.b, w.a) if w.a.split(".")[0] in on else (w.a, w.b) for w in leaving)


def test_links_and_parts_never_lie_on_each_other_or_on_a_lead(layout):
    b = stripboard.board(layout)
    ends = set(b.leads.values()) | {(c, r) for c, r, _, _ in b.pads}
    spans = []
    parts = [(b.leads[r + ".1"], b.leads[r + ".2"]) for r in ("R1", "C2", "F1")]
    parts.append((b.leads["D1.A"], b.leads["D1.K"]))
    for (c0, r0), (c1, r1) in list(b.links) + parts:
        assert c0 == c1 or r0 == r1  # straight
        cells = {(c0, r) for r in range(min(r0, r1), max(r0, r1) + 1)} if c0 == c1 else {
            (c, r0) for c in range(min(c0, c1), max(c0, c1) + 1)}
        for other in spans:
            assert not cells & other
        spans.append(cells)
        assert not (cells - {(c0, r0), (c1, r1)}) & ends  # passes over no soldered hole


def test_an_led_pin_on_the_right_header_is_refused():
    d = layout_dict(lanes=2)
    d["pins"] = {"leds": 16, "undo": 7, "confirm": 8}
    with pytest.raises(HardwareError, match="left header"):
        stripboard.board(from_dict(d))


def test_the_drawing_shows_every_cut_link_and_pad():
    c = hardware.load_layout()[0]
    b = stripboard.board(c)
    root = ET.fromstring((ROOT / "hardware" / "stripboard.svg").read_text())

    def cls(name):
        return [e for e in root.iter() if name in (e.get("class") or "").split()]

    assert len(cls("cut")) == len(b.cuts) and len(cls("link")) == len(b.links)
    assert sorted(e.get("data-to") for e in cls("pad")) == sorted(p[2] for p in b.pads)
    text = " ".join("".join(t.itertext()) for t in root.iter(NS + "text"))
    for _, _, far, _ in b.pads:
        assert far in text


def test_r1_has_one_place_everywhere():
    b = stripboard.board(hardware.load_layout()[0])
    net_of = {h: i for i, n in enumerate(stripboard.nets(b)) for h in n}
    assert net_of[b.leads["R1.1"]] == net_of[b.leads["U2.3"]]
    bom = (ROOT / "hardware" / "BOM.md").read_text()
    row = [ln for ln in bom.splitlines() if ln.startswith("| R1 |")][0]
    assert "beside U2" in row and "first LED" not in row
