"""A phone never keeps an event stream that has stopped: when the board's server cannot
make a screen's next state, or write it to the phone's connection (MemoryError, as in a
heap too full or too fragmented for the state's text), that stream's connection is
closed, so the page's EventSource opens a new one, which gets the state. The server
(boardweb.server under MicroPython's unix port) runs around a room that fails on demand
(tests/webboth/failing_board.py)."""

import os
import subprocess
import time

import httpx2 as httpx
import pytest
from both import KEY, next_state

from crib.layout.source import firmware_dir
from crib.web.unixboard import free_port, microdot_dir, micropython

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(params=["event", "write"])
def failing(request):
    """The server's url and process; the first new state after version 1 fails to be
    made into a stream's event (event), or to be written to the phone (write)."""
    port = free_port()
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(
        [".frozen", str(firmware_dir()), microdot_dir()]))
    proc = subprocess.Popen([micropython(), "-X", "heapsize=256K",
                             os.path.join(HERE, "failing_board.py"), str(port), KEY, "1",
                             *(["write"] if request.param == "write" else [])],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
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
        yield url, proc, request.param
    finally:
        proc.terminate()
        proc.wait(10)


def answer(c):
    """A new version (the failing room takes any answer from seat 0)."""
    who = c.post("/api/join", json={"seat": 0, "take": True}).json()
    r = c.post("/api/answer", json={"question": "q", "answer": "x", "seat": 0,
                                    "token": who["token"]})
    assert r.status_code == 200, r.text
    return r.json()["version"]


def test_a_stream_that_cannot_send_the_next_state_is_closed_and_a_new_one_gets_it(failing):
    url, proc, where = failing
    with httpx.Client(base_url=url, headers={"X-Crib-Key": KEY}, timeout=10) as c:
        with c.stream("GET", "/events") as r:
            lines = r.iter_lines()
            assert next_state(lines)["version"] == 1
            assert answer(c) == 2  # its state fails to be made into the stream's event
            t0 = time.monotonic()
            rest = list(lines)  # the stream ends (a read timeout here fails the test)
            assert time.monotonic() - t0 < 5
            assert not any(line.startswith("data:") for line in rest), rest
        with c.stream("GET", "/events") as r:  # the page's EventSource, reconnecting
            assert next_state(r.iter_lines())["version"] == 2
        assert answer(c) == 3
        assert c.get("/state").json() == {"version": 3}
    proc.terminate()
    said = proc.communicate(timeout=10)[0]
    if where == "event":
        assert "event stream ended: MemoryError" in said, said
    assert "Traceback" not in said, said
