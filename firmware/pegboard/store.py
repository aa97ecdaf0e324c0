"""The state on flash: small records, each written in one go, so a save costs about one
flash page and a power cut at any moment leaves the last acknowledged state or the one in
flight.

LittleFS (MicroPython's filesystem on the Pico) commits a file's new content atomically
when it is closed, and keeps a small file (up to a few hundred bytes) inside its
directory's metadata log: rewriting one costs one page program and, now and then, the
compaction of that log. So the state lives in small files that are only ever rewritten
whole, never renamed (docs/firmware.md has the design and the figures):

- `<path>.a` and `<path>.b`: the board and the settings, saved alternately; a save
  always rewrites the copy that is NOT the newest good one, so the last acknowledged state
  is never touched and the previous one stays as a fallback.
- `<path>.i0` .. `<path>.i8`: the remembered replies of recent ids, one per file, written
  once when the change is saved (before its state copy). A state copy lists the id
  records it vouches for (`ids SLOT:SEQ,...`), so an id written for a change that then
  failed or was cut is never answered from.

Each file is framed: a header line `crib-state SEQ LENGTH TEXTSUM HEADSUM`, so a damaged
copy is caught; SEQ grows with every record. An empty file is what a power cut leaves of a
file being created (LittleFS records the name first): that is no damage and is not
reported. A copy that fails its check is listed in `problems` (real damage). A state the
app cannot use is set aside with `refuse()` into `<path>.kept`, never overwritten, and the
older copy is offered by `older()`. Files of the earlier format (`<path>`, `.new`, `.old`)
are read too, so a deploy keeps the game.
"""

import os

from cribcore.pegs import checksum

MAGIC = "crib-state"
ID_SLOTS = 9  # the app remembers 8 ids; one slot more is always free to write a new one
IDS = "ids "


def names(path):
    """Every file a Store(path) reads or writes: a deploy leaves them alone."""
    return tuple([path + ext for ext in (".a", ".b", ".kept", "", ".new", ".old")]
                 + [f"{path}.i{i}" for i in range(ID_SLOTS)])


def frame(seq, lines):
    """The chunks of a state file (header line, then the lines): its text is their join."""
    lines = lines or [""]
    length = len(lines) - 1
    for line in lines:
        length += len(line)
    head = f"{MAGIC} {seq} {length} {checksum(lines)}"
    out = [head + " " + checksum(head)]
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
    if not sep or len(parts) != 5 or parts[0] != MAGIC or checksum(head[:-9]) != parts[4]:
        return None
    if not (parts[1].isdigit() and parts[2].isdigit()) or int(parts[2]) != len(body):
        return None
    if checksum(body) != parts[3]:
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
        data = "".join(chunks)
        with open(name, "w") as f:
            f.write(data)

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
        self._ids = {}  # id line -> (slot, seq) of the id records now vouched for
        self._slot_ids = {}  # slot index -> (seq, line) of every good id record

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
        for i in range(ID_SLOTS):
            got = self._read(f"{p}.i{i}")
            if got is not None:
                self._slot_ids[i] = got
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
            text = self._text(lines)
            if text is not None:
                self._newest = name
                return text
        self._newest = None
        self._ids = {}
        return None

    def _text(self, lines):
        """A copy's text for the app: its own lines, with the id records it vouches for
        in place of its `ids` line. None if a vouched record is missing (damage)."""
        self._ids = {}
        if not lines or not lines[-1].startswith(IDS):
            return "\n".join(lines)  # the earlier format: ids inline
        out = lines[:-1]
        for ref in lines[-1][len(IDS):].split(","):
            if not ref:
                continue
            slot, seq = ref.split(":")
            got = self._slot_ids.get(int(slot))
            if got is None or got[0] != int(seq):
                self.problems.append(f"{self.path}.i{slot}: id record {seq} missing")
                continue
            out.append(got[1])
            self._ids[got[1]] = (int(slot), got[0])
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
        main, ids = lines[:2], lines[2:]
        refs = []
        keep = {}
        for line in ids:
            if line.startswith("id ") and line in self._ids:
                keep[line] = self._ids[line]
        # Slots the newest copy on flash vouches for stay untouched until a new copy is
        # written: a cut before it must find every record that copy names.
        used = [s for s, _ in self._ids.values()]
        for line in ids:
            if not line.startswith("id "):
                main.append(line)  # not an id record: kept in the state copy itself
                continue
            if line not in keep:
                slot = 0
                while slot in used:
                    slot += 1
                if slot >= ID_SLOTS:
                    raise ValueError("more ids than the store keeps")
                self.seq += 1
                self.files.write(f"{self.path}.i{slot}", frame(self.seq, [line]))
                self._slot_ids[slot] = (self.seq, line)
                keep[line] = (slot, self.seq)
                used.append(slot)
            refs.append("%d:%d" % keep[line])
        self.seq += 1
        target = self.path + (".b" if self._newest == self.path + ".a" else ".a")
        self.files.write(target, frame(self.seq, main + [IDS + ",".join(refs)]))
        self._newest = target
        self._ids = keep
