"""The state on flash: one small file written per saved change, so a save costs about one
flash page and a power cut at any moment leaves the last acknowledged state or the one in
flight.

LittleFS (MicroPython's filesystem on the Pico) commits a file's new content atomically
when it is closed, and keeps a small file (up to a few hundred bytes) inside its
directory's metadata log: rewriting one costs one page program (256 bytes, if it fits),
and when the log's 4K block is full, its compaction (a sector erase). So the state is a
ring of SLOTS small files, each alone in a directory of its own (docs/firmware.md has the
design and the figures):

- `<path>.0/h` .. `<path>.8/h`: save number SEQ writes slot SEQ % SLOTS, whole, and
  nothing else. It holds the board line, the state's other lines (settings, remembered
  replies of recent ids) that no slot kept by the next save holds, and a last line
  `@...` that says, line by line, where the rest are: in this file, or in the slot written
  d saves before (only slots the next save leaves alone). So a save writes the board, the
  new id line and now and then a line carried over from the slot about to be rewritten.
- Alone in its directory, a slot's log takes about fifteen rewrites per erase whatever
  else is on flash; in one shared directory the live data of all slots would fill it.

Each file is framed: `H<CRC-32> SEQ` on the first line (binascii's CRC, in C), so a damaged
copy is caught. An empty file is what a power cut leaves of a file being created (LittleFS
records the name first): that is no damage and is not reported. A slot that fails its
check is listed in `problems` (real damage). The newest slot whose lines are all there
wins; the one before stays complete as a fallback. A state the app cannot use is set aside
with `refuse()` into `<path>.kept`, never overwritten, and the older state is offered by
`older()`. Files of earlier formats (`<path>.a`/`.b` with `<path>.r0`.., and `<path>`,
`.new`, `.old`) are read when no slot is, so a deploy keeps the game.
"""

from binascii import crc32

SLOTS = 9  # 8 remembered ids each in the slot of its own save, and the slot being written
KEEP = SLOTS - 2  # a slot may name lines in the slots of the KEEP saves before it
HEAD = "H"
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"  # a line's index within its slot
EARLIER = (".a", ".b", "", ".new", ".old", ".kept")  # pegboard.oldstate reads them
RECORDS = 11  # earlier firmware's `<path>.r0` .. `.r10`


def names(path):
    """Every file a Store(path) reads or writes: a deploy leaves them alone."""
    return tuple([path + ext for ext in EARLIER]
                 + [f"{path}.r{i}" for i in range(RECORDS)]
                 + [f"{path}.{i}/h" for i in range(SLOTS)])


def _crc(chunks):
    c = 0
    for chunk in chunks:
        c = crc32(chunk.encode(), c)
    return "%08x" % (c & 0xFFFFFFFF)


def frame(seq, lines):
    """The chunks of a slot file (header line, then the lines): its text is their join."""
    out = [str(seq)]
    for line in lines:
        out.append("\n")
        out.append(line)
    out.insert(0, HEAD + _crc(out) + " ")
    return out


def unframe(data):
    """(seq, lines) from a slot file's bytes, or None if it is corrupt or truncated."""
    if data[:1] != b"H" or len(data) < 11:
        return None
    try:
        text = data[10:].decode()
    except UnicodeError:
        return None
    if data[1:9] != _crc([text]).encode() or data[9:10] != b" ":
        return None
    lines = text.split("\n")
    if not lines[0].isdigit():
        return None
    return int(lines[0]), lines[1:]


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
        whole when the file is closed); its directory is made when missing."""
        try:
            f = open(name, "w")
        except OSError:
            import os

            os.mkdir(name.rpartition("/")[0])  # a slot's first save
            f = open(name, "w")
        # Chunk by chunk, never one joined copy (the heap is small); LittleFS makes the new
        # content visible only when the file is closed.
        with f:
            for chunk in chunks:
                f.write(chunk)


class Store:
    """Load the newest good state; save a new one without ever losing the last."""

    def __init__(self, path, files=None):
        self.path = path
        self.files = files or Files()
        self.seq = 0
        self.problems = []  # a line per damaged copy found by load()
        self._slots = {}  # seq -> lines of every good slot file (until the first save)
        self._order = []  # the seqs (or legacy copies) older() has still to offer
        self._where = {}  # line -> (seq, index) of the newest state's lines in the slots
        self._newest = None  # the seq (or legacy copy) of the state last offered

    def _slot(self, seq):
        return f"{self.path}.{seq % SLOTS}/h"

    def _read(self, name, unframe=unframe):
        data = self.files.read(name)
        if not data:
            return None  # absent, or created by a save the power cut: no damage
        got = unframe(data)
        if got is None:
            self.problems.append(f"{name}: corrupt or truncated, ignored")
        return got

    def load(self):
        """The text of the newest good state (its lines, board first), or None."""
        for i in range(SLOTS):
            name = f"{self.path}.{i}/h"
            got = self._read(name)
            if got is None:
                continue
            if got[0] % SLOTS != i:
                self.problems.append(f"{name}: holds save {got[0]}, ignored")
                continue
            self._slots[got[0]] = got[1]
            self.seq = max(self.seq, got[0])
        self._order = sorted(self._slots, reverse=True)
        if not self._order:
            self._legacy()
        return self.older()

    def older(self):
        """The next good state, older than the last one offered (None when none is left)."""
        while self._order:
            seq = self._order.pop(0)
            lines = self._lines(seq) if type(seq) is int else seq[1]
            if lines is not None:
                self._newest = seq
                return "\n".join(lines)
        self._newest = None
        self._where = {}
        return None

    def _lines(self, seq):
        """The state saved as seq from its slot and those it names (None if one is gone)."""
        own = self._slots[seq]
        refs = own[-1]
        if not refs.startswith("@") or len(refs) % 2 != 1:
            self.problems.append(f"{self._slot(seq)}: no line list, ignored")
            return None
        out = [own[0]]
        where = {}
        for k in range(1, len(refs), 2):
            back = DIGITS.find(refs[k])
            at = seq - back
            index = DIGITS.find(refs[k + 1])
            held = self._slots.get(at)
            if back < 0 or back > KEEP or held is None or not 0 < index < len(held) - 1:
                if seq == self.seq:  # the newest must be whole: an older one may not be
                    self.problems.append(f"{self._slot(seq)}: line of save {at} missing")
                return None
            out.append(held[index])
            where[held[index]] = (at, index)
        self._where = where
        return out

    def _legacy(self):
        """The copies earlier firmware wrote (pegboard.oldstate), newest first."""
        import sys

        import pegboard
        from pegboard import oldstate

        copies = oldstate.copies(self._read, self.path, self.problems)
        if copies:
            self.seq = max(self.seq, copies[0][0])
        self._order = [c[1] for c in copies]
        del sys.modules["pegboard.oldstate"]  # its code leaves the heap
        del pegboard.oldstate

    def refuse(self, reason):
        """The app cannot use the state load()/older() gave: set it aside in `<path>.kept`
        (unless something is kept there already) for a person to decide about."""
        if self._newest is None:
            return
        kept = self.path + ".kept"
        if self.files.read(kept) is None:
            seq = self._newest
            if type(seq) is int:
                lines = self._lines(seq)
                lines = lines + ["@" + "".join(["0" + DIGITS[i] for i in range(1, len(lines))])]
                data = frame(seq, lines)
            else:
                data = [self.files.read(seq[0]).decode()]
            self.files.write(kept, ["# refused: " + reason.replace("\n", " ") + "\n"] + data)
        self._newest = None

    def save(self, lines):
        """Write the new state (a list of lines, the board's first; or a text); raise
        OSError on failure, and the last saved state stays."""
        if type(lines) is str:
            lines = lines.split("\n")
        self._slots = {}  # the boot's fallbacks are done with: free their memory
        self._order = []
        seq = self.seq + 1
        self.seq = seq  # even if the write fails: its slot may hold anything now
        own = [lines[0]]
        refs = ["@"]
        where = {}
        for line in lines[1:]:
            at = self._where.get(line)
            if at is None or seq - at[0] > KEEP:  # new, or in the slot the next save takes
                at = (seq, len(own))
                own.append(line)
            refs.append(DIGITS[seq - at[0]] + DIGITS[at[1]])
            where[line] = at
        own.append("".join(refs))
        self.files.write(self._slot(seq), frame(seq, own))
        self._where = where
        self._newest = seq
