"""The one request edge (cribcore.web.edge) behind both servers: the same request gets
the same answer, byte for byte, from `crib serve` and from the board's own server (both
running at once, each with its own game set up alike): joins, the seat checks and every
refusal of a body, with what a request sent quoted alike (a lone surrogate, say)."""

import json

import httpx2 as httpx
import pytest
from both import HEADERS

from cribcore.web.rules import MAX_BODY

POSTS = [  # (path, raw body): each answered alike by both servers
    ("/api/join", b'{"seat": 0}'),
    ("/api/join", b'{"seat": 1}'),
    ("/api/join", b'{"seat": "table"}'),
    ("/api/join", b'{"seat": "table"}'),  # the shared screen is never held
    ("/api/join", b'{"seat": 0}'),  # held by the first phone: 409
    ("/api/join", b'{"seat": 2}'),
    ("/api/join", b'{"seat": -1}'),
    ("/api/join", b'{"seat": true}'),
    ("/api/join", b'{"seat": "\\ud800"}'),  # a lone surrogate, quoted in the refusal
    ("/api/join", b'{"seat": "Z\\u00e9\\ud83d\\ude00"}'),
    ("/api/join", b'{"seat": 0, "\\udc80x": 1}'),
    ("/api/join", b'{}'),
    ("/api/join", b'[1, 2]'),
    ("/api/join", b'{"seat": 0, "take": "yes"}'),
    ("/api/join", b'not json'),
    ("/api/join", b'\xff\xfe'),
    ("/api/join", b'[' * 40 + b']' * 40),
    ("/api/answer", b'{"question": "q", "answer": "5h"}'),
    ("/api/answer", b'{"question": "q", "answer": "5h", "seat": 0, "token": "x"}'),
    ("/api/answer", b'{"question": "q", "answer": "5h", "seat": 0, "token": "9-abc"}'),
    ("/api/answer", b'{"question": "q", "answer": "5h", "seat": 7, "token": "x"}'),
    ("/api/answer", b'{"question": "q", "answer": "5h", "seat": null}'),
    ("/api/answer", b'{"question": "q", "answer": 5}'),
    ("/api/answer", b'{"answer": "5h"}'),
    ("/api/undo", b'{"question": "q", "answer": "5h"}'),
    ("/api/redo", b'{"question": "q", "seat": "table", "token": ""}'),
    ("/api/undo", b'{"question": 1}'),
    ("/api/answer", b'{"question": "q", "answer": "' + b"5" * MAX_BODY + b'"}'),
]


def post(server, path, raw, headers=None):
    """A raw POST with the key: (status, the body's bytes, its Content-Type)."""
    with httpx.Client(base_url=server.url, headers=HEADERS, timeout=20) as c:
        h = {"Content-Type": "application/json"}
        h.update(headers or {})
        r = c.post(path, content=raw, headers=h)
        return r.status_code, r.content, r.headers.get("content-type")


def test_both_servers_answer_every_request_byte_for_byte_alike(servers):
    said = {kind: [post(s, path, raw) for path, raw in POSTS]
            for kind, s in servers.items()}
    for (path, raw), crib, board in zip(POSTS, said["crib"], said["board"]):
        assert crib == board, (path, raw[:60], crib, board)
        status, body, kind = crib
        assert kind == "application/json"
        assert body.isascii()  # whatever was sent, the answer is plain ASCII JSON
        out = json.loads(body)
        assert out["ok"] is (status == 200)
    assert [s for s, _, _ in said["crib"][:5]] == [200, 200, 200, 200, 409]
    quoted = json.loads(said["crib"][8][1])["error"]
    assert quoted == "no such seat: '\ud800'"  # the surrogate as sent, escaped in the JSON


@pytest.mark.parametrize("headers", [{"Content-Length": "12x"},
                                     {"Transfer-Encoding": "chunked"}])
def test_a_bad_length_is_refused_alike(servers, headers):
    said = []
    for s in servers.values():
        host, port = s.url.rsplit("/", 1)[1].split(":")
        import socket
        with socket.create_connection((host, int(port)), 10) as sock:
            head = "".join("%s: %s\r\n" % kv for kv in headers.items())
            sock.sendall(("POST /api/answer HTTP/1.1\r\nHost: %s\r\nX-Crib-Key: %s\r\n"
                          "Content-Type: application/json\r\n%s\r\n"
                          % (host, HEADERS["X-Crib-Key"], head)).encode())
            sock.settimeout(15)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
            said.append(data.split(b" ", 2)[1])
    assert said[0] == said[1] and said[0] in (b"400", b"411"), said
