"""The files of the game record (pegboard.gamelog): the real filesystem (LittleFS on the
board) with the calls a log needs besides the state's; tests pass a fake with these methods
(tests/record/memfiles.py, lfsflash.py)."""

from pegboard.store import Files as StateFiles

KEEP_OPEN = 3  # the files kept open (_opened): the record's newest segment, the game's
# file (a seal appends to it) and the screens' log


class Files(StateFiles):
    """The real filesystem (LittleFS on the board): the state's read and mkdir, and what a
    log needs besides; tests pass a fake with these methods."""

    def lines(self, name):
        """The file's lines one at a time (bytes, newline included), none if it is absent."""
        try:
            f = open(name, "rb")
        except OSError:
            return
        with f:
            while True:
                raw = f.readline()
                if not raw:
                    return
                yield raw

    def line_at(self, name, offset):
        """(the line at byte offset, the offset after it); (b"", offset) at the end."""
        with open(name, "rb") as f:
            f.seek(offset)
            raw = f.readline()
        return raw, offset + len(raw)

    def write(self, name, data):
        """Create or replace a file (committed whole when closed)."""
        self._close_kept(name)
        with open(name, "wb") as f:
            f.write(data)

    kept = None  # [(name, file), ...]: the files append() and dump() keep open, newest last

    def _opened(self, name, mode):
        """The file name open in mode, kept open from one call to the next (KEEP_OPEN of
        them, the least used closed first): on the Pico a LittleFS open makes its file
        object and cache (about 1.1 KB), and the record's newest segment, the game's file
        and the screens' log are each written an answer (docs/image.md, s9). A write,
        rename or removal of one (or of its folder), or a failed write, closes it first
        (_close_kept). Each writer flushes what it wrote: LittleFS commits it then, as a
        close would, so a power cut leaves the file before it or after it."""
        kept = self.kept
        if kept is None:
            kept = self.kept = []
        for i in range(len(kept)):
            if kept[i][0] == name:
                if i != len(kept) - 1:
                    kept.append(kept.pop(i))  # the newest last
                return kept[-1][1]
        if len(kept) >= KEEP_OPEN:
            _close(kept.pop(0))
        f = open(name, mode)
        kept.append((name, f))
        return f

    def append(self, name, data):
        """Add to the end of a file (made if absent), committed before it returns: data is
        bytes or ASCII text, or a list of them written one after the other (nothing
        joined; MicroPython writes a str's own bytes). The file stays open (_opened)."""
        f = self._opened(name, "ab")
        try:
            if type(data) is not list:
                _put(f, data)
            else:
                for chunk in data:
                    _put(f, chunk)
            f.flush()
        except BaseException:
            self._close_kept(name)  # what it holds is committed, as a close did before
            raise

    def dump(self, name, items):
        """Append each item's JSON and a newline to a file (made if absent), committed
        before it returns: json.dump writes into the file's own buffer, so no text of an
        item is made (the screens' log: about 1 KB of garbage an answer on the unix port
        when each item's JSON was a str, joined, then encoded). The file stays open
        (_opened; text: json.dump writes str). An item that fails to write (no memory)
        still ends its line: the next call's lines stay whole, and the torn one is
        dropped when read."""
        import json

        f = self._opened(name, "a")
        try:
            for item in items:
                json.dump(item, f)
                f.write("\n")
            f.flush()
        except BaseException:
            try:
                f.write("\n")
            except Exception:  # noqa: BLE001 - a flash that fails: closed all the same
                pass
            self._close_kept(name)
            raise

    def _close_kept(self, name):
        """Close the files kept open that are name or in the folder name."""
        kept = self.kept
        i = len(kept) if kept else 0
        while i:  # no list nor text made: called at every write and removal
            i -= 1
            k = kept[i][0]
            if k.startswith(name) and (len(k) == len(name) or k.startswith("/", len(name))):
                _close(kept.pop(i))

    def last(self, name):
        """The file's last byte (b"" when it is empty or absent)."""
        try:
            with open(name, "rb") as f:
                f.seek(0, 2)
                if not f.tell():
                    return b""
                f.seek(-1, 2)
                return f.read(1)
        except OSError:
            return b""

    def size(self, name):
        import os

        try:
            return os.stat(name)[6]
        except OSError:
            return 0

    def names(self, folder):
        import os

        try:
            return os.listdir(folder)
        except OSError:
            return []

    def remove(self, name):
        import os

        self._close_kept(name)
        os.remove(name)

    def rmdir(self, name):
        """Remove an empty folder (OSError if it holds a file)."""
        import os

        self._close_kept(name)
        os.rmdir(name)

    def rename(self, name, new):
        """Give a file another name, replacing any file of that name (atomic on
        LittleFS: a power cut leaves the one or the other)."""
        import os

        self._close_kept(name)
        self._close_kept(new)
        os.rename(name, new)


def _close(held):
    try:
        held[1].close()
    except Exception:  # noqa: BLE001 - a flash that fails: let go all the same
        pass


def _put(f, chunk):
    try:
        f.write(chunk)  # MicroPython: bytes or str alike, no copy
    except TypeError:
        f.write(chunk.encode())  # CPython's binary file takes no str (tests)
