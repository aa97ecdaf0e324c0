"""Strangers on the network: idle connections are closed before the key is ever checked,
and a player is still served while 200 idle sockets are open against a server whose file
limit is 200 (macOS's default is 256). Only 127.0.0.1 is ever connected to."""

import json
import os
import re
import resource
import socket
import subprocess
import sys
import time

import httpx2 as httpx

IDLE = 200
LIMIT = 200  # the server's open-file limit


def _limit_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))


def test_a_player_is_served_while_200_idle_sockets_are_open(tmp_path):
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    serve = subprocess.Popen(
        [sys.executable, "-m", "crib", "serve", "--board", "none", "--web-port", "0",
         "--no-qr", "--names", "Alice,Bob", "--target", "61", "--db",
         str(tmp_path / "h.sqlite3")], env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        preexec_fn=_limit_files)
    idle = []
    try:
        url = None
        while url is None:
            line = serve.stdout.readline()
            assert line, "crib serve stopped"
            m = re.search(r"open (http://127\.0\.0\.1:(\d+)/\?k=\S+)", line)
            if m:
                url, port = m[1], int(m[2])
        for _ in range(IDLE):  # a stranger's sockets: connected, silent
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            idle.append(s)
        t0 = time.monotonic()
        with httpx.Client(timeout=10) as http:
            for _ in range(5):
                r = http.get(url.replace("/?k=", "/state?k="))
                assert r.status_code == 200 and r.json()["question"]
        assert time.monotonic() - t0 < 5
        # The idle ones are closed by the server: at once (the oldest, past the cap of one
        # address) or after the few seconds a request head may take.
        # Each is waited for until it ends (its head's 5 s, with a margin for a loaded machine).
        deadline = time.monotonic() + 30
        closed = 0
        for s in idle:
            s.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                closed += s.recv(1) == b""
            except (TimeoutError, ConnectionResetError):
                closed += isinstance(sys.exc_info()[1], ConnectionResetError)
        assert closed == IDLE
    finally:
        for s in idle:
            s.close()
        serve.terminate()
        try:
            serve.wait(20)
        except subprocess.TimeoutExpired:
            serve.kill()
            serve.wait()


def test_writes_from_another_site_or_not_json_are_refused(client):
    q = client.get("/state").json()["question"]
    token = client.post("/api/join", json={"seat": "table"}).json()["token"]
    body = {"question": q["id"], "answer": "5h", "seat": "table", "token": token}
    r = client.post("/api/answer", json=body, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and "another site" in r.text
    r = client.post("/api/answer", content=json.dumps(body),
                    headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    assert client.get("/state").json()["version"] == client.hub.version
    assert client.get("/state").json()["view"]["hand"]["starter"] is None
    own = client.post("/api/answer", json=body, headers={"Origin": "http://testserver"})
    assert own.status_code == 200  # the page's own origin


def test_unknown_host_headers_are_refused(db):
    from starlette.testclient import TestClient
    from webtools import KEY, make_hub

    from crib.web.app import create_app

    app = create_app(make_hub(db), KEY, "http://127.0.0.1:8121/?k=" + KEY, poll=False,
                     hosts={"127.0.0.1:8121", "localhost:8121"})
    with TestClient(app, base_url="http://127.0.0.1:8121",
                    headers={"X-Crib-Key": KEY}) as c:
        assert c.get("/state").status_code == 200
        assert c.get("/state", headers={"Host": "localhost:8121"}).status_code == 200
        for host in ("evil.example", "evil.example:8121", "127.0.0.1:9999", ""):
            r = c.get("/state", headers={"Host": host})
            assert r.status_code == 421 and "host name" in r.text


def test_a_flood_of_connections_past_the_file_limit_is_said_once_and_a_player_served(tmp_path):
    """600 keyless keep-alive `GET /` connections against a server of 200 files: the
    oldest idle ones are closed (crib.web.server.MAX_OPEN in all), asyncio's `accept() out
    of system resource` is said in one line once a while, never a traceback per retry,
    and a player's GET is answered meanwhile."""
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    log = open(tmp_path / "log.txt", "w+")
    serve = subprocess.Popen(
        [sys.executable, "-m", "crib", "serve", "--board", "none", "--web-port", "0",
         "--no-qr", "--names", "Alice,Bob", "--target", "61", "--db",
         str(tmp_path / "h.sqlite3")], env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=log, text=True, preexec_fn=_limit_files)
    flood = []
    try:
        url = None
        while url is None:
            line = serve.stdout.readline()
            assert line, "crib serve stopped"
            m = re.search(r"open (http://127\.0\.0\.1:(\d+)/\?k=\S+)", line)
            if m:
                url, port = m[1], int(m[2])
        for _ in range(600):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            flood.append(s)
        t0 = time.monotonic()
        with httpx.Client(timeout=30) as http:
            r = http.get(url.replace("/?k=", "/state?k="))
            assert r.status_code == 200 and r.json()["question"]
        assert time.monotonic() - t0 < 10
    finally:
        for s in flood:
            s.close()
        serve.terminate()
        try:
            serve.wait(20)
        except subprocess.TimeoutExpired:
            serve.kill()
            serve.wait()
    log.seek(0)
    said = log.read()
    assert "Traceback" not in said, said[:2000]
    assert said.count("too many connections open") <= 3, said[:2000]
    assert len(said.splitlines()) <= 6, said[:2000]
