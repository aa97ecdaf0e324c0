"""cribcore.web.rules: the HTTP rules both page servers apply (plain asserts, CPython and
MicroPython)."""

from cribcore.web.rules import (
    CROSS_ORIGIN,
    FORBIDDEN,
    MAX_BODY,
    NOT_JSON,
    PAGE_HEADERS,
    UNKNOWN_HOST,
    foreign,
    json_body,
    key_ok,
    length_refusal,
    public,
    refusal,
)

KEY = "k3y-0123456789abcdef"


def headers(**given):
    """A request's headers as the rules read them: header(lower-case name) or None."""
    table = dict([(k.replace("_", "-"), v) for k, v in given.items()])
    return table.get


def test_the_key_is_compared_whole():
    assert key_ok(KEY, KEY)
    for given in (None, "", KEY[:-1], KEY + "x", KEY.upper(), "\u00e9" * 20, 7):
        assert not key_ok(KEY, given), given
    assert key_ok("\u00e9t\u00e9", "\u00e9t\u00e9") and not key_ok("ab", "abc")


def test_only_the_shell_and_its_assets_are_public():
    assert public("/") and public("/static/app.js")
    for path in ("/state", "/events", "/join.json", "/qr.svg", "/board.svg", "/api/join",
                 "/static", "//"):
        assert not public(path), path


def test_every_other_path_needs_the_key():
    h = headers(host="board")
    assert refusal("GET", "/state", h, None, KEY) == (403, FORBIDDEN)
    assert refusal("GET", "/state", h, "nope", KEY) == (403, FORBIDDEN)
    assert refusal("GET", "/state", h, KEY, KEY) is None
    assert refusal("GET", "/", h, None, KEY) is None
    assert refusal("POST", "/api/answer", h, None, KEY)[0] == 403


def test_a_write_from_another_site_or_not_json_is_refused():
    ok = headers(host="192.168.4.1", origin="http://192.168.4.1",
                 content_type="application/json; charset=utf-8")
    assert refusal("POST", "/api/answer", ok, KEY, KEY) is None
    elsewhere = headers(host="192.168.4.1", origin="http://evil.example")
    assert refusal("POST", "/api/answer", elsewhere, KEY, KEY) == (403, CROSS_ORIGIN)
    form = headers(host="192.168.4.1", content_type="text/plain")
    assert refusal("POST", "/api/answer", form, KEY, KEY) == (415, NOT_JSON)
    assert refusal("GET", "/state", form, KEY, KEY) is None  # a read changes nothing


def test_an_unknown_host_is_refused_when_hosts_are_given():
    hosts = ("192.168.4.1", "192.168.4.1:80")
    assert refusal("GET", "/", headers(host="evil.example"), KEY, KEY, hosts) == \
        (421, UNKNOWN_HOST)
    assert refusal("GET", "/", headers(), KEY, KEY, hosts)[0] == 421
    assert refusal("GET", "/", headers(host="192.168.4.1"), KEY, KEY, hosts) is None
    assert refusal("GET", "/", headers(host="evil.example"), KEY, KEY) is None


def test_body_lengths():
    assert length_refusal(None) is None and length_refusal("12") is None
    assert length_refusal(str(MAX_BODY + 1))[0] == 413
    for bad in ("", "-1", "1e3", " 12", "\u0661\u0662", "0x10"):
        assert length_refusal(bad)[0] == 400, bad
    assert length_refusal(None, True)[0] == length_refusal("12", True)[0] == 411


def test_bodies_are_json_or_refused():
    assert json_body(b'{"seat": 0}') == ({"seat": 0}, None)
    for raw in (b"{", b"", b"\xff\xfe", b'{"a": 1'):
        value, why = json_body(raw)
        assert value is None and why[0] == 400, raw
    assert json_body(b" " * (MAX_BODY + 1))[1][0] == 413
    deep = b"[" * 1000 + b"]" * 1000  # fits in MAX_BODY; never handed to the parser
    assert json_body(deep) == (None, (400, "the request is nested too deeply"))


def test_the_page_runs_only_its_own_code():
    csp = PAGE_HEADERS["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert PAGE_HEADERS["Referrer-Policy"] == "no-referrer"


def test_an_origin_is_its_hosts_whatever_the_texts_lengths():
    """foreign() looks at the Origin in place: the same verdict as comparing it with
    "http://" + host and "https://" + host, for origins near and far from them."""
    hosts = ["", "a", "192.168.4.1", "crib.local:8000", "\u00e9t\u00e9"]
    for host in hosts:
        near = ["http://" + host, "https://" + host, "http:/" + host, "https//" + host,
                "http://" + host + "x", "xhttp://" + host, "https://" + host[1:],
                "http://" + host[:-1], "ftp://" + host, "http://x" + host, "", "http://",
                "https://", "HTTP://" + host, "https://" + host + "/"]
        for other in hosts:
            near.append("http://" + other)
            near.append("https://" + other)
        for origin in near:
            same = origin == "http://" + host or origin == "https://" + host
            why = foreign("POST", headers(host=host, origin=origin))
            assert why == (None if same else CROSS_ORIGIN), (origin, host)
