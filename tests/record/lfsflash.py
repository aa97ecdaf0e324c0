"""The game record on a real LittleFS (littlefs-python, with MicroPython's settings on the
Pico: 4K blocks, 256-byte pages, a 1K cache, so a file under 512 bytes lives in its
folder's metadata) over a NOR flash model that counts every flash command (page program,
sector erase) and can replay them one by one: a power cut before any command, or in the
middle of a page program. CPython only (the record's tests and bench/gamerecord.py).

    flash = Flash()                       # a formatted, empty filesystem
    files = LfsFiles(flash)               # pegboard.logfiles' Files over it
    flash.log                             # every command since: ("prog", at, data) / ("erase", at)
    Flash.replayed(image, log[:k])        # the flash after the first k commands
"""

from littlefs import LittleFS, UserContext

BLOCK = 4096
PAGE = 256
BLOCKS = 64  # 256K: room for the record's budget in tests


class _Context(UserContext):
    def __init__(self, buffer, flash):
        super().__init__(buffer=buffer)
        self.flash = flash

    def prog(self, cfg, block, off, data):
        at = block * cfg.block_size + off
        for i in range(0, len(data), PAGE):  # a command a page, as the Pico programs them
            self.flash.command(("prog", at + i, bytes(data[i:i + PAGE])))
        return super().prog(cfg, block, off, data)

    def erase(self, cfg, block):
        self.flash.command(("erase", block * cfg.block_size))
        return super().erase(cfg, block)


class Flash:
    """A LittleFS image with its flash commands counted and logged."""

    def __init__(self, image=None):
        self.programs = self.erases = 0
        self.log = []
        fresh = image is None
        buffer = bytearray(b"\xff" * (BLOCK * BLOCKS)) if fresh else bytearray(image)
        self.ctx = _Context(buffer, self)
        self.fs = LittleFS(context=self.ctx, block_size=BLOCK, block_count=BLOCKS,
                           prog_size=PAGE, read_size=32, cache_size=1024, lookahead_size=32,
                           block_cycles=100, mount=False)
        if fresh:
            self.fs.format()
        self.fs.mount()
        self.log = []
        self.programs = self.erases = 0

    def command(self, cmd):
        self.log.append(cmd)
        if cmd[0] == "prog":
            self.programs += 1
        else:
            self.erases += 1

    @property
    def commands(self):
        return self.programs + self.erases

    def image(self):
        return bytes(self.ctx.buffer)

    @staticmethod
    def apply(buffer, cmd, half=False):
        """Run one logged command on a bytearray (half: a page program cut in its middle)."""
        if cmd[0] == "erase":
            buffer[cmd[1]:cmd[1] + BLOCK] = b"\xff" * BLOCK
        else:
            data = cmd[2][:len(cmd[2]) // 2] if half else cmd[2]
            buffer[cmd[1]:cmd[1] + len(data)] = data


class LfsFiles:
    """pegboard.logfiles' Files over a Flash; `ops` counts its flash commands (so the
    record's scripted games count answers in flash commands)."""

    def __init__(self, flash):
        self.flash = flash
        self.fs = flash.fs
        self.history = None

    @property
    def ops(self):
        return self.flash.commands

    def lines(self, name):
        try:
            f = self.fs.open(name, "rb")
        except FileNotFoundError:
            return
        with f:
            data = f.read()
        for raw in data.splitlines(keepends=True):
            yield raw

    def line_at(self, name, offset):
        with self.fs.open(name, "rb") as f:
            f.seek(offset)
            data = f.read(4096)
        end = data.find(b"\n")
        raw = data if end < 0 else data[:end + 1]
        return raw, offset + len(raw)

    def read(self, name):
        try:
            with self.fs.open(name, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def write(self, name, data):
        with self.fs.open(name, "wb") as f:
            f.write(data)

    def append(self, name, data):
        try:
            f = self.fs.open(name, "ab")
        except FileNotFoundError:  # littlefs-python's "a" does not create (MicroPython's does)
            f = self.fs.open(name, "wb")
        if type(data) is list:  # Files.append's chunks: one write of them all, as on flash
            data = b"".join([c.encode() if type(c) is str else c for c in data])
        elif type(data) is str:
            data = data.encode()
        with f:
            f.write(data)

    def dump(self, name, items):
        """Files.dump: each item's JSON line, appended at once."""
        import json

        self.append(name, "".join([json.dumps(i) + "\n" for i in items]).encode())

    def last(self, name):
        data = self.read(name)
        return data[-1:] if data else b""

    def size(self, name):
        try:
            return self.fs.stat(name).size
        except FileNotFoundError:
            return 0

    def names(self, folder):
        try:
            return self.fs.listdir(folder)
        except FileNotFoundError:
            return []

    def remove(self, name):
        self.fs.remove(name)

    def rename(self, name, new):
        self.fs.rename(name, new)

    def rmdir(self, name):
        self.fs.remove(name)

    def mkdir(self, name):
        try:
            self.fs.mkdir(name)
        except FileExistsError:
            raise OSError(17, "exists") from None
