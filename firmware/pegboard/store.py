"""The state file: every save survives a power cut at any moment, and a bad copy is caught.

A save writes `<path>.new`, renames the current `<path>` to `<path>.old` (the previous good
copy) and `<path>.new` to `<path>`; LittleFS keeps each rename atomic. Each copy starts
with a header line `crib-state SEQ LENGTH TEXTSUM HEADSUM`, so at boot the newest copy that
checks out wins, whatever step a cut interrupted; copies that fail are listed in
`problems`. The text is written line by line: no copy of it all is made on the heap.
"""

import os

from cribcore.pegs import checksum

MAGIC = "crib-state"


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
    """The real filesystem; tests pass a fake with the same three methods."""

    def read(self, name):
        """The file's bytes, or None when it does not exist."""
        try:
            with open(name, "rb") as f:
                return f.read()
        except OSError:
            return None

    def write(self, name, chunks):
        """Create or replace a file with the chunks (closing it flushes it to flash)."""
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
        self.problems = []  # a line per corrupt or truncated copy found by load()
        self._path_good = False  # <path> holds a good copy: keep it as .old on the next save

    def load(self):
        """The text of the newest good copy, or None when there is none."""
        best = None
        names = (self.path, self.path + ".new", self.path + ".old")
        for name in names:
            data = self.files.read(name)
            if data is None:
                continue
            got = unframe(data)
            if got is None:
                self.problems.append(f"{name}: corrupt or truncated, ignored")
                continue
            if name == self.path:
                self._path_good = True
            if best is None or got[0] > best[1][0]:
                best = (name, got)
        if best is None:
            return None
        self.seq = best[1][0]
        if best[0] == names[1]:
            self._commit()  # a save cut between its write and its renames: finish it
        return best[1][1]

    def save(self, text):
        """Write the new state (a text, or a list of its lines); raise OSError on failure,
        and the old state stays."""
        self.seq += 1
        self.files.write(self.path + ".new", frame(self.seq, [text] if type(text) is str
                                                   else text))
        self._commit()

    def _commit(self):
        keep = self._path_good
        self._path_good = False
        if keep:
            self.files.rename(self.path, self.path + ".old")
        self.files.rename(self.path + ".new", self.path)
        self._path_good = True
