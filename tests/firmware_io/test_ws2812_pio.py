"""The WS2812 driver's PIO program, run in rp2040-pio-emulator: the bit stream on the pin
decodes back to the exact colours set, with WS2812 timings at a 125 MHz system clock."""

import random
import subprocess
import sys
import time
import types
from collections import deque

import pioasm
import pytest
from pioemu import State, emulate
from support import FIRMWARE

from pegboard import ws2812

SYS_HZ = 125_000_000
NS_PER_SYS = 8  # one 125 MHz clock
# Datasheet windows both parts accept (WS2812B: T0H 250..550, T1H 650..950, T0L/T1L
# 700..1000 / 300..600; WS2812: T0H 200..500, T1H 550..850): the overlap.
T0H = (250, 500)
T1H = (650, 850)
T0L = (700, 1000)
T1L = (450, 600)
PERIOD = (650, 1850)  # 1.25 us +- 600 ns


def divider():
    return SYS_HZ // ws2812.FREQ


def sm_ns(cycles):
    """State machine cycles to ns at the divider the driver's FREQ gives at 125 MHz."""
    return cycles * divider() * NS_PER_SYS


@pytest.fixture
def driver(monkeypatch):
    """A real WS2812 object built on the fake rp2/machine modules; returns (strip, rp2)."""
    rp2, machine = pioasm.fake_rp2()
    clock = types.ModuleType("time")
    clock.__dict__.update(time.__dict__)
    clock.slept = []
    clock.us = 0  # a driven microsecond clock: ticks_us, ticks_diff, sleep_us

    def sleep_us(us):
        clock.slept.append(us)
        clock.us += us

    clock.sleep_us = sleep_us
    clock.ticks_us = lambda: clock.us
    clock.ticks_diff = lambda a, b: a - b
    monkeypatch.setitem(sys.modules, "rp2", rp2)
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "time", clock)
    strip = ws2812.WS2812(pin=7, n=8, sm_id=1)
    return strip, rp2, clock


def run_pio(words, extra=200):
    """Emulate PROGRAM fed with words; return [(start_cycle, end_cycle, level)] of pin 0."""
    cycles = len(words) * ws2812.PULL_BITS * 10 + extra
    gen = emulate(list(ws2812.PROGRAM), stop_when=lambda op, st: st.clock >= cycles,
                  initial_state=State(transmit_fifo=deque(words)), auto_pull=True,
                  pull_threshold=ws2812.PULL_BITS, shift_osr_right=False,
                  side_set_base=0, side_set_count=ws2812.SIDESET_COUNT,
                  wrap_target=ws2812.WRAP_TARGET, wrap_top=ws2812.WRAP)
    runs = []
    for before, after in gen:
        level = after.pin_values & 1
        if runs and runs[-1][2] == level:
            runs[-1][1] = after.clock
        else:
            runs.append([before.clock, after.clock, level])
    return runs


def decode(runs):
    """Bits from high pulses (checking every timing), grouped into (r, g, b) from GRB."""
    bits = []
    highs = [r for r in runs if r[2] == 1]
    assert runs[0][2] == 0 and runs[-1][2] == 0, "the line idles low"
    for i, (start, end, _) in enumerate(highs):
        high = sm_ns(end - start)
        bit = 1 if high > 550 else 0
        lo, hi = T1H if bit else T0H
        assert lo <= high <= hi, "high time %d ns" % high
        if i + 1 < len(highs):
            low = sm_ns(highs[i + 1][0] - end)
            lo, hi = T1L if bit else T0L
            assert lo <= low <= hi, "low time %d ns after a %d" % (low, bit)
            assert PERIOD[0] <= sm_ns(highs[i + 1][0] - start) <= PERIOD[1]
        bits.append(bit)
    assert len(bits) % 24 == 0
    out = []
    for k in range(0, len(bits), 24):
        v = 0
        for b in bits[k:k + 24]:
            v = v << 1 | b
        g, r, b = v >> 16, (v >> 8) & 255, v & 255
        out.append((r, g, b))
    return out


def test_divider_is_whole_at_125_mhz():
    assert SYS_HZ % ws2812.FREQ == 0 and divider() == 16


def test_program_words_match_the_asm_pio_source():
    prog = pioasm.asm_pio(sideset_init=2)(ws2812._ws2812_pio)
    assert prog.words() == ws2812.PROGRAM
    assert (prog.wrap_target, prog.wrap) == (ws2812.WRAP_TARGET, ws2812.WRAP)
    assert prog.sideset_count == ws2812.SIDESET_COUNT


def test_tiny_assembler_matches_datasheet_encodings():
    # Spot checks from the RP2040 datasheet's examples, independent of the driver.
    def prog():
        set(x, 7).side(0)[7]  # noqa: F821
        jmp(x_dec, "top")  # noqa: F821
        label("top")  # noqa: F821
        out(pins, 32)  # noqa: F821
        mov(x, y)  # noqa: F821

    p = pioasm.asm_pio(sideset_init=2)(prog)
    assert p.words() == (0xE727, 0x0042, 0x6000, 0xA022)


def test_driver_sets_up_the_state_machine_as_the_program_expects(driver):
    strip, rp2, _ = driver
    assert len(rp2.dmas) == 1
    d = rp2.dmas[0]
    strip.write()
    t = d.transfers[-1]
    assert t["count"] == len(strip) == 8 and t["trigger"]
    assert t["ctrl"] == {"size": 2, "inc_write": False, "treq_sel": ws2812.dreq(1)}
    sm = t["write"]
    assert sm.id == 1 and sm.running and sm.kw["freq"] == ws2812.FREQ
    assert sm.kw["sideset_base"].n == 7
    prog = sm.program
    assert prog.words() == ws2812.PROGRAM
    assert prog.kw["autopull"] and prog.kw["pull_thresh"] == ws2812.PULL_BITS
    assert prog.kw["out_shiftdir"] == rp2.PIO.SHIFT_LEFT
    assert prog.kw["sideset_init"] == rp2.PIO.OUT_LOW


def test_dreq_lines():
    assert [ws2812.dreq(i) for i in range(8)] == [0, 1, 2, 3, 8, 9, 10, 11]


def test_write_waits_for_the_latch(driver):
    strip, rp2, clock = driver
    strip.write()
    assert clock.slept and min(clock.slept) >= 280 + 31  # WS2812B reset + the last word


def test_write_waits_only_while_the_last_frame_may_be_on_the_wire(driver):
    strip, rp2, clock = driver
    strip.write()
    # The frame's 8 words at 24 bits of 1.28 us each, then the 280 us reset: until then
    # another write waits for the latch; from then on it starts at once.
    on_wire_us = 8 * 24 * 10 * 1_000_000 // ws2812.FREQ + 280
    for gap, waits in ((0, True), (on_wire_us - 1, True), (2000, False), (10**6, False)):
        del clock.slept[:]
        clock.us += gap
        strip.write()
        assert bool(clock.slept) == waits, (gap, clock.slept)
        assert not waits or min(clock.slept) >= 280 + 31
    assert len(rp2.dmas[0].transfers) == 5  # every write started its frame


def test_emulated_bit_stream_decodes_to_the_colours_set(driver):
    strip, rp2, _ = driver
    rnd = random.Random(3)
    colours = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (0, 0, 0), (255, 255, 255),
               (0x55, 0xAA, 0x0F), (1, 128, 254)] + [
        tuple(rnd.randrange(256) for _ in range(3))]
    for i, c in enumerate(colours):
        strip[i] = c
    assert [strip[i] for i in range(8)] == colours
    strip.write()
    raw = rp2.dmas[0].transfers[-1]["read"]
    words = [int.from_bytes(raw[k:k + 4], "little") for k in range(0, len(raw), 4)]
    assert decode(run_pio(words)) == colours


def test_index_outside_the_strip_is_refused(driver):
    strip, _, _ = driver
    for bad in (-1, 8):
        with pytest.raises(IndexError):
            strip[bad] = (1, 2, 3)
        with pytest.raises(IndexError):
            strip[bad]


def test_import_touches_no_hardware():
    # The host has no rp2 or machine: importing the driver and reading PROGRAM must work.
    code = ("import sys; import pegboard.ws2812 as w; "
            "print(len(w.PROGRAM), 'rp2' in sys.modules, 'machine' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=str(FIRMWARE))
    assert proc.stdout.split() == ["4", "False", "False"], proc.stderr
