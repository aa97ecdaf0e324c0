"""Words a player reads: verbs that agree with the name ("You lay", "Alice lays"), counts
("1 match", "2 games"), and history lines that say who did what with which cards."""

import io
import re
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import TESTS

from crib.board.memory import MemoryBoard
from crib.cli import main
from crib.env import Env
from crib.history.db import History
from crib.practice.computer import play_game, practice_engine
from crib.practice.game import rngs
from crib.practice.levels import make
from crib.ui.view import View
from crib.words import agree, count

sys.path.insert(0, str(TESTS / "table"))  # the table tests' game scripts
from tablescript import Script  # noqa: E402


@pytest.mark.parametrize("verb, you", [
    ("deals", "deal"), ("lays 5♦", "lay 5♦"), ("lays away 2♠ 4♣", "lay away 2♠ 4♣"),
    ("says go", "say go"), ("shows hand 5♠", "show hand 5♠"), ("wins", "win"),
    ("goes", "go"), ("was dealt 5♠", "were dealt 5♠"), ("has", "have"), ("is", "are")])
def test_you_take_the_verb_without_its_s(verb, you):
    assert agree("You", verb) == "You " + you
    assert agree("you", verb) == "you " + you
    assert agree("Alice", verb) == "Alice " + verb


@given(st.text(min_size=1).filter(lambda n: n.strip().lower() != "you"),
       st.sampled_from(["deals", "lays 5♦", "says go", "wins, 121 to 90"]))
def test_any_other_name_keeps_the_verb_as_it_is(name, verb):
    assert agree(name, verb) == f"{name} {verb}"


@pytest.mark.parametrize("n, noun, text", [
    (0, "skunk", "0 skunks"), (1, "match", "1 match"), (2, "match", "2 matches"),
    (1, "game", "1 game"), (3, "game", "3 games"), (1, "skunk", "1 skunk")])
def test_counts_are_plural_but_for_one(n, noun, text):
    assert count(n, noun) == text


def _run(db, *argv):
    env = Env(io.StringIO(), io.StringIO(), io.StringIO(), {})
    assert main([*argv, "--db", db], env) == 0, env.stderr.getvalue()
    return env.stdout.getvalue()


def _practice_game(db, seed):
    """A practice game as `crib practice` names its players: You against the computer."""
    h = History.open(db)
    engine = practice_engine(h, MemoryBoard(4), ["You", "Computer (pro)"], "pro", 61, seed)
    play_game(engine, [make("standard"), make("pro", rngs(seed)[1])])
    h.close()


ENTRY = re.compile(r"^  +\d+ h\d+ +(?P<said>.*)$")


def _said(text):
    """The `who did what` part of each entry line of `crib history --game`."""
    lines = text.splitlines()[1:]
    assert lines and all(ENTRY.match(line) for line in lines), text
    return [ENTRY.match(line)["said"] for line in lines]


def test_a_practice_game_in_the_history_says_you_lay_and_names_the_cards(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    _practice_game(db, 5)
    said = _said(_run(db, "history", "--game", "1"))
    you = [s for s in said if s.startswith("You ")]
    assert you and not [s for s in you if re.match(r"You (lays|deals|shows|says|turns) ", s)]
    assert any(s.startswith("You lay ") for s in said)
    assert any(s.startswith("Computer (pro) lays ") for s in said)
    cut = [s for s in said if s.startswith("cut for deal")]
    assert cut and all(re.fullmatch(r"cut for deal: You \S+, Computer \(pro\) \S+", s)
                       for s in cut), cut
    away = [s for s in said if " away " in s]
    assert away and all(re.search(r" away \S+ \S+$", s) for s in away), away
    assert not [s for s in said if s.endswith(" discard")]


def test_a_totals_game_in_the_history_says_what_each_show_counted(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    script = Script(["Alice", "Bob"], 61, seed=8)
    script.play_out(play="typed", show="total")
    assert 0 in [n for _, _, n in script.shows]  # a show of nothing to say
    env = Env(io.StringIO(script.text()), io.StringIO(), io.StringIO(), {})
    assert main(["play", "--db", db, "--board", "none", "--names", "Alice,Bob", "--target",
                 "61", "--dealer", "Alice"], env) == 0, env.stderr.getvalue()
    said = _said(_run(db, "history", "--game", "1"))
    shows = [s for s in said if " shows " in s]
    assert len(shows) == len(script.shows)
    assert all(re.search(r"shows (hand|crib) \(its total given, no cards\)  \+\d+ (hand|crib)$",
                         s) for s in shows), shows
    assert any(s.endswith("+0 hand") or s.endswith("+0 crib") for s in shows)
    assert "the play ends" in said  # said of nobody: no blank where a name would be
    assert not [s for s in said if s.startswith(" ") or s.endswith("a total")]


def test_stats_count_in_words_and_line_up_long_names(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    _practice_game(db, 5)
    lines = _run(db, "stats").splitlines()
    assert lines[0] == "1 match, 1 game (1 finished), 0 skunks" or lines[0].startswith(
        "1 match, 1 game (1 finished), 1 skunk")
    head, *rows = lines[1:3]
    assert rows[0].startswith("Computer (pro) ") or rows[0].startswith("You ")
    for row in lines[2:4]:  # the numbers under their headings, however long the name
        assert row.rindex(" ") == head.rindex(" ") and len(row) == len(head), (head, row)


def test_the_status_line_says_you_deal():
    out = io.StringIO()
    hand = {"number": 2, "starter": None, "turn": None, "count": 0}
    View(out, False).status({"game": 1, "sides": ["You", "Computer (pro)"], "scores": [3, 4],
                             "names": ["You", "Computer (pro)"], "dealer": 0, "hand": hand,
                             "offline": False})
    assert out.getvalue() == "[You 3  Computer (pro) 4 | hand 2, You deal]\n"


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_the_completion_script_and_its_help_name_the_same_place(shell, capsys):
    env = Env(io.StringIO(), io.StringIO(), io.StringIO(), {})
    assert main(["completion", shell], env) == 0
    lines = env.stdout.getvalue().splitlines()
    header = lines[:[not x or x.startswith("#") for x in lines].index(False)]
    named = {p for line in header for p in re.findall(r"~/\S+", line)}
    with pytest.raises(SystemExit):
        main(["completion", "--help"], env)
    helped = [line for line in capsys.readouterr().out.splitlines()
              if line.strip().startswith(shell + ":")]
    assert len(helped) == 1 and named, (header, helped)
    assert named == set(re.findall(r"~/\S+", helped[0])), (header, helped)
