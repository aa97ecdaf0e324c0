"""The board's serial protocol, both sides: one table drives encoding, decoding, help, errors.

A line is `word key=value ...`: a command from the host (`peg p=1 n=8 id=42`), or from the
board a reply (`ok rev=18 p1=15,23`), an error (`err code=no_undo rev=5 msg="..."`) or an
event (`evt peg rev=20 p=0 n=3 src=button`). Grammar and meanings: docs/protocol.md.
The tables are plain strings and flat tuples: the Pico holds this module in RAM.
"""

from cribcore import CoreError
from cribcore.settings import RANGES

PROTO = 1
MAX_LINE = 128  # a command line the board accepts, terminator excluded
MAX_REPLY = 8192  # what a host should accept (the `leds` reply of a long strip)

# Every field once, in the order lines list them, with its type: i whole number,
# l list of whole numbers, w word (letters, digits, _ . : -), s list of words,
# d id (1..16 letters, digits, _ -), t text (any printable ASCII, "quoted" when needed).
FIELDS = (" code:w rev:i proto:i fw:w desk:i lanes:i holes:i p:i n:i src:w target:i"
          " players:i match:i p0:l p1:l p2:l p3:l dealer:i winner:i wins:l skunk:l undos:i"
          " pending:l mode:w brightness:i budget_ma:i pause_ms:i idle_ms:i ma:i free:i leds:i px:t"
          " verb:w verbs:s args:t warn:s b:w on:i ms:i now:i msg:t id:d ")

CHANGE = 1  # changes state: takes id=, saved on flash before the reply
DESK = 2  # the desktop runner only; the Pico answers desk_only
ONE = 4  # needs at least one of its [optional] arguments

# verb, flags, arguments (name=low..high for numbers; [optional]), help: four to a row.
COMMANDS = (
    "hello", 0, "", "protocol version, firmware, layout, revision",
    "state", 0, "", "pegs, dealer, winner, tally, pending points, settings",
    "peg", CHANGE, "p=0..3 n=1..1000", "lane p scores n: its back peg jumps n past the front",
    "undo", CHANGE, "", "undo the last jump (a winning one too)",
    "new", CHANGE, "[target=1..1000] [players=2..4] [match=0..1]",
    "a new game; match=1 clears the tally",
    "set", CHANGE | ONE, " ".join(["[dealer=-1..3]"] + ["[%s=%d..%d]" % r for r in RANGES]),
    "change settings (kept on flash)",
    "leds", 0, "", "the pixel buffer: i:rrggbb or i*k:rrggbb runs, black left out",
    "turn", 0, "p=-1..3", "whose turn: lane p's hole marks pulse (-1: none); not saved",
    "help", 0, "[verb]", "the verbs, or one verb's arguments",
    "btn", DESK, "b on=0..1", "desk: press (on=1) or release (on=0) button b",
    "tick", DESK, "ms=0..600000", "desk: drive the clock ms milliseconds forward",
)

# The stable error codes. What each means is in docs/protocol.md (a test keeps the two in
# step), not here: the board only sends codes, and this module lives in the Pico's heap.
ERRORS = ("bad_line", "too_long", "unknown_verb", "bad_arg", "missing_arg", "bad_lane",
          "game_over", "no_undo", "id_reused", "desk_only", "store_failed", "internal")

_KEY = "abcdefghijklmnopqrstuvwxyz0123456789_"
_ID = _KEY + "ABCDEFGHIJKLMNOPQRSTUVWXYZ-"
_WORD = _ID + ".:"
_PRINTABLE = (" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`"
              "abcdefghijklmnopqrstuvwxyz{|}~")  # 32..126, a constant: no garbage at import


class ProtocolError(CoreError):
    """A line that breaks the protocol; `code` is one of ERRORS."""

    def __init__(self, msg, code="bad_line"):
        super().__init__(msg)
        self.code = code


class Message:
    """A decoded line: kind "cmd", "ok", "err" or "evt"; verb names a cmd or an evt."""

    def __init__(self, kind, verb, args):
        self.kind = kind
        self.verb = verb
        self.args = args

    def __repr__(self):
        return f"Message({self.kind!r}, {self.verb!r}, {self.args!r})"

    def __eq__(self, other):
        return isinstance(other, Message) and (self.kind, self.verb, self.args) == (
            other.kind, other.verb, other.args)


def verbs():
    """Every verb, in COMMANDS order."""
    return [COMMANDS[i] for i in range(0, len(COMMANDS), 4)]


def command(verb):
    """The COMMANDS row (verb, flags, arguments, help) of a verb, or raise
    ProtocolError(unknown_verb)."""
    for i in range(0, len(COMMANDS), 4):
        if COMMANDS[i] == verb:
            return COMMANDS[i:i + 4]
    raise ProtocolError(f"unknown verb {verb!r}", "unknown_verb")


def usage(verb):
    """One verb's arguments as help shows them: `p=0..3 n=1..1000 [id]`."""
    row = command(verb)
    return (row[2] + " [id]").strip() if row[1] & CHANGE else row[2]


_FIELD: dict = {}  # name -> place in FIELDS * 128 + type letter; made at the first use


def _field(name):
    """A field's place in FIELDS * 128 + its type letter, or None. A dict lookup: searching
    FIELDS cost the Pico more than the rest of a field's handling. Made at the first use,
    not at import, where its garbage would be left between the modules loaded after it.
    Whole or empty: a MemoryError part-way (the dict moves to a bigger table as it fills)
    empties it, and the next use makes it again; a part of it would pass for the whole, and
    every line with a field past the break would fail for good (a Wi-Fi board under load
    answered `wifi` with "no such fields: ['name']" until its next reset)."""
    if not _FIELD:
        at = 0
        try:
            while at < len(FIELDS) - 1:
                colon = FIELDS.find(":", at)
                _FIELD[FIELDS[at + 1:colon]] = at * 128 + ord(FIELDS[colon + 1])
                at = colon + 2
        except BaseException:
            _FIELD.clear()  # frees, allocates nothing
            raise
    return _FIELD.get(name)


def register(row, fields):
    """Add a verb to the tables, once: row is its COMMANDS row (verb, flags, arguments,
    help), fields its new fields in FIELDS' format ("name:type " each). A module that
    brings a verb (the table's `games`, a Wi-Fi board's `wifi`) calls this before the
    verb's first line. (Unchecked, and short: the plain board holds this module in its
    heap; tests/core/test_protocol.py checks the rows the modules register.)"""
    global COMMANDS, FIELDS
    if row[0] not in verbs():
        COMMANDS += row
        FIELDS += fields
        _FIELD.clear()  # made again, with the new fields, at the next use


def _only(text, chars):
    """True when every character of text is one of chars (strip runs in C: no Python
    loop a character, which the Pico feels on every line)."""
    return not text.strip(chars)


def _check(raw, chars, limit):
    if not 0 < len(raw) <= limit or not _only(raw, chars):
        raise ProtocolError(f"bad word {raw!r}", "bad_arg")
    return raw


def _int(raw):
    digits = raw[1:] if raw[:1] == "-" else raw
    if not 0 < len(digits) <= 10 or not digits.isdigit():
        raise ProtocolError(f"not a whole number: {raw!r}", "bad_arg")
    return int(raw)


def parse_value(typ, raw):
    """A field's value from its text (numbers forgivingly: 007 is 7)."""
    if typ == "i":
        return _int(raw)
    if typ == "w":
        return _check(raw, _WORD, 32)
    if typ == "d":
        return _check(raw, _ID, 16)
    if typ == "l":
        return tuple([_int(v) for v in raw.split(",")])
    if typ == "s":
        return tuple([_check(v, _WORD, 32) for v in raw.split(",")]) if raw else ()
    return raw


def format_value(typ, value):
    """A field value's canonical text, quoted only when it has to be."""
    text = ",".join(map(str, value)) if typ in "ls" else str(value)
    if text and (typ != "t" or not (" " in text or '"' in text or "\\" in text)):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tokens(line):
    """The words before the first key=value, and the (key, raw value) pairs."""
    if not _only(line, _PRINTABLE):
        raise ProtocolError(f"not printable ASCII: {line!r}", "bad_line")
    if '"' in line:
        return _scan(line)
    # No quotes (every command a host sends, bar odd ones): split in C. _scan reads any
    # line the same way (a test holds them to it), a character at a time, which took the
    # emulated Pico 2.4 ms a `peg`.
    words, pairs = [], []
    for part in line.split(" "):
        if not part:
            continue
        name, eq, raw = part.partition("=")
        if not eq and not pairs:
            words.append(part)  # the verb, or evt and the event's name
            continue
        if not eq or not 0 < len(name) <= 16 or not _only(name, _KEY):
            raise ProtocolError(f"expected key=value at {part[:20]!r}", "bad_line")
        if not raw:
            raise ProtocolError(f"bad value of {name!r}", "bad_line")
        pairs.append((name, raw))
    return words, pairs


def _scan(line):
    """_tokens for a line with quotes, which may hold spaces: a token at a time."""
    words, pairs = [], []
    i, n = 0, len(line)
    while i < n:
        if line.startswith(" ", i):  # not line[i]: a one-character string (see _quoted)
            i += 1
            continue
        end = line.find(" ", i)
        end = n if end < 0 else end
        eq = line.find("=", i, end)
        if eq < 0 and not pairs:
            words.append(line[i:end])  # the verb, or evt and the event's name
            i = end
            continue
        name = line[i:eq]
        if eq < 0 or not 0 < len(name) <= 16 or not _only(name, _KEY):
            raise ProtocolError(f"expected key=value at {line[i:i + 20]!r}", "bad_line")
        i = eq + 1
        if line.startswith('"', i):
            raw, i = _quoted(line, i + 1)
        else:
            raw, i = line[i:end], end
            if not raw or '"' in raw:
                raise ProtocolError(f"bad value of {name!r}", "bad_line")
        if i < n and not line.startswith(" ", i):
            raise ProtocolError(f"a space must follow the value of {name!r}", "bad_line")
        pairs.append((name, raw))
    return words, pairs


def _quoted(line, i):
    """The text of a quoted value starting after its opening quote, and where it ends.
    Found with str.find and taken in slices: indexing a str makes a one-character string,
    which MicroPython interns and keeps for good (a quoted line of 94 different characters
    ran the 96K board out of heap)."""
    out = ""
    at = i
    while True:
        quote = line.find('"', at)
        if quote < 0:
            break
        slash = line.find("\\", at, quote)
        if slash < 0:
            return out + line[i:quote], quote + 1
        if not (line.startswith('"', slash + 1) or line.startswith("\\", slash + 1)):
            break
        out += line[i:slash]
        i = slash + 1  # the escaped character starts the next piece
        at = slash + 2
    raise ProtocolError(f"unterminated or badly escaped quote: {line!r}", "bad_line")


_LAST_SPEC = [None, None]  # the last verb's (verb, spec): a burst of pegs parses it once


def _spec(row):
    """{name: (low, high, required)} of a command's arguments (do not change it)."""
    if _LAST_SPEC[0] == row[0]:
        return _LAST_SPEC[1]
    out = {}
    _LAST_SPEC[0], _LAST_SPEC[1] = row[0], out
    for tok in row[2].split():
        name, _, rng = tok.strip("[]").partition("=")
        low, _, high = rng.partition("..")
        out[name] = (int(low) if low else 0, int(high) if high else 0, tok[0] != "[")
    if row[1] & CHANGE:
        out["id"] = (0, 0, False)
    return out


def decode(line):
    """Decode one line (no terminator) into a Message; raise ProtocolError if it is bad.

    Commands are checked against COMMANDS (arguments, types, ranges); replies and events
    are only typed, and fields this version does not know are kept as text.
    """
    words, pairs = _tokens(line)
    kind = words[0] if words and words[0] in ("ok", "err", "evt") else "cmd"
    if len(words) != (2 if kind == "evt" else 1):
        raise ProtocolError(f"expected one verb, then key=value pairs: {line!r}", "bad_line")
    verb = words[-1] if kind in ("cmd", "evt") else None
    spec = None
    if kind == "cmd":
        if len(line) > MAX_LINE:
            raise ProtocolError(f"line of {len(line)} characters", "too_long")
        row = command(verb)
        spec = _spec(row)
    args = {}
    if not _FIELD:
        _field("")  # the table, at the first use
    place = _FIELD.get
    for name, raw in pairs:
        if name in args:
            raise ProtocolError(f"{name!r} given twice", "bad_arg")
        typ = place(name)  # inline: a line's every field pays for each call
        typ = None if typ is None else chr(typ & 127)
        if spec is None:
            args[name] = raw if typ is None else parse_value(typ, raw)
            continue
        if name not in spec:
            raise ProtocolError(f"{verb} takes no {name!r}", "bad_arg")
        value = args[name] = parse_value(typ, raw)
        low, high, _ = spec[name]
        if typ == "i" and not low <= value <= high:
            raise ProtocolError(f"{name} must be {low}..{high}, got {value}", "bad_arg")
    if spec is not None:
        for name in spec:
            if spec[name][2] and name not in args:
                raise ProtocolError(f"{verb} needs {name}=", "missing_arg")
        if row[1] & ONE and not [k for k in args if k != "id"]:
            raise ProtocolError(f"{verb} needs at least one of {row[2]}", "missing_arg")
    return Message(kind, verb, args)


def _line(word, args):
    """word, then args in FIELDS order with canonical values; None values left out."""
    if not _FIELD:
        _field("")  # the table, at the first use
    place = _FIELD.get
    found = []  # (_field code, name): sorted, the FIELDS order
    unknown = []
    for k in args:
        if args[k] is not None:
            code = place(k)
            if code is None:
                unknown.append(k)
            found.append((code or 0, k))
    if unknown:
        raise ProtocolError(f"no such fields: {unknown!r}", "bad_arg")
    found.sort()
    out = [word]
    for code, k in found:
        v = args[k]
        # A number as it is: most fields are, and the Pico feels every call in a reply.
        out.append(k + "=" + (str(v) if type(v) is int else format_value(chr(code & 127), v)))
    return " ".join(out)


def encode(verb_, **args):
    """A command line for the board (checked as the board checks it), no terminator.

    (verb_ is positional: `help` has a field named verb.)"""
    line = _line(verb_, args)
    decode(line)
    return line


def canonical(msg):
    """A decoded command's line spelled one way (fields in FIELDS order), unchecked: the
    board's key for `id=` retries, without the cost of checking it again."""
    return _line(msg.verb, msg.args)


def ok(**args):
    """An `ok` reply line."""
    return _line("ok", args)


def err(code, msg, **args):
    """An `err` reply line with a stable code and a human message."""
    args["code"] = code
    args["msg"] = msg
    return _line("err", args)


def event(name, **args):
    """An `evt NAME ...` line the board sends on its own."""
    return _line("evt " + name, args)


def pixel_runs(pixel, count):
    """The runs of the `px` text of LEDs 0..count-1, pixel(i) -> (r, g, b), one by one
    (`i:rrggbb`, or `i*k:rrggbb` for k equal LEDs); black LEDs left out. One at a time, so
    the board never needs the whole text in one piece of its heap."""
    i = 0
    while i < count:
        px = pixel(i)
        j = i + 1
        while j < count and pixel(j) == px:
            j += 1
        if px[0] or px[1] or px[2]:
            rgb = f"{px[0]:02x}{px[1]:02x}{px[2]:02x}"
            yield f"{i}:{rgb}" if j - i == 1 else f"{i}*{j - i}:{rgb}"
        i = j


class LineReader:
    """Split bytes from a port into lines: a str per line, a ProtocolError per bad one.

    Lines end at LF or CR (so CRLF works); blank lines are dropped. A line longer than
    `limit` is discarded whole, however long, and reported once its end arrives; the
    buffer never holds more than `limit` bytes.

    A feed that raises (a MemoryError on a board short of heap) loses nothing: `pending`
    keeps its bytes (and the lines they completed), and feed(b"") goes on from where it
    stopped. Each step changes the reader only after its allocations. (The attributes'
    names are ones the board has already: in the 96K cap one more name costs a pool.)
    """

    def __init__(self, limit=MAX_LINE):
        self.limit = limit
        self._buf = bytearray()
        self._bad = False  # a byte that is not printable ASCII
        self._long = False  # past the limit: discarding up to the line's end
        self._text = False  # something besides spaces
        self._skip = False  # after drop(): discarding up to the line's end, silently
        self.pending = b""  # the bytes of a feed that raised (feed(b"") then, no new bytes)
        self._next = 0  # where the next of them is
        self._out = None  # the lines they completed

    def drop(self, torn=True):
        """Forget the line in progress: bytes were lost (to a MemoryError, say). When
        `torn`, the lost bytes ended inside a line: discard up to its end without a word,
        so no torn line is ever run."""
        self._buf = bytearray()
        self._bad = self._long = self._text = False
        self._skip = torn

    def feed(self, data):
        """Take any bytes; return the lines they complete."""
        if data:
            self.pending, self._next = data, 0
        if self._out is None:
            self._out = []
        data, out, n = self.pending, self._out, len(self.pending)
        while self._next < n:
            i = self._next
            end = _eol(data, i)
            if i < end and not (self._long or self._skip):
                piece = data[i:end]
                if len(self._buf) + len(piece) > self.limit:
                    self._buf = bytearray()
                    self._long = True
                else:
                    bad = piece.strip(_PRINTABLE_B)
                    text = piece.strip(b" ")
                    self._buf += piece  # then only assignments: nothing can fail
                    if bad:
                        self._bad = True
                    if text:
                        self._text = True
            self._next = end  # the piece is taken: a retry goes on at its terminator
            if end < n:
                self._end(out)
                self._next = end + 1
        self.pending, self._next, self._out = b"", 0, None
        return out

    def _end(self, out):
        """Add the line a terminator ended to out (a str, a ProtocolError; nothing if it
        was blank), then start the next."""
        fresh = bytearray()
        item = None
        if self._skip:
            pass
        elif self._long:
            item = ProtocolError("line too long, discarded", "too_long")
        elif self._bad:
            item = ProtocolError("line with bytes that are not printable ASCII", "bad_line")
        elif self._text:
            item = self._buf.decode()
        if item is not None:
            out.append(item)
        self._buf = fresh
        self._bad = self._long = self._text = self._skip = False


_PRINTABLE_B = (b" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`"
                b"abcdefghijklmnopqrstuvwxyz{|}~")


def _eol(data, i):
    """Where the next LF or CR at or after i is (len(data) when none is)."""
    lf = data.find(b"\n", i)
    cr = data.find(b"\r", i)
    if lf < 0:
        return len(data) if cr < 0 else cr
    return lf if cr < 0 or lf < cr else cr
