"""The emulated Pico, driven from Python: our deploy build in a LittleFS image, booted from
a MicroPython rp2 UF2 in rp2040js (tests/pico/harness/pico.js), spoken to over its USB port.

The UF2 and boot ROM come from ../shared/pico/ beside the repository unless PICO_UF2 (any
official RPI_PICO MicroPython UF2) or PICO_BOOTROM name others. Times are emulated: every
event of the harness carries the emulated nanoseconds it happened at.
"""

import base64
import json
import os
import pty
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).resolve().parent / "harness"
SHARED = ROOT.parent / "shared" / "pico"
UF2 = "micropython-v1.28.0-RPI_PICO.uf2"
BOOTROM = "rp2040-bootrom-b1.bin"

# MicroPython's filesystem on RPI_PICO (../shared/pico/README.md): LittleFS v2 in the last
# 1,408 KiB of the 2 MiB flash.
FS_OFFSET = 0xA0000
FS_BLOCK = 4096
FS_BLOCKS = 352
FS_PROG = 256
FLASH_BYTES = 2 * 1024 * 1024

WALL_TIMEOUT = float(os.environ.get("PICO_WALL_TIMEOUT") or 120)  # s of wall time a wait
# may take (the emulator is slow; a loaded machine slows it more: raise it there)


class PicoError(AssertionError):
    """The emulated Pico did not do what a test waited for (a failure, not a skip)."""


# Live readings in a `state` reply, not part of the game: `ma`, the current the frame on
# show draws (it moves with animations), and `free`, the heap free after a collection.
LIVE = ("ma", "free")


def game_state(args):
    """A `state` reply's fields less the live readings (LIVE)."""
    return {k: v for k, v in args.items() if k not in LIVE}


def uf2_path():
    return Path(os.environ.get("PICO_UF2") or SHARED / UF2)


def bootrom_path():
    return Path(os.environ.get("PICO_BOOTROM") or SHARED / BOOTROM)


def ensure_harness():
    """rp2040js installed from the lock file (npm ci) on first use; PicoError if it cannot."""
    if (HARNESS / "node_modules" / "rp2040js" / "package.json").exists():
        return
    npm = shutil.which("npm")
    if not npm or not shutil.which("node"):
        raise PicoError("the emulated Pico needs Node.js and npm (apt-get install nodejs npm)")
    proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=HARNESS,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise PicoError("npm ci failed in %s:\n%s" % (HARNESS, proc.stderr[-2000:]))


# -- the filesystem image ------------------------------------------------------------------

def _lfs(buffer=None):
    from littlefs import LittleFS

    fs = LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, prog_size=FS_PROG,
                  mount=buffer is None)
    if buffer is not None:
        fs.context.buffer = bytearray(buffer)
        fs.mount()
    return fs


def deploy_files(root=None):
    """{path: bytes} of the deploy build (`crib deploy`'s .mpy files, main.py, config.json)."""
    from crib.deploy import build

    with tempfile.TemporaryDirectory(prefix="pico-build-") as out:
        written = build.build(out) if root is None else build.build(out, root)
        return dict((p.relative_to(out).as_posix(), p.read_bytes()) for p in written)


def fs_image(files):
    """A LittleFS image (bytes) holding files ({path: bytes}), as MicroPython mounts it."""
    fs = _lfs()
    for path, data in sorted(files.items()):
        parts = path.split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            try:
                fs.mkdir(d)
            except FileExistsError:
                pass
        with fs.open(path, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


def read_fs(flash, names):
    """{name: bytes or None} of files in the filesystem of a whole-flash image."""
    fs = _lfs(flash[FS_OFFSET:FS_OFFSET + FS_BLOCK * FS_BLOCKS])
    out = {}
    for name in names:
        try:
            with fs.open(name, "rb") as f:
                out[name] = f.read()
        except FileNotFoundError:
            out[name] = None
    return out


def write_fs(flash, files):
    """A whole-flash image with files ({path: bytes}) written into its filesystem."""
    fs = _lfs(flash[FS_OFFSET:FS_OFFSET + FS_BLOCK * FS_BLOCKS])
    for path, data in files.items():
        with fs.open(path, "wb") as f:
            f.write(data)
    return flash[:FS_OFFSET] + bytes(fs.context.buffer) + flash[FS_OFFSET + FS_BLOCK * FS_BLOCKS:]


# -- the running emulator ------------------------------------------------------------------

class Line:
    """A line the Pico wrote, and the emulated time (ns) its last byte arrived."""

    def __init__(self, text, t):
        self.text = text
        self.t = t

    def __repr__(self):
        return "Line(%r, %.3f ms)" % (self.text, self.t / 1e6)


class Pico:
    """One emulated Pico process. Either `fs` (a LittleFS image: fresh flash with the UF2)
    or `flash` (a whole 2 MiB flash image from an earlier run: a power cycle)."""

    def __init__(self, fs=None, flash=None, leds_pin=0, uf2=None):
        ensure_harness()
        self.tmp = tempfile.mkdtemp(prefix="pico-")
        cmd = ["node", str(HARNESS / "pico.js"), "--bootrom", str(bootrom_path()),
               "--ws2812", str(leds_pin)]
        for path in (bootrom_path(), Path(uf2 or uf2_path())):
            if not path.exists():
                raise PicoError("%s is missing: CI keeps it in ../shared/pico/; name another "
                                "with PICO_UF2 / PICO_BOOTROM" % path)
        if flash is not None:
            image = Path(self.tmp) / "flash.bin"
            image.write_bytes(flash)
            cmd += ["--flash", str(image)]
        else:
            cmd += ["--uf2", str(uf2 or uf2_path())]
            if fs is not None:
                image = Path(self.tmp) / "fs.bin"
                image.write_bytes(fs)
                cmd += ["--fs", str(image)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.events = queue.Queue()  # replies to our ops, cuts
        self.lines = []  # every complete serial line, in order
        self.frames = []  # decoded WS2812 frames (dicts, px filled in)
        self.raw = bytearray()  # every serial byte
        self.t = 0  # the newest emulated time seen
        self.cut_event = None
        self.usb = None  # emulated ns when the host side of USB was configured
        self._partial = b""
        self._partial_t = 0
        self._lock = threading.Condition()
        self._tag = 0
        self._write_lock = threading.Lock()
        self._pty = None
        self._stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    # -- plumbing

    def _read_err(self):
        for line in self.proc.stderr:
            self._stderr.append(line)

    def _read(self):
        last_px = None
        for raw in self.proc.stdout:
            ev = json.loads(raw)
            kind = ev["ev"]
            with self._lock:
                if "t" in ev:
                    self.t = max(self.t, ev["t"])
                if kind == "serial":
                    data = base64.b64decode(ev["b64"])
                    self.raw += data
                    if self._pty is not None:
                        os.write(self._pty, data)
                    buf = self._partial + data
                    *done, self._partial = buf.split(b"\n")
                    for text in done:
                        self.lines.append(Line(text.decode("ascii", "replace").rstrip("\r"),
                                               ev["t"]))
                elif kind == "frame":
                    if ev["px"] is None:
                        ev["px"] = last_px
                    last_px = ev["px"]
                    self.frames.append(ev)
                elif kind == "cut":
                    self.cut_event = ev
                elif kind == "usb":
                    self.usb = ev["t"]
                else:
                    self.events.put(ev)
                self._lock.notify_all()
        with self._lock:
            self._lock.notify_all()

    def _op(self, op, **fields):
        if self.proc.poll() is not None:
            raise PicoError("the emulator exited: %s" % "".join(self._stderr)[-2000:])
        with self._write_lock:
            self._tag += 1
            fields.update(op=op, tag=self._tag)
            self.proc.stdin.write(json.dumps(fields) + "\n")
            self.proc.stdin.flush()
            return fields["tag"]

    def _reply(self, tag, timeout=WALL_TIMEOUT):
        end = time.monotonic() + timeout
        while True:
            try:
                ev = self.events.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                raise PicoError("no answer from the emulator") from None
            if ev.get("tag") == tag:
                return ev

    def wait(self, cond, timeout=WALL_TIMEOUT, what="a condition"):
        """Wait (wall time) until cond() is true; PicoError naming `what` if it never is."""
        end = time.monotonic() + timeout
        with self._lock:
            while not cond():
                left = end - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    tail = [ln.text for ln in self.lines[-8:]]
                    raise PicoError("timed out waiting for %s; last lines %r; emulator: %s"
                                    % (what, tail, "".join(self._stderr)[-500:]))
                self._lock.wait(min(left, 0.5))

    # -- what tests use

    def send(self, data):
        """Bytes to the USB port; the emulated time (ns) they were handed to the device."""
        if isinstance(data, str):
            data = data.encode()
        return self._reply(self._op("serial", b64=base64.b64encode(data).decode()))["t"]

    def wait_line(self, pred, start=0, timeout=WALL_TIMEOUT, what=None):
        """The first line at index >= start for which pred(text) holds."""
        found = []

        def cond():
            for ln in self.lines[start:]:
                if pred(ln.text):
                    found.append(ln)
                    return True
            return False

        self.wait(cond, timeout, what or "a line")
        return found[0]

    def request(self, line, timeout=WALL_TIMEOUT):
        """Send a command line; (reply Line, emulated ms from sending to the reply)."""
        start = len(self.lines)
        t0 = self.send(line + "\n")
        reply = self.wait_line(lambda s: s.startswith(("ok", "err")), start, timeout,
                               "the reply to %r" % line)
        return reply, (reply.t - t0) / 1e6

    def ask(self, line):
        """The reply text of a command."""
        return self.request(line)[0].text

    def booted(self, timeout=WALL_TIMEOUT):
        """Wait for `evt boot`; its Line."""
        return self.wait_line(lambda s: s.startswith("evt boot"), 0, timeout, "evt boot")

    def pin(self, number, low):
        """Hold a pin low (a pressed button) or let its pull-up have it."""
        return self._reply(self._op("pin", pin=number, low=bool(low)))["t"]

    def hold(self, number, ms):
        """Press a button for `ms` emulated milliseconds."""
        self.pin(number, True)
        start = self.t
        self.sleep(ms, since=start)
        self.pin(number, False)

    def sleep(self, ms, since=None):
        """Let `ms` emulated milliseconds pass."""
        until = (self.t if since is None else since) + ms * 1e6
        self.wait_time(until)

    def wait_time(self, t_ns):
        while True:
            now = self.stats()["t"]
            if now >= t_ns:
                return now
            time.sleep(0.02)

    def stats(self):
        """{"t": ns, "flash": {programs, erase4k, ...}, "frames": N}."""
        return self._reply(self._op("stats"))

    def arm_cut(self, after):
        """Cut the power at the after-th flash program/erase from now (it never happens)."""
        self.cut_event = None
        self._reply(self._op("cut", after=after))

    def dump(self):
        """The whole flash as it is now (bytes)."""
        path = Path(self.tmp) / "dump.bin"
        self._reply(self._op("dump", path=str(path)))
        return path.read_bytes()

    def files(self, names):
        return read_fs(self.dump(), names)

    def open_pty(self):
        """A pseudo terminal joined to the USB port (for mpremote and `crib deploy`): its
        path. Bytes written to it reach the Pico; the Pico's bytes can be read from it."""
        master, slave = pty.openpty()
        tty.setraw(slave)
        self._pty = master
        self._slave = slave
        threading.Thread(target=self._pump, args=(master,), daemon=True).start()
        return os.ttyname(slave)

    def _pump(self, master):
        while self.proc.poll() is None:
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            if data:
                self._op("serial", b64=base64.b64encode(data).decode())

    def close(self):
        if self.proc.poll() is None:
            try:
                self._op("quit")
            except (OSError, ValueError, PicoError):
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._pty is not None:
            for fd in (self._pty, self._slave):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._pty = None
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
