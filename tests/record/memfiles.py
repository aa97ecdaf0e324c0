"""Flash in a dict for the game record's tests (pegboard.logfiles' Files methods), with
power cuts: plain Python, run on CPython and under MicroPython.

cut_at=k: the k-th write, append or remove from now is cut: a rewrite leaves the old file
(LittleFS commits a file when it is closed), a new file is left empty (LittleFS records the
name first), an append keeps only its first `keep` bytes (stricter than LittleFS, which
commits an append whole: a torn line), a folder is left unmade or not removed, and
PowerCut is raised. `ops` counts them (mkdir and rmdir too). A file is written only in a
folder that is there (OSError otherwise, as LittleFS; a top folder counts as made): `dirs`
holds those made.
A file is a tuple of the chunks written to it: a small heap never needs one piece for a
whole game's file."""


class PowerCut(BaseException):
    """The power went: nothing after this runs."""


class MemFiles:
    def __init__(self, files=None, dirs=None):
        self.files = dict(files or {})
        self.dirs = set(dirs or ())
        self.ops = 0
        self.cut_at = None
        self.keep = 0
        self.history = None  # a list: every write, append and remove, (kind, name, data)

    def copy(self):
        return MemFiles(self.files, self.dirs)

    def _cut(self, kind="", name="", data=b""):
        self.ops += 1
        if self.history is not None:
            self.history.append((kind, name, _bytes(data)))
        return self.cut_at is not None and self.ops == self.cut_at

    def data(self, name):
        """A file's bytes in one piece (None when absent)."""
        chunks = self.files.get(name)
        return None if chunks is None else b"".join(chunks)

    def lines(self, name):
        part = b""
        for chunk in self.files.get(name, ()):
            at = 0
            while at < len(chunk):
                end = chunk.find(b"\n", at)
                if end < 0:
                    part += chunk[at:]
                    break
                yield part + chunk[at:end + 1]
                part = b""
                at = end + 1
        if part:
            yield part

    def line_at(self, name, offset):
        at = 0
        for raw in self.lines(name):
            if at == offset:
                return raw, at + len(raw)
            at += len(raw)
        return b"", offset

    def read(self, name):
        return self.data(name)

    def _folder(self, name):
        """OSError unless the file's folder is there (a top folder counts as made: the
        record's, the kept log's)."""
        folder = name.rpartition("/")[0]
        if "/" in folder and folder not in self.dirs:
            raise OSError(2, "no folder " + folder)

    def write(self, name, data):
        self._folder(name)
        if self._cut("write", name, data):
            if name not in self.files:
                self.files[name] = ()
            raise PowerCut
        self.files[name] = (_bytes(data),)

    def append(self, name, data):
        self._folder(name)
        old = self.files.get(name, ())
        if self._cut("append", name, data):
            self.files[name] = old + (_bytes(data)[:self.keep],)
            raise PowerCut
        self.files[name] = old + (_bytes(data),)

    def dump(self, name, items):
        """Files.dump: each item's JSON line, appended at once."""
        import json

        self.append(name, "".join([json.dumps(i) + "\n" for i in items]).encode())

    def last(self, name):
        for chunk in reversed(self.files.get(name, ())):
            if chunk:
                return chunk[-1:]
        return b""

    def size(self, name):
        return sum([len(c) for c in self.files.get(name, ())])

    def names(self, folder):
        out = []
        for n in list(self.files) + list(self.dirs):
            if n.startswith(folder + "/") and "/" not in n[len(folder) + 1:]:
                out.append(n[len(folder) + 1:])
        return out

    def remove(self, name):
        if name not in self.files:
            raise OSError(2, "no file " + name)
        if self._cut("remove", name):
            raise PowerCut
        del self.files[name]

    def rename(self, name, new):
        if self._cut("rename", name, new.encode()):
            raise PowerCut  # as LittleFS: the old name or the new, whole
        self.files[new] = self.files.pop(name)

    def mkdir(self, name):
        if name in self.dirs:
            raise OSError(17, "exists")
        if self._cut("mkdir", name):
            raise PowerCut  # not made
        self.dirs.add(name)

    def rmdir(self, name):
        if name not in self.dirs or any([n.startswith(name + "/") for n in self.files]):
            raise OSError(39, "absent or not empty")
        if self._cut("rmdir", name):
            raise PowerCut  # not removed
        self.dirs.discard(name)


def _bytes(data):
    """What Files.append writes of data (bytes or text, or a list of them)."""
    if type(data) is list:
        return b"".join([_bytes(c) for c in data])
    return data.encode() if type(data) is str else bytes(data)


def _run(files, op):
    kind, name, data = op
    if kind == "remove":
        files.remove(name)
    elif kind in ("mkdir", "rmdir"):
        getattr(files, kind)(name)
    elif kind == "rename":
        files.rename(name, data.decode())
    else:
        getattr(files, kind)(name, data)


def cut_flashes(history, keeps=(0,)):
    """(k, keep, files) for each operation of history (k from 1) and each `keep`: the files
    the operations before the k-th left, with the k-th cut by the power as MemFiles cuts
    it (an append keeping `keep` bytes: a negative keep counts from its end)."""
    base = MemFiles()
    for k in range(1, len(history) + 1):
        op = history[k - 1]
        for keep in (keeps if op[0] == "append" else (0,)):
            files = MemFiles(base.files, base.dirs)
            files.cut_at = 1
            files.keep = keep if keep >= 0 else max(0, len(op[2]) + keep)
            try:
                _run(files, op)
            except PowerCut:
                pass
            files.cut_at = None
            files.ops = 0
            yield k, keep, files
        _run(base, op)
