"""cribcore.web.edge: what both page servers answer, byte for byte (plain asserts,
CPython and MicroPython)."""

import json

from cribcore.table.seats import Refused
from cribcore.web.edge import Edge, obj, quote

KEY = "test-key-0123456789"


def _status(fn):
    try:
        fn()
    except Refused as e:
        return e.status
    return None


def test_json_is_ascii_in_a_fixed_order_and_reads_back():
    text = "a\"b\\c\n\u00e9\ud800\U0001f600"
    assert quote(text) == '"a\\"b\\\\c\\u000a\\u00e9\\ud800\\ud83d\\ude00"'
    out = obj(("ok", False), ("error", "x"), ("n", 3), ("none", None), ("l", [1, "a"]))
    assert out == b'{"ok":false,"error":"x","n":3,"none":null,"l":[1,"a"]}'
    assert json.loads(obj(("t", "caf\u00e9"))) == {"t": "caf\u00e9"}


def test_the_edge_checks_bodies_seats_and_joins():
    edge = Edge(KEY)
    names = ["Ann", "Bob"]
    assert _status(lambda: edge.head("12x")) == 400
    assert _status(lambda: edge.head("99999")) == 413
    assert _status(lambda: edge.head(None, True)) == 411
    assert edge.head("10") is None
    assert _status(lambda: edge.body("answer", b"[1]")) == 400
    assert _status(lambda: edge.body("join", b'{"seat": 0, "x": 1}')) == 400
    body = edge.body("join", b'{"seat": 0}')
    status, text = edge.join(body, names)
    token = json.loads(text)["token"]
    assert status == 200 and text.startswith(b'{"ok":true,"seat":0,"name":"Ann","token":')
    assert edge.join(body, names)[0] == 409
    answer = edge.body("answer", b'{"question": "q", "answer": "5h", "seat": 0, "token": "%s"}'
                       % token.encode())
    assert edge.seat(answer, names) == 0
    assert edge.ok(7) == b'{"ok":true,"version":7}'
    assert edge.refused(Refused(409, "no")) == (409, b'{"ok":false,"error":"no"}')
    assert json.loads(edge.joining("http://x/"))["taken"] == [0]


def test_ok_is_objs_bytes_for_every_version():
    for version in (0, 1, 7, 99, 12345, 2 ** 30 - 1):
        assert Edge.ok(version) == obj(("ok", True), ("version", version))
