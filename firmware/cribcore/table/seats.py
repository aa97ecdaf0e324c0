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
    check_seat(key, seat, token, players) -> seat   Refused(403/400)
    seat_generation(key, seat, token, players) -> the token's generation (the same checks)
    holders = Holders(key)                      which phone holds each seat
    token = holders.join(seat, players, names, take, token)     Refused(409/400)
    holders.check(seat, token, players) -> seat     Refused(403: moved, 400)
    check_turn(seat, asks, names, on_behalf)        Refused(409)

Plain Python for CPython and MicroPython (no I/O, no typing at runtime).
"""

import hashlib
from binascii import hexlify

from cribcore.table.answers import AnswerError

TABLE = "table"  # the seat of a shared screen: it may answer every question
_BLOCK = 64  # SHA-256's block size in bytes (HMAC pads its key to it)
MOVED = "your seat moved to another phone: choose a seat again to take it back"
TAKEN = ("%s's seat is held by another phone: take it from there only if that phone is"
         " no longer theirs")


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


_SALT = []  # a random salt of this process's comparisons, made at the first (same)


def _salted(text):
    """The salted digest of text (bytes, or str: MicroPython's hashes its UTF-8 bytes as
    they are, with no bytes object made; CPython's takes bytes only)."""
    if not _SALT:
        import random

        salt = b""  # (a loop: a comprehension would read `random` as a cell, and
        for _ in range(4):  # MicroPython makes a function's cells at every call)
            salt += b"%08x" % random.getrandbits(32)
        _SALT.append(salt)
    h = hashlib.sha256(_SALT[0])
    try:
        h.update(text)
    except TypeError:  # CPython: a str (a lone surrogate too) as as_bytes makes it
        h.update(as_bytes(text))
    return h.digest()


def same(a, b):
    """Whether two byte strings are equal, in a time that says nothing of where they
    differ: their digests under a salt of this process's (unknown to whoever sent one
    of them) are compared, so the place where the digests differ says nothing of a or b.
    Two SHA-256s in C, not a loop over the bytes in Python (about 1 ms a token on a
    Pico, and every request compares the key and a token)."""
    return _salted(a) == _salted(b)


_OURS = {}  # a text of ours (the session key, a token made here) -> its salted digest


def same_as_ours(given, ours):
    """same(given, ours) of two texts, ours (the session key or a token made here: one of
    a few) salted once and kept: every request compares one of each, and a digest less
    is an object and a SHA-256 less a request."""
    digest = _OURS.get(ours)
    if digest is None:
        if len(_OURS) >= MADE_MAX:
            _OURS.clear()
        digest = _OURS[ours] = _salted(ours)
    return _salted(given) == digest


def key_ok(key, given):
    """Whether given is the session key (compared in constant time)."""
    if not given or not isinstance(given, str):
        return False
    return same_as_ours(given, key)


_MADE = {}  # key -> {seat: {gen: token}}: each made once (seat_token); no tuple made to
# look one up (a request looks up its seat's)
_COUNT = [0]  # tokens in _MADE
MADE_MAX = 16  # tokens kept at most (a few seats, a few takes each)


def seat_token(key, seat, gen=0):
    """The token of a seat in this session: its gen-th (gen 0: the first phone's). Each is
    made once and kept (at most MADE_MAX): every request checks its token, twice, and an
    HMAC in Python costs milliseconds on a Pico (about 0.17 ms on a desktop's unix port)."""
    made = _MADE.get(key)
    made = None if made is None else made.get(seat)
    token = None if made is None else made.get(gen)
    if token is None:
        if not gen:
            digest = hmac_sha256(as_bytes(key), as_bytes("seat:%s" % (seat,)))
            token = hexlify(digest).decode()[:24]
        else:
            digest = hmac_sha256(as_bytes(key), as_bytes("seat:%s:%d" % (seat, gen)))
            token = "%d-%s" % (gen, hexlify(digest).decode()[:24])
        if _COUNT[0] >= MADE_MAX:
            _MADE.clear()
            _COUNT[0] = 0
        _MADE.setdefault(key, {}).setdefault(seat, {})[gen] = token
        _COUNT[0] += 1
    return token


def shown(value):
    """A value a request sent, as a refusal quotes it: 'text' or a number (the same on
    CPython and MicroPython, where repr differs)."""
    return "'%s'" % value if isinstance(value, str) else "%s" % (value,)


def seat_number(seat, players):
    """seat if it is TABLE or a player's number below players; Refused(400) if not."""
    if seat != TABLE and not (isinstance(seat, int) and not isinstance(seat, bool)
                              and players is not None and 0 <= seat < players):
        raise Refused(400, "no such seat: %s" % shown(seat))
    return seat


def generation(key, seat, token):
    """The generation of a seat's token (0: the first phone's, 1 after one take...), or
    None if token is no token of that seat."""
    if not token or not isinstance(token, str):
        return None
    gen = 0
    dash = token.find("-")
    if dash > 0:
        digits = token[:dash]
        if len(digits) > 6 or not all("0" <= c <= "9" for c in digits):
            return None
        gen = int(digits)
    if not same_as_ours(token, seat_token(key, seat, gen)):
        return None
    return gen


def check_seat(key, seat, token, players):
    """The seat a request speaks for: one joined, with its token (any generation: Holders
    checks which phone holds it). Refused(403) with no seat or if the token is not that
    seat's, Refused(400) if there is no such seat."""
    seat_generation(key, seat, token, players)
    return seat


def seat_generation(key, seat, token, players):
    """check_seat's checks; the generation of the token (check_seat's and Holders')."""
    if seat is None:
        raise Refused(403, "choose your seat first: this screen has not joined the game")
    seat_number(seat, players)
    gen = generation(key, seat, token)
    if gen is None:
        raise Refused(403, "this screen did not join as that seat: join again")
    return gen


class Holders:
    """Which phone holds each player's seat (the shared screen's is never held): the
    first phone to join a seat holds it; another phone gets it only by taking it
    (join(take=True)), which makes the seat's token anew, so the earlier phone's stops
    working (Refused 403 MOVED). A token carries its generation ("2-<hex>"; the first
    is the plain seat_token): after a restart, which forgets who held what, the newest
    token a phone shows wins again."""

    def __init__(self, key):
        self.key = key
        self.gens = {}  # seat -> the generation of the token that holds it

    def taken(self):
        """The seats held, in order."""
        return sorted(self.gens)

    def join(self, seat, players, names, take=False, token=None):
        """The token for a phone joining seat: the holder's own again (it shows it), a
        new one for a seat nobody holds or taken (take); Refused(409) for a seat held by
        another phone without take, Refused(400) for no such seat."""
        seat_number(seat, players)
        if seat == TABLE:
            return seat_token(self.key, TABLE)
        now = self.gens.get(seat)
        gen = generation(self.key, seat, token)
        if gen is not None and (now is None or gen >= now):
            self.gens[seat] = gen  # its own seat again (after a restart too)
            return token
        if now is not None:
            if not take:
                raise Refused(409, TAKEN % names[seat])
            now += 1
        else:
            now = 0
        self.gens[seat] = now
        return seat_token(self.key, seat, now)

    def check(self, seat, token, players):
        """check_seat, and the token is the one that holds the seat now (Refused(403)
        MOVED if the seat was taken by another phone since)."""
        gen = seat_generation(self.key, seat, token, players)
        if seat == TABLE:
            return seat
        now = self.gens.get(seat)
        if now is not None and gen < now:
            raise Refused(403, MOVED)
        self.gens[seat] = gen
        return seat


def check_turn(seat, asks, names, on_behalf):
    """Refused(409) unless seat may answer a question asking `asks`."""
    if asks is None or seat == TABLE or seat == asks or on_behalf:
        return
    who = names[asks] if 0 <= asks < len(names) else "another player"
    raise Refused(409, "it is %s's turn: answer for %s only if they ask you to" % (who, who))
