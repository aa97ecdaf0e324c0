"""The lines of a game record kept on a board's flash (pegboard.gamelog writes them; the
host's `crib history import` reads them over the link), and the fold that rebuilds a game
from them one line at a time (a game is never read whole into memory).

A line is `CRC GAME SEQ KIND JSON` and a newline:

    CRC   CRC-32 of the rest of the line after its space (8 hex digits): each line is
          checked alone, so a damaged one is caught and costs only itself and what follows
          it in its game (the game replays in order: a later entry depends on the earlier)
    GAME  the game's number on this board (1, 2, ...; never reused)
    SEQ   the line's number in its game (1: the header); a copy of a line already read
          (the same GAME and SEQ) is skipped
    KIND  h the header (the game's setup), e an entry of the engine's Record, u an undo
          (JSON: the SEQ of the line taken back), c the game closed (JSON: its result)
    JSON  in ASCII (\\u escapes), so a line travels as protocol text

A line that fails its check is damage only if something is missing after it: the next
good line of its game must follow the last one read (a torn copy of a line that is written
again after it costs nothing); a gap, or a bad line that nothing follows but the end, is
reported in `damage` and the game stops there (`Replay`).
"""

import json

from cribcore import protocol
from cribcore.boardtext import crc, running
from cribcore.table.record import Entry

HEADER, ENTRY, UNDO, CLOSE = "h", "e", "u", "c"
KINDS = (HEADER, ENTRY, UNDO, CLOSE)

# The protocol's `games` verb (docs/protocol.md), added to cribcore.protocol's tables here:
# only a board that serves the table (and the host) imports this module, so a plain Pico's
# heap holds none of it (not even this flag: one more name in cribcore.protocol tipped the
# .mpy build's 96K cap in tests/firmware/test_desk.py).
SERVES = 8  # a protocol flag: a verb of a board that serves the table
GAMES = ("games", SERVES, "[g=1..99999999] [at=0..999999999]",
         "the finished games on flash; g: game g's line at byte at")
GAMES_FIELDS = "games:l g:i at:i line:t "


protocol.register(GAMES, GAMES_FIELDS)


# The suits' symbols (cribcore.cards.SYMBOLS) as JSON escapes them.
_SUIT_ESCAPES = (("\u2663", "\\u2663"), ("\u2666", "\\u2666"), ("\u2665", "\\u2665"),
                 ("\u2660", "\\u2660"))


def ascii_json(data):
    """JSON text of data in ASCII: MicroPython's json writes other characters as they are."""
    text = json.dumps(data, separators=(",", ":"))  # no spaces: fewer bytes on flash
    extra = len(text.encode()) - len(text)  # the bytes past one a character
    if not extra:
        return text
    # The suits' symbols (a card's text in an entry: 3 bytes each, 2 extra) escaped by
    # replace, in C: escape_all's loop makes a string a character (about 4 ms and 2 KB
    # a line on the chip)
    for symbol, code in _SUIT_ESCAPES:
        n = text.count(symbol)
        if n:
            text = text.replace(symbol, code)
            extra -= 2 * n
    if not extra:
        return text
    return escape_all(text)


def escape_all(text):
    """text with every character past ASCII as JSON escapes it (\\uXXXX, a surrogate pair
    past U+FFFF)."""
    out = []
    for c in text:
        n = ord(c)
        if n < 128:
            out.append(c)
        elif n < 0x10000:
            out.append("\\u%04x" % n)
        else:  # a surrogate pair, as JSON spells it
            n -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (n >> 10), 0xDC00 + (n & 0x3FF)))
    return "".join(out)


def line(game, seq, kind, data):
    """One checked line (with its newline). Its CRC is read from the line's two pieces,
    the head and the JSON, as they are: the body is not made a text of its own first
    (one copy of the line less an entry: about 130 bytes on the chip)."""
    head = "%d %d %s " % (game, seq, kind)
    text = ascii_json(data)
    return "%08x %s%s\n" % (running(text, running(head)), head, text)  # unsigned: no mask


def parse(raw):
    """(game, seq, kind, data) of a line (bytes or text, with or without its newline), or
    None if it fails its check or its shape."""
    if type(raw) is not str:
        try:
            raw = raw.decode()
        except UnicodeError:
            return None
    if raw[-1:] == "\n":
        raw = raw[:-1]
    if len(raw) < 16 or raw[8] != " " or crc(raw[9:]) != raw[:8]:
        return None
    parts = raw[9:].split(" ", 3)
    if len(parts) != 4 or parts[2] not in KINDS or not parts[0].isdigit() \
            or not parts[1].isdigit():
        return None
    try:
        return int(parts[0]), int(parts[1]), parts[2], json.loads(parts[3])
    except ValueError:
        return None


def entry_data(e):
    """An Entry as the JSON of its line."""
    # args as they are (a tuple): JSON writes a tuple as a list, on both runtimes
    return [e.hand, e.kind, e.player, e.side, e.points, e.reason, e.source, e.args,
            e.info, e.answered_by]


def entry_of(data, seq):
    """The Entry a line's JSON holds (ValueError if it is not one)."""
    if type(data) is not list or len(data) != 10 or type(data[8]) is not dict:
        raise ValueError("not an entry")
    e = Entry(data[0], data[1], data[2], data[3], data[4], data[5], data[6], data[7],
              data[8], data[9])
    e.id = e.seq = seq
    return e


class Replay:
    """One game rebuilt from its lines, given one at a time by add(raw) (in the order they
    were written; copies skipped), then end(). After end(): `header` (a dict, or None
    when the header is missing), `entries` (those that stand, in order), `seq` (the last
    line read), `result` (the close line's, None while the game is open), `damage` (a
    sentence, None when every line was whole). `lines` counts the good lines read."""

    def __init__(self, game):
        self.game = game
        self.header = None
        self.entries = []
        self.seq = 0
        self.result = None
        self.closed_at = 0  # the seq of the close line that stands (0: open)
        self.damage = None
        self.lines = 0
        self._bad = 0  # whole lines that failed their check since the last good one
        self._torn = False  # the last line read had no newline

    def add(self, raw):
        """Take the next line (bytes or text, its newline included if it had one)."""
        if self.damage is not None:
            return
        got = parse(raw)
        whole = raw[-1:] == (b"\n" if type(raw) is bytes else "\n")
        if got is None or got[0] != self.game:
            if whole:
                self._bad += 1
            self._torn = not whole
            return
        _, seq, kind, data = got
        self._torn = False
        if seq <= self.seq:
            return  # a copy of a line read already
        if seq != self.seq + 1 or (seq == 1) != (kind == HEADER):
            self.damage = "game %d: line %d missing or damaged" % (self.game, self.seq + 1)
            return
        self._bad = 0
        try:
            self._apply(seq, kind, data)
        except (ValueError, TypeError, IndexError):
            self.damage = "game %d: line %d does not fit the game" % (self.game, seq)
            return
        self.seq = seq
        self.lines += 1

    def _apply(self, seq, kind, data):
        if kind == HEADER:
            if type(data) is not dict or "names" not in data or "target" not in data:
                raise ValueError("not a header")
            self.header = data
        elif kind == ENTRY:
            self.entries.append(entry_of(data, seq))
        elif kind == UNDO:
            if data == self.closed_at:
                self.closed_at, self.result = 0, None
            else:
                self.entries = [e for e in self.entries if e.seq != data]
        else:
            self.closed_at, self.result = seq, data

    def end(self):
        """No more lines: a whole line that failed its check at the end is damage (a torn
        last line is a write the power cut stopped: it was never acknowledged)."""
        if self.damage is None and self._bad:
            self.damage = "game %d: a damaged line after line %d" % (self.game, self.seq)
        if self.damage is None and self.header is None:
            self.damage = "game %d: no header" % self.game
        return self
