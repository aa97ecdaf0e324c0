"""`crib club serve`'s routes (Starlette's TestClient): a phone's result waits for its
opponent's confirmation, a dispute goes to the director, a table reports by itself, the
director pairs and corrects (with the director's key only), bad input is refused with its
sentence and changes nothing, and a long poll answers when the night changes."""

import threading

import pytest

from crib.club.night import Club
from crib.history.db import History
from crib.web.clubapp import create_club_app

KEY, DIRECTOR = "club-key", "director-key"
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


@pytest.fixture
def night(db):
    h = History.open(db)
    try:
        Club(h).new("Friday", PLAYERS, 3, seed=7)
    finally:
        h.close()
    return db


@pytest.fixture
def client(night):
    from starlette.testclient import TestClient

    with TestClient(create_club_app(night, KEY, DIRECTOR),
                    headers={"X-Crib-Key": KEY}) as c:
        yield c


def table(client, n=0):
    s = client.get("/api/state").json()
    return s["rounds"][-1]["tables"][n]


def test_a_phones_result_stands_once_the_opponent_confirms(client):
    t = table(client)
    a, b = t["players"]
    r = client.post("/api/result", json={"round": 1, "table": 1, "winner": a,
                                         "loser_score": 85, "player": a})
    assert r.json()["ok"] and table(client)["result"]["status"] == "proposed"
    assert all(row["points"] == 0 for row in client.get("/api/state").json()["standings"])
    own = client.post("/api/confirm", json={"round": 1, "table": 1, "player": a,
                                            "agree": True})
    assert own.status_code == 400 and f"{a} entered this result: {b} confirms it" in \
        own.json()["error"]
    assert client.post("/api/confirm", json={"round": 1, "table": 1, "player": b,
                                             "agree": True}).json()["ok"]
    s = client.get("/api/state").json()
    assert s["rounds"][0]["tables"][0]["result"]["status"] == "final"
    assert s["standings"][0] == dict(s["standings"][0], player=a, points=3, spread=36)


def test_a_dispute_goes_to_the_director_who_corrects_it(client):
    a, b = table(client)["players"]
    client.post("/api/result", json={"round": 1, "table": 1, "winner": a, "loser_score": 85,
                                     "player": a})
    client.post("/api/confirm", json={"round": 1, "table": 1, "player": b, "agree": False})
    assert table(client)["result"]["status"] == "disputed"
    fix = {"round": 1, "table": 1, "winner": b, "loser_score": 110, "note": "recounted"}
    refused = client.post("/api/correct", json=fix)
    assert refused.status_code == 403 and "director" in refused.json()["error"]
    assert table(client)["result"]["status"] == "disputed"
    assert client.post("/api/correct", json=fix,
                       headers={"X-Club-Director": DIRECTOR}).json()["ok"]
    s = client.get("/api/state").json()
    assert s["rounds"][0]["tables"][0]["result"]["winner"] == b
    assert [(r["status"], r["source"]) for r in s["history"]] == [
        ("replaced", "phone"), ("final", "director")]


def test_a_table_reports_its_game_by_itself(client):
    a, b = table(client, 2)["players"]
    r = client.post("/api/report", json={"winner": b, "loser": a, "loser_score": 77})
    assert r.json()["ok"] and r.json()["done"]["table_no"] == 3
    t = table(client, 2)
    assert (t["result"]["status"], t["result"]["source"]) == ("final", "table")
    again = client.post("/api/report", json={"winner": b, "loser": a, "loser_score": 77})
    assert again.status_code == 400 and "already has a result" in again.json()["error"]


def test_a_table_reports_the_special_hands_it_scored_with_its_game(client):
    a, b = table(client, 1)["players"]
    bad = client.post("/api/report", json={"winner": a, "loser": b, "loser_score": 90,
                                           "hands": [[a, 29], ["Zed", 24]]})
    assert bad.status_code == 400 and "no player 'Zed'" in bad.json()["error"]
    assert table(client, 1)["result"] is None  # all or nothing
    ok = client.post("/api/report", json={"winner": a, "loser": b, "loser_score": 90,
                                          "hands": [[a, 29], [b, 24]]})
    assert ok.json()["ok"]
    hands = client.get("/api/state").json()["money"]["hands"]
    assert [(h["player"], h["points"], h["round"]) for h in hands] == [(a, 29, 1), (b, 24, 1)]


@pytest.mark.parametrize("path, body, said", [
    ("/api/result", {"round": 1, "table": 9, "winner": "Ann", "loser_score": 1,
                     "player": "Ann"}, "no table 9 in round 1"),
    ("/api/result", {"round": 1, "table": 1, "winner": "Zed", "loser_score": 1,
                     "player": "Zed"}, "no player 'Zed' tonight"),
    ("/api/result", {"round": 1, "table": 1, "winner": "A", "loser_score": 121,
                     "player": "A"}, "a loser's score is 0 to 120, not 121"),
    ("/api/result", {"round": 2, "table": 1, "winner": "Ann", "loser_score": 1,
                     "player": "Ann"}, "round 2 has no pairings yet"),
    ("/api/result", {"round": 1, "table": 1, "winner": "A", "loser_score": "x",
                     "player": "A"}, "loser_score: wrong type"),
    ("/api/report", {"winner": "Ann", "loser": "Ann", "loser_score": 3}, "do not meet"),
    ("/api/hand", {"round": 1, "player": "Ann", "points": 23}, "a special hand is 24"),
    ("/api/next", {}, "round 1 still waits"),
])
def test_bad_input_is_refused_with_its_sentence_and_changes_nothing(client, path, body,
                                                                    said):
    a = table(client)["players"][0]
    body = {k: a if v == "A" else v for k, v in body.items()}
    before = client.get("/api/state").json()
    r = client.post(path, json=body, headers={"X-Club-Director": DIRECTOR})
    assert r.status_code == 400 and said in r.json()["error"], r.text
    assert client.get("/api/state").json() == before


def test_without_the_key_nothing_is_answered(client):
    r = client.get("/api/state", headers={"X-Crib-Key": "wrong"})
    assert r.status_code == 403
    assert client.get("/", headers={"X-Crib-Key": ""}).status_code == 200  # the shell


def test_a_long_poll_answers_when_the_night_changes(client):
    v = client.get("/api/state").json()["version"]
    got = {}
    waiting = threading.Thread(target=lambda: got.update(
        client.get("/api/state?v=%d" % v).json()))
    waiting.start()
    a, b = table(client, 1)["players"]
    client.post("/api/report", json={"winner": a, "loser": b, "loser_score": 100})
    waiting.join(30)
    assert got["version"] == v + 1 and got["rounds"][0]["tables"][1]["result"]["winner"] == a


def test_the_csv_and_the_scorecards_are_served(client):
    a, b = table(client)["players"]
    client.post("/api/report", json={"winner": a, "loser": b, "loser_score": 100})
    text = client.get("/night.csv").text
    assert text.splitlines()[1].startswith("Friday,1,1,%s,%s,100," % (a, b))
    pdf = client.get("/scorecards.pdf")
    assert pdf.headers["content-type"] == "application/pdf" and pdf.content[:5] == b"%PDF-"
