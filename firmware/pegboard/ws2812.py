"""WS2812 strip driver: an RP2040 PIO state machine shifts the bits, DMA feeds it.

The built-in neopixel module bit-bangs with interrupts off (about 30 us per LED); here the
PIO makes the waveform and DMA copies the frame, so write() returns at once and USB keeps
running. Nothing touches hardware at import: rp2, machine and time are imported when a
WS2812 is built (main.py does that), so the host imports this module to test PROGRAM.

The waveform, at the state machine clock FREQ (125 MHz / 16: one cycle is 128 ns):
every bit is 10 cycles; it starts high, a 0 falls after 3 cycles (T0H 384 ns), a 1 after
6 (T1H 768 ns). WS2812B wants T0H 250..550 ns and T1H 650..950 ns, the older WS2812
200..500 and 550..850: both fit with margin. An integer divider means no fractional-
divider jitter; the bit rate is 781 kHz, within the parts' +-600 ns period tolerance.

PROGRAM holds the assembled words so the host can run them in an emulator without rp2;
tests/firmware_io/test_ws2812_pio.py assembles _ws2812_pio itself with a tiny assembler
(standing in for rp2.asm_pio) and checks that the words agree.
"""

# Not typing's: looking for a typing_extensions module on the Pico's flash cost every boot
# 5 ms. Type checkers take any constant of this name as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import *  # noqa: F403  (the names rp2.asm_pio puts in scope)

FREQ = 7_812_500  # state machine clock: 125 MHz / 16 (exact on a 125 MHz Pico)
PULL_BITS = 24  # one LED per FIFO word: G, R, B in bits 31..8, MSB first
SIDESET_COUNT = 1
WRAP_TARGET = 0
WRAP = 3
PROGRAM = (
    0x6321,  # 0 bit:  out(x, 1).side(0)[3]          4 cycles low, next bit into x
    0x1223,  # 1       jmp(not_x, "zero").side(1)[2] 3 cycles high, every bit starts so
    0x1200,  # 2       jmp("bit").side(1)[2]         a 1: 3 more cycles high
    0xA242,  # 3 zero: nop().side(0)[2]              a 0: those 3 cycles low (nop = mov y, y)
)
LATCH_US = 350  # the last word's 31 us plus WS2812B's 280 us reset (the line held low)
WORD_US = 31  # one LED's 24 bits at 10 cycles each (30.72 us), rounded up


def _ws2812_pio():
    # PIO source: rp2.asm_pio runs this with its instruction names as the globals, so only
    # literals and those names may appear here. Cycles = 1 + [delay]; see PROGRAM.
    wrap_target()  # noqa: F405
    label("bit")  # noqa: F405
    out(x, 1).side(0)[3]  # noqa: F405
    jmp(not_x, "zero").side(1)[2]  # noqa: F405
    jmp("bit").side(1)[2]  # noqa: F405
    label("zero")  # noqa: F405
    nop().side(0)[2]  # noqa: F405
    wrap()  # noqa: F405


def dreq(sm_id: int) -> int:
    """The DMA request line of a state machine's TX FIFO (PIO0 SM0..3, then PIO1 SM0..3)."""
    return sm_id if sm_id < 4 else 8 + sm_id - 4


class WS2812:
    """A chain of n WS2812 LEDs on a GPIO: len, [i] = (r, g, b), [i], write()."""

    def __init__(self, pin: int, n: int, sm_id: int = 0) -> None:
        import time

        import rp2
        from machine import Pin

        # Kept, not imported in write(): on the rp2 port `time` is an extensible built-in
        # module, and each import statement looks for a time.py on the flash first (about
        # 6 ms on the emulated Pico, every frame).
        self._time = time
        self._n = n
        # A frame is on the wire and latched this long after its DMA starts: until then
        # write() waits, after it write() need not look (the +1: the FIFO's first word).
        self._busy_us = (n + 1) * WORD_US + LATCH_US
        self._started = None
        # One little-endian 32-bit word per LED, read by DMA: byte 3 G, 2 R, 1 B, 0 unused.
        self._buf = bytearray(4 * n)
        prog = rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
                           autopull=True, pull_thresh=PULL_BITS,
                           fifo_join=rp2.PIO.JOIN_TX)(_ws2812_pio)
        self._sm = rp2.StateMachine(sm_id, prog, freq=FREQ, sideset_base=Pin(pin))
        self._sm.active(1)
        self._dma = rp2.DMA()
        self._ctrl = self._dma.pack_ctrl(size=2, inc_write=False, treq_sel=dreq(sm_id))

    def __len__(self) -> int:
        return self._n

    def __setitem__(self, i: int, rgb: tuple) -> None:
        if not 0 <= i < self._n:
            raise IndexError("LED %r not in 0..%d" % (i, self._n - 1))
        k = 4 * i
        buf = self._buf
        buf[k + 3] = rgb[1]
        buf[k + 2] = rgb[0]
        buf[k + 1] = rgb[2]

    def __getitem__(self, i: int) -> tuple:
        if not 0 <= i < self._n:
            raise IndexError("LED %r not in 0..%d" % (i, self._n - 1))
        k = 4 * i
        return (self._buf[k + 2], self._buf[k + 3], self._buf[k + 1])

    def write(self) -> None:
        """Send the frame: wait for the previous one and the latch, then start the DMA."""
        time = self._time
        if self._started is None or time.ticks_diff(time.ticks_us(),
                                                    self._started) < self._busy_us:
            while self._dma.active():
                pass
            while self._sm.tx_fifo():
                pass
            time.sleep_us(LATCH_US)
        self._dma.config(read=self._buf, write=self._sm, count=self._n, ctrl=self._ctrl,
                         trigger=True)
        self._started = time.ticks_us()  # after the start: the wait errs on the long side
