"""Properties of what the web companion refuses: whatever JSON a request posts, it is
either a fitting answer from the seat asked (200) or refused with a message, and a refused
request changes nothing (the state's version, the history)."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from tablescript import rows
from webtools import KEY, make_hub

from crib.web.app import create_app

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
FIELDS = st.fixed_dictionaries({}, optional={
    "question": st.text(max_size=12) | st.integers(), "answer": st.text(max_size=12) | JSON,
    "seat": st.integers(-2, 5) | st.text(max_size=6) | st.none(), "token": JSON,
    "for": st.booleans() | JSON, "extra": JSON})


def test_whatever_is_posted_a_refusal_changes_nothing(db):
    app = create_app(make_hub(db), KEY, "http://x/?k=" + KEY, poll=False)
    with TestClient(app, headers={"X-Crib-Key": KEY}) as c:
        @settings(max_examples=150, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture])
        @given(body=JSON | FIELDS, path=st.sampled_from(["/api/answer", "/api/undo",
                                                          "/api/join"]),
               current=st.booleans())
        def check(body, path, current):
            before = c.get("/state").json()
            n = rows(db, "SELECT COUNT(*) AS n FROM entries")[0]["n"]
            if current and isinstance(body, dict) and path != "/api/join":
                body = dict(body, question=before["question"]["id"])  # the open question
            r = c.post(path, content=json.dumps(body))
            data = r.json()
            if r.status_code == 200:
                assert data["ok"] is True
                return
            assert 400 <= r.status_code < 500 and data["ok"] is False and data["error"]
            after = c.get("/state").json()
            assert after["version"] == before["version"]
            assert rows(db, "SELECT COUNT(*) AS n FROM entries")[0]["n"] == n
        check()


def _nest(depth, inner, as_object):
    return ('{"a":' * depth + inner + "}" * depth) if as_object else (
        "[" * depth + inner + "]" * depth)


BODIES = (st.binary(max_size=300)
          | st.builds(lambda d, o, i: _nest(d, i, o).encode("utf-8", "surrogatepass"),
                      st.integers(1, 2100), st.booleans(),
                      st.sampled_from(["1", '"x"', "", "[", '"\\ud800"']))
          | st.builds(lambda k, v: json.dumps({k: v}).encode(), st.text(max_size=6),
                      st.text(max_size=6))
          | st.builds(lambda t: json.dumps({"question": "q", "answer": "5h", "seat": 0,
                                            "token": t}).encode(), st.text(max_size=30)))
LENGTHS = st.none() | st.binary(max_size=6) | st.sampled_from([b"\xb2", b"12 ", b"-1"])


def test_whatever_bytes_are_posted_the_answer_is_a_refusal_not_a_crash(db):
    """Arbitrary bytes, any nesting, any Content-Length text, any token: 4xx with a
    message, never 500, and nothing changes."""
    app = create_app(make_hub(db), KEY, "http://x/?k=" + KEY, poll=False)
    with TestClient(app, headers={"X-Crib-Key": KEY}, raise_server_exceptions=False) as c:
        version = c.get("/state").json()["version"]

        @settings(max_examples=200, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture])
        @given(raw=BODIES, length=LENGTHS,
               path=st.sampled_from(["/api/answer", "/api/undo", "/api/join"]))
        def check(raw, length, path):
            headers = {}
            if length is not None:
                headers["content-length"] = length
            try:
                r = c.post(path, content=raw, headers=headers)
            except Exception:  # the client itself refused to send such a header
                return
            assert r.status_code != 500, r.text
            if r.status_code == 200:
                assert path == "/api/join"
                return
            data = r.json()
            assert 400 <= r.status_code < 500 and data["ok"] is False and data["error"]
        check()
        assert c.get("/state").json()["version"] == version
        assert rows(db, "SELECT COUNT(*) AS n FROM entries")[0]["n"] == 0
