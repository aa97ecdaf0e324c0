"""A tiny stand-in for MicroPython's rp2 on the host: rp2.asm_pio assembles PIO source.

Like the real rp2.asm_pio, it runs the program function with the PIO instruction names as
its globals and collects the instructions; it knows only the few the firmware uses (out,
jmp, nop, mov, set, labels, wrap), and encodes them from the RP2040 datasheet's tables
(section 3.4). fake_rp2() also gives StateMachine, DMA and PIO fakes that record how the
driver set them up, so a test can build the real WS2812 driver on the host.
"""

import types

# Operand codes (RP2040 datasheet 3.4): destinations/sources and jump conditions.
_DEST = {"pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5, "isr": 6, "osr": 7}
_COND = {"not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4, "x_not_y": 5, "pin": 6,
         "not_osre": 7}


class _Name(str):
    """An operand name (x, not_x, ...) as the program sees it."""


class Instr:
    """One instruction word being built; .side(v) and [delay] fill the delay/side field."""

    def __init__(self, prog, word, target=None):
        self.prog = prog
        self.word = word
        self.target = target  # a label to resolve (jmp)
        prog.instrs.append(self)

    def side(self, value):
        bits = self.prog.sideset_count
        if not 0 <= value < (1 << bits):
            raise ValueError("side-set value %r needs more than %d bits" % (value, bits))
        self.word |= value << (13 - bits)
        return self

    def __getitem__(self, delay):
        if not 0 <= delay < (1 << (5 - self.prog.sideset_count)):
            raise ValueError("delay %r does not fit beside the side-set" % (delay,))
        self.word |= delay << 8
        return self


class Program:
    """The assembled result: words, wrap_target, wrap and the asm_pio keywords."""

    def __init__(self, kw):
        self.kw = kw
        sideset = kw.get("sideset_init")
        self.sideset_count = 0 if sideset is None else (
            len(sideset) if isinstance(sideset, (list, tuple)) else 1)
        self.instrs = []
        self.labels = {}
        self.wrap_target = None
        self.wrap = None

    def names(self):
        """The globals a PIO program function runs with."""
        env = {k: _Name(k) for k in list(_DEST) + list(_COND)}
        env.update(wrap_target=self._wrap_target, wrap=self._wrap, label=self._label,
                   out=self._out, jmp=self._jmp, nop=self._nop, mov=self._mov, set=self._set)
        return env

    def _wrap_target(self):
        self.wrap_target = len(self.instrs)

    def _wrap(self):
        self.wrap = len(self.instrs) - 1

    def _label(self, name):
        if name in self.labels:
            raise ValueError("label %r defined twice" % (name,))
        self.labels[name] = len(self.instrs)

    def _out(self, dest, count):
        if not 1 <= count <= 32:
            raise ValueError("out bit count %r" % (count,))
        return Instr(self, 0x6000 | _DEST[dest] << 5 | (count & 31))

    def _jmp(self, cond, target=None):
        if target is None:
            cond, target = None, cond
        return Instr(self, 0x0000 | (_COND[cond] if cond else 0) << 5, target)

    def _mov(self, dest, src):
        return Instr(self, 0xA000 | _DEST[dest] << 5 | _DEST[src])

    def _nop(self):
        return self._mov("y", "y")

    def _set(self, dest, value):
        return Instr(self, 0xE000 | _DEST[dest] << 5 | (value & 31))

    def words(self):
        """The instruction words, jump targets resolved."""
        out = []
        for ins in self.instrs:
            word = ins.word
            if ins.target is not None:
                word |= self.labels[ins.target]
            out.append(word)
        return tuple(out)


def asm_pio(**kw):
    """Decorator: assemble a PIO program function into a Program."""

    def assemble(fn):
        prog = Program(kw)
        types.FunctionType(fn.__code__, prog.names())()
        if prog.wrap is None:
            prog.wrap = len(prog.instrs) - 1
        if prog.wrap_target is None:
            prog.wrap_target = 0
        return prog

    return assemble


class FakeStateMachine:
    """Records the program and settings a driver gives it; tx_fifo() is always empty."""

    def __init__(self, sm_id, program, **kw):
        self.id = sm_id
        self.program = program
        self.kw = kw
        self.running = False

    def active(self, on=None):
        if on is not None:
            self.running = bool(on)
        return self.running

    def tx_fifo(self):
        return 0


class FakeDMA:
    """Records each transfer started: its source bytes, destination, count and ctrl."""

    def __init__(self):
        self.transfers = []

    def pack_ctrl(self, **kw):
        return dict(kw)

    def active(self):
        return False

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        self.transfers.append({"read": bytes(read), "write": write, "count": count,
                               "ctrl": ctrl, "trigger": trigger})


class FakePin:
    def __init__(self, n, *args):
        self.n = n


def fake_rp2():
    """(rp2, machine) stand-in modules for building a driver on the host."""
    rp2 = types.ModuleType("rp2")
    rp2.asm_pio = asm_pio
    rp2.PIO = types.SimpleNamespace(OUT_LOW=2, OUT_HIGH=3, SHIFT_LEFT=0, SHIFT_RIGHT=1,
                                    JOIN_NONE=0, JOIN_TX=1, JOIN_RX=2)
    rp2.dmas = []

    def make_dma():
        d = FakeDMA()
        rp2.dmas.append(d)
        return d

    rp2.StateMachine = FakeStateMachine
    rp2.DMA = make_dma
    machine = types.ModuleType("machine")
    machine.Pin = FakePin
    return rp2, machine
