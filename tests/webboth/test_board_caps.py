"""The board's own server caps what strangers and stray screens may hold (issue 35.4-5):
at most a handful of connections (the oldest still sending its request closed for a new
one) and of event streams (the oldest ended for a new one, its page opens it again), so
a player's answer is always taken."""

import socket

import httpx2 as httpx
import pytest
from both import HEADERS, Table, client, next_state, state
from conftest import started


@pytest.fixture(scope="module")
def board():
    with started("board") as server:
        yield server


@pytest.fixture(scope="module")
def table(board):
    """The players at the board's table (one reference game for the module)."""
    with client(board) as c:
        yield Table(c)


def address(server):
    host, port = server.url.rsplit("/", 1)[1].split(":")
    return host, int(port)


def test_silent_connections_are_capped_and_a_player_is_served(board, table):
    host, port = address(board)
    with client(board) as c:
        caps = c.get("/test/heap").json()["caps"]
    silent = [socket.create_connection((host, port), 10) for _ in range(3 * caps[0])]
    try:
        assert table.answer().status_code == 200
        with client(board) as c:
            h = c.get("/test/heap").json()
            assert h["conns"] <= caps[0], h
    finally:
        for s in silent:
            s.close()


def test_event_streams_are_capped_the_oldest_ended_and_answers_taken(board, table):
    with client(board) as c:
        caps = c.get("/test/heap").json()["caps"]
    n = caps[1] + 3
    clients = [httpx.Client(base_url=board.url, headers=HEADERS, timeout=30)
               for _ in range(n)]
    streams = []
    try:
        for cl in clients:
            cm = cl.stream("GET", "/events")
            r = cm.__enter__()
            lines = r.iter_lines()
            assert next_state(lines)["version"] >= 1
            streams.append((cm, lines))
        for _, lines in streams[:n - caps[1]]:  # the oldest: ended (a timeout fails)
            assert not any(line.startswith("data:") for line in lines)
        with client(board) as c:
            h = c.get("/test/heap").json()
            assert h["streams"] <= caps[1], h
            before = state(c)["version"]
            assert table.answer().status_code == 200
            assert state(c)["version"] > before
        for _, lines in streams[n - caps[1]:]:  # the newest follow the game still
            assert next_state(lines)["version"] > before
    finally:
        for cm, _ in streams:
            cm.__exit__(None, None, None)
        for cl in clients:
            cl.close()


def opened(board, params=None):
    """An event stream of the board (naming a seat with params); (client, its context,
    its lines) once its first state came."""
    cl = httpx.Client(base_url=board.url, headers=HEADERS, timeout=30)
    cm = cl.stream("GET", "/events", params=params)
    lines = cm.__enter__().iter_lines()
    assert next_state(lines)["version"] >= 1
    return cl, cm, lines


@pytest.mark.parametrize("spam", ["own seat", "forged token"])
def test_one_phone_opening_many_streams_never_pushes_out_the_others(board, table, spam):
    """Issue 35.5: streams are capped per seat, then in all from the seat with the most;
    a phone naming its seat (or a stranger naming another's with a wrong token, counted
    as naming none) that opens stream after stream ends only its own oldest."""
    with client(board) as c:
        caps = c.get("/test/heap").json()["caps"]
    others = [opened(board, {"s": 1, "t": table.seats[1]["token"]}),
              opened(board, {"s": "table", "t": table.table["token"]})]
    if spam == "own seat":
        params, kept = {"s": 0, "t": table.seats[0]["token"]}, caps[2]
    else:
        params, kept = {"s": 1, "t": "0-" + "0" * 16}, caps[1] - len(others)
    many = []
    try:
        for _ in range(caps[1] + 2):
            many.append(opened(board, params))
        with client(board) as c:
            h = c.get("/test/heap").json()
            assert h["streams"] <= caps[1], h
            before = state(c)["version"]
            assert table.answer().status_code == 200
        for _, _, lines in many[:-kept]:  # the phone's oldest: ended, the answer unsent
            assert not any(line.startswith("data:") for line in lines)
        # the other players' follow the game, and the phone's newest (of its kept: some
        # may have made room for them in all, streams of earlier tests not yet noticed gone)
        for _, _, lines in others + many[-1:]:
            assert next_state(lines)["version"] > before
    finally:
        for cl, cm, _ in others + many:
            cm.__exit__(None, None, None)
            cl.close()
