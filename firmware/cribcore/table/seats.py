"""Who may answer: the session's key, seats and their tokens, and the checks a request
passes before the table's engine sees it (any server: the host's, the board's own).

A phone joins as one player's seat, or as the table (a shared tablet that answers for
everyone). Joining hands the phone a token for its seat, derived from the session key
(HMAC-SHA256, written here on hashlib.sha256: MicroPython has no hmac), so a request that
claims a seat it did not join as is refused (a forged seat). Only the seat asked may
answer a question that asks someone; anyone may answer for a player who says so (the
request says `for`), and questions that ask no one (setup, confirmations) are open to
every seat. Every refusal is a Refused: an HTTP status and a message for the player.

    key_ok(key, given) -> bool                  the session key, compared in constant time
    seat_token(key, seat) -> str                a seat's token (24 hex digits)
    check_fields(body, FIELDS, required) -> dict    Refused(400) unless it fits
    check_seat(key, seat, token, players) -> seat   Refused(403/400)
    check_turn(seat, asks, names, on_behalf)        Refused(409)

Plain Python for CPython and MicroPython (no I/O, no typing at runtime).
"""

import hashlib
from binascii import hexlify

from cribcore.table.answers import AnswerError

TABLE = "table"  # the seat of a shared screen: it may answer every question
MAX_BODY = 2048  # bytes: an answer is a few cards; anything longer is refused unread
_SEAT = (int, str, type(None))
_TOKEN = (str, type(None))
ANSWER_FIELDS = {"question": str, "answer": str, "seat": _SEAT, "token": _TOKEN,
                 "for": bool}
UNDO_FIELDS = {"question": str, "seat": _SEAT, "token": _TOKEN}
JOIN_FIELDS = {"seat": (int, str)}
_BLOCK = 64  # SHA-256's block size in bytes (HMAC pads its key to it)


class Refused(AnswerError):
    """A request refused before (or by) the engine: status (an HTTP status: 400 bad
    request, 403 not this seat, 409 stale or not your turn, 413 too large, 422 an answer
    that does not fit) and a message for the player; nothing was changed (an AnswerError:
    a front end that says those says these)."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


def as_bytes(text):
    """text as UTF-8 bytes, whatever it holds (a lone surrogate from JSON on CPython)."""
    if isinstance(text, bytes):
        return text
    try:
        return text.encode("utf-8", "surrogatepass")
    except (TypeError, ValueError, LookupError):  # pragma: no cover - MicroPython's str
        return text.encode()


def hmac_sha256(key, msg):
    """HMAC-SHA256 of msg under key (bytes), as bytes (RFC 2104)."""
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    inner, outer = bytearray(_BLOCK), bytearray(_BLOCK)
    for i in range(_BLOCK):
        k = key[i] if i < len(key) else 0
        inner[i], outer[i] = k ^ 0x36, k ^ 0x5C
    h = hashlib.sha256(bytes(inner))
    h.update(msg)
    o = hashlib.sha256(bytes(outer))
    o.update(h.digest())
    return o.digest()


def same(a, b):
    """Whether two byte strings are equal, in a time that depends on their lengths only
    (not on where they differ)."""
    diff = len(a) ^ len(b)
    if len(a) != len(b):
        b = a
    for i in range(len(a)):
        diff |= a[i] ^ b[i]
    return diff == 0


def key_ok(key, given):
    """Whether given is the session key (compared in constant time)."""
    if not given or not isinstance(given, str):
        return False
    return same(as_bytes(key), as_bytes(given))


def seat_token(key, seat):
    """The token of a seat in this session."""
    digest = hmac_sha256(as_bytes(key), as_bytes("seat:%s" % (seat,)))
    return hexlify(digest).decode()[:24]


def check_fields(body, fields, required):
    """body as a dict with only known fields of the right types; Refused(400) if not."""
    if not isinstance(body, dict):
        raise Refused(400, "the request must be a JSON object")
    unknown = sorted(k for k in body if k not in fields)
    if unknown:
        raise Refused(400, "unknown field(s): %s" % ", ".join(str(k) for k in unknown))
    for name in required:
        if name not in body:
            raise Refused(400, "missing field: %s" % name)
    for name in body:
        kinds = fields[name] if isinstance(fields[name], tuple) else (fields[name],)
        value = body[name]
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            raise Refused(400, "%s: wrong type" % name)
    return body


def check_seat(key, seat, token, players):
    """The seat a request speaks for: one joined, with its token. Refused(403) with no seat
    or if the token is not that seat's, Refused(400) if there is no such seat."""
    if seat is None:
        raise Refused(403, "choose your seat first: this screen has not joined the game")
    if seat != TABLE and not (isinstance(seat, int) and not isinstance(seat, bool)
                              and players is not None and 0 <= seat < players):
        raise Refused(400, "no such seat: %r" % (seat,))
    if not token or not isinstance(token, str) \
            or not same(as_bytes(token), as_bytes(seat_token(key, seat))):
        raise Refused(403, "this screen did not join as that seat: join again")
    return seat


def check_turn(seat, asks, names, on_behalf):
    """Refused(409) unless seat may answer a question asking `asks`."""
    if asks is None or seat == TABLE or seat == asks or on_behalf:
        return
    who = names[asks] if 0 <= asks < len(names) else "another player"
    raise Refused(409, "it is %s's turn: answer for %s only if they ask you to" % (who, who))
