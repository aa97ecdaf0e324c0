"""Board texts read back: `Board.loads` (cribcore.pegs) for v2 (the only format read:
`crib deploy` converts an earlier firmware's v1), with every consistency check (a
ValueError, which Board.loads reports as PegError bad_board). Needed only when a saved
board is read (at boot on the Pico), so it is a module of its own that the firmware drops
from memory afterwards.
"""

from cribcore.boardtext import FORMAT, WORTH, crc

_FORMAT = FORMAT.encode()


def loads(cls, text, framed=False):
    """A `cls` board from its text; ValueError if it is corrupt or inconsistent. framed:
    a text without its checksum is taken (its file checked its bytes: Board.loads)."""
    if type(text) is not str:
        raise ValueError(f"board text must be a str, got {text!r}")
    body, star, check = text.partition("*")
    if (star or not framed) and check != crc(body):
        raise ValueError(f"board text fails its checksum: {text!r}")
    # Its fields as bytes: every str made at the Pico's boot is looked for among the
    # interned names first (about 0.1 ms each by then; pegboard.storeboot).
    fields = body.encode().split(b"/")
    if len(fields) != 10 or fields[0] != _FORMAT:
        raise ValueError(f"not a {FORMAT} board text: {text!r}")
    try:
        vals = [_parse_ints(f[1:]) for f in fields[1:9]]
        b = cls(vals[1][0], vals[0][0], vals[7][0])
        b.wins = vals[4]
        lanes = len(b._front)  # the lanes every board keeps (pegs.MAX_LANES)
        pad = [0] * (lanes - b.players)
        b._front = vals[5] + pad
        b._back = vals[6] + pad
        h = fields[9][1:]
        hist = _decode_hist(b, h)
        h = h.decode()
        b.set_dealer(vals[2][0])
        b.rev = vals[3][0]
        _check(b, hist, lanes)
    except (ValueError, IndexError) as e:  # a PegError is a ValueError too
        raise ValueError(f"bad board text {text!r}: {e}") from None
    # Field letters, ranges and int spellings ("05", "+5", "1_0") in one go. A history
    # that decodes (no leading zero digit) and passes _check is what encode_hist gives.
    b._htext = h
    b._undos = len(hist)
    if b._body(FORMAT, h) != body:
        raise ValueError(f"board text is not canonical: {text!r}")
    return b


def _check(board, hist, lanes):
    """Raise ValueError unless positions, winner, tally and history are consistent."""
    p, t = board.players, board.target
    f, b = board._front, board._back
    if len(board.wins) != lanes or min(board.wins) < 0 or len(f) != lanes:
        raise ValueError("bad tally or lanes")
    at_target = [i for i in range(p) if f[i] == t]
    for i in range(p):
        if not (0 <= b[i] < f[i] <= t or f[i] == b[i] == 0):
            raise ValueError(f"lane {i} pegs {b[i]},{f[i]}")
    if len(at_target) > 1 or len(hist) > board.undo_depth or board.rev < 0:
        raise ValueError("two winners, long history or negative rev")
    board.winner = at_target[0] if at_target else -1
    if board.winner >= 0 and board.wins[board.winner] < 1:
        raise ValueError("winner without a tally")
    if board.winner >= 0 and hist and hist[-1] & 3 != board.winner:
        raise ValueError("a jump after the win")
    f, b = f[:], b[:]
    for rec in reversed(hist):
        lane, old = rec & 3, rec >> 2
        if lane >= p or not (0 <= old < b[lane] < f[lane] or old == b[lane] == 0 < f[lane]):
            raise ValueError(f"history entry {rec}")
        f[lane], b[lane] = b[lane], old  # (so a front peg only goes down: none reaches t)


def _decode_hist(board, text):
    """The history from v2's text, bytes (ValueError if it is not v2's); _check() then
    checks it."""
    vals = []
    v = 0
    w = 1
    for c in text:  # bytes: no string per character
        w = WORTH[c] if c < 128 else 0
        if w > 32:
            if w == 33 and not v:
                raise ValueError("history entry with a leading zero digit")
            v = v * 32 + w - 33
        elif w:
            vals.append(v * 32 + w - 1)
            v = 0
        else:
            raise ValueError(f"history character {chr(c)!r}")
    if w > 32:
        raise ValueError("history ends inside an entry")
    back = board._back[:]
    hist = [0] * len(vals)
    for k in range(len(vals) - 1, -1, -1):
        lane = vals[k] & 3
        if lane >= board.players:
            raise ValueError(f"history lane {lane}")
        old = back[lane] - (vals[k] >> 2)
        hist[k] = lane + 4 * old
        back[lane] = old
    return hist


def _parse_ints(text):
    # bytes; map: no comprehension's function
    return list(map(int, text.split(b","))) if text else []
