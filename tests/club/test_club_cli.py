"""`crib club` as a script uses it: the verbs and their --json exactly as issue 41 gives
them, every refusal a sentence with a non-zero exit and nothing changed, corrections kept,
special hands and the money, the CSV, the scorecards (and a clear word without fpdf2), a
season over nights; the club's tables in a history of schema 3 on opening."""

import csv
import io
import json
import sqlite3

import pytest

from crib.cli import main
from crib.env import Env

PLAYERS = "Ann,Bob,Cy,Di,Ed,Flo"


class Crib:
    def __init__(self, tmp_path):
        self.db = str(tmp_path / "history.sqlite3")
        self.home = tmp_path

    def __call__(self, *argv, db=True):
        out, err = io.StringIO(), io.StringIO()
        env = Env(io.StringIO(""), out, err, {"XDG_DATA_HOME": str(self.home / "data"),
                                             "HOME": str(self.home)})
        rc = main(["club", *argv, *(["--db", self.db] if db else [])], env)
        return rc, out.getvalue(), err.getvalue()

    def json(self, *argv):
        rc, out, err = self(*argv, "--json")
        assert rc == 0, err
        return json.loads(out)

    def dump(self):
        con = sqlite3.connect(self.db)
        try:
            return list(con.iterdump())
        finally:
            con.close()


@pytest.fixture
def crib(tmp_path):
    return Crib(tmp_path)


def play_round(crib, number, loser_scores):
    """Enter a result at every table of a round: the first-named player wins."""
    p = crib.json("pairings", "--round", str(number))
    for t, ((a, _b), s) in enumerate(zip(p["tables"], loser_scores)):
        rc, _, err = crib("result", "--round", str(number), "--table", str(t + 1),
                          "--winner", a, "--loser-score", str(s))
        assert rc == 0, err
    return p


def test_a_night_by_script_pairings_results_and_standings(crib):
    new = crib.json("new", "Friday", "--players", PLAYERS, "--games", "3", "--seed", "7")
    assert sorted(new["players"]) == sorted(PLAYERS.split(",")) and new["games"] == 3
    p1 = crib.json("pairings", "--round", "1")
    assert set(p1) == {"round", "tables", "bye"} and p1["round"] == 1 and p1["bye"] is None
    assert len(p1["tables"]) == 3 and all(len(t) == 2 for t in p1["tables"])
    play_round(crib, 1, [80, 100, 120])
    p2 = play_round(crib, 2, [60, 91, 90])
    play_round(crib, 3, [0, 119, 50])
    rows = crib.json("standings")
    assert [list(r)[:5] for r in rows[:1]] == [["rank", "player", "points", "wins", "losses"]]
    by = {r["player"]: r for r in rows}
    a, b = p2["tables"][0]
    assert by[a]["points"] >= 3 and by[b]["skunked"] >= 1  # 60: a skunk
    assert sum(r["points"] for r in rows) == (3 + 2 + 2) + (3 + 2 + 3) + (3 + 2 + 3)  # skunks
    assert sum(r["spread"] for r in rows) == 0
    keys = [(r["points"], r["wins"], r["spread"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    met = {frozenset(t) for n in (1, 2, 3) for t in crib.json("pairings", "--round",
                                                                 str(n))["tables"]}
    assert len(met) == 9  # nobody met twice


def test_an_odd_player_out_has_a_bye_that_counts_as_a_win(crib):
    crib.json("new", "Odd", "--players", "Ann,Bob,Cy", "--games", "3", "--seed", "1")
    p = crib.json("pairings", "--round", "1")
    assert p["bye"] in ("Ann", "Bob", "Cy") and len(p["tables"]) == 1
    row = {r["player"]: r for r in crib.json("standings")}[p["bye"]]
    assert (row["points"], row["wins"], row["spread"], row["byes"]) == (2, 1, 0, 1)


@pytest.mark.parametrize("argv, said", [
    (["result", "--round", "1", "--table", "1", "--winner", "Zed", "--loser-score", "80"],
     "no player 'Zed' tonight"),
    (["result", "--round", "1", "--table", "4", "--winner", "Ann", "--loser-score", "80"],
     "no table 4 in round 1"),
    (["result", "--round", "1", "--table", "1", "--winner", "WINNER", "--loser-score",
      "121"], "a loser's score is 0 to 120, not 121"),
    (["result", "--round", "1", "--table", "1", "--winner", "WINNER", "--loser-score",
      "-1"], "a loser's score is 0 to 120, not -1"),
    (["result", "--round", "1", "--table", "1", "--winner", "WINNER", "--loser-score", "3"],
     "already has a result"),
    (["result", "--round", "2", "--table", "1", "--winner", "Ann", "--loser-score", "80"],
     "round 2 has no pairings yet"),
    (["result", "--round", "1", "--table", "1", "--winner", "OTHER", "--loser-score", "80"],
     "does not play at table 1 in round 1"),
    (["pairings", "--round", "2"], "round 1 still waits for the result of table 2, 3"),
    (["pairings", "--round", "3"], "round 3 has no pairings yet"),
    (["hand", "--round", "2", "--player", "Ann", "--points", "24"],
     "round 2 has no pairings yet"),
    (["new", "Friday", "--players", PLAYERS, "--games", "2"], "already a night named"),
    (["new", "Big", "--players", PLAYERS, "--games", "6"], "at most 5 games"),
    (["new", "Twice", "--players", "Ann,ann", "--games", "1"], "named twice"),
    (["correct", "--round", "1", "--table", "2", "--winner", "Zed", "--loser-score", "1"],
     "no player 'Zed'"),
])
def test_bad_input_is_a_sentence_a_non_zero_exit_and_changes_nothing(crib, argv, said):
    crib.json("new", "Friday", "--players", PLAYERS, "--games", "3", "--seed", "7")
    a, b = crib.json("pairings", "--round", "1")["tables"][0]
    assert crib("result", "--round", "1", "--table", "1", "--winner", a,
                "--loser-score", "88")[0] == 0
    c = crib.json("pairings", "--round", "1")["tables"][1][0]
    argv = [{"WINNER": a, "OTHER": c}.get(x, x) for x in argv]
    before = crib.dump()
    for json_too in ([], ["--json"]) if argv[0] != "new" else ([],):
        rc, out, err = crib(*argv, *json_too)
        assert rc != 0 and out == ""
        assert err.startswith("crib: error: ") and said in err, err
    assert crib.dump() == before


def test_a_correction_stands_and_what_it_replaced_is_kept(crib):
    crib.json("new", "Friday", "--players", PLAYERS, "--games", "3", "--seed", "7")
    a, b = crib.json("pairings", "--round", "1")["tables"][0]
    crib("result", "--round", "1", "--table", "1", "--winner", a, "--loser-score", "88")
    fixed = crib.json("correct", "--round", "1", "--table", "1", "--winner", b,
                      "--loser-score", "100", "--note", "miscounted")
    assert fixed["status"] == "final" and fixed["source"] == "director"
    every = crib.json("results")
    assert [(r["winner"], r["status"]) for r in every] == [(a, "replaced"), (b, "final")]
    assert every[1]["replaces"] == every[0]["id"] and every[1]["note"] == "miscounted"
    by = {r["player"]: r for r in crib.json("standings")}
    assert (by[b]["points"], by[b]["spread"], by[a]["points"]) == (2, 21, 0)
    rows = list(csv.DictReader(io.StringIO(crib("csv")[1])))
    assert [(r["winner"], r["status"], r["note"]) for r in rows] == [
        (a, "replaced", ""), (b, "final", "miscounted")]


def test_special_hands_skunk_pot_and_prizes(crib):
    crib.json("new", "Friday", "--players", PLAYERS + ",Gus,Hal", "--games", "1", "--seed",
              "3", "--entry", "5", "--skunk-pot", "1", "--hands-pool", "0.50")
    p = play_round(crib, 1, [10, 95, 100, 110])
    crib.json("hand", "--round", "1", "--player", p["tables"][1][1], "--points", "29")
    m = crib.json("money")
    assert m["fund"] == {"entry": 4000, "skunk": 800, "hands": 400}
    assert [x["cents"] for x in m["prizes"]] == [2667, 1333]  # 8 players: 2 prizes, 2:1
    assert m["prizes"][0]["player"] == p["tables"][0][0]  # the only skunk win: 3 points
    assert m["skunk_pot"] == [{"player": p["tables"][0][0], "skunks": 1, "cents": 800}]
    assert [(h["player"], h["points"], h["cents"]) for h in m["hands"]] == [
        (p["tables"][1][1], 29, 400)]


def test_the_scorecards_are_a_pdf_a_page_a_player(crib, tmp_path):
    from pdfminer.high_level import extract_text

    crib.json("new", "Friday", "--players", PLAYERS, "--games", "3", "--seed", "7")
    p = play_round(crib, 1, [80, 100, 120])
    out = tmp_path / "cards.pdf"
    rc, said, err = crib("scorecards", "--out", str(out))
    assert rc == 0, err
    pages = extract_text(str(out)).split("\f")
    assert len([pg for pg in pages if pg.strip()]) == 6
    winner, loser = p["tables"][0]
    first = next(pg for pg in pages if pg.strip().startswith(winner))
    assert loser in first and "Place 1" in first and "+41" in first


def test_without_fpdf2_the_scorecards_say_how_to_get_it(crib, tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "fpdf", None)  # a player's install: no hardware extra
    crib.json("new", "Friday", "--players", PLAYERS, "--games", "3", "--seed", "7")
    rc, out, err = crib("scorecards", "--out", str(tmp_path / "c.pdf"))
    assert rc == 1 and "needs fpdf2" in err and "hardware" in err
    assert not (tmp_path / "c.pdf").exists()
    assert crib("csv")[0] == 0  # the rest works without it


def test_a_season_adds_up_its_nights(crib):
    crib.json("new", "Week 1", "--players", "Ann,Bob", "--games", "1", "--season", "S1")
    crib("result", "--round", "1", "--table", "1", "--winner", "Ann", "--loser-score", "100")
    crib.json("new", "Week 2", "--players", "Ann,Bob,Cy", "--games", "1", "--season", "S1")
    p = crib.json("pairings")
    crib("result", "--round", "1", "--table", "1", "--winner", p["tables"][0][1],
         "--loser-score", "50")
    crib.json("new", "Other", "--players", "Ann,Bob", "--games", "1", "--season", "S2")
    s = crib.json("season", "--season", "S1")
    assert s["nights"] == ["Week 1", "Week 2"]
    total = sum(r["points"] for r in s["standings"])
    assert total == 2 + 3 + 2  # a win, a skunk win, a bye
    assert sum(r["games"] for r in s["standings"]) == 4


def test_a_schema_3_history_gains_the_club_tables(tmp_path, crib):
    from crib.history.db import History
    from crib.history.schema import SCHEMA_VERSION

    History.open(crib.db).close()
    con = sqlite3.connect(crib.db)
    for t in ("club_hands", "club_results", "club_rounds", "club_nights"):
        con.execute("DROP TABLE %s" % t)
    con.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    assert crib.json("new", "Friday", "--players", "Ann,Bob", "--games", "1")["games"] == 1
    con = sqlite3.connect(crib.db)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] \
        == str(SCHEMA_VERSION) == "4"
    con.close()
