"""The reading half of pegboard.store: at boot, the newest whole state from the slots, the
older ones, setting one aside. A Ring holds what it read and answers with plain values
(texts, the save number, where the offered state's lines are) that the Store adopts; it
changes nothing of the Store's. Used only at boot: the store drops this module afterwards,
and its code leaves the heap.
"""

from cribcore.boardtext import crc
from pegboard.slots import HEAD, KEEP, SLOTS, frame, ref

_HEAD = ord(HEAD)


def unframe(data):
    """(seq, lines) from a slot file's bytes, or None if it is corrupt or truncated."""
    got = _framed(data)
    if got is None:
        return None
    try:
        return got[0], [line.decode() for line in got[1]]
    except UnicodeError:
        return None


def _framed(data):
    """unframe() with its lines left as bytes: the Ring makes a str only of a line it
    uses. (Every str made at the Pico's boot is looked for among the interned names first,
    about 0.1 ms each by then: decoding and splitting the nine slots took 7 ms.)"""
    if len(data) < 11 or data[0] != _HEAD or data[9] != 32:  # "H<crc> "
        return None
    body = data[10:]
    if data[1:9] != crc(body).encode():
        return None
    lines = body.split(b"\n")
    if not lines[0].isdigit():
        return None
    return int(lines[0]), lines[1:]


def whole(seq, lines):
    """The chunks of a slot file holding every line of a state itself (board first): a
    refused state set aside, or (crib.deploy.migrate) an older board's game moved."""
    refs = bytearray(b"@")
    for i in range(1, len(lines)):
        ref(refs, 0, i)
    return frame(seq, lines + [refs.decode()])


def _digit(c):
    """A byte of slots.DIGITS as its value (-1 if it is none)."""
    return c - 48 if 48 <= c <= 57 else c - 87 if 97 <= c <= 122 else -1


def _ref(refs, k):
    """(back, index, next k) of the `@` list's entry at k."""
    c = refs[k]
    if 65 <= c < 75:  # slots.FIRST: the first line of a slot
        return c - 65, 1, k + 1
    return _digit(c), _digit(refs[k + 1]) if k + 1 < len(refs) else -1, k + 2


class Ring:
    """The slots of a Store(path) as read at boot: load() the newest good state, older()
    the next one, refuse() the last offered."""

    def __init__(self, path, files):
        self.path = path
        self.files = files
        self.seq = 0  # the newest save found
        self.problems = []  # a line per damaged copy found
        self.absent = []  # slot files not found (the store makes their folders ahead)
        self.where = {}  # line -> (seq, index) of the offered state's lines in the slots
        self._slots = {}  # seq -> lines (bytes) of every good slot file
        self._order = []  # the seqs older() has still to offer
        self._newest = None  # the seq of the state last offered

    def load(self):
        """The lines of the newest good state, or None."""
        for i in range(SLOTS):
            name = f"{self.path}.{i}/h"
            data = self.files.read(name)
            if data is None:
                self.absent.append(name)
            if not data:  # absent, or empty: a save the power cut had only created
                continue
            got = _framed(data)
            if got is None:
                self.problems.append(f"{name}: corrupt or truncated, ignored")
            elif got[0] % SLOTS != i:
                self.problems.append(f"{name}: holds save {got[0]}, ignored")
            else:
                self._slots[got[0]] = got[1]
                self.seq = max(self.seq, got[0])
        self._order = sorted(self._slots, reverse=True)
        return self.older()

    def older(self):
        """The lines of the next good state, older than the last one offered (None when
        none is left)."""
        while self._order:
            seq = self._order.pop(0)
            got = self._lines(seq)
            if got is not None:
                self._newest = seq
                return got
        self._newest = None
        self.where = {}
        return None

    def _held(self, seq, back, index):
        """The line `back` saves before seq at `index` of its slot, or None if it is gone
        (or is no text: its slot passed its CRC, but no store wrote that)."""
        held = self._slots.get(seq - back)
        if back < 0 or back > KEEP or held is None or not 0 < index < len(held) - 1:
            return None
        try:
            return held[index].decode()
        except UnicodeError:
            return None

    def _settings(self, seq):
        """(line, (seq, index)): the second line of the newest state before seq that still
        has it (slots.TWICE: the store keeps that line in two slots), or None."""
        for older in sorted(self._slots, reverse=True):
            refs = self._slots[older][-1]
            if older < seq and refs[:1] == b"@" and len(refs) > 1:
                back, index, _ = _ref(refs, 1)
                line = self._held(older, back, index)
                if line is not None:
                    return line, (older - back, index)
        return None

    def _lines(self, seq):
        """The state saved as seq from its slot and those it names, or None if its slot
        has no line list or its second line is gone with every copy. A line lost with a
        damaged older slot costs only what was in that slot: the second line (the
        settings) is then the state's before (the store keeps it twice), any other (a
        remembered reply) is left out; each loss of the newest state is reported."""
        own = self._slots[seq]
        refs = own[-1]
        name = f"{self.path}.{seq % SLOTS}/h"
        try:
            board = own[0].decode()
        except UnicodeError:
            board = None
        if refs[:1] != b"@" or board is None:
            self.problems.append(f"{name}: no line list, ignored")
            return None
        out = [board]
        where = {}
        k = 1
        while k < len(refs):
            back, index, k = _ref(refs, k)
            line = self._held(seq, back, index)
            at = (seq - back, index)
            if line is None:
                lost = f"{name}: line of save {seq - back} missing"
                if len(out) == 1:
                    got = self._settings(seq)
                    if got is None:
                        if seq == self.seq:  # the newest is reported: an older one is a fallback
                            self.problems.append(lost)
                        return None
                    line, at = got
                    lost += ", the one before used"
                else:
                    lost += ", left out"
                if seq == self.seq:
                    self.problems.append(lost)
                if line is None:
                    continue
            out.append(line)
            where[line] = at
        self.where = where
        return out

    def refuse(self, reason):
        """Set the state last offered aside in `<path>.kept`, unless something is kept
        there already: every line of it in one file (a slot's own format), for a person
        to decide."""
        seq = self._newest
        if seq is None:
            return
        kept = self.path + ".kept"
        if self.files.read(kept) is None:
            data = whole(seq, self._lines(seq))
            self.files.write(kept, ["# refused: " + reason.replace("\n", " ") + "\n"] + data)
        self._newest = None
