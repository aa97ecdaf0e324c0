"""10,000 garbage lines: each gets one `err`, none changes the board, the flash or the settings."""

import random

from apprig import Rig, config

from cribcore.protocol import MAX_LINE, decode, verbs

VERBS = [v for v in verbs() if v not in ("btn", "tick")]
CHANGERS = ("peg", "undo", "new", "set")
KEYS = ["p", "n", "id", "target", "players", "match", "dealer", "brightness", "budget_ma",
        "pause_ms", "idle_ms", "verb", "b", "on", "ms", "x", "P", "p0", "rev", ""]
VALUES = ["-1", "0", "1", "3", "4", "5", "99", "101", "1001", "1e3", "0x10", "+2", "", '"',
          '"a b"', "a=b", "1,2", "\\", "lane9", "peg", "4294967296", "99999999999"]


def bad_command(rng):
    """A command line with at least one thing wrong with it (an unknown verb, a bad key or
    value, a missing argument, or a lane/dealer/player count the board does not have)."""
    verb = rng.choice(VERBS + ["PEG", "pegs", "ok", "evt", "err", "", "peg=1"])
    args = ["%s=%s" % (rng.choice(KEYS), rng.choice(VALUES)) for _ in range(rng.randint(0, 4))]
    if rng.random() < 0.3:
        args.append(rng.choice(["p=3 n=2", "dealer=3", "players=4", "n=0", "p=-1", "=", "a"]))
    rng.shuffle(args)
    return " ".join([verb] + args)


def garbage(rng):
    kind = rng.randrange(5)
    if kind == 0:  # random bytes, no line ends inside
        return bytes(rng.choice([b for b in range(256) if b not in (10, 13)])
                     for _ in range(rng.randint(1, 60)))
    if kind == 1:  # printable noise
        return "".join(chr(rng.randint(32, 126)) for _ in range(rng.randint(1, 60))).encode()
    if kind == 2:  # too long
        return b"peg p=1 n=2 " + b"x" * rng.randint(MAX_LINE, 3 * MAX_LINE)
    line = bad_command(rng)
    if kind == 3 and line:  # a good-looking line with a control byte or a high byte
        i = rng.randrange(len(line) + 1)
        return line[:i].encode() + bytes([rng.choice([0, 3, 9, 27, 127, 200, 255])]) + \
            line[i:].encode()
    return line.encode()


def harmless(line):
    """True unless the line is a valid state-changing command (those are not garbage)."""
    try:
        m = decode(line.decode("ascii"))
    except (ValueError, UnicodeDecodeError):
        return True
    return m.kind != "cmd" or m.verb not in CHANGERS


def test_ten_thousand_garbage_lines():
    rng = random.Random(20240601)
    rig = Rig(config(lanes=3))
    rig.send("new players=2 target=121 id=start")
    rig.send("peg p=1 n=17 id=p1")
    before = (rig.app.board.dumps(), dict(rig.files.files), dict(rig.app.settings))
    sent = errs = 0
    while sent < 10000:
        line = garbage(rng)
        if not line.strip(b" ") or not harmless(line):
            continue
        got = rig.send(line + b"\n")
        sent += 1
        assert got[-1].startswith(("ok ", "err ")), (line, got)
        assert len(got) == 1, (line, got)
        errs += got[-1].startswith("err ")
        if sent % 500 == 0:
            assert (rig.app.board.dumps(), rig.files.files, rig.app.settings) == before
    assert (rig.app.board.dumps(), rig.files.files, rig.app.settings) == before
    assert errs > 9000  # the rest were harmless queries that happened to be valid
    # The board still works, and kept reading while all that went by.
    assert rig.ask("peg p=0 n=2 id=after").args["p0"] == (0, 2)


def test_garbage_across_packet_boundaries_never_merges_lines():
    rig = Rig()
    noise = bytes(b for b in range(256) if b not in (10, 13))
    rig.port.inbox = (noise[:100] + b"\n" + noise * 3 + b"\nhello\n" + b"x" * 1000
                      + b"\r\nstate\r\n")
    out = []
    for _ in range(100):
        rig.step()
        out += rig.port.take()
    got = [(m.kind, m.args.get("code")) for m in map(decode, out)]
    assert got == [("err", "bad_line"), ("err", "too_long"), ("ok", None), ("err", "too_long"),
                   ("ok", None)], out
