"""`crib sim --wifi`: the board's own web server on this computer as a player starts it
(MicroPython and microdot found by crib itself, the page's files made, the store kept: a
restart serves the same address and goes on with the game); a port in use and Ctrl-C
answered with a sentence. HOME is the tests' own (conftest), and the store a temporary
folder."""

import re
import signal
import socket
import subprocess
import sys

import httpx2 as httpx

from crib.web.unixboard import free_port

OPEN = re.compile(r"the board's own page on (http://127\.0\.0\.1:(\d+)/\?k=(\w+))")


def start(store, port):
    """`crib sim --wifi` running; (process, the address it printed, what it printed)."""
    proc = subprocess.Popen([sys.executable, "-m", "crib", "sim", "--wifi", "--store",
                             str(store), "--web-port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    said = []
    for line in proc.stdout:  # until it has said where it serves and how to stop (or ends)
        said.append(line)
        if "Ctrl-C stops" in line:
            return proc, OPEN.search("".join(said)), "".join(said)
    proc.wait(10)
    raise AssertionError("crib sim --wifi never served:\n" + "".join(said))


def stop(proc):
    """Ctrl-C: what it says after, and its status."""
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # a failure, not a hang: Ctrl-C did not stop it
        proc.kill()
        raise AssertionError("crib sim --wifi did not stop at Ctrl-C:\n"
                             + proc.communicate()[0]) from None
    return out, proc.returncode


def test_the_boards_server_on_this_computer_keeps_its_game_and_its_address(tmp_path):
    store = tmp_path / "sim"
    port = free_port()
    proc, found, said = start(store, port)
    try:
        url, key = found.group(1), found.group(3)
        assert int(found.group(2)) == port and "\u2588" in said  # and its QR code
        with httpx.Client(base_url=url.split("/?")[0], headers={"X-Crib-Key": key},
                          timeout=20) as c:
            assert "<title>" in c.get("/").text  # the page's files, made by crib
            token = c.post("/api/join", json={"seat": "table"}).json()["token"]
            for kind, answer in (("names", "Ann Ben"), ("target", "61"), ("dealer", "Ben")):
                q = c.get("/state").json()["question"]
                assert q["kind"] == kind, q
                r = c.post("/api/answer", json={"question": q["id"], "answer": answer,
                                                "seat": "table", "token": token})
                assert r.status_code == 200, r.text
            after = c.get("/state").json()
            assert after["view"]["names"] == ["Ann", "Ben"] and after["view"]["target"] == 61
    finally:
        out, status = stop(proc)
    assert status == 0 and "Traceback" not in out, out
    assert [line for line in out.splitlines() if line.strip()] == [
        "crib sim --wifi: stopped; the game is kept in %s" % (store / "wifi")]

    proc, found, said = start(store, port)  # again: the same address, the game goes on
    try:
        assert found.group(1) == url
        with httpx.Client(base_url=url.split("/?")[0], headers={"X-Crib-Key": key},
                          timeout=20) as c:
            again = c.get("/state").json()
            assert again["view"]["names"] == ["Ann", "Ben"] and again["view"]["target"] == 61
            assert again["view"]["dealer"] == after["view"]["dealer"] == 1
            assert again["question"]["prompt"] == after["question"]["prompt"]
    finally:
        stop(proc)


def test_a_port_in_use_is_said_in_a_sentence(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "crib", "sim", "--wifi", "--store",
                               str(tmp_path), "--web-port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("crib: error: port %d is in use" % port), done.stderr
    assert "--web-port N" in done.stderr
