"""boardweb.quick.plain: a phone's plain request read in place (no copy of its head, no
line or header name made a str; only the values the rules read). Whatever it takes, it
reads exactly as the general parse does (the request line, the path, the WANTED headers,
the body's place and length); anything else it leaves to the general parse. Under the
unix MicroPython it allocates less than half of what the general parse does for a phone's
request (its head copied, split and lowered)."""

import os
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from support import FIRMWARE, run_micropython

if str(FIRMWARE) not in sys.path:
    sys.path.append(str(FIRMWARE))

from boardweb import quick  # noqa: E402

HOT = {"/api/answer": ("POST", None), "/api/undo": ("POST", None),
       "/events": ("GET", None, True)}
BODY = b'{"question":"q12-ab","answer":"5h","seat":0,"token":"0123456789abcdef01234567"}'
# what a phone's browser sends with a page's fetch (Chrome on Android)
PHONE = ["Host: 192.168.4.1", "Connection: keep-alive", "Content-Length: %d" % len(BODY),
         "X-Crib-Key: abcdefghijklmnop", "User-Agent: Mozilla/5.0 (Linux; Android 14; Pixel"
         " 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
         "Content-Type: application/json", "Accept: */*", "Origin: http://192.168.4.1",
         "Referer: http://192.168.4.1/", "Accept-Encoding: gzip, deflate",
         "Accept-Language: en-GB,en;q=0.9"]


def request(lines, first="POST /api/answer HTTP/1.1", body=BODY):
    return ("\r\n".join([first] + lines) + "\r\n\r\n").encode() + body


def fields(got):
    """A parse's answer as plain values (None stays None)."""
    if got is None:
        return None
    req, start, length, route = got
    return req.method, req.path, req.args, req.headers, start, length, route


def general(buf):
    return quick.general(buf, 0, buf.find(b"\r\n\r\n"), HOT)


def test_a_phones_request_is_read_in_place_as_the_general_parse_reads_it():
    buf = request(PHONE)
    end = buf.find(b"\r\n\r\n")
    got = quick.plain(buf, 0, end, HOT)
    assert got is not None  # the phone's request is plain
    assert fields(got) == fields(general(buf))
    assert fields(quick.parse(buf, 0, HOT)) == fields(got)
    req = got[0]
    assert req.headers == {"host": "192.168.4.1", "content-length": str(len(BODY)),
                           "x-crib-key": "abcdefghijklmnop", "origin": "http://192.168.4.1",
                           "content-type": "application/json"}
    assert got[1:3] == (end + 4, len(BODY))


NAMES = ["Host", "host", "HOST", "hoSt", "Hxst", "Content-Length", "content-length",
         "CONTENT-LENGTH", "Content-Type", "content-type", "X-Crib-Key", "x-crib-key",
         "Origin", "origin", "Transfer-Encoding", "Accept", "Connection", "User-Agent",
         "Sec-Fetch-Mode", "Host ", "X", ""]
VALUES = ["192.168.4.1", " 192.168.4.1", "application/json", "  application/json ",
          "application/json; charset=utf-8", "12", " 12", "1x", "", " ", "\t12", "12\t",
          "abcdefghijklmnop", "http://192.168.4.1", "a:b", "\x0b12"]
FIRSTS = ["POST /api/answer HTTP/1.1", "POST /api/answer HTTP/1.0",
          "POST /api/undo HTTP/1.1", "GET /events HTTP/1.1",
          "GET /events?k=a%20b&s=0 HTTP/1.1", "POST /api/answer",
          "POST  /api/answer HTTP/1.1", "POST /api/answer HTTP/2",
          "post /api/answer HTTP/1.1", "POST /api/answer\tHTTP/1.1",
          "\tPOST /api/answer HTTP/1.1", "POST /api/answers HTTP/1.1",
          "GET /api/answer HTTP/1.1", "POST /api/answer?x HTTP/1.1",
          "POST /api/answer HTTP/1.1 ", "POST /api/answer HTTP/1.x"]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(FIRSTS),
       st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from([":", ": ", ":  ", " :"]),
                          st.sampled_from(VALUES)), max_size=7),
       st.sampled_from([b"", b"\xe9", "é".encode(), BODY]),
       st.sampled_from([b"", "é".encode(), b" folded"]))
def test_whatever_plain_takes_it_reads_as_the_general_parse(first, lines, body, odd):
    text = ["%s%s%s" % line for line in lines]
    buf = request(text, first, body)
    if odd:  # a header line beyond ASCII, or folded
        buf = buf.replace(b"\r\n\r\n", b"\r\nX-Odd: " + odd + b"\r\n\r\n", 1) \
            if odd != b" folded" else buf.replace(b"\r\n", b"\r\n folded\r\n", 1)
    end = buf.find(b"\r\n\r\n")
    got = quick.plain(buf, 0, end, HOT)
    if got is not None:
        assert fields(got) == fields(general(buf)), buf
    assert fields(quick.parse(buf, 0, HOT)) == fields(general(buf)), buf
    # the Host names the board answers to, taken as they are: the same reading
    assert fields(quick.plain(buf, 0, end, HOT, HOSTS)) == fields(got), buf
    assert fields(quick.parse(buf, 0, HOT, HOSTS)) == fields(general(buf)), buf


HOSTS = ["192.168.4", "192.168.4.1", "", " 192.168.4.1", "192.168.4.10"]


def test_a_known_host_and_a_pages_content_type_are_the_constants_not_new_text():
    """A Host the board answers to and a page's application/json are given as the
    constants they equal (no str made per request); any other value as it is."""
    known = "".join(["192.168.", "4.1"])  # a host name of the board's, not the literal
    got = quick.plain(request(PHONE), 0, request(PHONE).find(b"\r\n\r\n"), HOT,
                      ["crib.local", known])
    assert got[0].headers["host"] is known
    assert got[0].headers["content-type"] is quick.JSON
    other = quick.plain(request(PHONE), 0, request(PHONE).find(b"\r\n\r\n"), HOT,
                        ["192.168.4.10"])[0].headers["host"]
    assert other == known and other is not known


def test_a_request_not_at_the_buffers_start_is_the_general_parses():
    buf = b"xx" + request(PHONE)
    assert quick.plain(buf, 2, buf.find(b"\r\n\r\n"), HOT) is None
    assert quick.parse(buf, 2, HOT)[0].headers["host"] == "192.168.4.1"


SCRIPT = """
import gc
from boardweb import quick
buf = %r
hot = %r
end = buf.find(b"\\r\\n\\r\\n")

def alloc(fn):
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    got = fn()
    b = gc.mem_alloc()
    gc.enable()
    assert got is not None
    return b - a

quick.parse(buf, 0, hot)
quick.general(buf, 0, end, hot)
print("ALLOC", alloc(lambda: quick.parse(buf, 0, hot)),
      alloc(lambda: quick.general(buf, 0, end, hot)))
"""


def test_a_phones_request_costs_less_than_half_the_general_parses_heap(tmp_path):
    import microdot
    script = tmp_path / "plain.py"
    script.write_text(SCRIPT % (request(PHONE), {"/api/answer": ("POST", None)}))
    path = ":".join([".frozen", str(FIRMWARE), os.path.dirname(os.path.dirname(
        microdot.__file__))])
    proc = run_micropython([script], heap="256K", env={"MICROPYPATH": path})
    assert proc.returncode == 0, proc.stderr + proc.stdout
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("ALLOC ")][0]
    plain, whole = [int(x) for x in line.split()[1:]]
    assert 0 < plain * 2 < whole, (plain, whole)
