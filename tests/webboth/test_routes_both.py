"""Every route of the phone page's server, and what it refuses, over real HTTP against both
servers (`crib serve`'s and the board's own under MicroPython): no key (403), cross-site
(403) and not-JSON (415) writes, too large (413), chunked (411), bad JSON and unknown
fields (400), forged seats (403), stale and replayed question ids (409), answers the engine
refuses (422), another player's turn (409); each refusal changes nothing. The tests of a
module share one game per server (conftest), so each starts from the state it finds."""

import json
import socket
import time

import httpx2 as httpx
import pytest
from both import KEY, NAMES, Q, Table, client, next_state, refused, state

from crib.web import assets
from cribcore.table.patch import patched
from cribcore.table.seats import seat_token
from cribcore.web.rules import MAX_BODY

GAME_PATHS = ["/state", "/events", "/board.svg", "/qr.svg", "/join.json"]


@pytest.fixture(scope="module")
def table(server):
    """The people at the table of this module's game on server."""
    with client(server) as c:
        yield Table(c)


def asked(table):
    """Answer until a question asks a player (not a confirmation for anyone); its state."""
    return table.until(lambda q: q is not None and q["asks"] is not None
                       and q["kind"] in ("starter", "play", "show", "crib"))


@pytest.mark.parametrize("path", GAME_PATHS)
def test_every_page_needs_the_key(server, path):
    with client(server, key=False) as c:
        assert c.get(path).status_code == 403
        assert c.get(path, params={"k": "wrong"}).status_code == 403
        assert c.get(path, headers={"X-Crib-Key": KEY[:-1]}).status_code == 403
        assert c.get(path, headers={"X-Crib-Key": "\u00e9".encode()}).status_code == 403
        r = c.post("/api/answer", json={"question": "x", "answer": "5h"})
        assert r.status_code == 403 and "address" in r.text
        assert "Alice" not in c.get(path).text  # the refusal says nothing of the game
        if path != "/events":  # (a stream: it never ends)
            assert c.get(path, params={"k": KEY}).status_code in (200, 404)


def test_the_page_shell_is_public_gzipped_and_the_same_for_everyone(server):
    with client(server, key=False) as c:
        bare, joined = c.get("/"), c.get("/", params={"k": KEY})
        assert bare.status_code == joined.status_code == 200 and bare.text == joined.text
        assert "<title>" in bare.text and KEY not in bare.text and "Alice" not in bare.text
        csp = bare.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp
        assert bare.headers["referrer-policy"] == "no-referrer"
        page = assets.plain()
        for path in ("/", "/static/app.js", "/static/app.css"):
            r = c.get(path, headers={"Accept-Encoding": "gzip"})
            assert r.status_code == 200 and r.headers["content-encoding"] == "gzip", path
            assert r.content == page[path][0], path  # httpx unzipped it: the same files
            assert r.headers["content-type"].split(";")[0] == page[path][1].split(";")[0]
            assert "set-cookie" not in r.headers
        assert c.get("/static/nothing.js").status_code == 404


def test_the_key_is_never_put_in_a_cookie_nor_taken_from_one(server):
    with client(server, key=False) as c:
        for path in ("/", "/join.json", "/state", "/qr.svg"):
            assert "set-cookie" not in c.get(path, params={"k": KEY}).headers, path
        c.cookies.set("crib_key", KEY)
        assert c.get("/state").status_code == 403
        assert c.post("/api/join", json={"seat": 0}).status_code == 403


def test_the_joining_address_its_code_and_no_board_picture_without_one(server):
    with client(server) as c:
        joining = c.get("/join.json").json()
        assert joining["url"].endswith("/?k=" + KEY) and joining["session"]
        assert joining["session"] == seat_token(KEY, "session")[:12]
        qr = c.get("/qr.svg")
        assert qr.headers["content-type"].startswith("image/svg+xml") and "<svg" in qr.text
        assert c.get("/board.svg").status_code == 404  # no picture: the LEDs are the board
        assert state(c)["board_rev"] is None


def test_state_and_seats(server, table):
    c = table.c
    s = state(c)
    assert s["view"]["names"] == NAMES and s["question"] is not None and s["run"]
    assert {"version", "log", "over", "undone", "answered"} <= set(s)
    assert table.seats[0]["token"] == seat_token(KEY, 0) != seat_token(KEY, 1)
    assert table.table["token"] == seat_token(KEY, "table")
    again = {"seat": 1, "token": table.seats[1]["token"]}
    assert c.post("/api/join", json=again).json()["name"] == "Bob"
    for bad in (2, -1, "Bob", True):
        refused(c.post("/api/join", json={"seat": bad}), 400)


def test_refusals_change_nothing(server, table):
    c = table.c
    before = asked(table)
    q = before["question"]
    me = table.seats[q["asks"]]
    other = table.seats[1 - q["asks"]]

    def post(body, **kw):
        return c.post("/api/answer", json=body, **kw)

    good = {"question": q["id"], "answer": "zz", **me}
    forged = dict(good, seat=q["asks"], token=other["token"])
    refused(post(forged), 403, "did not join as that seat")
    refused(post(dict(good, token=None)), 403, "join again")
    refused(post({"question": q["id"], "answer": "zz"}), 403, "choose your seat first")
    refused(post(dict(good, **other)), 409, "turn")
    refused(post(dict(good, seat=7, token="x")), 400, "no such seat")
    refused(post(good), 422)
    refused(post(dict(good, question="old-1")), 409, "no longer open")
    refused(post(dict(good, extra=1)), 400, "unknown field(s): extra")
    refused(post({"answer": "5h"}), 400, "missing field: question")
    refused(post(dict(good, answer=5)), 400, "answer: wrong type")
    refused(post(dict(good, seat=False)), 400, "wrong type")
    refused(c.post("/api/answer", json=[q["id"], "5h"]), 400, "JSON object")
    for raw in (b"{", b"", b"\xff\xfe", b'{"question": "a", "answer": "5h"'):
        refused(c.post("/api/answer", content=raw), 400, "not valid JSON")
    big = json.dumps(dict(good, answer="5h " * MAX_BODY))
    refused(c.post("/api/answer", content=big), 413, "too large")

    def chunks():  # no length given: a body in chunks
        yield json.dumps(good).encode()
    refused(c.post("/api/answer", content=chunks()), 411, "Content-Length")
    deep = "[" * 1020 + "]" * 1020  # fits in MAX_BODY: a board's heap is not spent on it
    refused(c.post("/api/answer", content=deep), 400, "nested too deeply")
    r = c.post("/api/answer", json=good, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and "another site" in r.text
    r = c.post("/api/answer", content=json.dumps(good),
               headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    after = state(c)
    assert after["version"] == before["version"] and after["question"] == q
    assert after["view"] == before["view"]


def test_a_replayed_answer_applies_once(server, table):
    c = table.c
    s = asked(table)
    q = s["question"]
    text = table.players.answer(Q(q))
    body = {"question": q["id"], "answer": text, **table.who(q)}
    r = c.post("/api/answer", json=body)
    assert r.status_code == 200 and r.json()["ok"], r.text
    version = state(c)["version"]
    refused(c.post("/api/answer", json=body), 409, "no longer open")  # a double tap
    assert state(c)["version"] == version


def test_anyone_may_answer_for_a_player_who_says_so(server, table):
    c = table.c
    q = asked(table)["question"]
    other = table.seats[1 - q["asks"]]
    text = table.players.answer(Q(q))
    body = {"question": q["id"], "answer": text, **other}
    refused(c.post("/api/answer", json=body), 409, "turn")
    r = c.post("/api/answer", json=dict(body, **{"for": True}))
    assert r.status_code == 200, r.text
    s = state(c)
    asker = NAMES[q["asks"]]
    assert s["answered"] is None or asker in s["answered"]["text"]
    assert any("answered for %s" % asker in e["text"] for e in s["log"])


def test_an_undo_is_put_back_once(server, table):
    c = table.c
    table.until(lambda q: q is not None and q["kind"] == "play")
    r = table.answer()  # a card laid
    assert r.status_code == 200, r.text
    laid = state(c)
    assert laid["undone"] is None
    who = table.who(laid["question"])
    refused(c.post("/api/undo", json={"question": laid["question"]["id"], "answer": "x",
                                      **who}), 400, "unknown field")
    refused(c.post("/api/undo", json={"question": laid["question"]["id"]}), 403,
            "choose your seat first")
    r = c.post("/api/undo", json={"question": laid["question"]["id"], **who})
    assert r.status_code == 200 and r.json()["ok"], r.text
    s = state(c)
    assert s["undone"]["text"].startswith("Undone: ") and s["undone"]["redo"]
    refused(c.post("/api/undo", json={"question": laid["question"]["id"], **who}), 409,
            "no longer open")
    r = c.post("/api/redo", json={"question": s["question"]["id"], **who})
    assert r.status_code == 200 and r.json()["ok"], r.text
    again = state(c)
    assert again["undone"] is None and again["view"] == laid["view"]
    refused(c.post("/api/redo", json={"question": again["question"]["id"], **who}), 422,
            "nothing to put back")
    refused(c.post("/api/redo", json={"question": s["question"]["id"], **who}), 409,
            "no longer open")


def test_every_screen_is_pushed_each_change(server, table):
    c = table.c
    with httpx.Client(base_url=server.url, headers={"X-Crib-Key": KEY}, timeout=20) as sse:
        streams = [sse.stream("GET", "/events") for _ in range(3)]
        responses = [s.__enter__() for s in streams]
        try:
            assert all(r.headers["content-type"].startswith("text/event-stream")
                       for r in responses)
            assert all(r.headers["cache-control"] == "no-store" for r in responses)
            lines = [r.iter_lines() for r in responses]
            have = [next_state(it) for it in lines]  # the whole state first
            assert len({s["version"] for s in have}) == 1 and "base" not in have[0]
            for _ in range(3):  # each change reaches every screen: what changed
                t0 = time.monotonic()
                r = table.answer()
                assert r.status_code == 200, r.text
                now = state(c)
                pushed = [next_state(it) for it in lines]
                assert all(p["version"] == now["version"] and p["base"] == h["version"]
                           for p, h in zip(pushed, have))
                assert all(len(json.dumps(p)) < len(json.dumps(now)) for p in pushed)
                have = [patched(h, p) for h, p in zip(have, pushed)]
                assert all(h == now for h in have)
                assert time.monotonic() - t0 < 5
        finally:
            for s in streams:
                s.__exit__(None, None, None)


def test_a_seat_joined_again_keeps_its_token(server, table):
    """The phone that holds a seat joins it again with its token: the same token."""
    r = table.c.post("/api/join", json=dict(table.seats[0]))
    assert r.status_code == 200 and r.json()["token"] == table.seats[0]["token"], r.text


def test_a_silent_connection_is_closed_and_holds_no_one_up(server):
    """A stranger's connection that never sends a request is closed within seconds (the
    both after cribcore.web.edge.HEAD_S), and a
    phone asking meanwhile is served at once."""
    host, port = server.url.rsplit("/", 1)[1].split(":")
    silent = [socket.create_connection((host, int(port)), 5) for _ in range(4)]
    try:
        with client(server) as c:
            t0 = time.monotonic()
            assert c.get("/state").status_code == 200
            assert time.monotonic() - t0 < 3
        t0 = time.monotonic()
        for s in silent:
            s.settimeout(15)
            said = b""
            try:
                while True:  # until the server closes it (a timeout here fails the test)
                    data = s.recv(4096)
                    if not data:
                        break
                    said += data
            except ConnectionResetError:
                pass
            assert b"Alice" not in said
        assert time.monotonic() - t0 < 12
    finally:
        for s in silent:
            s.close()
