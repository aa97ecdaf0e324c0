"""A long mixed session for the desk runner, from a seed: pegs (with ids, some retried),
undos, new games, states, leds, help, settings, turns and garbage (unknown verbs, bad
arguments, quoted text, overlong lines, lines that are not ASCII). Every line is one the
board must answer with exactly one reply (`ok` or `err`): none is blank.

Used by tests/firmware/test_desk_session.py and bench/session.py.
"""

import random

_TEXT = "".join(chr(c) for c in range(33, 127) if chr(c) not in '"\\')


def _garbage(rng):
    kind = rng.randrange(9)
    if kind == 0:
        return "frob%d x=%d" % (rng.randrange(1000), rng.randrange(1000))
    if kind == 1:
        return "peg p=%d n=%d" % (rng.randrange(4, 99), rng.randrange(-5, 2000))
    if kind == 2:
        text = "".join(rng.choice(_TEXT) for _ in range(rng.randrange(1, 60)))
        return 'hello x="%s"' % text.replace(" ", "_")
    if kind == 3:
        return "state " + "y" * rng.randrange(129, 400)  # too long
    if kind == 4:
        return "set brightness=%d pause_ms=abc" % rng.randrange(1, 100)
    if kind == 5:
        return 'help verb="%s' % rng.choice(["peg", "undo", "new"])  # unterminated
    if kind == 6:
        return "peg p=0 n=3 id=%s" % ("z" * 17)  # an id too long
    if kind == 7:
        return "undo id=u%d id=u%d" % (rng.randrange(99), rng.randrange(99))  # twice
    return "peg p=1 n=2 \x01"  # not printable ASCII


def session(n, seed=1):
    """n command lines (str, no terminator), from seed."""
    rng = random.Random(seed)
    lines = ["hello", "new target=121 players=2 match=1 id=s0"]
    last = None
    k = 1
    while len(lines) < n:
        r = rng.random()
        k += 1
        if r < 0.40:
            last = "peg p=%d n=%d id=s%d" % (rng.randrange(2), rng.randint(1, 29), k)
            lines.append(last)
        elif r < 0.45 and last:
            lines.append(last)  # a retry: answered from memory, or applied once
        elif r < 0.55:
            lines.append("undo id=s%d" % k)
        elif r < 0.60:
            lines.append("new target=%d players=%d id=s%d" % (
                rng.choice([61, 121]), rng.randint(2, 4), k))
        elif r < 0.67:
            lines.append(rng.choice(["state", "leds", "hello", "help", "help verb=peg"]))
        elif r < 0.74:
            lines.append("set brightness=%d idle_ms=%d id=s%d" % (
                rng.randint(1, 100), rng.randrange(0, 600000), k))
        elif r < 0.78:
            lines.append("set dealer=%d id=s%d" % (rng.randrange(-1, 2), k))
        elif r < 0.82:
            lines.append("turn p=%d" % rng.randrange(-1, 2))
        else:
            lines.append(_garbage(rng))
    return lines[:n]
