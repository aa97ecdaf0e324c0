"""Every route of the web companion, and what it refuses: no key (403), forged seats,
another player's turn, stale and replayed question ids, malformed and oversized bodies,
unknown fields, answers the engine refuses; each refusal changes nothing."""

import json
import re

import pytest
from starlette.testclient import TestClient
from tablescript import rows
from webtools import KEY, NAMES, Table, make_hub, seat, state

from crib.board.memory import MemoryBoard
from crib.board.state import BoardState
from crib.web.app import create_app
from crib.web.picture import board_svg
from crib.web.seats import seat_token
from cribcore.webrules import MAX_BODY


def answer(client, text, who=None, **extra):
    q = state(client)["question"]
    body = {"question": q["id"], "answer": text, **(who or {}), **extra}
    return client.post("/api/answer", json=body)


def entries(client):
    return rows(client.db, "SELECT COUNT(*) AS n FROM entries")[0]["n"]


@pytest.mark.parametrize("path", ["/state", "/events", "/board.svg", "/qr.svg", "/join.json"])
def test_every_page_needs_the_key(db, path):
    app = create_app(make_hub(db), KEY, "http://x/?k=" + KEY, poll=False)
    with TestClient(app) as c:
        assert c.get(path).status_code == 403
        assert c.get(path, params={"k": "wrong"}).status_code == 403
        assert c.get(path, headers={"X-Crib-Key": KEY[:-1]}).status_code == 403
        r = c.post("/api/answer", json={"question": "x", "answer": "5h"})
        assert r.status_code == 403 and "address" in r.text
        # The refusal says nothing of the game.
        assert "Alice" not in c.get(path).text


def test_the_page_shell_is_the_same_without_the_key_and_holds_nothing_of_the_game(db):
    app = create_app(make_hub(db), KEY, "http://x/?k=" + KEY, poll=False)
    with TestClient(app) as c:
        bare = c.get("/")  # a reload: the key is in the page's storage, not the address
        joined = c.get("/", params={"k": KEY})
        assert bare.status_code == joined.status_code == 200 and "<title>" in bare.text
        assert bare.text == joined.text
        assert KEY not in bare.text and "Alice" not in bare.text and "<svg" not in bare.text
        assert c.get("/static/app.js").status_code == c.get("/static/app.css").status_code == 200


def test_the_key_is_never_put_in_a_cookie_nor_taken_from_one(db):
    """Cookies are not scoped by port: every server on the host gets them. A request that
    carries the key only in a cookie (what another companion's page left) is refused."""
    app = create_app(make_hub(db), KEY, "http://x/?k=" + KEY, poll=False)
    with TestClient(app) as c:
        for path in ("/", "/join.json", "/state", "/qr.svg"):
            r = c.get(path, params={"k": KEY})
            assert "set-cookie" not in r.headers, path
        c.cookies.set("crib_key", KEY)
        assert c.get("/state").status_code == 403
        assert c.post("/api/join", json={"seat": 0}).status_code == 403
        c.cookies.clear()
        assert c.get("/state", headers={"X-Crib-Key": KEY}).status_code == 200


def test_the_page_carries_the_qr_code_and_no_outside_assets(client):
    page = client.get("/")
    csp = page.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert page.headers["referrer-policy"] == "no-referrer"  # the key stays here
    html = page.text
    joining = client.get("/join.json").json()  # the page fetches them with its key
    assert joining["url"] == "http://127.0.0.1/?k=" + KEY and joining["session"]
    js = client.get("/static/app.js").text
    css = client.get("/static/app.css").text
    for text in (html, js, css):  # every asset is served by the companion: no CDN
        assert "https://" not in text and "//cdn" not in text
    assert 'src="/static/app.js"' in html and 'href="/static/app.css"' in html
    qr = client.get("/qr.svg")
    assert qr.headers["content-type"].startswith("image/svg+xml") and "<svg" in qr.text


def test_state_has_the_question_and_the_view(client):
    s = state(client)
    q = s["question"]
    assert q["kind"] == "starter" and q["asks"] == 0 and "AH" in q["legal"]["cards"]
    assert s["view"]["names"] == NAMES and s["view"]["scores"] == [0, 0]
    assert any(e["kind"] == "heading" for e in s["log"])
    assert s["board_rev"] is None  # a board in memory has no picture
    assert client.get("/board.svg").status_code == 404


def test_seats_are_joined_with_a_token(client):
    a = seat(client, 0)
    assert a["token"] == seat_token(KEY, 0) and a["token"] != seat_token(KEY, 1)
    assert seat(client, "table")["token"] == seat_token(KEY, "table")
    for bad in (2, -1, "Bob", True):
        r = client.post("/api/join", json={"seat": bad})
        assert r.status_code == 400 and not r.json()["ok"]


def test_the_asked_seat_answers_and_every_screen_sees_it(client):
    alice = seat(client, 0)
    before = state(client)
    r = answer(client, "5h", alice)
    assert r.status_code == 200 and r.json()["ok"]
    after = state(client)
    assert after["version"] > before["version"]
    assert after["view"]["hand"]["starter"] == "5H"
    assert after["question"]["kind"] == "play" and after["question"]["asks"] == 1


def refused(client, r, status, words):
    assert r.status_code == status, r.text
    body = r.json()
    assert body["ok"] is False and words in body["error"]


def test_refusals_change_nothing(client):
    alice, bob = seat(client, 0), seat(client, 1)
    before, n = state(client), entries(client)
    q = before["question"]
    forged = {"seat": 1, "token": alice["token"]}
    refused(client, answer(client, "5h", forged), 403, "did not join as that seat")
    refused(client, answer(client, "5h", {"seat": 0, "token": None}), 403, "join again")
    refused(client, answer(client, "5h", bob), 409, "Alice's turn")
    refused(client, answer(client, "5h", {"seat": 7, "token": "x"}), 400, "no such seat")
    refused(client, answer(client, "zz", alice), 422, "")
    refused(client, client.post("/api/answer", json={"question": "old-1", "answer": "5h",
                                                     **alice}), 409, "no longer open")
    refused(client, answer(client, "5h", alice, extra=1), 400, "unknown field(s): extra")
    refused(client, client.post("/api/answer", json={"answer": "5h"}), 400,
            "missing field: question")
    refused(client, client.post("/api/answer", json={"question": q["id"], "answer": 5}),
            400, "answer: wrong type")
    refused(client, client.post("/api/answer", json={"question": q["id"], "answer": "5h",
                                                     "seat": False}), 400, "wrong type")
    refused(client, client.post("/api/answer", json=[q["id"], "5h"]), 400, "JSON object")
    for raw in (b"{", b"", b"\xff\xfe", b'{"question": "a", "answer": "5h"'):
        refused(client, client.post("/api/answer", content=raw), 400, "not valid JSON")
    big = json.dumps({"question": q["id"], "answer": "5h " * MAX_BODY})
    refused(client, client.post("/api/answer", content=big), 413, "too large")

    def chunks():  # no length given: refused unread (a board reads a body by its length)
        for _ in range(MAX_BODY + 1):
            yield b" "
    refused(client, client.post("/api/answer", content=chunks()), 411, "Content-Length")
    after = state(client)
    assert after["version"] == before["version"] and after["question"] == q
    assert entries(client) == n


def test_a_replayed_answer_applies_once(client):
    alice = seat(client, 0)
    q = state(client)["question"]
    body = {"question": q["id"], "answer": "5h", **alice}
    assert client.post("/api/answer", json=body).status_code == 200
    n, version = entries(client), state(client)["version"]
    r = client.post("/api/answer", json=body)  # a double tap, or a replayed request
    refused(client, r, 409, "no longer open")
    assert entries(client) == n and state(client)["version"] == version


def test_anyone_may_answer_for_a_player_who_says_so(client):
    alice = seat(client, 0)
    answer(client, "5h", alice)
    assert state(client)["question"]["asks"] == 1
    refused(client, answer(client, "7", alice), 409, "Bob's turn")
    assert answer(client, "7", alice, **{"for": True}).status_code == 200
    assert state(client)["view"]["hand"]["pile"] == ["7"]  # laid by rank: no suit shown
    table = seat(client, "table")  # a shared screen answers for everyone
    assert answer(client, "8", table).status_code == 200


def test_every_answer_and_undo_names_a_joined_seat_with_its_token(client):
    before, n = state(client), entries(client)
    q = before["question"]  # Alice's starter
    refused(client, answer(client, "5h"), 403, "choose your seat first")
    refused(client, answer(client, "5h", **{"for": True}), 403, "choose your seat first")
    refused(client, answer(client, "5h", {"seat": "table", "token": None}), 403, "join again")
    refused(client, client.post("/api/undo", json={"question": q["id"]}), 403,
            "choose your seat first")
    assert state(client)["version"] == before["version"] and entries(client) == n
    bob = seat(client, 1)
    assert answer(client, "5h", bob, **{"for": True}).status_code == 200
    assert state(client)["question"]["kind"] == "play"
    s = state(client)
    refused(client, client.post("/api/undo", json={"question": s["question"]["id"]}), 403,
            "choose your seat first")
    r = client.post("/api/undo", json={"question": s["question"]["id"], **bob})
    assert r.status_code == 200 and state(client)["question"]["kind"] == "starter"


def test_undo_takes_back_the_last_entry_once(client):
    alice = seat(client, 0)
    answer(client, "5h", alice)
    q = state(client)["question"]
    r = client.post("/api/undo", json={"question": q["id"], **alice})
    assert r.status_code == 200 and r.json()["ok"]
    s = state(client)
    assert s["question"]["kind"] == "starter" and s["view"]["hand"]["starter"] is None
    r = client.post("/api/undo", json={"question": q["id"], **alice})  # replayed
    refused(client, r, 409, "no longer open")
    r = client.post("/api/undo", json={"question": s["question"]["id"], "answer": "x"})
    refused(client, r, 400, "unknown field")
    r = client.post("/api/undo", json={"question": s["question"]["id"], "seat": 1,
                                       "token": alice["token"]})
    refused(client, r, 403, "did not join")
    assert state(client)["version"] == s["version"]


def test_an_undo_is_announced_to_every_screen_and_put_back_once(client):
    alice, bob = seat(client, 0), seat(client, 1)
    answer(client, "5h", alice)
    answer(client, "10", bob)
    laid = state(client)
    assert laid["undone"] is None
    r = client.post("/api/undo", json={"question": laid["question"]["id"], **alice})
    assert r.status_code == 200
    s = state(client)
    assert s["undone"] == {"text": "Undone: Bob laid 10", "redo": True}
    assert s["view"]["hand"]["pile"] == []
    r = client.post("/api/redo", json={"question": s["question"]["id"], **alice})
    assert r.status_code == 200 and r.json()["ok"]
    again = state(client)
    assert again["undone"] is None and again["view"] == laid["view"]
    r = client.post("/api/redo", json={"question": again["question"]["id"], **alice})
    refused(client, r, 422, "nothing to put back")
    r = client.post("/api/redo", json={"question": s["question"]["id"], **alice})
    refused(client, r, 409, "no longer open")


def test_a_whole_game_through_the_routes(client):
    """Every answer posted by the seat asked; the confirmations, which ask no one, by the
    shared screen."""
    players = Table(2, 121, False, seed=11)
    seats = [seat(client, 0), seat(client, 1)]
    table = seat(client, "table")
    posted = 0
    while True:
        s = state(client)
        q = s["question"]
        if q is None or q["kind"] == "another":
            break
        who = table if q["asks"] is None else seats[q["asks"]]
        r = answer(client, players.answer(_Q(q)), who)
        assert r.status_code == 200, r.text
        posted += 1
    g = players.g
    assert g.over and s["view"]["over"] and s["view"]["scores"] == list(g.scores)
    assert any(e["kind"] == "over" for e in s["log"])
    shows = [e for e in s["log"] if e["kind"] == "show"]
    assert shows and all(sum(i["points"] for i in e["data"]["items"]) == e["data"]["total"]
                         for e in shows)
    assert posted > 50


class _Q:
    """A question from the state as the Table's answer() reads it."""

    def __init__(self, d):
        self.__dict__.update(d)


class _Link:
    """A board's link as the picture reads it: three lanes, two in play, pegs lit,
    brightness 40."""

    info = {"lanes": 3, "holes": 121}

    def leds(self):
        px = [(0, 0, 0)] * 363
        for i in range(0, 363, 5):
            px[i] = (9, 4, 1)  # the hole marks
        px[10], px[20], px[250] = (101, 2, 0), (30, 1, 0), (0, 8, 101)
        return px

    def state(self):
        return BoardState(players=2, pegs=[(2, 5), (0, 3)], settings={"brightness": 40})


class _Board(MemoryBoard):
    kind = "pico"
    link = _Link()


def test_the_page_is_light(db):
    """Under 150 KB transferred for the page, its script and style, the state and the
    board's picture."""
    hub = make_hub(db, board=_Board(4), picture=board_svg(None))
    app = create_app(hub, KEY, "http://x/?k=" + KEY, poll=False)
    gz = {"Accept-Encoding": "gzip", "X-Crib-Key": KEY}
    total = 0
    with TestClient(app) as c:
        for path in ("/", "/static/app.js", "/static/app.css", "/state", "/board.svg"):
            r = c.get(path, headers=gz)
            assert r.status_code == 200
            total += int(r.headers.get("content-length", len(r.content)))
        svg = c.get("/board.svg", headers={"X-Crib-Key": KEY}).text
    holes = re.findall(r'class="hole" data-lane="(\d)" data-hole="(\d+)"[^>]*'
                       r'fill="#([0-9a-f]{6})"', svg)
    # The two lanes in play, every hole (start 0 to game 121), some lit.
    assert len(holes) == 2 * 122 and any(f != "0c0a09" for _, _, f in holes)
    assert total < 150_000


def test_bad_bodies_answer_400_with_a_message_never_500(db):
    app = create_app(make_hub(db), KEY, "http://x/?k=" + KEY, poll=False)
    with TestClient(app, headers={"X-Crib-Key": KEY}, raise_server_exceptions=False) as c:
        q = state(c)["question"]
        alice = seat(c, 0)
        deep = "[" * 1020 + "]" * 1020  # fits in MAX_BODY, deeper than the parser goes
        refused(c, c.post("/api/answer", content=deep), 400, "nested too deeply")
        lone = '{"question": "%s", "answer": "5h", "\\udc80x": 1}' % q["id"]
        refused(c, c.post("/api/answer", content=lone), 400, "unknown field(s)")
        body = {"question": q["id"], "answer": "5h", "seat": 0, "token": "\u00e9" * 24}
        refused(c, c.post("/api/answer", json=body), 403, "did not join")
        for length in ("\u0661\u0662\u0661".encode(), b"\xb2", b"\xb9\xb2"):  # not digits
            r = c.post("/api/answer", content=json.dumps({"question": q["id"],
                                                          "answer": "5h", **alice}),
                       headers={"content-length": length})
            refused(c, r, 400, "Content-Length")
        assert state(c)["view"]["hand"]["starter"] is None
        assert c.get("/state", headers={"X-Crib-Key": "\u00e9".encode()}).status_code == 403
        assert c.get("/state?k=%C3%A9%ED%A0%80").status_code == 403


def test_digits_of_other_scripts_are_not_numbers():
    from crib.table.answers import AnswerError
    from crib.table.session import parse_target

    assert parse_target("121") == 121 and parse_target(" 61 ") == 61
    for text in ("\u0661\u0662\u0661", "1_21", "\uff11\uff12\uff11", "+-1", ""):
        with pytest.raises(AnswerError):
            parse_target(text)
