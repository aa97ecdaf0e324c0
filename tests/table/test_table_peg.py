"""`crib peg`: a play sequence scored card by card, as text and JSON, its errors, and random
legal plays agreeing with cribcore.play."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crib.cli import main
from cribcore.cards import card_name
from cribcore.play import Play
from cribcore.table.cards import rank_text


def peg(capsys, *argv):
    assert main(["peg", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def scored(out):
    """(player, points, kinds) of every row that scored."""
    return [(r["scorer"], r["points"], [i["kind"] for i in r["items"]])
            for r in out["rows"] if r["points"]]


@pytest.mark.parametrize("argv, rows, points", [
    (["5", "10", "5"], [(2, 2, ["fifteen"])], [0, 2]),
    (["7", "8", "9", "go", "go"], [(2, 2, ["fifteen"]), (1, 3, ["run"]), (1, 1, ["last card"])],
     [4, 2]),
    (["10", "10", "5", "6"], [(2, 2, ["pair"]), (2, 2, ["thirty-one"])], [0, 4]),
    (["--players", "3", "5", "5", "5", "5"],
     [(2, 2, ["pair"]), (3, 8, ["fifteen", "pair royal"]), (1, 12, ["double pair royal"])],
     [12, 2, 8]),
    (["--players", "4", "a", "2", "3", "4", "5"],
     [(3, 3, ["run"]), (4, 4, ["run"]), (1, 7, ["fifteen", "run"])], [7, 0, 3, 4]),
    (["5h", "10d", "5c", "JS", "ad"], [(2, 2, ["fifteen"]), (1, 2, ["thirty-one"])], [2, 2]),
    (["--last", "10", "10", "9"], [(2, 2, ["pair"]), (1, 1, ["last card"])], [1, 2]),
    (["4", "4", "3", "3", "4"], [(2, 2, ["pair"]), (2, 2, ["pair"])], [0, 4]),
])
def test_sequences(capsys, argv, rows, points):
    out = peg(capsys, *argv)
    assert scored(out) == rows
    assert out["points"] == points


def test_counts_and_who_plays_next(capsys):
    out = peg(capsys, "--players", "3", "10", "k", "q")
    assert [r["count"] for r in out["rows"]] == [10, 20, 30]
    assert [r["player"] for r in out["rows"]] == [1, 2, 3]
    assert out["next"] == 1 and out["count"] == 30 and not out["over"]


def test_ranks_are_shown_as_given_and_cards_by_name(capsys):
    out = peg(capsys, "10", "JD", "a")
    assert [r["card"] for r in out["rows"]] == ["10", "JD", "A"]


def test_text_output_lists_each_card_and_the_totals(capsys):
    assert main(["peg", "7", "8", "9", "go", "go"]) == 0
    out = capsys.readouterr().out
    assert "fifteen for 2" in out and "run of 3 for 3" in out and "go for 1" in out
    assert "points   P1 4  P2 2" in out
    assert "next     P2 to play at count 0" in out


@pytest.mark.parametrize("argv", [
    ["5", "x"],                       # not a card
    ["5", "go"],                      # a go at 5: any card fits
    ["10", "10", "10", "5"],          # past 31
    ["5", "5", "5", "5", "5"],        # a fifth five
    ["5h", "5h"],                     # the same card twice
    ["5h", "5", "5", "5", "5"],       # four more fives besides the 5h
])
def test_bad_sequences_are_errors(capsys, argv):
    assert main(["peg", *argv]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("crib: error: ") and not captured.out


def _random_play(seed, players):
    """A legal complete play with known hands: its tokens and the tracker's points."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [deck[4 * p:4 * p + 4] for p in range(players)]
    play = Play(players, players - 1, hands)
    tokens = []
    ranks = rng.random() < 0.5
    while not play.over:
        ok = play.playable()
        if ok:
            c = rng.choice(ok)
            play.lay(c)
            tokens.append(rank_text(c >> 2) if ranks else card_name(c))
        else:
            play.go()
            tokens.append("go")
    return tokens, play.points


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10 ** 9), players=st.sampled_from([2, 3, 4]))
def test_random_plays_agree_with_the_core(seed, players):
    tokens, points = _random_play(seed, players)
    from contextlib import redirect_stdout
    from io import StringIO

    buf = StringIO()
    with redirect_stdout(buf):
        assert main(["peg", "--json", "--players", str(players), *tokens]) == 0
    out = json.loads(buf.getvalue())
    assert out["points"] == points
    assert out["over"] and out["next"] is None
    assert sum(r["points"] for r in out["rows"]) == sum(points)
