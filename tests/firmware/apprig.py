"""A test rig for the board app: fake port, strip, keys and flash; transcripts; power cuts."""

import json
import sys

import pegboard
from cribcore.protocol import decode
from pegboard.app import App
from pegboard.config import default_dict, from_dict, lane_layout
from pegboard.store import Store

sys.path.insert(0, pegboard.__file__.rpartition("/")[0].rpartition("/")[0])
import desk  # noqa: E402 - the desktop runner, beside the firmware's packages

STEP_MS = 10


class Strip:
    """A strip that keeps what is sent to it: len, [i] = (r, g, b), write()."""

    def __init__(self, n):
        self.pixels = [(0, 0, 0)] * n
        self.writes = 0

    def __len__(self):
        return len(self.pixels)

    def __setitem__(self, i, rgb):
        assert type(rgb) is tuple and len(rgb) == 3 and all(0 <= c <= 255 for c in rgb)
        self.pixels[i] = rgb

    def write(self):
        self.writes += 1


class PowerCut(BaseException):
    """The power went: nothing after this runs (the app must not catch it)."""


class Files:
    """Flash in a dict. cut_at=k: the k-th operation from now is cut short (a write keeps
    only `keep` bytes) and PowerCut is raised. fail=True: every
    operation raises OSError, like a worn-out or full flash."""

    def __init__(self, files=None):
        self.files = dict(files or {})
        self.dirs = set()
        self.ops = 0
        self.cut_at = None
        self.keep = 0
        self.fail = False

    def _cut(self):
        self.ops += 1
        if self.fail:
            raise OSError(5, "flash failed")
        return self.cut_at is not None and self.ops == self.cut_at

    def read(self, name):
        return self.files.get(name)

    def write(self, name, chunks):
        data = "".join(chunks).encode()
        if self._cut():
            self.files[name] = bytes(data[:self.keep])
            raise PowerCut
        self.files[name] = bytes(data)

    def mkdir(self, name):
        # The flat dict has no directories: only what was made is noted.
        if self._cut():
            raise PowerCut
        if name in self.dirs:
            raise OSError(17, "exists")
        self.dirs.add(name)


class Port:
    """The serial line: tests put bytes in and take lines out."""

    def __init__(self):
        self.inbox = b""
        self.out = b""
        self.reads = 0

    def read(self):
        self.reads += 1
        data, self.inbox = self.inbox[:64], self.inbox[64:]  # a USB packet at a time
        return data

    def write(self, data):
        assert type(data) is bytes
        self.out += data

    def take(self):
        """The complete lines written since the last take."""
        done = self.out.rfind(b"\n") + 1
        lines, self.out = self.out[:done].decode().splitlines(), self.out[done:]
        return lines


def config(lanes=3, holes=121, **changes):
    """A validated layout: `lanes` serpentine lanes of `holes` holes, settings changed."""
    d = default_dict()
    if lanes != 3 or holes != 121:
        # The shipped budget's light above the dark chain, whatever the chain's length.
        d["budget_ma"] += (lanes * holes - d["leds"]) * d["led_ma"]["idle"]
        d["holes"] = holes
        d["leds"] = lanes * holes
        colours = ([255, 24, 0], [0, 60, 255], [0, 255, 40], [255, 200, 0])
        d["lanes"] = [{"name": "L%d" % i, "colour": colours[i], "button": 2 + i,
                       "segments": seg}
                      for i, seg in enumerate(lane_layout(lanes, holes))]
        d["pins"] = {"leds": 0, "undo": 10, "confirm": 11}
    d.update(changes)
    return from_dict(json.loads(json.dumps(d)))


class Rig:
    """An App over fakes, with a clock the test moves."""

    def __init__(self, cfg=None, files=None, desk_verbs=True, driven=False):
        self.config = cfg or config()
        self.files = files if files is not None else Files()
        self.port = Port()
        self.strip = Strip(self.config.leds)
        self.keys = {"undo": False, "confirm": False}
        for i in range(len(self.config.lanes)):
            self.keys["lane%d" % i] = False
        readers = dict((k, self._reader(k)) for k in self.keys)
        self.store = Store("state", self.files)
        if desk_verbs:  # the desktop runner's app: its btn and tick verbs
            pressed = dict((k, False) for k in readers)
            readers = desk.virtual(readers, pressed)
        self.app = App(self.config, self.strip, readers, self.store, self.port)
        if desk_verbs:
            desk.register(self.app, pressed, driven)  # driven: time moves only with `tick`
        self.now = 0
        self.boot = []
        self.step()
        while self.app._prepare:  # the idle work after boot: slot files made ahead
            self.step()
        self.boot = self.port.take()

    def _reader(self, name):
        return lambda: self.keys[name]

    def step(self, ms=STEP_MS):
        """Run the loop for ms of real (fake) time, a step every STEP_MS."""
        for _ in range(max(1, ms // STEP_MS)):
            self.app.step(self.now)
            self.now += STEP_MS

    def send(self, line):
        """Send one line; step until it is answered; return every line written meanwhile."""
        self.port.inbox += line if type(line) is bytes else (line + "\n").encode()
        out = []
        for _ in range(200):
            self.step()
            out += self.port.take()
            if out and out[-1].split(" ")[0] in ("ok", "err") and not self.app.queue:
                return out
        raise AssertionError("no reply to %r; got %r" % (line, out))

    def ask(self, line):
        """The decoded reply to a line (the last line written)."""
        return decode(self.send(line)[-1])

    def press(self, name, ms=60):
        """Hold a button for ms, let go, and step past the release's debounce."""
        self.keys[name] = True
        self.step(ms)
        self.keys[name] = False
        self.step(50)
        return self.port.take()

    def pixels(self):
        """The pixel buffer as the `leds` reply gives it."""
        from crib.board.pixels import parse_pixels  # host code: not at import (MicroPython)

        m = self.ask("leds")
        return parse_pixels(m.args["px"], m.args["leds"])


def transcript(rig, text):
    """Run a transcript: `> line` is sent, each following `< line` must be written, in
    order and exactly; `<~ prefix` matches a line that starts with prefix."""
    sent = None
    expected = []

    def check():
        if sent is None:
            return
        got = rig.send(sent)
        assert len(got) == len(expected), (sent, got, expected)
        for want, line in zip(expected, got):
            if want.startswith("<~ "):
                assert line.startswith(want[3:]), (sent, line, want)
            else:
                assert line == want[2:], (sent, line, want)

    for raw in text.strip().splitlines():
        row = raw.strip()
        if row.startswith("> "):
            check()
            sent, expected = row[2:], []
        elif row.startswith("<"):
            expected.append(row)
        elif row:
            raise ValueError("transcript line must start with > or <: %r" % raw)
    check()
