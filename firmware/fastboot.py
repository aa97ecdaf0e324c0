"""The Pico's fast boot: main.py calls setup() before importing anything else, and done()
once the app is running. Figures: docs/firmware.md, "Boot".

- Built-ins. MicroPython's extensible built-in modules (time, machine, json, binascii,
  os, select...) are looked for on the flash first at every import statement: about 5 ms
  each time on the emulated Pico, and the boot had a dozen. They are imported once with
  the flash out of the path and kept in sys.modules, where later imports find them at
  once (so a time.py on the board's flash does not replace the built-in: ours has none).
- The code pack. Importing a module from its own file costs LittleFS four lookups in its
  folder (a package? a .py? a .mpy? open it), about 2 ms each, and 17 modules come
  before the first frame. `crib deploy` writes code.pack beside the .mpy files: every
  module of pegboard/ and cribcore/ in one file, after an index. Mounted at /pack, first
  on sys.path, a Pack answers those lookups from its index and reads each module from
  the one open file. A module whose bytes fail their CRC, or that the pack cannot read
  (it needs the module in one piece, twice, in the heap), is read from its own file; no
  pack, or a damaged index, means no pack: the pack never makes an import fail. Anything
  else (main.py, desk, the state) is not in the pack, so the next entry of sys.path, the
  flash, has it.

The pack (host/crib/deploy/build.py writes it): MAGIC and the index's length in 8
decimal digits and a newline (HEAD bytes); the index, JSON: {"dirs": [folder, ...],
"files": {path: [offset, length, crc32], ...}}, paths from the root with a leading "/";
then the modules' bytes, offsets counted from there. (The index is read in one piece and
parsed in C: line by line in Python it took the Pico longer than the lookups it saves.)
"""

import sys

MAGIC = b"crib-pack 1 "
HEAD = len(MAGIC) + 9
PACK = "/code.pack"
MOUNT = "/pack"
PACKAGES = ("pegboard", "cribcore")  # whole: a package found in the pack is looked in only there
BUILTINS = ("time", "machine", "json", "binascii", "struct", "os", "select", "array",
            "micropython", "io")
_DIR, _FILE = 0x4000, 0x8000  # stat's st_mode
_mounted = None  # the Pack setup() mounted, until done()


class Pack:
    """A read-only filesystem over a pack (MicroPython's VFS protocol: mount, umount,
    stat, open): its modules and their folders; nothing else is there."""

    def __init__(self, name, root=""):
        """Open the pack `name`; `root` + a path is where its module's own file is.
        ValueError if it is no pack or its index is cut short."""
        from binascii import crc32
        from io import BytesIO
        from json import loads

        self._crc32, self._stream = crc32, BytesIO  # once: an import a module cost 0.3 ms
        f = open(name, "rb")
        try:
            head = f.read(HEAD)
            size = head[len(MAGIC):-1]
            if head[:len(MAGIC)] != MAGIC or head[-1:] != b"\n" or not size.isdigit():
                raise ValueError("not a code pack")
            index = loads(f.read(int(size)))  # ValueError if damaged or cut short
            self._dirs, self._files = index["dirs"], index["files"]
        except Exception:
            f.close()
            raise ValueError("damaged code pack") from None
        self._f, self._base = f, HEAD + int(size)
        self.root = root

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        self._f.close()

    def stat(self, path):
        if path in self._dirs:
            return (_DIR, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        at = self._files.get(path)
        if at is None:
            raise OSError(2)  # ENOENT
        return (_FILE, 0, 0, 0, 0, 0, at[1], 0, 0, 0)

    def open(self, path, mode):
        """A module's bytes as a stream; its own file if they fail their CRC, or if reading
        them fails (a module in one piece needs two copies of it in the heap at once, where
        the file is read a little at a time: the pack must never make an import fail)."""
        at = self._files.get(path)
        if at is None or "w" in mode or "a" in mode:
            raise OSError(2)
        try:
            self._f.seek(self._base + at[0])
            data = self._f.read(at[1])
            if len(data) == at[1] and self._crc32(data) & 0xFFFFFFFF == at[2]:
                return self._stream(data)
        except (MemoryError, OSError):
            pass
        return open(self.root + path, mode)


def crc(path):
    """The CRC-32 (an int) the mounted pack's index holds for a module's file ("/pegboard/
    config.mpy"), or None: no pack mounted, or that file is not in it. pegboard.layout keys
    its cache on its validator's code with it: reading that 4.4K module and summing it took
    the emulated Pico's boot 7.6 ms."""
    at = None if _mounted is None else _mounted._files.get(path)
    return None if at is None else at[2]


def builtins():
    """Import BUILTINS without looking on the flash, into sys.modules."""
    path = sys.path[:]
    sys.path[:] = [".frozen"]  # frozen modules (none of these) and built-ins only
    try:
        for name in BUILTINS:
            try:
                sys.modules[name] = __import__(name)
            except ImportError:  # not on this port
                pass
    finally:
        sys.path[:] = path


def setup():
    """Both of the above; whatever fails, the boot goes on without it. (Mounting the
    LittleFS again reading 256 bytes a block-device call instead of rp2's 32 helped the
    imports of the modules' own files; with the pack it made the boot 14 ms slower.)"""
    global _mounted
    builtins()
    try:
        import vfs

        pack = Pack(PACK)
        vfs.mount(pack, MOUNT)
    except (ImportError, OSError, ValueError, MemoryError):  # no vfs, no pack, damage...
        return
    sys.path.insert(0, MOUNT)
    _mounted = pack


def done():
    """The app is running: unmount the pack (closing its file, freeing its index); any
    later import reads the module's own file."""
    global _mounted
    if MOUNT not in sys.path:
        return
    sys.path.remove(MOUNT)
    _mounted = None
    import vfs

    vfs.umount(MOUNT)
