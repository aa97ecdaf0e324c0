"""A board whose flash is full answers a player with a sentence, not a 500 (issue 35.6):
"the board's storage is full: ...", nothing taken (the question is asked again); once
there is room again the same answer is taken. The board's server runs under MicroPython's
unix port with a game record that fills up on demand (tests/webboth/full_board.py)."""

import os
import subprocess
import time

import httpx2 as httpx
import pytest
from both import KEY, Q, Table, state

from crib.layout.source import firmware_dir
from crib.web.unixboard import free_port, microdot_dir, micropython

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture
def full_board(tmp_path):
    port = free_port()
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(
        [".frozen", str(firmware_dir()), microdot_dir()]))
    proc = subprocess.Popen([micropython(), "-X", "heapsize=640K",
                             os.path.join(HERE, "full_board.py"), str(port), KEY,
                             str(tmp_path)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout.readline().strip() == "serving %d" % port
        url = "http://127.0.0.1:%d" % port
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(url + "/state", headers={"X-Crib-Key": KEY}, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server never answered"
                time.sleep(0.05)
        yield url, proc
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_full_flash_is_said_in_a_sentence_and_the_answer_taken_once_there_is_room(
        full_board):
    url, proc = full_board
    with httpx.Client(base_url=url, headers={"X-Crib-Key": KEY}, timeout=20) as c:
        table = Table(c)
        assert table.answer().status_code == 200  # the record writes as usual
        before = state(c)
        assert c.post("/test/full", json={"full": True}).status_code == 200
        q = before["question"]
        text = table.players.answer(Q(q))  # what the players say (their game moves on)
        body = {"question": q["id"], "answer": text, **table.who(q)}
        r = c.post("/api/answer", json=body)
        assert r.status_code == 507, r.text
        assert r.json()["error"].startswith("the board's storage is full: ")
        after = state(c)
        assert after["question"]["prompt"] == q["prompt"]  # asked again: nothing taken
        assert after["view"]["scores"] == before["view"]["scores"]
        assert c.post("/test/full", json={"full": False}).status_code == 200
        r = c.post("/api/answer", json=dict(body, question=after["question"]["id"]))
        assert r.status_code == 200, r.text
        assert table.answer().status_code == 200  # the players' game and the board's agree
    assert proc.poll() is None


def test_an_undo_and_a_redo_on_a_full_flash_are_said_and_change_nothing(full_board):
    """Issue 35.6: every write of the record (an undo's, a redo's as an answer's) answers a
    full flash with the sentence, the game as it was; once there is room both are taken."""
    url, proc = full_board
    with httpx.Client(base_url=url, headers={"X-Crib-Key": KEY}, timeout=20) as c:
        table = Table(c)
        table.until(lambda q: q["kind"] == "play" and q["undo"])
        assert table.answer().status_code == 200  # a card laid: a line to take back
        before = state(c)
        assert c.post("/test/full", json={"full": True}).status_code == 200
        undo = {"question": before["question"]["id"], **table.table}
        r = c.post("/api/undo", json=undo)
        assert r.status_code == 507, r.text
        assert r.json()["error"].startswith("the board's storage is full: ")
        after = state(c)
        assert after["question"]["prompt"] == before["question"]["prompt"]
        assert after["view"] == before["view"]
        assert c.post("/test/full", json={"full": False}).status_code == 200
        r = c.post("/api/undo", json=dict(undo, question=after["question"]["id"]))
        assert r.status_code == 200, r.text
        undone = state(c)
        assert undone["undone"]["redo"] and undone["view"] != before["view"]
        assert c.post("/test/full", json={"full": True}).status_code == 200
        redo = {"question": undone["question"]["id"], **table.table}
        r = c.post("/api/redo", json=redo)
        assert r.status_code == 507, r.text
        assert r.json()["error"].startswith("the board's storage is full: ")
        assert state(c)["view"] == undone["view"]
        assert c.post("/test/full", json={"full": False}).status_code == 200
        r = c.post("/api/redo", json=dict(redo, question=state(c)["question"]["id"]))
        assert r.status_code == 200, r.text
        assert state(c)["view"] == before["view"]  # put back as it was
        assert table.answer().status_code == 200  # the players' game and the board's agree
    assert proc.poll() is None
