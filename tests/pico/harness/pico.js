#!/usr/bin/env node
// An emulated Raspberry Pi Pico for the tests: rp2040js with the three gaps of
// ../shared/pico/README.md closed here, in the harness, never in the firmware:
//   1. flash writes: a SPI NOR model behind the SSI data register, chip select taken from
//      IO_QSPI's SS output override (norflash.js);
//   2. PIO in lock-step with the core: every state machine advances by the core's cycles,
//      honouring CLKDIV and [delay], so pin edges land on exact cycles;
//   3. pull-ups: a released button pin with its pull-up on reads high.
//
// Usage: node pico.js --bootrom ROM (--uf2 UF2 [--fs LFS_IMAGE] | --flash FLASH_IMAGE)
//                     [--ws2812 PIN]
// It talks JSON lines: commands on stdin, events on stdout (emulated time `t` in ns).
//   {"op":"serial","b64":...,"tag":T}   bytes to the USB CDC port   -> {"ev":"tx","tag":T,"t":..}
//   {"op":"pin","pin":N,"low":true}      hold a button pin low (pressed) or release it
//   {"op":"stats","tag":T}               -> {"ev":"stats","tag":T,"t":..,"flash":{..},"frames":N}
//   {"op":"cut","after":N}               power cut at the N-th flash program/erase from now:
//                                        that command and everything after it never happen
//   {"op":"dump","path":P,"tag":T}       write the 2 MiB flash to P -> {"ev":"dumped","tag":T}
//   {"op":"pause"} / {"op":"resume"}     stop / restart the clock
//   {"op":"quit"}
// Events: {"ev":"serial","b64":..,"t":..}; {"ev":"frame","t":..,"end":..,"px":HEX|null,
// "t0h":[min,max],"t1h":[min,max],"bit":[min,max],"bad":N} (px null: same as the last frame);
// {"ev":"cut","t":..,"n":N}; {"ev":"usb"} when the host side of USB is configured;
// {"ev":"reset","t":..,"scratch":[8 words]} when the chip resets itself by its watchdog
// (machine.reset(), or machine.bootloader(): the boot ROM's reset_usb_boot leaves
// 0xb007c0d3 in scratch 4); the core then stops: tests/pico/picorig.py starts the next
// boot (its BOOTSEL drive, for a bootloader request) as a new process on the flash.
'use strict';

const fs = require('fs');
const readline = require('readline');
const { RP2040, USBCDC, BasePeripheral } = require('rp2040js');
const { NorFlash, QspiIO } = require('./norflash.js');

const FLASH_BYTES = 2 * 1024 * 1024;
const FS_OFFSET = 0xa0000; // MicroPython's LittleFS on RPI_PICO (README in ../shared/pico)
const LATCH_NS = 50000; // a WS2812 latches after the line stays low this long

function args(argv) {
  const out = {};
  for (let i = 2; i < argv.length; i++) {
    const m = /^--([a-z0-9]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) throw new Error('bad argument ' + argv[i]);
    out[m[1]] = m[2] !== undefined ? m[2] : argv[++i];
  }
  return out;
}

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

function loadUF2(data, flash) {
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const v = new DataView(data.buffer, data.byteOffset + off, 512);
    if (v.getUint32(0, true) !== 0x0a324655 || v.getUint32(4, true) !== 0x9e5d5157) {
      throw new Error('not a UF2 block at ' + off);
    }
    const addr = v.getUint32(12, true);
    const size = v.getUint32(16, true);
    flash.set(data.subarray(off + 32, off + 32 + size), addr - 0x10000000);
  }
}

const quiet = {
  errors: 0,
  debug() {},
  info() {},
  warn() {},
  error(name, msg) {
    this.errors++;
    if (this.errors <= 20) process.stderr.write(`rp2040js error: ${name}: ${msg}\n`);
  },
};

// -- the machine ------------------------------------------------------------------------

const opt = args(process.argv);
const mcu = new RP2040();
mcu.logger = quiet;
mcu.loadBootrom(new Uint32Array(new Uint8Array(fs.readFileSync(opt.bootrom)).buffer));
if (opt.flash) {
  const img = fs.readFileSync(opt.flash);
  mcu.flash.set(img.subarray(0, Math.min(img.length, FLASH_BYTES)));
} else {
  loadUF2(new Uint8Array(fs.readFileSync(opt.uf2)), mcu.flash);
  if (opt.fs) mcu.flash.set(new Uint8Array(fs.readFileSync(opt.fs)), FS_OFFSET);
}

// Start at boot2 in flash, as rp2040js's own MicroPython runner does; the boot ROM's
// routines (flash erase/program, memcpy, ...) are still called from there.
mcu.core.PC = 0x10000000;

const nor = new NorFlash(mcu.flash, FLASH_BYTES);
const qspi = new QspiIO(mcu, 'IO_QSPI_BASE', nor);
mcu.peripherals[0x40018] = qspi;
installSSI(mcu, nor);

// Gap 2: PIO runs from our loop, not from its own host timer.
for (const pio of mcu.pio) {
  pio.run = function () {
    this.stopped = false;
  };
}
const divAcc = new Float64Array(8);
const delayLeft = new Int32Array(8);

const WAIT_TX_FIFO = 3; // rp2040js's WaitType.txFIFO and WaitType.Out (not exported)
const WAIT_OUT = 5;

// A machine stalled on an empty TX FIFO does nothing until the FIFO fills: for such a
// PIO only the divider phase moves (the common case between frames), folded in lazily.
const idleCycles = new Float64Array(2);
// And such a PIO stays idle until something writes to it (the core or a DMA channel: a
// FIFO, CTRL, an instruction): it is quiet, not looked at again until then, its idle
// cycles counted from quietFrom when the write comes. pioBusy: a PIO runs, or may.
const pioQuiet = [false, false];
const quietFrom = new Float64Array(2);
let pioBusy = true;
for (const pio of mcu.pio) {
  const write = pio.writeUint32.bind(pio);
  const p = pio.index;
  pio.writeUint32 = (offset, value) => {
    if (pioQuiet[p]) {
      pioQuiet[p] = false;
      idleCycles[p] += totalCycles - quietFrom[p];
    }
    pioBusy = true;
    write(offset, value);
  };
}

function idle(pio) {
  const base = pio.index * 4;
  const ms = pio.machines;
  for (let i = 0; i < 4; i++) {
    const sm = ms[i];
    if (!sm.enabled) continue;
    if (!sm.waiting || delayLeft[base + i] > 0 || sm.txFIFO.itemCount) return false;
    if (sm.waitType !== WAIT_OUT && sm.waitType !== WAIT_TX_FIFO) return false;
  }
  return true;
}

function stepPIO(cycles) {
  let busy = false;
  for (let p = 0; p < 2; p++) {
    const pio = mcu.pio[p];
    if (pio.stopped || pioQuiet[p]) continue;
    if (idle(pio)) {
      pioQuiet[p] = true;
      quietFrom[p] = totalCycles; // this instruction's cycles are idle ones too
      continue;
    }
    busy = true;
    if (idleCycles[p]) {
      for (let i = 0; i < 4; i++) {
        const sm = pio.machines[i];
        const div = (sm.clockDivInt || 65536) + sm.clockDivFrac / 256;
        divAcc[p * 4 + i] = (divAcc[p * 4 + i] + idleCycles[p]) % div;
      }
      idleCycles[p] = 0;
    }
    // Each machine ticks once every CLKDIV core cycles (fractional dividers accumulate):
    // visit only the ticks, each at its own core cycle, so pin edges are exact.
    for (let i = 0; i < 4; i++) {
      const sm = pio.machines[i];
      if (!sm.enabled) continue;
      const k = p * 4 + i;
      const div = (sm.clockDivInt || 65536) + sm.clockDivFrac / 256;
      let acc = divAcc[k];
      let c = 0;
      for (;;) {
        const steps = Math.ceil(div - acc);
        if (c + steps > cycles) {
          acc += cycles - c;
          break;
        }
        c += steps;
        acc += steps - div;
        if (delayLeft[k] > 0) {
          delayLeft[k]--;
          continue;
        }
        const before = sm.cycles;
        sm.step();
        // executeInstruction adds 1 + [delay] (the delay once a wait ends): spend the
        // delay as idle machine cycles, as the hardware does.
        const spent = sm.cycles - before;
        if (spent > 1) delayLeft[k] = spent - 1;
        cycleNow = cycleBase + c - 1;
        pio.checkChangedPins();
      }
      divAcc[k] = acc;
    }
  }
  pioBusy = busy;
}

// -- the WS2812 decoder -----------------------------------------------------------------

const ledPin = opt.ws2812 !== undefined ? Number(opt.ws2812) : -1;
const cycleNs = () => 1e9 / mcu.clkSys;
let cycleBase = 0; // the core cycle count at the start of the current instruction
let cycleNow = 0; // the cycle a pin changed on
let totalCycles = 0;
let nsAtCycle0 = 0;
const nowNs = () => nsAtCycle0 + cycleNow * cycleNs();
let frames = 0;
let lastPx = null;
const dec = { high: false, rise: 0, fall: 0, bits: [], first: 0, t0h: [], t1h: [], bit: [],
  bad: 0, lastRise: -1 };

function range(a) {
  if (!a.length) return null;
  let lo = a[0];
  let hi = a[0];
  for (const x of a) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return [lo, hi];
}

function ledEdge(high) {
  const t = nowNs();
  if (high === dec.high) return;
  dec.high = high;
  if (high) {
    if (!dec.bits.length) dec.first = t;
    if (dec.lastRise >= 0 && dec.bits.length) dec.bit.push(Math.round(t - dec.lastRise));
    dec.lastRise = t;
    dec.rise = t;
  } else {
    const h = t - dec.rise;
    dec.fall = t;
    // T0H nominal 384 ns, T1H 768 ns: split at the middle
    if (h < 576) {
      dec.bits.push(0);
      dec.t0h.push(Math.round(h));
    } else {
      dec.bits.push(1);
      dec.t1h.push(Math.round(h));
    }
  }
}

function checkLatch() {
  if (!dec.bits.length || dec.high) return;
  const t = nsAtCycle0 + totalCycles * cycleNs();
  if (t - dec.fall < LATCH_NS) return;
  const bits = dec.bits;
  const n = Math.floor(bits.length / 24);
  let hex = '';
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let b = 0; b < 24; b++) v = (v << 1) | bits[i * 24 + b];
    hex += (v >>> 0).toString(16).padStart(6, '0'); // G R B as sent
  }
  frames++;
  emit({
    ev: 'frame', t: Math.round(dec.first), end: Math.round(dec.fall), n: frames,
    px: hex === lastPx ? null : hex, extra: bits.length % 24,
    t0h: range(dec.t0h), t1h: range(dec.t1h), bit: range(dec.bit),
  });
  lastPx = hex;
  dec.bits = [];
  dec.t0h = [];
  dec.t1h = [];
  dec.bit = [];
  dec.lastRise = -1;
}

if (ledPin >= 0) {
  mcu.gpio[ledPin].addListener(() => ledEdge(mcu.gpio[ledPin].outputValue));
}

// -- gap 3: pull-ups, and the pins the tests press ------------------------------------

const held = new Set();
// A pull-up switched on must read high at once, not at the next slice: hook the pads.
const pads = mcu.peripherals[0x4001c];
const padsWrite = pads.writeUint32.bind(pads);
pads.writeUint32 = (offset, value) => {
  padsWrite(offset, value);
  drivePins();
};

function drivePins() {
  for (let i = 0; i < mcu.gpio.length; i++) {
    if (i === ledPin) continue;
    const pin = mcu.gpio[i];
    const want = held.has(i) ? false : pin.pullupEnabled;
    if (pin.rawInputValue !== want) pin.setInputValue(want);
  }
}

// -- USB --------------------------------------------------------------------------------

const cdc = new USBCDC(mcu.usbCtrl);
const pending = [];
let usbReady = false;
cdc.onDeviceConnected = () => {
  usbReady = true;
  emit({ ev: 'usb', t: Math.round(mcu.clock.nanos) });
};
cdc.onSerialData = (buf) => {
  emit({ ev: 'serial', b64: Buffer.from(buf).toString('base64'), t: Math.round(mcu.clock.nanos) });
};

function feedUSB() {
  while (pending.length && usbReady && cdc.txFIFO.itemCount < cdc.txFIFO.size) {
    cdc.sendSerialByte(pending.shift());
  }
}

// -- commands ---------------------------------------------------------------------------

let paused = false;
let cutLeft = -1;
let halted = false;

nor.onCommand = (cmd) => {
  if (cutLeft < 0 || !(cmd === 0x02 || cmd === 0x20 || cmd === 0x52 || cmd === 0xd8)) {
    return true;
  }
  cutLeft--;
  if (cutLeft > 0) return true;
  halted = true;
  emit({ ev: 'cut', t: Math.round(mcu.clock.nanos), cmd, stats: nor.stats() });
  return false; // the command never reaches the flash
};

const watchdog = mcu.peripherals[0x40058];
watchdog.onWatchdogTrigger = () => {
  // The boot ROM reboots by the watchdog's countdown: its periodic alarm at 0 would fire
  // again at once for ever. A reset stops the watchdog as it stops the core.
  watchdog.alarm.enable = false;
  watchdog.timer.enable = false;
  if (halted) return;
  halted = true;
  emit({ ev: 'reset', t: Math.round(mcu.clock.nanos), scratch: Array.from(watchdog.scratchData) });
};

function command(line) {
  const m = JSON.parse(line);
  const t = Math.round(mcu.clock.nanos);
  switch (m.op) {
    case 'serial':
      for (const b of Buffer.from(m.b64, 'base64')) pending.push(b);
      emit({ ev: 'tx', tag: m.tag, t });
      break;
    case 'pin':
      if (m.low) held.add(m.pin);
      else held.delete(m.pin);
      drivePins();
      emit({ ev: 'pinned', tag: m.tag, t });
      break;
    case 'stats':
      emit({ ev: 'stats', tag: m.tag, t, flash: nor.stats(), frames, errors: quiet.errors });
      break;
    case 'cut':
      cutLeft = m.after;
      emit({ ev: 'armed', tag: m.tag, t });
      break;
    case 'dump':
      fs.writeFileSync(m.path, mcu.flash.subarray(0, FLASH_BYTES));
      emit({ ev: 'dumped', tag: m.tag, t });
      break;
    case 'pause':
      paused = true;
      emit({ ev: 'paused', tag: m.tag, t });
      break;
    case 'resume':
      paused = false;
      emit({ ev: 'resumed', tag: m.tag, t });
      break;
    case 'quit':
      process.exit(0);
      break;
    default:
      throw new Error('unknown op ' + m.op);
  }
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim()) command(line);
});
process.stdin.on('end', () => process.exit(0));

// -- the loop ---------------------------------------------------------------------------

const SLICE = 200000; // core instructions between looks at stdin

function runSlice() {
  if (paused || halted) {
    setTimeout(runSlice, 5);
    return;
  }
  const { core, clock } = mcu;
  const ns = cycleNs();
  drivePins();
  for (let i = 0; i < SLICE && !halted; i++) {
    let cycles;
    cycleBase = totalCycles;
    if (core.waiting) {
      // Sleeping (WFI/WFE): jump to the next alarm, but in small steps while a PIO runs.
      let gap = Math.max(1, Math.floor(clock.nanosToNextAlarm / ns));
      if (pioBusy) gap = Math.min(gap, 64);
      cycles = gap;
      core.cycles += gap;
    } else {
      cycles = core.executeInstruction();
    }
    if (pioBusy) stepPIO(cycles);
    totalCycles += cycles;
    clock.tick(cycles * ns);
    if ((i & 1023) === 0) {
      feedUSB();
      checkLatch();
    }
  }
  feedUSB();
  checkLatch();
  if (process.env.PICO_TRACE) {
    process.stderr.write(`pc=${mcu.core.PC.toString(16)} t=${(mcu.clock.nanos / 1e6).toFixed(2)}ms\n`);
  }
  setImmediate(runSlice);
}

function installSSI(rp, flash) {
  const ssi = rp.peripherals[0x18000];
  const SR = 0x28;
  const RXFLR = 0x24;
  const TXFLR = 0x20;
  const DR0 = 0x60;
  const CTRLR0 = 0x00;
  const SSIENR = 0x08;
  const readBase = ssi.readUint32.bind(ssi);
  const writeBase = ssi.writeUint32.bind(ssi);
  const rx = [];
  const trace = process.env.PICO_SSI ? (m) => process.stderr.write(m + '\n') : null;
  ssi.readUint32 = (offset) => {
    if (trace && offset !== SR) trace(`r ${offset.toString(16)} rx=${rx.length}`);
    switch (offset) {
      case SR:
        // TFNF | TFE, RFNE while the receive FIFO holds data; never busy (instant flash)
        return 0x6 | (rx.length ? 0x8 : 0);
      case RXFLR:
        return rx.length;
      case TXFLR:
        return 0;
      case DR0: {
        const v = rx.length ? rx.shift() : 0;
        flash.ssiRead(rx.length);
        return v;
      }
      default:
        return readBase(offset);
    }
  };
  ssi.writeUint32 = (offset, value) => {
    if (trace) trace(`w ${offset.toString(16)} ${value.toString(16)}`);
    if (offset === DR0) {
      // Standard SPI frames only: enhanced (quad XIP) frames are boot2 setting up reads,
      // which the emulator serves from its flash array directly.
      if (((ssi.crtlr0 >>> 21) & 3) === 0) rx.push(flash.transfer(value & 0xff));
      return;
    }
    if (offset === CTRLR0) flash.ssiEnd();
    if (offset === SSIENR && !(value & 1)) {
      rx.length = 0; // disabling the SSI empties its FIFOs
      flash.ssiEnd();
    }
    writeBase(offset, value);
  };
}

emit({ ev: 'ready', flash: opt.flash || opt.uf2 });
setImmediate(runSlice);
