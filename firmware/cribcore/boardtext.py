"""The pieces of a board's text (cribcore.pegs writes it, cribcore.boardread reads it
back): its format, its checksums and v2's history encoding.
"""

from binascii import crc32  # in C: MicroPython's rp2 and unix ports have it

FORMAT = "v2"  # the only one read: `crib deploy` converts earlier v1 boards (crib.deploy.migrate)
# v2's history: one entry per jump, the lane and how far the lane's back peg goes back on
# undo, in base 32: "0".."v" is the last digit, "A".."Z", "(", ")", "<", ">", "[", "]" one
# before it (so most entries are one character; v1 spelled each as a number and a comma).
DIGITS = "0123456789abcdefghijklmnopqrstuv"
HIGH = "ABCDEFGHIJKLMNOPQRSTUVWXYZ()<>[]"
LAST, LEAD = DIGITS.encode(), HIGH.encode()
# A character's worth in v2's history: 1 + a last digit, 33 + a leading one, 0 if neither.
# (From the digits as bytes: ord() of a one-character str per digit took the Pico's boot
# 8 ms.)
WORTH = bytearray(128)
for _i in range(32):
    WORTH[LAST[_i]] = 1 + _i
    WORTH[LEAD[_i]] = 33 + _i


def running(data, c=0):
    """CRC-32 of bytes or of an ASCII text going on from c (binascii's, in C: an Adler-32 in
    Python cost the Pico about 20 ms a board line), an int: crc() spells it, and a text in
    pieces is read one piece after the other (a record's line, a store's slot), never
    joined."""
    try:
        return crc32(data, c)  # MicroPython reads a str as its UTF-8 bytes: no copy made
    except TypeError:
        return crc32(data.encode(), c)  # CPython wants bytes


def crc(data):
    """CRC-32 of bytes or of an ASCII text as 8 hex digits: the firmware's one spelling of
    it (board texts, the store's slots, layout.cache)."""
    # crc32 is unsigned on both runtimes: no mask (on the chip a 32-bit value past 2**30
    # is a long int, so `& 0xFFFFFFFF` made one more)
    return "%08x" % running(data)


def checksum(text):
    """Adler-32 of an ASCII text as 8 hex digits (two 16-bit halves: no big ints on the Pico).

    text may also be a list of lines: summed as if joined by newlines, without joining them.
    """
    a, b = 1, 0
    nl = False
    for line in [text] if type(text) is str else text:
        if nl:
            a = (a + 10) % 65521
            b = (b + a) % 65521
        nl = True
        for c in line.encode():  # bytes: no string per character (MicroPython interns
            a = (a + c) % 65521  # each one-character string it makes)
            b = (b + a) % 65521
    return f"{b:04x}{a:04x}"


def worth(text):
    """The number one entry of v2's history spells (its digits, the last one last)."""
    v = 0
    for c in text.encode():  # bytes: no string per character
        v = v * 32 + (WORTH[c] - 33 if WORTH[c] > 32 else WORTH[c] - 1)
    return v


def entry(lane, back, front):
    """v2's history entry of one jump of a lane whose pegs stood at back, front
    (cribcore.pegs keeps the history's text as it goes)."""
    out = bytearray()
    _digits(out, lane + 4 * (front - back))
    return bytes(reversed(out)).decode()


def _digits(out, v):
    # v's base-32 digits, appended last first (the callers reverse).
    out.append(LAST[v & 31])
    v >>= 5
    while v:
        out.append(LEAD[v & 31])
        v >>= 5


def ints(values):
    """Integers as a comma-separated list."""
    return ",".join(map(str, values))  # map: no comprehension (a function object) per call
