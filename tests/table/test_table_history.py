"""`crib history` and `crib stats` over games played through `crib play`; the history file
itself (its place, its schema version)."""

import json
import sqlite3

import pytest
from tablescript import Script

from crib.history.db import History
from crib.history.files import HistoryError, default_path
from crib.history.reports import RANDOM_CRIB, RANDOM_HAND
from crib.history.schema import SCHEMA_VERSION

ARGS = ("--names", "Alice,Bob", "--target", "61", "--dealer", "Alice")


@pytest.fixture
def two_games(crib):
    """A match of two games (the loser deals the second), and the scripts that made it."""
    a = Script(["Alice", "Bob"], 61, dealer=0, seed=61)
    a.play_out(play="cards", show="cards")
    b = Script(["Alice", "Bob"], 61, dealer=1 - a.game.winner, seed=62)
    b.play_out(play="ranks", show="cards")
    rc, out, err = crib.play(a.text() + "y\n\n" + b.text() + "n\n", *ARGS)
    assert rc == 0, err
    return crib, [a, b]


def test_history_lists_the_games(two_games):
    crib, scripts = two_games
    rc, out, _ = crib.cmd("history")
    lines = out.splitlines()
    assert len(lines) == 2
    for line, s in zip(reversed(lines), scripts):
        winner = ["Alice", "Bob"][s.game.winner]
        assert f"Alice v Bob to 61  {winner} won {s.game.scores[0]}-{s.game.scores[1]}" in line


def test_history_json_has_winners_scores_and_skunks(two_games):
    crib, scripts = two_games
    rc, out, _ = crib.cmd("history", "--json")
    games = list(reversed(json.loads(out)["games"]))
    assert [g["winner"] for g in games] == [["Alice", "Bob"][s.game.winner] for s in scripts]
    assert [g["scores"] for g in games] == [list(s.game.scores) for s in scripts]
    for g, s in zip(games, scripts):
        loser = min(s.game.scores)
        assert g["skunk"] == ("skunk" if loser < 31 else None)
        assert g["game_points"] == (2 if loser < 31 else 1)
    assert games[0]["match"] == games[1]["match"]


def test_history_of_one_game_lists_every_entry(two_games):
    crib, scripts = two_games
    rc, out, _ = crib.cmd("history", "--game", "1", "--json")
    got = json.loads(out)
    entries = got["entries"]
    assert sum(e["points"] for e in entries if e["side"] == 0) == scripts[0].game.scores[0]
    kinds = {e["kind"] for e in entries}
    assert {"starter", "lay", "show"} <= kinds
    shows = [e for e in entries if e["kind"] == "show"]
    assert all(e["reason"] in ("hand", "crib") and e["info"]["cards"] for e in shows)
    rc, text, _ = crib.cmd("history", "--game", "1")
    assert text.count("\n") == len(entries) + 1
    assert "lays " in text and "shows hand" in text and "starter " in text


def _go(player, side, source="table"):
    """A go entry as game_entries gives it: player said go, side got the point."""
    return {"seq": 40, "hand": 2, "kind": "go", "player": player, "side": side, "points": 1,
            "reason": "go for 1", "info": {"auto": True}, "source": source, "undone": None}


def test_history_says_who_a_gos_point_went_to():
    """A go's point is the last to lay's, not always whoever said go (a practice game
    records the go of the seat that could not lay): the line names the side it went to."""
    from crib.commands.history import _entry_text

    names = sides = ["You", "Computer (pro)"]
    line = _entry_text(_go(1, 0), names, sides)
    assert line.endswith("Computer (pro) says go  +1 go for 1 to You")
    assert _entry_text(_go(0, 1), names, sides).endswith(
        "You say go  +1 go for 1 to Computer (pro)")
    # 4 players in partnerships: seat 3 is on side 1, so a point to side 1 is its own
    names4, sides4 = ["Ann", "Bob", "Cy", "Di"], ["Ann & Cy", "Bob & Di"]
    assert _entry_text(_go(3, 1), names4, sides4).endswith("Di says go  +1 go for 1")
    assert _entry_text(_go(3, 0), names4, sides4).endswith("+1 go for 1 to Ann & Cy")


def test_history_of_a_game_names_no_other_side_for_a_go_its_sayer_scored(two_games):
    crib, _ = two_games
    rc, out, _ = crib.cmd("history", "--game", "1", "--json")
    entries = json.loads(out)["entries"]
    rc, text, _ = crib.cmd("history", "--game", "1")
    goes = [line for e, line in zip(entries, text.splitlines()[1:])
            if e["kind"] == "go" and e["points"] and e["side"] == e["player"]]
    assert goes and all(line.endswith("says go  +1 go for 1") for line in goes)


def test_history_of_a_missing_game_is_an_error(crib):
    rc, out, err = crib.cmd("history", "--game", "7")
    assert rc == 1 and err.startswith("crib: error:")


def test_undone_entries_are_kept_and_shown_with_all(crib):
    crib.play("5h\n10\n5\nundo\n", *ARGS)
    rc, out, _ = crib.cmd("history", "--game", "1", "--all")
    assert "(undone)" in out
    rc, out, _ = crib.cmd("history", "--game", "1")
    assert "(undone)" not in out


def test_stats_per_player_against_the_usual_averages(two_games):
    crib, scripts = two_games
    rc, out, _ = crib.cmd("stats", "--json")
    st = json.loads(out)
    assert st["matches"] == 1 and st["games"] == 2 and st["finished"] == 2
    shows = [x for s in scripts for x in s.shows]  # what the cards are worth, unclamped
    by = {p["name"]: p for p in st["players"]}
    for i, name in enumerate(["Alice", "Bob"]):
        hands = [n for p, r, n in shows if p == i and r == "hand"]
        cribs = [n for p, r, n in shows if p == i and r == "crib"]
        assert by[name]["hands"] == len(hands)
        assert by[name]["hand_avg"] == round(sum(hands) / len(hands), 2)
        assert by[name]["crib_avg"] == (round(sum(cribs) / len(cribs), 2) if cribs else None)
        wins = sum(1 for s in scripts if s.game.winner == i)
        assert by[name]["wins"] == wins and by[name]["games"] == 2
    best = sorted((n for _, _, n in shows), reverse=True)[:5]
    assert [b["points"] for b in st["best"]] == best
    assert st["usual"]["hand_random"] == round(float(RANDOM_HAND), 4)
    assert st["usual"]["crib_random"] == round(float(RANDOM_CRIB), 4)


def test_stats_text(two_games):
    crib, _ = two_games
    rc, out, _ = crib.cmd("stats")
    assert rc == 0
    assert out.startswith("1 match, 2 games (2 finished)")
    assert "Alice" in out and "Bob" in out and "best hands:" in out
    assert "usual: hand 4.77 and crib 4.73" in out


def test_stats_names_its_pegging_columns_in_words(two_games):
    """The pegging columns say what they count (they were "pegs deal pone")."""
    crib, _ = two_games
    rc, out, _ = crib.cmd("stats")
    lines = out.splitlines()
    assert lines[1].split()[-4:] == ["pegging", "dealing", "as", "pone"]
    by = {p["name"]: p for p in json.loads(crib.cmd("stats", "--json")[1])["players"]}
    for line in lines[2:4]:
        p = by[line.split()[0]]
        assert line.split()[-3:] == [f"{p[k]:.2f}" for k in (
            "pegging_avg", "pegging_dealer_avg", "pegging_pone_avg")]
    assert lines[4] == ("pegging: points pegged in the play, a hand; dealing: the same in the"
                        " hands the player dealt; as pone: in those the opponent dealt")


def test_pegging_split_by_dealer_and_pone(two_games):
    crib, scripts = two_games
    rc, out, _ = crib.cmd("stats", "--json")
    by = {p["name"]: p for p in json.loads(out)["players"]}
    con = sqlite3.connect(crib.db)
    hands = con.execute("SELECT dealer, summary FROM hands").fetchall()
    con.close()
    done = [(d, json.loads(s)) for d, s in hands if json.loads(s)["hand"][0] is not None]
    for p, name in enumerate(["Alice", "Bob"]):
        dealt = [s["play"][p] for d, s in done if d == p]
        pone = [s["play"][p] for d, s in done if d != p]
        assert dealt and pone
        assert by[name]["pegging_dealer_avg"] == round(sum(dealt) / len(dealt), 2)
        assert by[name]["pegging_pone_avg"] == round(sum(pone) / len(pone), 2)


def test_random_averages_are_the_exact_figures():
    # 12,994,800 (hand, starter) pairs: RULES.md's anchor, and the crib's 5-card flush rule.
    assert round(float(RANDOM_HAND), 2) == 4.77
    assert RANDOM_CRIB < RANDOM_HAND and round(float(RANDOM_CRIB), 2) == 4.73
    assert RANDOM_HAND.denominator * 1020 == 12994800


def test_default_path_respects_xdg_data_home(tmp_path):
    assert default_path({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "crib" / "history.sqlite3"
    home = default_path({})
    assert home.parts[-4:] == (".local", "share", "crib", "history.sqlite3")


def test_schema_version_is_stored_and_a_newer_one_refused(db):
    h = History.open(db)
    h.close()
    con = sqlite3.connect(db)
    assert con.execute("SELECT value FROM meta").fetchone()[0] == str(SCHEMA_VERSION)
    con.execute("UPDATE meta SET value = ?", (str(SCHEMA_VERSION + 1),))
    con.commit()
    con.close()
    with pytest.raises(HistoryError):
        History.open(db)


def test_a_foreign_database_is_refused(db):
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE other (x)")
    con.commit()
    con.close()
    with pytest.raises(HistoryError):
        History.open(db)
