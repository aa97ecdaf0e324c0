"""The firmware on an emulated Pico answers the protocol over USB: boot, hello, every verb,
repeated ids, garbage. One booted Pico serves the module (each check leaves it usable)."""

import random

import pytest
from picorig import game_state

from cribcore.protocol import MAX_LINE, PROTO, LineReader, decode, verbs

pytestmark = pytest.mark.pico


def reply(pico, line):
    """The decoded reply to a command line."""
    return decode(pico.ask(line))


def state(pico):
    """The board's state, less its live readings (picorig.LIVE)."""
    return game_state(reply(pico, "state").args)


def test_it_boots_and_says_hello(pico):
    boot = pico.booted()
    msg = decode(boot.text)
    assert (msg.kind, msg.verb) == ("evt", "boot")
    assert msg.args["proto"] == PROTO and "warn" not in msg.args  # a clean first boot
    assert boot.t < 2_000_000_000  # emulated ns after reset
    hello = reply(pico, "hello")
    assert hello.kind == "ok"
    assert (hello.args["proto"], hello.args["lanes"], hello.args["holes"],
            hello.args["desk"]) == (PROTO, 3, 121, 0)


# Every verb once, with what it must answer on a Pico: (line, kind, check of the reply).
VERBS = [
    ("hello", "ok", lambda a: a["lanes"] == 3),
    ("new players=3 target=121", "ok", lambda a: (a["players"], a["target"]) == (3, 121)),
    ("peg p=0 n=6", "ok", lambda a: a["p0"] == (0, 6) and a["winner"] == -1),
    ("undo", "ok", lambda a: a["p0"] == (0, 0)),
    ("set brightness=30 dealer=1", "ok", lambda a: a["brightness"] == 30),
    ("state", "ok", lambda a: (a["dealer"], a["brightness"], a["p0"]) == (1, 30, (0, 0))),
    ("leds", "ok", lambda a: a["leds"] == 363 and "px" in a),
    ("turn p=2", "ok", lambda a: a["p"] == 2),
    ("help", "ok", lambda a: set(a["verbs"]) == set(verbs())),
    ("help verb=peg", "ok", lambda a: a["verb"] == "peg" and "p=" in a["args"]),
    ("btn b=lane0 on=1", "err", lambda a: a["code"] == "desk_only"),
    ("tick ms=10", "err", lambda a: a["code"] == "desk_only"),
]


def test_every_verb_is_answered(pico):
    for line, kind, check in VERBS:
        msg = reply(pico, line)
        assert msg.kind == kind, (line, msg)
        assert check(msg.args), (line, msg)
    assert set(line.split()[0] for line, _, _ in VERBS) == set(verbs())  # none forgotten


def test_a_repeated_id_is_answered_not_applied_again(pico):
    before = state(pico)
    first = pico.ask("peg p=1 n=2 id=rep1")
    again = pico.ask("peg p=1 n=2 id=rep1")
    assert again == first  # byte for byte
    after = state(pico)
    assert after["p1"][1] == before["p1"][1] + 2 and after["rev"] == before["rev"] + 1
    reused = reply(pico, "peg p=1 n=3 id=rep1")
    assert (reused.kind, reused.args["code"]) == ("err", "id_reused")
    assert state(pico) == after


def test_garbage_lines_are_refused_and_change_nothing(pico):
    before = state(pico)
    cases = [
        (b"\x80\x81 peg\n", "bad_line"),
        (b"\x01peg p=0 n=1\n", "bad_line"),
        (b"x" * (MAX_LINE + 50) + b"\n", "too_long"),
        (b"frobnicate\n", "unknown_verb"),
        (b"peg p=0 n=0\n", "bad_arg"),
        (b"peg p=0\n", "missing_arg"),
        (b"peg p=0 n=1 n=2\n", "bad_arg"),
        (b"ok rev=1\n", "unknown_verb"),
    ]
    for data, code in cases:
        start = len(pico.lines)
        pico.send(b"\n \r\n" + data)  # blank lines first: ignored, no reply
        got = pico.wait_line(lambda s: s.startswith(("ok", "err")), start)
        assert decode(got.text).args["code"] == code, (data, got)
    # Random bytes (never Ctrl-C, the REPL's interrupt): exactly one err per line the
    # shared line reader finds in them, and nothing changes.
    rng = random.Random(14)
    noise = bytes(rng.choice([b for b in range(256) if b != 3]) for _ in range(1500))
    noise += b"\n"
    expected = len(LineReader().feed(noise))
    start = len(pico.lines)
    pico.send(noise)
    pico.send(b"hello\n")
    pico.wait_line(lambda s: s.startswith("ok") and "proto=" in s, start)
    answers = [ln.text for ln in pico.lines[start:]]
    assert sum(1 for a in answers if a.startswith("err")) == expected
    assert state(pico) == before
