"""Run firmware/main.py under the unix MicroPython with only the hardware faked: the pins,
the WS2812 driver, the USB port (a script of input; output collected), and a flash whose
first load fails with a MemoryError (a fault no step catches: App() itself fails).

usage: micropython run_main.py FIRMWARE_DIR SCRIPT_FILE
Prints every line main.py wrote, its micropython.kbd_intr calls, then `main.py returned`.
"""

import sys

firmware, script = sys.argv[1], sys.argv[2]
sys.path.insert(0, firmware)


class Pin:
    IN = 0
    PULL_UP = 1

    def __init__(self, number, mode=0, pull=None):
        self.number = number

    def value(self):
        return 1  # released (pulled up)


class Timer:
    """Never fires: the app samples its buttons itself once the timer looks dead."""

    def __init__(self, period=0, callback=None, hard=False):
        pass

    def deinit(self):
        pass


class machine:
    Pin = Pin
    Timer = Timer


class Strip:
    def __init__(self, pin, n):
        self.n = n

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        pass

    def write(self):
        pass


class ws2812:
    WS2812 = Strip


with open(script, "rb") as f:
    CHUNKS = f.read().split(b"|")  # one chunk per read(); "|" separates them


class Port:
    """The USB serial: a chunk per read; KeyboardInterrupt once the script is done."""

    def __init__(self, *args, **kwargs):
        pass

    def read(self):
        if not CHUNKS:
            raise KeyboardInterrupt  # the REPL hand-over ends main.py
        return CHUNKS.pop(0)

    def write(self, data):
        sys.stdout.write(bytes(data).decode())


class usbserial:
    UsbSerial = Port


import pegboard.store as real_store  # noqa: E402


class _Memory(real_store.Files):
    """Flash in a dict, kept across restarts; its first read runs out of memory."""

    failures = 1

    def __init__(self):
        self.files = {}

    def read(self, name):
        if self.failures:
            self.failures -= 1
            raise MemoryError("memory allocation failed")
        return self.files.get(name)

    def write(self, name, chunks):
        self.files[name] = "".join(chunks).encode()

    def mkdir(self, name):
        pass  # a dict: no directories


MemoryFiles = _Memory()


_Store = real_store.Store
real_store.Store = lambda path: _Store("state", MemoryFiles)  # the rest of the module stays


class micropython:
    """Records main.py's keyboard-interrupt settings."""

    calls: list = []

    @staticmethod
    def kbd_intr(c):
        micropython.calls.append(c)


sys.modules["machine"] = machine
sys.modules["micropython"] = micropython
sys.modules["pegboard.ws2812"] = ws2812
sys.modules["pegboard.usbserial"] = usbserial

try:
    with open(firmware + "/main.py") as f:
        exec(f.read(), {"__name__": "__main__"})
except KeyboardInterrupt:
    pass
print("kbd_intr %r" % (micropython.calls,))
print("main.py returned")
