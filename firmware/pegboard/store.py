"""The state on flash: small records, each written in one go, so a save costs about one
flash page and a power cut at any moment leaves the last acknowledged state or the one in
flight.

LittleFS (MicroPython's filesystem on the Pico) commits a file's new content atomically
when it is closed, and keeps a small file (up to a few hundred bytes) inside its
directory's metadata log: rewriting one costs one page program and, now and then, the
compaction of that log. So the state lives in small files that are only ever rewritten
whole, never renamed (docs/firmware.md has the design and the figures):

- `<path>.a` and `<path>.b`: the board, saved alternately; a save always rewrites the
  copy that is NOT the newest good one, so the last acknowledged state is never touched
  and the previous one stays as a fallback.
- `<path>.r0` .. `<path>.r10`: the other lines of the state (the settings, the remembered
  replies of recent ids), one per file, each written once, when it first appears, into
  a slot the newest copy does not name, before the copy that names it (`recs 0,3,...`).
  So a save writes the board copy and at most one or two small records, and a record
  written for a change that then failed or was cut is never used.

Each file is framed: a header line `crib-rec SEQ LENGTH TEXTSUM HEADSUM` (CRC-32s), so a damaged
copy is caught; SEQ grows with every record. An empty file is what a power cut leaves of a
file being created (LittleFS records the name first): that is no damage and is not
reported. A copy that fails its check is listed in `problems` (real damage). A state the
app cannot use is set aside with `refuse()` into `<path>.kept`, never overwritten, and the
older copy is offered by `older()`. Files of the earlier format (`<path>`, `.new`, `.old`)
are read too, so a deploy keeps the game.
"""

import os

from cribcore.pegs import checksum

try:
    from binascii import crc32
except ImportError:  # a MicroPython built without it: the Adler-32 frames
    crc32 = None  # type: ignore[assignment]

MAGIC = "crib-state"  # framed with cribcore's Adler-32 (earlier firmware; read and written)
MAGIC_CRC = "crib-rec"  # framed with CRC-32: binascii's is C, Adler-32 runs in Python
# (on the Pico, framing a 180-byte record took 15 ms with Adler-32, under 1 ms with CRC-32)
# The app saves a board line, a settings line and up to 8 id lines: each line after the
# board's is a record; two slots more are always free to write a new settings line and id.
SLOTS = 11
REFS = "recs "
def names(path):
    """Every file a Store(path) reads or writes: a deploy leaves them alone."""
    return tuple([path + ext for ext in (".a", ".b", ".kept", "", ".new", ".old")]
                 + [f"{path}.r{i}" for i in range(SLOTS)])


def _crc(text):
    return "%08x" % crc32(text.encode())


def frame(seq, lines):
    """The chunks of a state file (header line, then the lines): its text is their join."""
    lines = lines or [""]
    length = len(lines) - 1
    for line in lines:
        length += len(line)
    if crc32 is None:
        head = f"{MAGIC} {seq} {length} {checksum(lines)}"
        out = [head + " " + checksum(head)]
    else:
        # The CRC runs over the lines one at a time: no joined copy of the whole text.
        crc = 0
        for i, line in enumerate(lines):
            if i:
                crc = crc32(b"\n", crc)
            crc = crc32(line.encode(), crc)
        head = f"{MAGIC_CRC} {seq} {length} {crc:08x}"
        out = [head + " " + _crc(head)]
    for line in lines:
        out.append("\n")
        out.append(line)
    return out


def unframe(data):
    """(seq, text) from a state file's bytes, or None if it is corrupt or truncated."""
    for c in data:
        if c > 126 or (c < 32 and c != 10):
            return None
    head, sep, body = data.decode().partition("\n")
    parts = head.split(" ")
    if not sep or len(parts) != 5:
        return None
    if parts[0] == MAGIC:
        sums = checksum
    elif parts[0] == MAGIC_CRC and crc32 is not None:
        sums = _crc
    else:
        return None
    if sums(head[:-9]) != parts[4]:
        return None
    if not (parts[1].isdigit() and parts[2].isdigit()) or int(parts[2]) != len(body):
        return None
    if sums(body) != parts[3]:
        return None
    return int(parts[1]), body


class Files:
    """The real filesystem; tests pass a fake with the same methods."""

    def read(self, name):
        """The file's bytes, or None when it does not exist."""
        try:
            with open(name, "rb") as f:
                return f.read()
        except OSError:
            return None

    def write(self, name, chunks):
        """Create or replace a file with the chunks, in one write (LittleFS commits it
        whole when the file is closed)."""
        # Chunk by chunk, never one joined copy (the heap is small); LittleFS makes the new
        # content visible only when the file is closed.
        with open(name, "w") as f:
            for chunk in chunks:
                f.write(chunk)

    def rename(self, old, new):
        """Rename old to new, replacing new."""
        os.rename(old, new)



class Store:
    """Load the newest good state text; save a new one without ever losing the last."""

    def __init__(self, path, files=None):
        self.path = path
        self.files = files or Files()
        self.seq = 0
        self.problems = []  # a line per damaged copy found by load()
        self._copies = []  # (seq, slot name, lines) of good state copies, newest first
        self._newest = None  # the slot holding the newest good copy
        self._recs = {}  # line -> (slot, seq) of the records the newest copy vouches for
        self._slots = {}  # slot index -> (seq, line) of every good record

    def _read(self, name):
        data = self.files.read(name)
        if not data:
            return None  # absent, or created by a save the power cut: no damage
        got = unframe(data)
        if got is None:
            self.problems.append(f"{name}: corrupt or truncated, ignored")
        return got

    def load(self):
        """The text of the newest good copy, or None when there is none."""
        p = self.path
        for i in range(SLOTS):
            got = self._read(f"{p}.r{i}")
            if got is not None:
                self._slots[i] = got
                self.seq = max(self.seq, got[0])
        copies = []
        for name in (p + ".a", p + ".b", p, p + ".new", p + ".old"):  # see names()
            got = self._read(name)
            if got is not None:
                copies.append((got[0], name, got[1].split("\n")))
                self.seq = max(self.seq, got[0])
        copies.sort(key=lambda c: -c[0])
        self._copies = copies
        return self.older()

    def older(self):
        """The next good copy, older than the last one offered (None when none is left)."""
        while self._copies:
            seq, name, lines = self._copies.pop(0)
            text = self._text(seq, lines)
            if text is not None:
                self._newest = name
                return text
        self._newest = None
        self._recs = {}
        return None

    def _text(self, seq, lines):
        """A copy's text for the app: its board line, then the records it vouches for.
        A record is written before the copy that names it, so one with a newer SEQ was
        rewritten since (the copy is an old fallback): that is reported, not used."""
        self._recs = {}
        if not lines or not lines[-1].startswith(REFS):
            return "\n".join(lines)  # the earlier format: one file, all lines
        out = lines[:-1]
        for ref in lines[-1][len(REFS):].split(","):
            if not ref:
                continue
            got = self._slots.get(int(ref))
            if got is None or got[0] > seq:
                self.problems.append(f"{self.path}.r{ref}: record of copy {seq} missing")
                continue
            out.append(got[1])
            self._recs[got[1]] = (int(ref), got[0])
        return "\n".join(out)

    def refuse(self, reason):
        """The app cannot use the copy load()/older() gave: set it aside in `<path>.kept`
        (unless something is kept there already) for a person to decide about."""
        if self._newest is None:
            return
        kept = self.path + ".kept"
        if self.files.read(kept) is None:
            data = self.files.read(self._newest)
            self.files.write(kept, ["# refused: " + reason.replace("\n", " ") + "\n",
                                    data.decode()])
        self._newest = None

    def save(self, text):
        """Write the new state (a text, or a list of its lines); raise OSError on failure,
        and the last saved state stays."""
        lines = text.split("\n") if type(text) is str else list(text)
        self._copies = []  # the boot's fallbacks are done with: free their memory
        self._slots = {}
        refs = []
        keep = {}
        for line in lines[1:]:
            if line in self._recs:
                keep[line] = self._recs[line]
        # Slots the newest copy on flash vouches for stay untouched until a new copy is
        # written: a cut before it must find every record that copy names.
        used = [s for s, _ in self._recs.values()]
        for line in lines[1:]:
            if line not in keep:
                slot = 0
                while slot in used:
                    slot += 1
                if slot >= SLOTS:
                    raise ValueError("more lines than the store keeps")
                self.seq += 1
                self.files.write(f"{self.path}.r{slot}", frame(self.seq, [line]))
                keep[line] = (slot, self.seq)
                used.append(slot)
            refs.append(str(keep[line][0]))
        self.seq += 1
        target = self.path + (".b" if self._newest == self.path + ".a" else ".a")
        self.files.write(target, frame(self.seq, lines[:1] + [REFS + ",".join(refs)]))
        self._newest = target
        self._recs = keep
