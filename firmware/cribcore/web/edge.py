"""The request's edge, one for both page servers (the host's `crib serve` on Starlette, the
board's own on microdot): what a posted request must be, who it speaks for, and the bytes
of every answer. The HTTP framework stays at each server; each calls this, so the two
answer byte for byte alike.

    edge = Edge(key)
    edge.head(length, chunked)            # Refused(400/411/413) before the body is read
    body = edge.body("answer", raw)       # the JSON object, field by field (Refused 400)
    seat = edge.seat(body, names)         # its seat and token (Refused 403/400)
    ... room.act("answer", body, seat) ...  (the server's: on a worker, or at once)
    edge.ok(version)                      # b'{"ok":true,"version":7}'
    status, text = edge.refused(e)        # a Refused as the page reads it
    status, text = edge.join(body, names) # a seat joined (or taken: 409 without take)
    edge.joining(url)                     # /join.json: the address, the session, seats taken

Every answer is ASCII JSON with its keys in a fixed order (MicroPython's dicts have
none), and whatever a request sent that a refusal quotes (a lone surrogate, say) is
escaped the same on CPython and MicroPython. The limits (HEAD_S, BODY_S, HEARTBEAT_S,
rules.MAX_BODY) are both servers'.

Plain code for CPython and MicroPython (no I/O, no typing at runtime).
"""

import json

from cribcore.table.seats import TABLE, Holders, Refused, seat_token
from cribcore.web import rules

HEAD_S = 5  # a connection sends its whole request head within this, or is closed
BODY_S = 5  # and its whole body within this after the head
SLOW_BODY = "the request's body did not come in time (within %d s)" % BODY_S
HEARTBEAT_S = 15  # a comment line on an idle event stream, so dead screens are noticed
_SEAT = (int, str, type(None))
_TOKEN = (str, type(None))
ANSWER_FIELDS = {"question": str, "answer": str, "seat": _SEAT, "token": _TOKEN,
                 "for": bool}
UNDO_FIELDS = {"question": str, "seat": _SEAT, "token": _TOKEN}
JOIN_FIELDS = {"seat": (int, str), "take": bool, "token": _TOKEN}
FIELDS = {"answer": (ANSWER_FIELDS, ("question", "answer")),
          "undo": (UNDO_FIELDS, ("question",)), "redo": (UNDO_FIELDS, ("question",)),
          "join": (JOIN_FIELDS, ("seat",))}


def check_fields(body, fields, required):
    """body as a dict with only known fields of the right types; Refused(400) if not."""
    if not isinstance(body, dict):
        raise Refused(400, "the request must be a JSON object")
    for k in body:
        if k not in fields:
            unknown = sorted([str(k) for k in body if k not in fields])
            raise Refused(400, "unknown field(s): %s" % ", ".join(unknown))
    for name in required:
        if name not in body:
            raise Refused(400, "missing field: %s" % name)
    for name in body:
        kinds = fields[name]  # a type or a tuple of types (isinstance takes either)
        value = body[name]
        if not isinstance(value, kinds) or isinstance(value, bool) and \
                kinds is not bool and (type(kinds) is not tuple or bool not in kinds):
            raise Refused(400, "%s: wrong type" % name)
    return body


def quote(text):
    """text as a JSON string in ASCII: every other character (a lone surrogate too) as
    \\uXXXX, one beyond U+FFFF as its surrogate pair (as MicroPython keeps it)."""
    out = ['"']
    for c in text:
        o = ord(c)
        if c == '"' or c == "\\":
            out.append("\\" + c)
        elif 32 <= o < 127:
            out.append(c)
        elif o > 0xFFFF:
            o -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
        else:
            out.append("\\u%04x" % o)
    out.append('"')
    return "".join(out)


def value(v):
    """A plain value as JSON text (str, int, bool, None; a list of those)."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(value(x) for x in v) + "]"
    return json.dumps(v)


def obj(*pairs):
    """A JSON object's bytes from (name, value) pairs, in that order."""
    return ("{" + ",".join(quote(k) + ":" + value(v) for k, v in pairs) + "}").encode()


def parse(raw, fields, required):
    """The posted bytes as a JSON object of the fields given (check_fields); Refused if
    not. Edge.body's, and any other page's that posts by the same rules (crib club's)."""
    body, why = rules.json_body(raw or b"")
    if why is not None:
        raise Refused(why[0], why[1])
    return check_fields(body, fields, required)


class Edge:
    """A server's request edge around its session key (module docstring); holders: which
    phone holds each seat (cribcore.table.seats.Holders)."""

    def __init__(self, key):
        self.key = key
        self.session = seat_token(key, "session")[:12]  # names the seat a phone keeps
        self.holders = Holders(key)

    @staticmethod
    def head(length, chunked=False):
        """Refused unless the body's Content-Length (text, or None) may be read."""
        why = rules.length_refusal(length, chunked)
        if why is not None:
            raise Refused(why[0], why[1])

    @staticmethod
    def body(kind, raw):
        """The posted JSON object of a request kind (answer, undo, redo, join), checked
        field by field; Refused if it is not one."""
        fields, required = FIELDS[kind]
        return parse(raw, fields, required)

    def seat(self, body, names):
        """The seat an answer, undo or redo speaks for (its token the seat's holder's)."""
        return self.holders.check(body.get("seat"), body.get("token"), len(names))

    def join(self, body, names):
        """(200, the seat, its name and token) for a join; a refusal's (status, text)."""
        seat = body["seat"]
        try:
            token = self.holders.join(seat, len(names), names, body.get("take", False),
                                      body.get("token"))
        except Refused as e:
            return self.refused(e)
        name = "the table" if seat == TABLE else names[seat]
        return 200, obj(("ok", True), ("seat", seat), ("name", name), ("token", token))

    def joining(self, url):
        """/join.json: the joining address, the session's name, the seats held."""
        return obj(("url", url), ("session", self.session),
                   ("taken", self.holders.taken()))

    @staticmethod
    def ok(version):
        """The answer to a request that applied: the state's version it made (obj's
        bytes, made at once: the reply to every answer, on a board too)."""
        return b'{"ok":true,"version":%d}' % version

    @staticmethod
    def refused(e):
        """(status, text) of a Refused as the page reads it: {"ok": false, "error"}."""
        return e.status, obj(("ok", False), ("error", e.message))
