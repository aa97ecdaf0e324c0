"""Server push over a real server: every screen listening on /events gets the state at
once, then each new state after an answer (and a screen that reconnects catches up)."""

import json
import time

import httpx2 as httpx
from webtools import KEY, make_hub

from crib.web.app import create_app
from crib.web.server import Background
from cribcore.table.patch import patched
from cribcore.table.room import dumps

HEADERS = {"X-Crib-Key": KEY}


def next_state(lines):
    """The next state on an event stream (heartbeat comments skipped)."""
    for line in lines:
        if line.startswith("data: "):
            return json.loads(line[6:])
    raise AssertionError("the event stream ended")


def test_every_screen_gets_each_answer(db):
    app = create_app(make_hub(db), KEY, "http://x/?k=" + KEY)
    with Background(app) as url, httpx.Client(base_url=url, headers=HEADERS) as c:
        streams = [c.stream("GET", "/events") for _ in range(3)]
        responses = [s.__enter__() for s in streams]
        try:
            assert all(r.headers["content-type"].startswith("text/event-stream")
                       for r in responses)
            lines = [r.iter_lines() for r in responses]
            first = [next_state(it) for it in lines]
            assert len({s["version"] for s in first}) == 1
            q = first[0]["question"]
            token = c.post("/api/join", json={"seat": 0}).json()["token"]
            t0 = time.monotonic()
            r = c.post("/api/answer", json={"question": q["id"], "answer": "5h", "seat": 0,
                                            "token": token})
            assert r.status_code == 200
            got = [next_state(it) for it in lines]  # what changed, since the first
            assert time.monotonic() - t0 < 5
            assert all(s["base"] == f["version"] for s, f in zip(got, first))
            got = [patched(f, s) for s, f in zip(got, first)]
            assert all(s["view"]["hand"]["starter"] == "5H" for s in got)
            assert all(s["version"] > first[0]["version"] for s in got)
        finally:
            for s in streams:
                s.__exit__(None, None, None)
        # A screen that slept and connects again gets the state now, log included.
        with c.stream("GET", "/events") as r:
            s = next_state(r.iter_lines())
            assert s["view"]["hand"]["starter"] == "5H"
            assert any(e["kind"] == "say" and e["who"] == "starter" for e in s["log"])


def test_the_whole_state_is_made_only_when_a_screen_needs_it(db, monkeypatch):
    """crib serve's hub makes each version's patch, but its whole JSON text only for a
    screen that has no version just before (a new one, GET /state): not per version."""
    from crib.web import hub as hubmod

    made = []

    def counting(value):
        made.append(value["version"])
        return dumps(value)

    monkeypatch.setattr(hubmod, "dumps", counting)
    app = create_app(make_hub(db), KEY, "http://x/?k=" + KEY)
    with Background(app) as url, httpx.Client(base_url=url, headers=HEADERS) as c:
        with c.stream("GET", "/events") as r:
            lines = r.iter_lines()
            have = next_state(lines)
            assert made == [have["version"]]  # the first: the whole state
            token = c.post("/api/join", json={"seat": 0}).json()["token"]
            for _ in range(3):
                q = have["question"]
                body = {"question": q["id"], "answer": "5h" if q["kind"] == "starter"
                        else "", "seat": q["asks"] if q["asks"] is not None else "table",
                        "token": token}
                c.post("/api/answer", json=body)
                p = next_state(lines)
                assert "base" in p  # a patch
                have = patched(have, p)
                if have["question"]["kind"] != "starter":
                    break
            assert made == [made[0]]  # no whole text for the versions a patch carried
        s = c.get("/state").json()
        assert made == [made[0], s["version"]] and s == have
