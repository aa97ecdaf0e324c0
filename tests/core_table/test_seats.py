"""cribcore.table.seats: the key, the seats' tokens (HMAC-SHA256 on hashlib.sha256) and
the checks before the engine (plain asserts: CPython and MicroPython)."""

from binascii import hexlify

from cribcore.table.seats import (
    TABLE,
    Holders,
    Refused,
    check_seat,
    check_turn,
    hmac_sha256,
    key_ok,
    same,
    seat_token,
)
from cribcore.web.edge import ANSWER_FIELDS, UNDO_FIELDS, check_fields

KEY = "test-key-0123456789"


def _status(fn):
    try:
        fn()
    except Refused as e:
        assert e.message
        return e.status
    return None


def test_hmac_sha256_gives_rfc_4231s_answers():
    assert hexlify(hmac_sha256(b"Jefe", b"what do ya want for nothing?")).decode() == \
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    big = hmac_sha256(b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First")
    assert hexlify(big).decode() == \
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"


def test_same_compares_whole_strings():
    assert same(b"abc", b"abc") and same(b"", b"")
    assert not same(b"abc", b"abd") and not same(b"abc", b"ab") and not same(b"", b"a")


def test_the_key_and_the_tokens():
    assert key_ok(KEY, KEY) and not key_ok(KEY, KEY + "x")
    assert not key_ok(KEY, None) and not key_ok(KEY, "") and not key_ok(KEY, 5)
    tokens = [seat_token(KEY, s) for s in (0, 1, 2, 3, TABLE, "session")]
    assert len(set(tokens)) == 6 and all(len(t) == 24 for t in tokens)
    assert seat_token("another", 0) != tokens[0]


def test_fields_are_checked():
    ok = {"question": "t-1", "answer": "5h", "seat": 0, "token": "x", "for": False}
    assert check_fields(ok, ANSWER_FIELDS, ("question", "answer")) is ok
    assert _status(lambda: check_fields([1], ANSWER_FIELDS, ())) == 400
    assert _status(lambda: check_fields({"question": "q", "x": 1}, UNDO_FIELDS, ())) == 400
    assert _status(lambda: check_fields({}, UNDO_FIELDS, ("question",))) == 400
    assert _status(lambda: check_fields({"question": 5}, UNDO_FIELDS, ())) == 400
    assert _status(lambda: check_fields({"question": "q", "seat": True}, UNDO_FIELDS,
                                        ())) == 400
    assert _status(lambda: check_fields({"question": "q", "for": 1}, ANSWER_FIELDS,
                                        ())) == 400


def test_a_seat_needs_its_own_token():
    assert check_seat(KEY, 1, seat_token(KEY, 1), 2) == 1
    assert check_seat(KEY, TABLE, seat_token(KEY, TABLE), 2) == TABLE
    assert _status(lambda: check_seat(KEY, None, None, 2)) == 403
    assert _status(lambda: check_seat(KEY, 1, seat_token(KEY, 0), 2)) == 403
    assert _status(lambda: check_seat(KEY, 1, None, 2)) == 403
    assert _status(lambda: check_seat(KEY, 2, seat_token(KEY, 2), 2)) == 400
    assert _status(lambda: check_seat(KEY, "bob", seat_token(KEY, "bob"), 2)) == 400


def test_only_the_seat_asked_may_answer_unless_for_another():
    names = ["Ann", "Bob"]
    check_turn(0, 0, names, False)
    check_turn(TABLE, 0, names, False)
    check_turn(1, None, names, False)
    check_turn(1, 0, names, True)
    assert _status(lambda: check_turn(1, 0, names, False)) == 409


def test_a_seat_is_held_by_one_phone_and_taken_only_on_purpose():
    holders = Holders(KEY)
    names = ["Ann", "Bob"]
    first = holders.join(0, 2, names)
    assert first == seat_token(KEY, 0) and holders.taken() == [0]
    assert holders.join(0, 2, names, False, first) == first  # the holder, again
    assert _status(lambda: holders.join(0, 2, names)) == 409  # another phone
    second = holders.join(0, 2, names, True)  # taken on purpose
    assert second != first and second.startswith("1-")
    assert holders.check(0, second, 2) == 0
    assert _status(lambda: holders.check(0, first, 2)) == 403  # the earlier phone's
    assert _status(lambda: holders.join(0, 2, names, False, first)) == 409
    assert holders.join(TABLE, 2, names) == holders.join(TABLE, 2, names)  # never held
    assert holders.taken() == [0]
    assert _status(lambda: holders.join(2, 2, names)) == 400
    assert _status(lambda: holders.check(0, "1-" + first, 2)) == 403  # a forged generation


def test_after_a_restart_the_newest_token_shown_holds_the_seat():
    before = Holders(KEY)
    names = ["Ann", "Bob"]
    old = before.join(0, 2, names)
    new = before.join(0, 2, names, True)
    after = Holders(KEY)  # a restart forgets who held what
    assert after.check(0, old, 2) == 0  # nobody showed a newer one yet
    assert after.check(0, new, 2) == 0
    assert _status(lambda: after.check(0, old, 2)) == 403


def test_each_token_is_made_once_and_the_kept_ones_are_bounded():
    """Every request checks its token: each seat's is made once (an HMAC costs
    milliseconds on a Pico), the same as made afresh, and only a few are kept."""
    from cribcore.table import seats

    made = []
    real = seats.hmac_sha256

    def counted(key, msg):
        made.append(msg)
        return real(key, msg)

    seats.hmac_sha256 = counted
    try:
        seats._MADE.clear()
        first = [seat_token(KEY, s, g) for s in (0, 1, TABLE) for g in (0, 2)]
        again = [seat_token(KEY, s, g) for s in (0, 1, TABLE) for g in (0, 2)]
        assert again == first and len(made) == 6
        assert check_seat(KEY, 1, first[2], 2) == 1 and len(made) == 6
        fresh = hexlify(real(KEY.encode(), b"seat:1")).decode()[:24]
        assert first[2] == fresh and first[3].startswith("2-")
        for n in range(3 * seats.MADE_MAX):  # many keys (sessions): the kept ones bounded
            seat_token("key-%d" % n, 0)
            assert len(seats._MADE) <= seats.MADE_MAX
        assert seat_token(KEY, 1) == fresh
    finally:
        seats.hmac_sha256 = real


def test_a_request_checks_its_token_once():
    """Holders.check makes the token's generation once (each an HMAC's comparison)."""
    from cribcore.table import seats

    real = seats.generation
    calls = []

    def counted(*args):
        calls.append(args)
        return real(*args)

    seats.generation = counted
    try:
        holders = Holders(KEY)
        token = holders.join(0, 2, ["Ann", "Bob"])
        table = holders.join(TABLE, 2, ["Ann", "Bob"])
        del calls[:]
        assert holders.check(0, token, 2) == 0 and len(calls) == 1
        assert holders.check(TABLE, table, 2) == TABLE and len(calls) == 2
        assert _status(lambda: holders.check(1, token, 2)) == 403 and len(calls) == 3
    finally:
        seats.generation = real


def test_same_is_equality_of_bytes():
    """same() compares salted digests: equal exactly when the bytes are."""
    cases = [(b"", b""), (b"a", b"a"), (b"a", b"b"), (b"abc", b"abd"), (b"abc", b"ab"),
             (b"", b"x"), (b"k" * 100, b"k" * 100), (b"k" * 100, b"k" * 99 + b"j")]
    for a, b in cases:
        assert same(a, b) == (a == b), (a, b)
    assert key_ok(KEY, KEY) and not key_ok(KEY, KEY + "x") and not key_ok(KEY, KEY[:-1])


def test_our_side_of_a_comparison_is_salted_once_and_the_kept_ones_are_bounded():
    """key_ok and a token's check compare a given text with one of ours (the key, a token
    made here): ours is salted once and kept, a few at most, and the answer is equality."""
    from cribcore.table import seats

    salted = []
    real = seats._salted

    def counted(data):
        salted.append(data)
        return real(data)

    seats._salted = counted
    try:
        seats._OURS.clear()
        token = seat_token(KEY, 0)
        givens = (KEY, KEY + "x", KEY[:-1], KEY)
        assert [key_ok(KEY, g) for g in givens] == [True, False, False, True]
        assert len(salted) == len(givens) + 1  # each given, and the key once
        del salted[:]
        assert check_seat(KEY, 0, token, 2) == 0
        assert _status(lambda: check_seat(KEY, 0, token[:-1] + "x", 2)) == 403
        assert check_seat(KEY, 0, token, 2) == 0
        assert len(salted) == 3 + 1  # each given, and the token once
        for n in range(3 * seats.MADE_MAX):  # many keys (sessions): the kept ones bounded
            assert key_ok("key-%d" % n, "key-%d" % n)
            assert len(seats._OURS) <= seats.MADE_MAX
    finally:
        seats._salted = real


def test_a_seats_check_makes_only_the_given_tokens_digest():
    """A request's token checked again (Holders.check): the token made before is found
    with no tuple made, and the given token is hashed as it is (no bytes made of it):
    on MicroPython it allocates the salted digest's hash and digest alone (two objects;
    before, a lookup tuple and the token's bytes came with them). The key's check alike."""
    import gc

    holders = Holders(KEY)
    token = holders.join(0, 2, ["Ann", "Bob"])
    assert holders.check(0, token, 2) == 0 and key_ok(KEY, KEY)
    if not hasattr(gc, "mem_alloc"):
        return  # CPython: no heap to measure; MicroPython's below
    given, key = "".join([token, ""]), "".join([KEY, ""])  # new str, as a request's
    import hashlib

    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        h = hashlib.sha256(b"salt")
        h.update(given)
        h.digest()
        b = gc.mem_alloc()
        assert holders.check(0, given, 2) == 0
        c = gc.mem_alloc()
        assert key_ok(KEY, key)
        d = gc.mem_alloc()
    finally:
        gc.enable()
    assert c - b == b - a and d - c == b - a, (b - a, c - b, d - c)
