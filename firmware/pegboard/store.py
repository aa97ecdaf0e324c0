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
`older()`. The files of earlier firmware are not read: `crib deploy` moves their game into
a slot (crib.deploy.migrate).

The boot's reading is pegboard.storeboot's Ring, which answers with plain values that the
Store adopts (the save number, where the state's lines are); `loaded()` drops it.
"""

from pegboard import drop
from pegboard.slots import KEEP, SLOTS, TWICE, frame, ref


class Files:
    """The real filesystem; tests pass a fake with the same methods."""

    def read(self, name):
        """The file's bytes, or None when it does not exist."""
        try:
            with open(name, "rb") as f:
                return f.read()
        except OSError:
            return None

    def mkdir(self, name):
        """Make a directory (OSError if it is there already)."""
        import os

        os.mkdir(name)

    def write(self, name, chunks):
        """Create or replace a file with the chunks, in one write (LittleFS commits it
        whole when the file is closed); its directory is made when missing."""
        try:
            f = open(name, "w")
        except OSError:
            self.mkdir(name.rpartition("/")[0])  # a slot's first save
            f = open(name, "w")
        # Chunk by chunk, with no joined copy of them all; LittleFS makes the new content
        # visible only when the file is closed.
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
        self._ring = None  # the boot's reading (pegboard.storeboot.Ring), until loaded()
        self._where = {}  # line -> (seq, index) of the newest state's lines in the slots
        self._absent = []  # slot files load() did not find: prepare() makes their folders

    def _slot(self, seq):
        return f"{self.path}.{seq % SLOTS}/h"

    def load(self, lines=False):
        """The text of the newest good state (its lines, board first), or None; with
        lines=True, the list of its lines (the boot's: no text to split again)."""
        from pegboard.storeboot import Ring

        ring = self._ring = Ring(self.path, self.files)
        got = ring.load()
        self.seq, self.problems, self._absent = ring.seq, ring.problems, ring.absent
        self._where = ring.where
        return got if lines or got is None else "\n".join(got)

    def older(self, lines=False):
        """The next good state, older than the last one offered (None when none is left);
        lines as in load()."""
        if self._ring is None:
            return None
        got = self._ring.older()
        self._where = self._ring.where
        return got if lines or got is None else "\n".join(got)

    def refuse(self, reason):
        """The app cannot use the state load()/older() gave: set it aside in `<path>.kept`
        (unless something is kept there already) for a person to decide about."""
        if self._ring is not None:
            self._ring.refuse(reason)

    def loaded(self):
        """The boot is done with load() and older(): drop the older states they read, and
        the reading half's code."""
        self._ring = None
        drop("pegboard.storeboot")

    def prepare(self):
        """Make the directory of a slot whose file load() did not find, ahead of the
        slot's first save: on a blank flash that save made it, 7 ms more to its reply on
        the emulated Pico. One a call (the app calls this when it has nothing else to
        do); False when none is left. Only the directory: a file made ahead would be one
        more commit in the slot's log. Already there (a file was all that was missing)
        or failing: left to the save."""
        if not self._absent:
            return False
        try:
            self.files.mkdir(self._absent.pop().rpartition("/")[0])
        except OSError:
            pass
        return True

    def save(self, lines):
        """Write the new state (a list of lines, the board's first; or a text); raise
        OSError on failure, and the last saved state stays."""
        if type(lines) is str:
            lines = lines.split("\n")
        if self._ring is not None:  # the boot's fallbacks are done with: free them
            self.loaded()
        seq = self.seq + 1
        self.seq = seq  # even if the write fails: its slot may hold anything now
        own = [lines[0]]
        refs = bytearray(b"@")
        where = {}
        keep = TWICE  # the second line (settings): kept twice
        for line in lines[1:]:
            at = self._where.get(line)
            if at is None or seq - at[0] > keep:  # new, or in the slot the next save takes
                at = (seq, len(own))
                own.append(line)
            ref(refs, seq - at[0], at[1])
            where[line] = at
            keep = KEEP
        own.append(refs.decode())
        name = self._slot(seq)
        if name in self._absent:  # its folder is made now: nothing left for prepare()
            self._absent.remove(name)
        self.files.write(name, frame(seq, own))
        self._where = where
