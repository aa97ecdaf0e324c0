"""The probes of issue 35 against both servers: HEAD and OPTIONS answered as a browser
expects with nothing kept (HEAD /events made a stream on the board that was never
closed), OPTIONS without the key refused like the rest, a head trickled a line at a time
and a body that never finishes closed by their deadlines; on the board, connections and
event streams capped (the oldest dropped) with a player's answer still taken."""

import socket
import time

from both import HEADERS, client, state

from cribcore.web.edge import BODY_S, HEAD_S


def address(server):
    host, port = server.url.rsplit("/", 1)[1].split(":")
    return host, int(port)


def closed_within(sock, seconds):
    """Read until the server closes sock (an answer before that is fine); True if it
    closed within seconds."""
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except ConnectionResetError:
        pass
    except TimeoutError:
        return False
    return True


def heap(server):
    with client(server) as c:
        return c.get("/test/heap").json()


def test_head_answers_its_head_and_keeps_nothing(server):
    before = heap(server)["live"] if server.kind == "board" else None
    with client(server) as c:
        for _ in range(120):
            for path in ("/events", "/state", "/"):
                r = c.head(path)
                assert r.status_code == 200 and r.content == b"", (path, r.status_code)
        assert state(c)["version"] >= 1
    if before is not None:  # the board's heap holds no stream per HEAD (3.3 KB each was)
        after = heap(server)
        assert after["live"] - before < 40_000, (before, after)
        assert after["streams"] == 0


def test_options_needs_the_key_and_other_methods_are_not_allowed(server):
    with client(server, key=False) as stranger:
        assert stranger.request("OPTIONS", "/state").status_code == 403
        assert stranger.request("OPTIONS", "/api/answer").status_code == 403
    with client(server) as c:
        assert c.request("OPTIONS", "/state").status_code < 500
        assert c.request("PROPFIND", "/state").status_code == 405
        assert c.request("PUT", "/api/answer", json={}).status_code == 405


def test_a_head_trickled_line_by_line_is_closed_at_its_deadline(server):
    host, port = address(server)
    sock = socket.create_connection((host, port), 10)
    try:
        sock.sendall(b"GET /state HTTP/1.1\r\n")
        t0 = time.monotonic()
        sock.settimeout(1)
        gone = False
        for i in range(4 * HEAD_S):  # a header line every second, never the blank line
            try:
                sock.sendall(b"X-Trickle-%d: 1\r\n" % i)
                if sock.recv(4096) == b"":
                    gone = True
                    break
            except TimeoutError:
                continue
            except (ConnectionResetError, BrokenPipeError):
                gone = True
                break
        assert gone, "a trickled head was held past its deadline"
        assert time.monotonic() - t0 < HEAD_S + 6
    finally:
        sock.close()


def test_a_body_that_never_finishes_is_not_held(server):
    host, port = address(server)
    with socket.create_connection((host, port), 10) as sock:
        sock.sendall(("POST /api/answer HTTP/1.1\r\nHost: %s\r\nX-Crib-Key: %s\r\n"
                      "Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"
                      % (host, HEADERS["X-Crib-Key"])).encode())
        t0 = time.monotonic()
        assert closed_within(sock, HEAD_S + BODY_S + 10)
        assert time.monotonic() - t0 < BODY_S + 8


def test_a_body_cut_short_by_a_phone_that_leaves_is_closed_quietly(server):
    # The board printed an EOFError traceback for each (its reader's end of stream).
    for _ in range(3):
        with socket.create_connection(address(server), 10) as s:
            s.sendall(("POST /api/undo HTTP/1.1\r\nX-Crib-Key: %s\r\nContent-Type:"
                       " application/json\r\nContent-Length: 20\r\n\r\n{"
                       % HEADERS["X-Crib-Key"]).encode())
            with client(server) as c:
                assert state(c)["version"] >= 1  # its head was read meanwhile
    with client(server) as c:
        assert state(c)["version"] >= 1  # and then the cut body
    if server.kind == "board":
        said = server.board.output()
        assert server.board.alive() and "Traceback" not in said, said[-2000:]
