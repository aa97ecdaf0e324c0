"""`crib serve` as a player runs it: it prints the joining address (with its key), listens
on 127.0.0.1 unless --lan, and with --terminal the terminal and the phones drive the same
game (the engine is the one authority)."""

import subprocess
import time

from browser import Serve

from crib.web.server import listen


def test_it_listens_on_this_computer_only_unless_told():
    sock = listen(False, 0)
    try:
        assert sock.getsockname()[0] == "127.0.0.1"
    finally:
        sock.close()
    sock = listen(True, 0)
    try:
        assert sock.getsockname()[0] == "0.0.0.0"
    finally:
        sock.close()


def wait_state(serve, test, timeout=10):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        s = serve.state()
        if test(s):
            return s
        time.sleep(0.05)
    raise AssertionError(f"never: {serve.state()}")


def said_at_the_terminal(serve, text, seconds=60):
    """Read crib serve's output (kept in serve.output) until a line has text; a process
    that never says it is killed after seconds, so the read ends."""
    import threading

    guard = threading.Timer(seconds, serve.proc.kill)
    guard.start()
    try:
        while True:
            line = serve.proc.stdout.readline()
            assert line, "never said %r: %s" % (text, "".join(serve.output))
            serve.output.append(line)
            if text in line:
                return
    finally:
        guard.cancel()


def test_the_terminal_and_a_phone_drive_the_same_game(tmp_path):
    serve = Serve(tmp_path, ["Alice", "Bob"], extra=("--board", "none", "--terminal"),
                  stdin=subprocess.PIPE)
    try:
        assert serve.url.startswith("http://127.0.0.1:") and "/?k=" in serve.url
        assert serve.http.get("/state", headers={"X-Crib-Key": "nope"}).status_code == 403
        q = serve.state()["question"]
        table = serve.http.post("/api/join", json={"seat": "table"}).json()
        r = serve.http.post("/api/answer", json={"question": q["id"], "answer": "5h",
                                                 "seat": "table", "token": table["token"]})
        assert r.status_code == 200
        wait_state(serve, lambda s: s["question"]["kind"] == "play")
        serve.proc.stdin.write("7\n")  # Bob plays at the terminal
        serve.proc.stdin.flush()
        s = wait_state(serve, lambda s: s["view"]["hand"]["pile"])
        assert s["view"]["hand"]["pile"] == ["7"] and s["question"]["asks"] == 0
        r = serve.http.post("/api/answer", json={"question": s["question"]["id"],
                                                 "answer": "8", "seat": "table",
                                                 "token": table["token"]})
        assert r.status_code == 200
        said_at_the_terminal(serve, "Alice: 8  count 15")  # what the phone did
        serve.proc.stdin.write("quit\n")
        serve.proc.stdin.flush()
        serve.proc.wait(20)
    finally:
        out = serve.stop()
    assert "Bob: 7  count 7" in out and "Alice: 8  count 15" in out
    assert "game is saved" in out


def test_resume_with_nothing_to_resume_is_a_clear_error(tmp_path):
    import io

    from crib.cli import main
    from crib.env import Env

    out, err = io.StringIO(), io.StringIO()
    env = Env(io.StringIO(), out, err, {"HOME": str(tmp_path)})
    rc = main(["serve", "--resume", "--db", str(tmp_path / "h.sqlite3"), "--board", "none",
               "--web-port", "0", "--no-qr"], env)
    assert rc == 1 and "no unfinished game to resume" in err.getvalue()
    assert "open http" not in out.getvalue()  # nothing served
