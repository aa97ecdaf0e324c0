"""The files of the game record (pegboard.gamelog): the real filesystem (LittleFS on the
board) with the calls a log needs besides the state's; tests pass a fake with these methods
(tests/record/memfiles.py, lfsflash.py)."""

from pegboard.store import Files as StateFiles


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
        with open(name, "wb") as f:
            f.write(data)

    def append(self, name, data):
        """Add to the end of a file (made if absent; committed whole when closed): data is
        bytes or ASCII text, or a list of them written one after the other (nothing
        joined; MicroPython writes a str's own bytes)."""
        with open(name, "ab") as f:
            if type(data) is not list:
                try:
                    f.write(data)  # MicroPython: bytes or str alike, no copy
                except TypeError:
                    f.write(data.encode())  # CPython's binary file takes no str (tests)
                return
            for chunk in data:
                try:
                    f.write(chunk)
                except TypeError:
                    f.write(chunk.encode())

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
        os.remove(name)

    def rmdir(self, name):
        """Remove an empty folder (OSError if it holds a file)."""
        import os

        os.rmdir(name)

    def rename(self, name, new):
        """Give a file another name, replacing any file of that name (atomic on
        LittleFS: a power cut leaves the one or the other)."""
        import os

        held = self.held
        if held is not None and (held[0] == name or held[0] == new):
            self.let_go()
        os.rename(name, new)
