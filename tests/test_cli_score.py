"""`crib score`: the itemised show as text and JSON, and its errors (expected values by hand)."""

import json
import re
import sys

import pytest

from crib.cli import main

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _json(capsys, *argv):
    assert main(["score", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def _items(out):
    return sorted((it["kind"], tuple(sorted(it["cards"])), it["points"]) for it in out["items"])


def test_json_of_the_29_hand(capsys):
    out = _json(capsys, "5H", "5C", "5S", "JD", "5D")
    assert out["hand"] == ["5H", "5C", "5S", "JD"]
    assert out["starter"] == "5D"
    assert out["crib"] is False
    assert out["total"] == 29
    fives = ["5C", "5D", "5H", "5S"]
    want = [("fifteen", tuple(sorted([f, "JD"])), 2) for f in fives]
    want += [("fifteen", tuple(f for f in fives if f != skip), 2) for skip in fives]
    want += [("pair", (a, b), 2) for i, a in enumerate(fives) for b in fives[i + 1:]]
    want += [("nobs", ("JD",), 1)]
    assert _items(out) == sorted(want)


def test_json_items_come_in_counting_order(capsys):
    out = _json(capsys, "JH", "2H", "4H", "6H", "8H", "--crib")
    assert [(it["kind"], it["points"]) for it in out["items"]] == [("flush", 5), ("nobs", 1)]
    assert out["crib"] is True and out["total"] == 6


def test_starter_option_takes_four_cards(capsys):
    out = _json(capsys, "3c", "3d", "4h", "4s", "--starter", "5c")
    assert out["hand"] == ["3C", "3D", "4H", "4S"] and out["starter"] == "5C"
    assert out["total"] == 20  # 2 fifteens 4 + 2 pairs 4 + 4 runs of 3 12
    kinds = [it["kind"] for it in out["items"]]
    assert kinds == ["fifteen"] * 2 + ["pair"] * 2 + ["run"] * 4


@pytest.mark.parametrize("argv, total", [
    (["2H", "4H", "6H", "8H", "KC"], 4),             # 4-card flush in a hand
    (["2H", "4H", "6H", "8H", "KC", "--crib"], 0),   # ... is nothing in the crib
    (["2C", "4D", "6H", "8S", "KC"], 0),             # nineteen
    (["10h", "JC", "QD", "KS", "5♥"], 12),           # four face fifteens 8 + run of 4
    (["AC,2D,3H,4S,5C"], 7),                         # run of 5 + one fifteen
])
def test_totals(capsys, argv, total):
    assert _json(capsys, *argv)["total"] == total


def test_human_output_lists_items_with_running_totals(capsys):
    assert main(["score", "TH", "JC", "QD", "KS", "5H"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" not in out  # not a terminal: plain text
    lines = out.splitlines()
    assert lines[0].split() == ["hand", "10♥", "J♣", "Q♦", "K♠", "starter", "5♥"]
    rows = [line.split() for line in lines[1:-1]]
    assert [r[0] for r in rows] == ["fifteen"] * 4 + ["run"]
    assert sorted(r[1:3] for r in rows[:4]) == sorted(
        [["5♥", t] for t in ("10♥", "J♣", "Q♦", "K♠")])
    assert rows[4][1:5] == ["10♥", "J♣", "Q♦", "K♠"]
    assert [int(r[-2]) for r in rows] == [2, 2, 2, 2, 4]
    assert [int(r[-1]) for r in rows] == [2, 4, 6, 8, 12]
    assert lines[-1].split() == ["total", "12"]


def test_human_output_of_a_zero_crib(capsys):
    assert main(["score", "2H", "4H", "6H", "8H", "KC", "--crib"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[0] == "crib"
    assert lines[1:] and lines[-1].split() == ["total", "0"] and len(lines) == 2


def test_colour_on_a_terminal(capsys, monkeypatch):
    assert main(["score", "5H", "5C", "5S", "JD", "5D"]) == 0
    plain = capsys.readouterr().out
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["score", "5H", "5C", "5S", "JD", "5D"]) == 0
    coloured = capsys.readouterr().out
    assert "\x1b[" in coloured
    strip = [line.rstrip() for line in ANSI.sub("", coloured).splitlines()]
    assert strip == [line.rstrip() for line in plain.splitlines()]


@pytest.mark.parametrize("argv", [
    ["5H", "5C", "5S", "JD"],                        # 4 cards, no --starter
    ["5H", "5C", "5S", "JD", "5D", "2C"],            # 6 cards
    ["5H", "5C", "5S", "JD", "5D", "--starter", "2C"],
    ["5H", "5H", "5S", "JD", "5D"],                  # duplicate
    ["5H", "5C", "5S", "JD", "--starter", "JD"],     # starter also in the hand
    ["5H", "5C", "5S", "XD", "5D"],                  # not a card
    ["5H", "5C", "5S", "1D", "5D"],
])
def test_bad_cards_are_clear_errors(capsys, argv):
    assert main(["score", *argv]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("crib: error: ")
    assert captured.out == ""


def test_an_items_points_read_as_points_not_a_card(capsys):
    assert main(["score", "8H", "9S", "TD", "3C", "5H"]) == 0
    lines = ANSI.sub("", capsys.readouterr().out).splitlines()
    run = [line for line in lines if line.startswith("run")]
    assert len(run) == 1 and re.search(r"10\S*\s+\+3\s+5$", run[0])  # +3, then the total
