"""The web path in one hop: a request from a phone is one call on the engine's worker
(Room.act), which builds the next question and the view once; the terminal beside the
phones (SharedEngine) goes the same way; the seats' tokens of the shared core are the
HMAC-SHA256 the standard library computes."""

import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st
from webtools import Players

import cribcore.table.engine as core_engine
from crib.web.hub import SharedEngine
from cribcore.table import seats as core_seats


class _Q:
    def __init__(self, d):
        self.__dict__.update(d)


@pytest.fixture
def counted(monkeypatch):
    """Counts of the questions and the views the engine builds, and of the worker calls."""
    counts = {"question": 0, "view": 0, "worker": 0}
    asked = core_engine.TableEngine.asked  # the room's question (plain data)
    view = core_engine.TableEngine.view

    def counting_asked(self):
        counts["question"] += 1
        return asked(self)

    def counting_view(self):
        counts["view"] += 1
        return view(self)
    monkeypatch.setattr(core_engine.TableEngine, "asked", counting_asked)
    monkeypatch.setattr(core_engine.TableEngine, "view", counting_view)
    return counts


def _count_worker(client, counts, monkeypatch):
    pool = client.hub._pool
    submit = pool.submit

    def counting_submit(*args, **kwargs):
        counts["worker"] += 1
        return submit(*args, **kwargs)
    monkeypatch.setattr(pool, "submit", counting_submit)


def test_an_answer_is_one_worker_call_building_the_question_and_the_view_once(
        client, counted, monkeypatch):
    table = client.post("/api/join", json={"seat": "table"}).json()
    seat = {"seat": "table", "token": table["token"]}
    players = Players(2, 121, False, seed=1)
    _count_worker(client, counted, monkeypatch)
    answers = 0
    for key in counted:
        counted[key] = 0
    while answers < 60:
        q = client.get("/state").json()["question"]
        r = client.post("/api/answer", json=dict(seat, question=q["id"],
                                                 answer=players.answer(_Q(q))))
        assert r.status_code == 200, r.text
        answers += 1
    assert counted == {"question": answers, "view": answers, "worker": answers}


def test_an_undo_and_a_redo_are_one_worker_call_each(client, counted, monkeypatch):
    table = client.post("/api/join", json={"seat": "table"}).json()
    seat = {"seat": "table", "token": table["token"]}
    players = Players(2, 121, False, seed=2)
    q = client.get("/state").json()["question"]
    while not q["undo"]:
        client.post("/api/answer", json=dict(seat, question=q["id"],
                                             answer=players.answer(_Q(q))))
        q = client.get("/state").json()["question"]
    client.post("/api/answer", json=dict(seat, question=q["id"], answer=players.answer(_Q(q))))
    _count_worker(client, counted, monkeypatch)
    for key in counted:
        counted[key] = 0
    q = client.get("/state").json()["question"]
    assert client.post("/api/undo", json=dict(seat, question=q["id"])).status_code == 200
    q = client.get("/state").json()["question"]
    assert client.post("/api/redo", json=dict(seat, question=q["id"])).status_code == 200
    assert counted["worker"] == 2 and counted["question"] == 2 and counted["view"] == 2


def test_a_refused_request_builds_nothing(client, counted):
    alice = client.post("/api/join", json={"seat": 0}).json()
    before = client.get("/state").json()
    for key in counted:
        counted[key] = 0
    r = client.post("/api/answer", json={"question": "stale", "answer": "5h", "seat": 0,
                                         "token": alice["token"]})
    assert r.status_code == 409 and "no longer open" in r.json()["error"]
    assert counted["question"] == counted["view"] == 0
    assert client.get("/state").json() == before


def test_the_terminal_beside_the_phones_answers_through_the_room(client):
    hub = client.hub
    terminal = SharedEngine(hub)
    q = terminal.question()
    assert q.id == hub.state["question"]["id"] and q.known == hub.state["view"]
    version = hub.version
    text = Players(2, 121, False, seed=3).answer(q)
    events = terminal.answer(q.id, text)
    assert hub.version > version and hub.state["question"]["id"] != q.id
    assert hub.call(lambda: hub.room.seq) >= len(events)
    with pytest.raises(core_seats.Refused) as refused:
        terminal.answer(q.id, text)  # the same question again: stale
    assert refused.value.status == 409
    assert terminal.poll() == []  # its own answer is not news to it


@given(st.text(min_size=1, max_size=40), st.one_of(st.integers(0, 3), st.just("table"),
                                                   st.text(max_size=12)))
def test_a_seats_token_is_the_standard_hmac_sha256(key, seat):
    expected = hmac.new(key.encode("utf-8", "surrogatepass"), f"seat:{seat}".encode(
        "utf-8", "surrogatepass"), hashlib.sha256).hexdigest()[:24]
    assert core_seats.seat_token(key, seat) == expected


@given(st.text(max_size=30), st.text(max_size=30))
def test_the_key_check_is_equality(key, given_key):
    assert core_seats.key_ok(key, given_key) == (bool(given_key) and key == given_key)


def test_a_new_session_key_is_fresh_and_passes_the_cores_key_check():
    from crib.web.seats import new_key

    a, b = new_key(), new_key()
    assert a != b and len(a) >= 16 and core_seats.key_ok(a, a) and not core_seats.key_ok(a, b)
