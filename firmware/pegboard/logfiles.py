"""The files of the game record (pegboard.gamelog): the real filesystem (LittleFS on the
board) with the calls a log needs besides the state's; tests pass a fake with these methods
(tests/record/memfiles.py, lfsflash.py)."""

from pegboard.store import Files as StateFiles

KEEP_OPEN = 2  # the files append() keeps open: the newest segment's and the game's


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

    kept = None  # [(name, file), ...]: the files append() keeps open, the newest last

    def append(self, name, data):
        """Add to the end of a file (made if absent), committed before it returns: data is
        bytes or ASCII text, or a list of them written one after the other (nothing
        joined; MicroPython writes a str's own bytes). The file stays open for the next
        append to it and is flushed after each (LittleFS commits the data then, as a close
        would: a power cut leaves the file before it or after it). The two files appended
        to last stay open (an answer's line goes to a new segment's file, and its seal
        after the reply to the game's file), so the game's file has its LittleFS file
        object and cache (about 1.1 KB on the Pico) made once a run, not once an answer
        (docs/image.md, s9 lead); a write, rename or removal of one, or a failure,
        closes it first."""
        kept = self.kept
        if kept is None:
            kept = self.kept = []
        f = None
        for i in range(len(kept)):
            if kept[i][0] == name:
                f = kept[i][1]
                if i != len(kept) - 1:
                    kept.append(kept.pop(i))  # the newest last
                break
        if f is None:
            if len(kept) >= KEEP_OPEN:
                _close(kept.pop(0))
            f = open(name, "ab")
            kept.append((name, f))
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

    def _close_kept(self, name):
        """Close the files append() keeps open that are name or in the folder name."""
        kept = self.kept
        i = len(kept) if kept else 0
        while i:  # no list nor text made: called at every write and removal
            i -= 1
            k = kept[i][0]
            if k.startswith(name) and (len(k) == len(name) or k.startswith("/", len(name))):
                _close(kept.pop(i))

    held = None  # (name, file): the file dump() keeps open from one call to the next

    def dump(self, name, items):
        """Append each item's JSON and a newline to a file (made if absent), committed
        before it returns: json.dump writes into the file's own buffer, so no text of an
        item is made (the screens' log: about 1 KB of garbage an answer on the unix port
        when each item's JSON was a str, joined, then encoded). The file stays open for
        the next call and is flushed after each (LittleFS commits the lines then, as a
        close would: a power cut leaves the file before them or after them), so its
        LittleFS file object and cache (about 1.1 KB on the Pico) are made once, not once
        an answer; rename() and remove() of it, or a failure, close it first. An item that
        fails to write (no memory) still ends its line: the next call's lines stay whole,
        and the torn one is dropped when read."""
        import json

        held = self.held
        if held is None or held[0] != name:
            self.let_go()
            held = self.held = (name, open(name, "a"))  # text: json.dump writes str
        f = held[1]
        try:
            for item in items:
                json.dump(item, f)
                f.write("\n")
            f.flush()
        except BaseException:
            self.let_go("\n")
            raise

    def let_go(self, end=None):
        """Close the file dump() keeps open (its last text end written first), if any."""
        held = self.held
        if held is None:
            return
        self.held = None
        f = held[1]
        try:
            if end:
                f.write(end)
        except Exception:  # noqa: BLE001 - a flash that fails: closed all the same
            pass
        try:
            f.close()
        except Exception:  # noqa: BLE001 - and let go of all the same
            pass

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

        if self.held is not None and self.held[0] == name:
            self.let_go()
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

        held = self.held
        if held is not None and (held[0] == name or held[0] == new):
            self.let_go()
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
