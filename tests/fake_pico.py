"""A fake Pico for the deploy tests: the unix MicroPython answering mpremote's REPL on a pty.

Run as `micropython fake_pico.py IMAGE [MPY VERSION] [machine=NAME]` with stdin and stdout on
the master side of a pseudo terminal; mpremote and pyserial open the slave side like a USB
serial port. NAME is what os.uname().machine says (default a plain Pico's, MACHINE); a
board with Wi-Fi ("Raspberry Pi Pico 2 W with RP2350") also has a fake network module
whose access point opens at once, at 192.168.4.1.
IMAGE is a host file holding the device's flash, a LittleFS filesystem mounted at / as on a
Pico, so files are really written, renamed, hashed with the real hashlib and imported by a
real MicroPython, and they stay between runs. MPY and VERSION override what
sys.implementation._mpy and sys.version say, to play an older MicroPython.

It speaks the REPL the way MicroPython's pyexec does: Ctrl-A raw REPL, raw paste (Ctrl-E A
Ctrl-A), Ctrl-B back to the friendly REPL, Ctrl-C interrupt, Ctrl-D soft reset (which, from
the friendly REPL, boots: runs the deployed /main.py as a Pico does, with only the hardware
drivers faked, see Device.boot). This file runs under MicroPython only (it remounts / and
reads the pty byte by byte).
"""

import os
import sys

import micropython as _micropython

RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n>"
FRIENDLY = b"\r\nMicroPython (fake Pico)\r\n>>> "
MACHINE = "Raspberry Pi Pico with RP2040"
WINDOW = 256
BLOCK = 4096
BLOCKS = 352  # 1.4 MB, the filesystem of a 2 MB Pico

_stdin = sys.stdin.buffer
_out = sys.stdout.buffer


def _read(n):
    """n bytes from the host (fewer, or b"" once the host side of the pty is gone)."""
    try:
        return _stdin.read(n)
    except OSError:
        return b""


def write(data):
    """Send bytes to the host."""
    _out.write(data)


class _Impl:
    """sys.implementation as an older MicroPython would report it."""

    name = "micropython"

    def __init__(self, mpy, version):
        self._mpy = mpy
        self.version = version


class _OldSys:
    """Stands in for sys in the code the host runs, so the device reports another version."""

    def __init__(self, mpy, version):
        parts = tuple(int(p) for p in version.split("."))
        self.implementation = _Impl(mpy, parts)
        self.version = "3.4.0; MicroPython v%s on 2022-01-17" % version
        self.platform = "rp2"
        self.modules = sys.modules
        self.path = sys.path


class _Uname:
    def __init__(self, machine):
        self.sysname = "rp2"
        self.machine = machine


class _Os:
    """The os module with uname() (the unix port has none) saying machine."""

    def __init__(self, machine):
        self._uname = _Uname(machine)

    def uname(self):
        return self._uname

    def __getattr__(self, name):
        return getattr(os, name)


class _Wlan:
    """network.WLAN: an access point that opens at once at 192.168.4.1."""

    def __init__(self, kind):
        self.kind = kind
        self.on = False
        self.settings = {}

    def active(self, on=None):
        if on is None:
            return self.on
        self.on = bool(on)

    def config(self, **kwargs):
        self.settings.update(kwargs)

    def ifconfig(self, values=None):
        return ("192.168.4.1", "255.255.255.0", "192.168.4.1", "192.168.4.1")


class _Network:
    """The network module of a board with Wi-Fi."""

    STA_IF = 0
    AP_IF = 1
    WLAN = _Wlan


class _Pin:
    """machine.Pin: every button reads 1 (released, pulled up)."""

    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, number, mode=0, pull=None):
        self.number = number

    def value(self, v=None):
        return 1


class _Timer:
    """machine.Timer: never fires (the app then samples its buttons itself)."""

    def __init__(self, period=0, callback=None, hard=False):
        pass

    def deinit(self):
        pass


class _Machine:
    """The machine module as main.py uses it."""

    Pin = _Pin
    Timer = _Timer

    @staticmethod
    def unique_id():
        return b"\xe6\x61\x41\x04\x03\x2b\x5c\x2d"  # the flash chip's serial


class _Strip:
    """pegboard.ws2812.WS2812: a pixel buffer that remembers its last write."""

    def __init__(self, pin, n):
        self.pixels = [(0, 0, 0)] * n
        self.writes = 0

    def __len__(self):
        return len(self.pixels)

    def __setitem__(self, i, rgb):
        self.pixels[i] = rgb

    def __getitem__(self, i):
        return self.pixels[i]

    def write(self):
        self.writes += 1


class _Port:
    """The USB serial port on the pty when the deployed one cannot be used: never
    blocks long, Ctrl-C interrupts (a firmware older than the REPL hand-over)."""

    def __init__(self, stdin=None, stdout=None, **kwargs):
        import select

        self.closed = False
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def ready(self, timeout_ms=0):
        return bool(self._poll.poll(timeout_ms))

    def read(self):
        # Wait a few ms for the first byte so the app's loop does not spin the CPU.
        data = bytearray()
        while len(data) < 256 and self._poll.poll(0 if data else 5):
            c = _read(1)
            if not c:
                self.closed = _Drivers.lost = True
                raise KeyboardInterrupt
            if c == b"\x03":
                raise KeyboardInterrupt
            data.extend(c)
        return bytes(data)

    def write(self, data):
        write(data)


def _deployed_port():
    """The deployed pegboard.usbserial.UsbSerial itself on the pty, so the REPL hand-over that
    `crib deploy` relies on is the firmware's own: only waiting a few ms for input (so the
    loop does not spin) and noticing a host that has gone are added."""
    try:
        from pegboard.usbserial import UsbSerial
    except ImportError:
        return _Port

    class Raw:
        """The USB serial's input as MicroPython delivers it: Ctrl-C raises
        KeyboardInterrupt unless main.py turned that off (micropython.kbd_intr(-1))."""

        def read(self, n):
            c = _read(n)
            if c == b"\x03" and _Drivers.intr == 3:
                raise KeyboardInterrupt
            return c

    class Port(UsbSerial):
        def __init__(self, *args, **kwargs):
            UsbSerial.__init__(self, *args, **kwargs)
            self._raw = Raw()

        def read(self):
            if not self.ready(5):
                return b""
            try:
                data = UsbSerial.read(self)
            except OSError:
                data = None
            if data is None or (not data and self.ready()):  # the host closed the pty
                self.closed = _Drivers.lost = True
                raise KeyboardInterrupt
            return data

    return Port


class _Drivers:
    """pegboard.ws2812 and pegboard.usbserial (or, before it, pegboard.stdio) as main.py
    imports them."""

    WS2812 = _Strip
    StdioPort = _Port
    UsbSerial = _Port
    lost = False  # the host closed the pty for good
    intr = 3  # the keyboard interrupt character (micropython.kbd_intr)


class _Micropython:
    """The micropython module, its kbd_intr recorded for the fake USB serial."""

    def __getattr__(self, name):
        return getattr(_micropython, name)

    def kbd_intr(self, c):
        _Drivers.intr = c


class Device:
    """The REPL state machine of one fake Pico."""

    def __init__(self):
        self.globals = {}
        self.base_modules = set(sys.modules)

    def soft_reset(self):
        """Forget everything the host ran or imported, as a soft reboot does."""
        self.globals = {"__name__": "__main__"}
        for name in list(sys.modules):
            if name not in self.base_modules:
                del sys.modules[name]
        write(b"MPY: soft reboot\r\n")

    def run_code(self, code):
        """Execute one raw REPL command: stdout, Ctrl-D, the traceback if any, Ctrl-D."""
        try:
            exec(code, self.globals)
            write(b"\x04")
        except BaseException as e:  # the device reports every error, as pyexec does
            write(b"\x04")
            sys.print_exception(e, sys.stdout)
        write(b"\x04")

    def raw_paste(self):
        """Receive a command in raw paste mode (flow control by windows); return it."""
        write(b"R\x01" + bytes((WINDOW & 0xFF, WINDOW >> 8)))
        code = bytearray()
        used = 0
        while True:
            c = _read(1)
            if not c or c == b"\x04":
                write(b"\x04")
                return bytes(code)
            code.extend(c)
            used += 1
            if used == WINDOW:
                used = 0
                write(b"\x01")

    def raw_repl(self):
        """Serve the raw REPL until Ctrl-B (friendly REPL) or a lost host; return that mode."""
        write(RAW_BANNER)
        line = bytearray()
        while True:
            c = _read(1)
            if not c:
                return None
            if c == b"\x02":
                write(FRIENDLY)
                return "friendly"
            if c == b"\x01":
                line = bytearray()
                write(b"\r\n" + RAW_BANNER)
            elif c == b"\x03":
                line = bytearray()
            elif c == b"\x05" and not line:
                if _read(2) == b"A\x01":
                    self.run_code(self.raw_paste())
                    write(b">")
            elif c == b"\x04":
                if line:
                    write(b"OK")
                    self.run_code(bytes(line))
                    line = bytearray()
                    write(b">")
                else:
                    # Ctrl-D on an empty raw line: soft reset, back into the raw REPL;
                    # main.py only runs after a reset from the friendly REPL.
                    write(b"\r\n")
                    self.soft_reset()
                    write(RAW_BANNER)
            else:
                line.extend(c)

    def boot(self):
        """Run /main.py as a Pico does after a reset, with fake drivers; back to the REPL.

        Only the hardware is faked (machine.Pin and Timer, the WS2812 driver): the deployed
        main.py, app, config.json, state file and USB serial port (pegboard.usbserial, with its
        REPL hand-over) are the real ones.
        """
        try:
            with open("/main.py") as f:
                code = f.read()
        except OSError:
            write(FRIENDLY)
            return "friendly"
        sys.modules["machine"] = _Machine
        sys.modules["pegboard.ws2812"] = _Drivers
        _Drivers.StdioPort = _Drivers.UsbSerial = _deployed_port()
        _Drivers.intr = 3
        sys.modules["pegboard.stdio"] = _Drivers
        sys.modules["pegboard.usbserial"] = _Drivers
        sys.modules["micropython"] = _Micropython()
        try:
            exec(code, {"__name__": "__main__"})
        except KeyboardInterrupt:
            write(b"Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n")
        except Exception as e:  # main.py crashed: the Pico prints it and starts the REPL
            sys.print_exception(e, sys.stdout)
        if _Drivers.lost:
            return None
        write(FRIENDLY)
        return "friendly"

    def serve(self):
        """The friendly REPL: Ctrl-A enters the raw REPL, Ctrl-D soft-resets and boots."""
        self.soft_reset()
        mode = self.boot()
        while mode:
            c = _read(1)
            if not c:
                return
            if c == b"\x01":
                mode = self.raw_repl()
            elif c == b"\x04":
                self.soft_reset()
                mode = self.boot()
            elif c == b"\x03":
                write(FRIENDLY)


class Flash:
    """A block device in a host file: the Pico's flash, 4 KB blocks, kept between runs."""

    def __init__(self, path, blocks):
        try:
            self.f = open(path, "r+b")
        except OSError:
            self.f = open(path, "w+b")
            erased = b"\xff" * BLOCK
            for _ in range(blocks):
                self.f.write(erased)
            self.f.flush()
        self.blocks = blocks

    def readblocks(self, n, buf, off=0):
        self.f.seek(n * BLOCK + off)
        self.f.readinto(buf)

    def writeblocks(self, n, buf, off=0):
        self.f.seek(n * BLOCK + off)
        self.f.write(buf)
        self.f.flush()

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return BLOCK
        return 0  # init, deinit, sync, erase: nothing to do for a file


def main():
    """Mount IMAGE (LittleFS, as on a Pico; made if new) at / and serve until the host goes."""
    flash = Flash(sys.argv[1], BLOCKS)
    try:
        fs = os.VfsLfs2(flash)
    except OSError:
        os.VfsLfs2.mkfs(flash)
        fs = os.VfsLfs2(flash)
    os.umount("/")
    os.mount(fs, "/")
    os.chdir("/")
    # A Pico's import path: the flash root, frozen modules, then /lib.
    sys.path[:] = ["", ".frozen", "/lib"]
    args = sys.argv[1:]
    machine = MACHINE
    if args[-1].startswith("machine="):
        machine = args.pop()[len("machine="):]
    if len(args) > 2:
        sys.modules["sys"] = _OldSys(int(args[1]), args[2])
    sys.modules["os"] = _Os(machine)
    if "W" in machine.split(" with ")[0].split():
        sys.modules["network"] = _Network
    Device().serve()


main()
