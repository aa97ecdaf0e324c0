"""A table run by `crib serve --club URL` reports its game to the club's night by itself
when it ends: a whole game played through the table engine (tests/table's Table), the
reporter called after every change as the Hub calls it, and the club's own server (over
real HTTP on loopback) takes the result once, at the right round and table."""

import io
import os
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "table"))

from test_engine import Table  # noqa: E402

from crib.board.memory import MemoryBoard  # noqa: E402
from crib.cli import main  # noqa: E402
from crib.club.night import Club  # noqa: E402
from crib.env import Env  # noqa: E402
from crib.history.db import History  # noqa: E402
from crib.table.engine import TableEngine  # noqa: E402
from crib.table.session import Setup  # noqa: E402
from crib.web.clubapp import create_club_app  # noqa: E402
from crib.web.clubreport import ClubAddressError, ClubReporter, report_url  # noqa: E402
from crib.web.server import Background  # noqa: E402

KEY = "club-report-key"


def test_a_table_reports_its_game_when_it_ends(tmp_path):
    club_db, table_db = str(tmp_path / "club.sqlite3"), str(tmp_path / "table.sqlite3")
    h = History.open(club_db)
    try:
        pairs = Club(h).new("Friday", ["Ann", "Ben", "Cat", "Dan"], 3, seed=2).pairings(1)
    finally:
        h.close()
    table_no, (first, second) = next((i + 1, t) for i, t in enumerate(pairs["tables"])
                                     if "Ann" in t)
    with Background(create_club_app(club_db, KEY, "d")) as url:
        said = []
        report = ClubReporter(f"{url}/api/report?k={KEY}", said.append)
        history = History.open(table_db)
        try:
            engine = TableEngine(history, MemoryBoard(4), {"confirm": True},
                                 Setup([first, second], False, 121, 0))
            table = Table(2, 121, False, 5)
            engine.start()
            while (q := engine.question()) is not None:
                engine.answer(q.id, table.answer(q))
                report(engine)  # as the Hub's on_change, after each change
            report(engine)  # again after the end: still reported once
        finally:
            history.close()
        g = table.g
        winner, loser = [first, second][g.winner], [first, second][1 - g.winner]
        assert said == ["club: reported %s beat %s 121-%d" % (winner, loser,
                                                             g.scores[1 - g.winner])]
    h = History.open(club_db)
    try:
        (r,) = Club(h).night().results()
    finally:
        h.close()
    assert (r["round"], r["table_no"], r["winner"], r["loser"], r["loser_score"],
            r["status"], r["source"]) == (1, table_no, winner, loser,
                                          g.scores[1 - g.winner], "final", "table")


def two_players(tmp_path):
    """A history with a night of Ann and Ben, one game: its path."""
    club_db = str(tmp_path / "club.sqlite3")
    h = History.open(club_db)
    try:
        Club(h).new("Friday", ["Ann", "Ben"], 1)
    finally:
        h.close()
    return club_db


def test_a_report_the_club_refuses_is_said_at_the_table(tmp_path):
    club_db = two_players(tmp_path)
    with Background(create_club_app(club_db, KEY, "d")) as url:
        said = []
        report = ClubReporter(f"{url}/api/report?k={KEY}", said.append)

        class Over:  # the table's state at the end of a game the club does not know
            class session:
                class table:
                    game_id, side_names, target, entries = 7, ["Zed", "Ann"], 121, []

                    class game:
                        over, winner, scores = True, 0, [121, 99]
        report(Over)
    assert said == ["club: the result was not taken (no player 'Zed' tonight: the"
                    " players are Ann, Ben); the director enters it"]


@pytest.mark.parametrize("address", ["http://127.0.0.1:1/api/report", "club",
                                     "ftp://x/?k=1"])
def test_club_takes_the_address_the_club_printed(address):
    with pytest.raises(ClubAddressError, match="--club takes the address"):
        ClubReporter(address, print)
    err = io.StringIO()
    rc = main(["serve", "--no-qr", "--club", address, "--board", "none", "--names",
               "Ann,Ben"], Env(io.StringIO(), io.StringIO(), err, {}))
    assert rc == 1 and "--club takes the address" in err.getvalue()


def test_the_special_hands_a_table_scored_go_with_its_report(tmp_path):
    from types import SimpleNamespace as NS

    club_db = two_players(tmp_path)
    shows = [NS(kind="show", player=1, points=24), NS(kind="show", player=0, points=12),
             NS(kind="lay", player=0, points=29), NS(kind="show", player=0, points=29)]
    table = NS(game_id=3, side_names=["Ann", "Ben"], target=121, entries=shows,
               game=NS(over=True, winner=1, scores=[88, 121]))
    with Background(create_club_app(club_db, KEY, "d")) as url:
        said = []
        ClubReporter(f"{url}/api/report?k={KEY}", said.append)(NS(session=NS(table=table)))
    assert said == ["club: reported Ben beat Ann 121-88"]
    h = History.open(club_db)
    try:
        night = Club(h).night()
        assert [(x["player"], x["points"], x["source"]) for x in night.store.hands(night.id)] \
            == [("Ben", 24, "table"), ("Ann", 29, "table")]
        assert night.standings()[0]["points"] == 3  # 88: a skunk
    finally:
        h.close()


@given(st.from_regex(r"[a-z0-9][a-z0-9.-]{0,30}", fullmatch=True),
       st.integers(1, 65535), st.from_regex(r"[A-Za-z0-9_-]{1,30}", fullmatch=True),
       st.sampled_from(["/api/report", "/", ""]))
def test_the_tables_address_parses_back_to_its_parts(host, port, key, path):
    # one parser for crib serve --club and the board (cribcore.table.club)
    from cribcore.table.club import club_address

    text = "http://%s:%d%s?k=%s" % (host, port, path, key)
    assert club_address(text) == (host, port, key)
    assert report_url(text) == ("http://%s:%d/api/report" % (host, port), key)
