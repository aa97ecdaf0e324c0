"""The HTTP rules every request to the phone page's server passes before any route runs,
the same on the laptop's server (crib serve) and the board's own (boardweb): plain code
that runs on CPython and MicroPython, no I/O.

- The key: every request but the page's shell and its script and style (public) carries
  the session key, as the X-Crib-Key header or `k` in the query, never a cookie (cookies
  are not scoped by port), compared in constant time (cribcore.table.seats.key_ok);
  else 403.
- A write (POST...) from another site's page (its Origin is not this host) is refused
  (403), and so is a body that is not JSON (415: what a form, or another site's script
  that wants no preflight, sends).
- With hosts given, a Host header not among them gets 421 (a name another site made point
  here: DNS rebinding).
- A body is at most MAX_BODY bytes (413), its Content-Length is digits (400), and it is
  given (411: not sent in chunks).
- The page's responses carry PAGE_HEADERS (its own script and style only, framed by no
  one, its address never sent elsewhere).

    why = refusal(method, path, header, given_key, key, hosts)   # (status, text) or None
    why = length_refusal(header("content-length"), chunked)
    body, why = json_body(raw)
"""

import json

from cribcore.table.seats import key_ok

MAX_BODY = 2048  # bytes: an answer is a few cards; anything longer is refused unread

MAX_NESTING = 16  # brackets and braces in a body: an answer has one (a board's parser
# would spend its heap on a thousand nested lists)
FORBIDDEN = "403: this page needs the address `crib serve` printed (it carries the key)"
CROSS_ORIGIN = "403: a page of another site may not post to the companion"
NOT_JSON = "415: answers are posted as application/json"
UNKNOWN_HOST = "421: this companion does not answer to that host name"
TOO_LARGE = "request too large (at most %d bytes)" % MAX_BODY
BAD_LENGTH = "bad Content-Length"
NEEDS_LENGTH = "a body is sent with its Content-Length (not in chunks)"
WRITES = ("POST", "PUT", "PATCH", "DELETE")
JSON = "application/json"
# The page runs only its own script and style, talks only to its server, is framed by
# no one, and never sends its address (with the key) to another site.
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self';"
                               " script-src 'self'; connect-src 'self'; base-uri 'none';"
                               " form-action 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def public(path):
    """The page's shell and its script and style: nothing of the game, no key (the page
    reads its key from its own storage, so a reload needs no key in the address)."""
    return path == "/" or path.startswith("/static/")


def foreign(method, header):
    """Why a write comes from elsewhere (a refusal text), or None: a browser names the
    page's origin on every cross-site POST, and a page's own script posts JSON.
    header(name) gives a request header by its lower-case name, or None."""
    if method not in WRITES:
        return None
    origin = header("origin")
    if origin is not None:  # "http://" or "https://" and the host, looked at in place
        host = header("host") or ""  # (a page names its origin on every POST: no str
        scheme = len(origin) - len(host)  # made per request)
        if not ((scheme == 7 and origin.startswith("http://") or scheme == 8 and
                 origin.startswith("https://")) and origin.endswith(host)):
            return CROSS_ORIGIN
    kind = header("content-type")
    if kind is not None and kind != JSON and kind.split(";")[0].strip().lower() != JSON:
        return NOT_JSON  # (a page's own `application/json` is taken with no str made)
    return None


def refusal(method, path, header, given, key, hosts=None):
    """(status, text) for a request refused before any route runs, or None: an unknown
    Host (421, only when hosts is given), no key (403, but for the public paths), a write
    from elsewhere (403, 415). given: the key the request carries (query `k`, else the
    X-Crib-Key header; never a cookie)."""
    if hosts is not None and header("host") not in hosts:
        return 421, UNKNOWN_HOST
    if not key_ok(key, given) and not public(path):
        return 403, FORBIDDEN
    why = foreign(method, header)
    if why is not None:
        return int(why[:3]), why
    return None


def length_refusal(length, chunked=False):
    """(status, text) when a body's Content-Length (text, or None) is refused: not plain
    digits (400), more than MAX_BODY (413), a body sent in chunks (411: a board reads a
    body whole, by its length); else None."""
    if chunked:
        return 411, NEEDS_LENGTH
    if length is None:
        return None
    if not length or length.strip("0123456789"):  # not digits alone (no generator)
        return 400, BAD_LENGTH
    if int(length) > MAX_BODY:
        return 413, TOO_LARGE
    return None


def json_body(raw):
    """(the JSON value of raw bytes, None), or (None, (400, why)) when it is not JSON."""
    if len(raw) > MAX_BODY:
        return None, (413, TOO_LARGE)
    if raw.count(b"[") + raw.count(b"{") > MAX_NESTING:
        return None, (400, "the request is nested too deeply")
    try:
        return json.loads(raw.decode("utf-8")), None
    except (ValueError, UnicodeError):
        return None, (400, "the request is not valid JSON")
    except RuntimeError:  # RecursionError is one (CPython); MicroPython's depth limit too
        return None, (400, "the request is nested too deeply")
