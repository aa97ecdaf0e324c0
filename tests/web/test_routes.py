"""The web companion's routes through Starlette's TestClient, where a test looks inside
the host (the history's entries, the board's picture, a Content-Length no real client
sends). The HTTP contract itself, every route and refusal, is tests/webboth's, run
against both servers (crib serve's and the board's own) over real HTTP."""

import json
import re

import pytest
from starlette.testclient import TestClient
from tablescript import rows
from webtools import KEY, NAMES, make_hub, seat, state

from crib.board.memory import MemoryBoard
from crib.board.state import BoardState
from crib.web.app import create_app
from crib.web.picture import board_svg
from cribcore.web.rules import MAX_BODY


def answer(client, text, who=None, **extra):
    q = state(client)["question"]
    body = {"question": q["id"], "answer": text, **(who or {}), **extra}
    return client.post("/api/answer", json=body)


def entries(client):
    return rows(client.db, "SELECT COUNT(*) AS n FROM entries")[0]["n"]


def test_the_page_shell_is_the_same_without_the_key_and_holds_nothing_of_the_game(db):
    app = create_app(make_hub(db), KEY, "http://x/?k=" + KEY, poll=False)
    with TestClient(app) as c:
        bare = c.get("/")  # a reload: the key is in the page's storage, not the address
        joined = c.get("/", params={"k": KEY})
        assert bare.status_code == joined.status_code == 200 and "<title>" in bare.text
        assert bare.text == joined.text
        assert KEY not in bare.text and "Alice" not in bare.text and "<svg" not in bare.text
        assert c.get("/static/app.js").status_code == c.get("/static/app.css").status_code == 200


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
    from crib.table.session import parse_target
    from cribcore.table.answers import AnswerError

    assert parse_target("121") == 121 and parse_target(" 61 ") == 61
    for text in ("\u0661\u0662\u0661", "1_21", "\uff11\uff12\uff11", "+-1", ""):
        with pytest.raises(AnswerError):
            parse_target(text)


def test_crib_serve_has_no_radio_so_its_page_offers_no_wifi_form(client):
    # The page shows "The board's Wi-Fi" only when /api/network answers (the board's own
    # server, boardweb.homeroute); crib serve has neither route.
    assert client.get("/api/network").status_code == 404
    assert client.post("/api/home", json={"seat": "table", "ssid": "x"}).status_code in (404,
                                                                                          405)
    assert 'id="wifi" hidden' in client.get("/").text
