"""The emulated Pico, driven from Python: our deploy build in a LittleFS image, booted from
a MicroPython rp2 UF2 in rp2040js (tests/pico/harness/pico.js), spoken to over its USB port.

When the chip resets itself (its watchdog: machine.reset(), machine.bootloader()) the
harness stops it and a Pico here boots it again, as a new process on the same flash (the
pty stays: to the host it is the same port). machine.bootloader() (the boot ROM's
reset_usb_boot) first gives it a BOOTSEL drive: the folder `drive` gets the boot ROM's
INFO_UF2.TXT, and a .uf2 file copied there whole is written to the flash as the boot ROM
writes one (its RP2040 blocks, at their addresses; blocks of another family ignored);
then the chip boots. `reboots` records each: its kind and the flash before and after.

The UF2 and boot ROM come from ../shared/pico/ beside the repository unless PICO_UF2 (any
official RPI_PICO MicroPython UF2) or PICO_BOOTROM name others. Times are emulated: every
event of the harness carries the emulated nanoseconds it happened at.
"""

import base64
import json
import os
import pty
import select
import shutil
import struct
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

BOOTSEL_MAGIC = 0xB007C0D3  # watchdog scratch 4 after the boot ROM's reset_usb_boot
RP2040_FAMILY = 0xE48BFF56  # the UF2 family id the RP2040's boot ROM takes
INFO_UF2 = "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
FLASH_BASE = 0x10000000
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


def uf2_blocks(data):
    """[(address, bytes)] of a UF2's RP2040 blocks, as the boot ROM writes them (blocks of
    another family are ignored); None unless every block of the file is there."""
    out, seen, total = [], set(), None
    for off in range(0, len(data) - 511, 512):
        m0, m1, flags, addr, size, n, count, family = struct.unpack_from("<8I", data, off)
        if (m0, m1) != (0x0A324655, 0x9E5D5157):
            continue
        total = count
        seen.add(n)
        if not flags & 0x2000 or family == RP2040_FAMILY:
            out.append((addr, data[off + 32:off + 32 + size]))
    if total is None or len(seen) < total:
        return None
    return out


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
        self.drive = Path(self.tmp) / "drive"  # the BOOTSEL drive, while the chip is in it
        self.drive.mkdir()
        self.reboots = []  # [{"kind": "bootsel" | "reset", "before": flash, "after": flash}]
        self._rebooting = False
        self._closed = False
        self._cmd = ["node", str(HARNESS / "pico.js"), "--bootrom", str(bootrom_path()),
                     "--ws2812", str(leds_pin)]
        cmd = list(self._cmd)
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
        self.replies = {}  # tag: the harness's reply to our op of that tag
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
        self._start(cmd)

    # -- plumbing

    def _start(self, cmd):
        self.proc = proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True, bufsize=1)
        threading.Thread(target=self._read, args=(proc,), daemon=True).start()
        threading.Thread(target=self._read_err, args=(proc,), daemon=True).start()

    def _read_err(self, proc):
        for line in proc.stderr:
            self._stderr.append(line)

    def _read(self, proc):
        last_px = None
        for raw in proc.stdout:
            ev = json.loads(raw)
            kind = ev["ev"]
            if kind == "reset":
                with self._lock:
                    self._rebooting = True
                threading.Thread(target=self._reboot, args=(ev,), daemon=True).start()
                continue
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
                    self.replies[ev.get("tag")] = ev
                self._lock.notify_all()
        with self._lock:
            self._lock.notify_all()

    def _reboot(self, ev):
        """The chip reset itself: the flash as it is, through the BOOTSEL drive if the boot
        ROM was asked for it, booted by a new process (module docstring)."""
        try:
            before = self.dump()
            kind = "bootsel" if ev["scratch"][4] == BOOTSEL_MAGIC else "reset"
            after = self._bootsel(before) if kind == "bootsel" else before
            if after is None:  # closed while waiting for a UF2
                return
            self.reboots.append({"kind": kind, "before": before, "after": after})
            old = self.proc
            image = Path(self.tmp) / ("flash%d.bin" % len(self.reboots))
            image.write_bytes(after)
            self._quit(old)
            with self._lock:
                self.usb = None
                self._start(self._cmd + ["--flash", str(image)])
                self._rebooting = False
                self._lock.notify_all()
        except (OSError, PicoError) as e:
            self._stderr.append("picorig: the reboot failed: %s\n" % e)
            with self._lock:
                self._rebooting = False
                self._lock.notify_all()

    def _bootsel(self, flash):
        """The boot ROM's drive: wait for a whole UF2 in self.drive; the flash with it
        written (None if the Pico is closed first)."""
        (self.drive / "INFO_UF2.TXT").write_text(INFO_UF2)
        (self.drive / "INDEX.HTM").write_text("<html>RP2040</html>\n")
        while not self._closed:
            for path in sorted(self.drive.glob("*")):
                if path.suffix.lower() != ".uf2":
                    continue
                blocks = uf2_blocks(path.read_bytes())
                if blocks is None:
                    continue  # still being copied
                out = bytearray(flash)
                for addr, data in blocks:
                    out[addr - FLASH_BASE:addr - FLASH_BASE + len(data)] = data
                for p in self.drive.iterdir():  # the drive goes as the chip reboots
                    p.unlink()
                return bytes(out)
            time.sleep(0.1)
        return None

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
        # by its tag: the reboot's thread and a test's may wait for replies at once
        end = time.monotonic() + timeout
        with self._lock:
            while tag not in self.replies:
                left = end - time.monotonic()
                if left <= 0:
                    raise PicoError("no answer from the emulator")
                self._lock.wait(min(left, 0.5))
            return self.replies.pop(tag)

    def wait(self, cond, timeout=WALL_TIMEOUT, what="a condition"):
        """Wait (wall time) until cond() is true; PicoError naming `what` if it never is."""
        end = time.monotonic() + timeout
        with self._lock:
            while not cond():
                left = end - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not self._rebooting):
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
        self._pumping = threading.Thread(target=self._pump, args=(master,), daemon=True)
        self._pumping.start()
        return os.ttyname(slave)

    def _pump(self, master):
        while not self._closed:
            # Never a read blocked past close(): the fd number, closed, may be another
            # pty's at once, whose bytes this thread would then take.
            if not select.select([master], [], [], 0.05)[0]:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            if data:
                try:
                    self._op("serial", b64=base64.b64encode(data).decode())
                except (OSError, ValueError, PicoError):
                    pass  # the chip is rebooting: its port is gone, the bytes lost

    def _quit(self, proc):
        if proc.poll() is None:
            try:
                proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
                proc.stdin.flush()
            except (OSError, ValueError):
                pass
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def close(self):
        self._closed = True
        self._quit(self.proc)
        if self._pty is not None:
            self._pumping.join()
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
