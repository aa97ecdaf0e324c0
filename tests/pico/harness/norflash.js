// A SPI NOR flash (a W25Q16-like 2 MiB part) behind the RP2040's SSI, for rp2040js.
//
// rp2040js serves execute-in-place reads from its flash array but drops everything sent
// through the SSI data register, so the boot ROM's erase and program routines write
// nothing. Here each byte the SSI shifts out reaches this model, which answers as the
// chip would: write enable 0x06/0x04, status 0x05/0x35, page program 0x02, erase
// 0x20/0x52/0xD8 (4K/32K/64K), read 0x03/0x0B, unique id 0x4B, JEDEC id 0x9F.
// A command runs when chip select rises, as on the chip. Chip select comes from IO_QSPI's
// SS output override (the ROM forces it low around each command); when the SSI drives it
// itself (boot2), a command ends when the core has read back every byte it clocked.
// Programming is instantaneous (status never reports busy): emulated time has no flash cost.
'use strict';

const { BasePeripheral } = require('rp2040js');

const PAGE = 256;
const ERASE = { 0x20: 4096, 0x52: 32768, 0xd8: 65536 };
const UNIQUE_ID = [0xe6, 0x61, 0x38, 0x50, 0x43, 0x2a, 0x3b, 0x2f];
const JEDEC = [0xef, 0x40, 0x15];

class NorFlash {
  constructor(mem, size) {
    this.mem = mem;
    this.size = size;
    this.forced = false; // chip select held low by the IO_QSPI override
    this.bytes = [];
    this.wel = false;
    this.programs = 0;
    this.erases = { 4096: 0, 32768: 0, 65536: 0 };
    this.bytesProgrammed = 0;
    this.onCommand = () => true; // false: the power is cut before this command
  }

  stats() {
    return {
      programs: this.programs,
      erase4k: this.erases[4096],
      erase32k: this.erases[32768],
      erase64k: this.erases[65536],
      bytes: this.bytesProgrammed,
    };
  }

  addr() {
    const b = this.bytes;
    return ((b[1] << 16) | (b[2] << 8) | b[3]) % this.size;
  }

  /** One byte out of the SSI; returns the byte the chip shifts back. */
  transfer(byte) {
    const b = this.bytes;
    b.push(byte);
    const i = b.length - 1;
    if (i === 0) return 0xff;
    switch (b[0]) {
      case 0x05:
        return this.wel ? 0x02 : 0x00;
      case 0x35:
        return 0x02; // QE set: boot2 need not write the status register
      case 0x9f:
        return i <= 3 ? JEDEC[i - 1] : 0xff;
      case 0x4b:
        return i >= 5 && i < 13 ? UNIQUE_ID[i - 5] : 0xff;
      case 0x03:
        return i >= 4 ? this.mem[(this.addr() + i - 4) % this.size] : 0xff;
      case 0x0b:
        return i >= 5 ? this.mem[(this.addr() + i - 5) % this.size] : 0xff;
      default:
        return 0xff;
    }
  }

  /** Chip select rises: the command in the buffer takes effect. */
  end() {
    const b = this.bytes;
    this.bytes = [];
    if (!b.length) return;
    const cmd = b[0];
    if (cmd === 0x06) {
      this.wel = true;
    } else if (cmd === 0x04) {
      this.wel = false;
    } else if (cmd === 0x02 && b.length > 4 && this.wel) {
      this.wel = false;
      this.bytes = b;
      const a = this.addr();
      this.bytes = [];
      if (!this.onCommand(cmd, a)) return;
      const page = a - (a % PAGE);
      for (let k = 4; k < b.length; k++) {
        const at = page + ((a + k - 4) % PAGE);
        this.mem[at] &= b[k]; // programming only clears bits
      }
      this.programs++;
      this.bytesProgrammed += b.length - 4;
    } else if (ERASE[cmd] && b.length >= 4 && this.wel) {
      this.wel = false;
      this.bytes = b;
      const size = ERASE[cmd];
      const a = this.addr() - (this.addr() % size);
      this.bytes = [];
      if (!this.onCommand(cmd, a)) return;
      this.mem.fill(0xff, a, a + size);
      this.erases[size]++;
    }
  }

  /** Chip select held by IO_QSPI's override: low starts a command, high ends it. */
  select(low) {
    if (low === this.forced) return;
    this.end();
    this.forced = low;
  }

  /** The core read a byte back from the SSI; rxLeft bytes remain. */
  ssiRead(rxLeft) {
    if (!this.forced && rxLeft === 0) this.end();
  }

  /** The SSI was reconfigured: whatever it was sending under its own chip select ended. */
  ssiEnd() {
    if (!this.forced) this.end();
  }
}

// IO_QSPI: six pins, each a STATUS and a CTRL register; only SS's CTRL matters here.
const SS_CTRL = 0x0c;

class QspiIO extends BasePeripheral {
  constructor(rp2040, name, nor) {
    super(rp2040, name);
    this.nor = nor;
    this.regs = new Uint32Array(12);
  }

  readUint32(offset) {
    return offset < 0x30 ? this.regs[offset >> 2] : 0;
  }

  writeUint32(offset, value) {
    if (offset >= 0x30) return;
    this.regs[offset >> 2] = value;
    if (offset === SS_CTRL) {
      // OUTOVER (bits 9:8): 2 drives SS low (selected), 3 high, 0/1 leave it to the SSI
      this.nor.select(((value >>> 8) & 3) === 2);
    }
  }
}

module.exports = { NorFlash, QspiIO };
