"""Fakes for the pegboard tests: a strip that records what is set, a clock, button readers."""


class FakeStrip:
    """A strip of n pixels: len, [i] = (r, g, b), [i], write(); counts sets and writes."""

    def __init__(self, n):
        self.buf = bytearray(3 * n)  # compact: tests run under a capped MicroPython heap
        self.sets = 0
        self.redundant = 0  # sets that did not change the pixel
        self.writes = 0
        self.touched = None  # a test sets a list here to log every index set

    def __len__(self):
        return len(self.buf) // 3

    def __setitem__(self, i, rgb):
        if type(rgb) is not tuple or len(rgb) != 3:
            raise ValueError("pixel must be an (r, g, b) tuple, got %r" % (rgb,))
        for c in rgb:
            if type(c) is not int or not 0 <= c <= 255:
                raise ValueError("channel must be 0..255, got %r" % (rgb,))
        if not 0 <= i < len(self):
            raise IndexError(i)
        if self[i] == rgb:
            self.redundant += 1
        k = 3 * i
        self.buf[k], self.buf[k + 1], self.buf[k + 2] = rgb
        self.sets += 1
        if self.touched is not None:
            self.touched.append(i)

    def __getitem__(self, i):
        k = 3 * i
        return (self.buf[k], self.buf[k + 1], self.buf[k + 2])

    def write(self):
        self.writes += 1

    def frame(self):
        """A copy of every pixel's bytes (r, g, b, r, g, b, ...)."""
        return bytes(self.buf)

    def changed_since(self, frame):
        """The LEDs whose colour differs from a frame() taken earlier."""
        return [i for i in range(len(self)) if self.buf[3 * i:3 * i + 3] != frame[3 * i:3 * i + 3]]


class Keys:
    """Button readers driven by a test: keys.down("lane0") ... keys.up("lane0")."""

    def __init__(self, names):
        self.state = {}
        for name in names:
            self.state[name] = False

    def readers(self):
        """The readers dict Buttons takes: name -> zero-argument callable."""
        out = {}
        for name in self.state:
            out[name] = self._reader(name)
        return out

    def _reader(self, name):
        return lambda: self.state[name]

    def down(self, name):
        self.state[name] = True

    def up(self, name):
        self.state[name] = False


class FakeButtons:
    """What the renderer reads from Buttons: mode, choice, pending(lane) and rev (which
    changes with any of them: a fake is never changed, a test makes a new one)."""

    def __init__(self, mode="play", choice=None, pending=None):
        self.mode = mode
        self.choice = choice
        self.amounts = pending or {}
        self.rev = 0

    def pending(self, lane):
        return self.amounts.get(lane, 0)
