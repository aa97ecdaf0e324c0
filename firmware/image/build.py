"""Build our MicroPython image for a board: MicroPython v1.28.0 (the release the tests
use) from the pinned, trimmed sources in ../shared/micropython/, with our code (cribcore,
pegboard, boardweb, fastboot and microdot) frozen into the image (manifest.py here), so
that it runs from flash instead of being loaded into the heap. docs/image.md says why
frozen code and what each image measures.

    python firmware/image/build.py RPI_PICO [RPI_PICO_W RPI_PICO2_W] [--cache DIR]
        [--source TARBALL] [--jobs 2] [--keep DIR]
    python firmware/image/build.py --key RPI_PICO      # only the cache key of the inputs

A bench's copy of an image (image(board, extra=(paths,))) freezes those modules too:
bench/chip.py freezes its own harness and players, which a board never carries, so that
its heap figures count the board's code, not the bench's (docs/image.md). Its folder is
BOARD+bench-KEY, its key over the extra modules as well.

Each image is cached outside the clone, in --cache, else $CRIB_IMAGE_CACHE, else
$XDG_CACHE_HOME/ledcrib/image (~/.cache/ledcrib/image), under BOARD-KEY/, where KEY is
a sha256 over every input: the sources' tarball, this script, the manifest, every file
of our code and of microdot that is frozen, and the compiler's version. A cached image
whose key matches is used as it is; otherwise it is built (about 2 minutes a board on 2
cores) and stored. So an image is never stale: a change to any input is a new key, and
a new build. Each build writes firmware.uf2 (made here from firmware.bin: no picotool),
firmware.bin, firmware.map and image.json ({board, key, sha256 of the .bin and the .uf2,
the GC heap from the link map}); the last line printed for each board is the folder.

Exit status: 0 built or found; 1 a build step failed (its output's tail printed);
2 bad arguments.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parent
ROOT = FIRMWARE.parent
SOURCE = ROOT.parent / "shared" / "micropython" / "micropython-v1.28.0-rp2-src.tar.xz"
MANIFEST = HERE / "manifest.py"
OURS = ("cribcore", "pegboard", "boardweb")  # the packages manifest.py freezes
MODULES = ("fastboot.py",)
MICRODOT = ("__init__.py", "microdot.py", "sse.py", "helpers.py")
RP2040_FAMILY, RP2350_FAMILY = 0xE48BFF56, 0xE48BFF59  # UF2 family ids (RP2350: Arm)
BOARDS = {"RPI_PICO": RP2040_FAMILY, "RPI_PICO_W": RP2040_FAMILY,
          "RPI_PICO2": RP2350_FAMILY, "RPI_PICO2_W": RP2350_FAMILY}
FLASH_BASE = 0x10000000  # where the image's first byte is in the XIP address space
# The flash before each board's filesystem (MicroPython keeps its LittleFS at the end of
# the flash: MICROPY_HW_FLASH_STORAGE_BYTES of the board's mpconfigboard.h; 2 MiB of
# flash on a Pico and a Pico W, 4 MiB on the Pico 2s). An image must end before it, so
# that installing it never touches the filesystem (the game in progress): checked here
# after each build and by `crib deploy` before it copies a UF2.
CODE_BYTES = {"RPI_PICO": 2048 * 1024 - 1408 * 1024, "RPI_PICO_W": 2048 * 1024 - 848 * 1024,
              "RPI_PICO2": 1024 * 1024, "RPI_PICO2_W": 1536 * 1024}
# The frozen module that says which image a board runs (`crib deploy` imports it: a
# stock MicroPython has none): its board and its key (below), written for each build.
TAG = "cribimage"
TAG_TEXT = ('"""Which image this is: firmware/image/build.py wrote it (crib deploy reads'
            ' it)."""\nBOARD = %r\nKEY = %r\n')
UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
UF2_FAMILY_FLAG = 0x00002000
UF2_PAYLOAD = 256
# The build date MicroPython writes into the image (its banner): fixed, the day these
# sources were pinned, so that a build is byte-for-byte the same on any day (two builds
# in different folders on either side of midnight differed in that date alone).
SOURCE_DATE_EPOCH = "1795824000"  # 2026-11-28
# The RP2040's C stack: MicroPython's rp2 port gives it the 8 KB of the two scratch banks,
# and the board's server nests its calls deeper than that allows (an answer's request ->
# room -> engine -> App -> renderer chain raised "maximum recursion depth exceeded" on
# the emulated Pico: docs/image.md). Our RP2040 images take EXTRA_STACK more from the top
# of the GC heap, just below the scratch banks (contiguous), for a 16 KB stack.
EXTRA_STACK = 8 * 1024
RP2040_LINKER = "memmap_mp_rp2040.ld"
# Bluetooth, which the stock W boards' images carry (BTstack, its static buffers, aioble
# frozen): the board never uses it (its page is served over Wi-Fi alone), and BTstack's
# buffers took 6.9 KB of the Pico W's RAM, which the GC heap gets instead (docs/image.md).
# Our W images are built from a copy of the port's board folder with these lines changed.
BLUETOOTH_OFF = (("set(MICROPY_PY_BLUETOOTH ON)", "set(MICROPY_PY_BLUETOOTH OFF)"),
                 ("set(MICROPY_BLUETOOTH_BTSTACK ON)", "set(MICROPY_BLUETOOTH_BTSTACK OFF)"),
                 ("set(MICROPY_PY_BLUETOOTH_CYW43 ON)", "set(MICROPY_PY_BLUETOOTH_CYW43 OFF)"))
AIOBLE = 'require("aioble")\n'  # the board's manifest line freezing aioble (needs bluetooth)
# The SDK's cyw43 driver headers, which the port's build reaches only through BTstack's
# transport library (without it cyw43_bus_pio_spi.c fails on pico/cyw43_driver.h): linked
# to the port's target in the board's cmake, deferred until the port has made the target
# (its include folders then come after the port's own, as with Bluetooth on).
CYW43_HEADERS = ("\ncmake_language(DEFER CALL target_link_libraries firmware "
                 "pico_cyw43_driver_headers)\n")
STACK_LINES = (("__GcHeapEnd = ORIGIN(RAM) + LENGTH(RAM);",
                "__GcHeapEnd = ORIGIN(RAM) + LENGTH(RAM) - %d;" % EXTRA_STACK),
               ("__StackBottom = __StackTop - SIZEOF(.stack_dummy);",
                "__StackBottom = __StackTop - SIZEOF(.stack_dummy) - %d;" % EXTRA_STACK))


class BuildFailed(Exception):
    """A step of the build failed; the message has its output's tail."""


def cache_root(given=None):
    if given:
        return Path(given)
    if os.environ.get("CRIB_IMAGE_CACHE"):
        return Path(os.environ["CRIB_IMAGE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                             ".cache")
    return Path(base) / "ledcrib" / "image"


def microdot_dir():
    """The installed microdot package's folder (pinned in pyproject.toml)."""
    import importlib.util

    spec = importlib.util.find_spec("microdot")
    if spec is None or not spec.submodule_search_locations:
        raise BuildFailed("microdot is not installed (pip install -e .)")
    return Path(list(spec.submodule_search_locations)[0])


def inputs(source, firmware=FIRMWARE, extra=()):
    """[(name, path)] of every file the image is made from, in a fixed order (firmware:
    the firmware tree, this folder in it; extra: a bench's modules frozen as well)."""
    firmware = Path(firmware)
    found = [("source", Path(source)), ("build.py", firmware / "image" / "build.py"),
             ("manifest.py", firmware / "image" / "manifest.py")]
    for package in OURS:
        for path in sorted((firmware / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found.append((path.relative_to(firmware).as_posix(), path))
    for name in MODULES:
        found.append((name, firmware / name))
    mdot = microdot_dir()
    for name in MICRODOT:
        found.append(("microdot/" + name, mdot / name))
    for path in extra:
        found.append(("extra/" + Path(path).name, Path(path)))
    return found


def compiler():
    """The cross compiler's version line (part of the key: another gcc, another image)."""
    try:
        out = subprocess.run(["arm-none-eabi-gcc", "--version"], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        raise BuildFailed("arm-none-eabi-gcc is missing (apt-get install gcc-arm-none-eabi"
                          " libnewlib-arm-none-eabi cmake)") from None
    return out.splitlines()[0]


def key(board, source, firmware=FIRMWARE, extra=()):
    """The sha256 (hex) over the board, the compiler and every input file."""
    h = hashlib.sha256()
    h.update(board.encode() + b"\0" + compiler().encode() + b"\0")
    for name, path in inputs(source, firmware, extra):
        data = path.read_bytes()
        h.update(name.encode() + b"\0" + str(len(data)).encode() + b"\0")
        h.update(data)
    return h.hexdigest()


def ram_key(board, source, firmware=FIRMWARE):
    """The sha256 (hex) over what decides the image's RAM (its GC heap, its stack): the
    board, the compiler, the sources and this script; not our code (frozen into flash)."""
    h = hashlib.sha256()
    h.update(board.encode() + b"\0" + compiler().encode() + b"\0")
    for name, path in inputs(source, firmware)[:2]:  # the sources' tarball, build.py
        h.update(name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def uf2(data, family, base=FLASH_BASE):
    """The UF2 container of a flat image (512-byte blocks of 256 data bytes each)."""
    blocks = [data[i:i + UF2_PAYLOAD] for i in range(0, len(data), UF2_PAYLOAD)]
    out = bytearray()
    for n, chunk in enumerate(blocks):
        head = struct.pack("<8I", UF2_MAGIC[0], UF2_MAGIC[1], UF2_FAMILY_FLAG,
                           base + n * UF2_PAYLOAD, UF2_PAYLOAD, n, len(blocks), family)
        out += head + chunk.ljust(476, b"\0") + struct.pack("<I", UF2_MAGIC[2])
    return bytes(out)


def gc_heap(map_text):
    """The GC heap's bytes from a link map (__GcHeapEnd - __GcHeapStart), or None."""
    found = {}
    for name in ("__GcHeapStart", "__GcHeapEnd"):
        m = re.search(r"0x([0-9a-f]+)\s+" + name + r"\b", map_text)
        if m:
            found[name] = int(m.group(1), 16)
    if len(found) < 2:
        return None
    return found["__GcHeapEnd"] - found["__GcHeapStart"]


def linker_script(port, work):
    """Our RP2040 linker script (STACK_LINES applied to the port's) written in work; its
    path. BuildFailed if the port's script is not as expected."""
    text = (port / RP2040_LINKER).read_text()
    for old, new in STACK_LINES:
        if text.count(old) != 1:
            raise BuildFailed("%s has no line %r to change" % (RP2040_LINKER, old))
        text = text.replace(old, new)
    path = work / ("crib-" + RP2040_LINKER)
    path.write_text(text)
    return path


def board_folder(port, board, work):
    """The board's folder to build from: the port's own, or for a board with Bluetooth (the
    W boards) a copy in work with it left out (BLUETOOTH_OFF, AIOBLE). BuildFailed if the
    port's files are not as expected."""
    stock = port / "boards" / board
    text = (stock / "mpconfigboard.cmake").read_text()
    if "MICROPY_PY_BLUETOOTH" not in text:
        return stock
    ours = work / ("board-" + board)
    shutil.rmtree(ours, ignore_errors=True)
    shutil.copytree(stock, ours)
    for old, new in BLUETOOTH_OFF:
        if text.count(old) != 1:
            raise BuildFailed("%s's mpconfigboard.cmake has no line %r" % (board, old))
        text = text.replace(old, new)
    (ours / "mpconfigboard.cmake").write_text(text + CYW43_HEADERS)
    manifest = (stock / "manifest.py").read_text()
    if manifest.count(AIOBLE) != 1:
        raise BuildFailed("%s's manifest.py has no line %r" % (board, AIOBLE.strip()))
    (ours / "manifest.py").write_text(manifest.replace(AIOBLE, ""))
    return ours


def _run(cmd, cwd, env=None, log=None):
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if log is not None:
        log.write(proc.stdout)
    if proc.returncode != 0:
        raise BuildFailed("%s failed:\n%s" % (" ".join(cmd[:3]), proc.stdout[-3000:]))


def build(board, out, source=SOURCE, jobs=2, work=None, tag_key="", extra=()):
    """Build board's image from the tarball into the folder out, its TAG module saying
    board and tag_key (the key of its inputs), the modules extra frozen as well (a bench's
    copy); (its image.json dict, the folder)."""
    owned = work is None
    work = Path(work or tempfile.mkdtemp(prefix="crib-image-"))
    try:
        mp = work / "mp"
        if not (mp / "ports" / "rp2").exists():
            mp.mkdir(parents=True, exist_ok=True)
            with tarfile.open(source) as tar:
                tar.extractall(mp, filter="data")
        log = open(work / "build.log", "a")
        try:
            _run(["make", "-C", "mpy-cross", "-j%d" % jobs], mp, log=log)
            port = mp / "ports" / "rp2"
            board_dir = board_folder(port, board, work)
            own = board_dir / "manifest.py"
            tag = work / ("tag-" + board)
            tag.mkdir(exist_ok=True)
            (tag / (TAG + ".py")).write_text(TAG_TEXT % (board, tag_key))
            more = work / ("extra-" + board)  # manifest.py freezes what is in it
            shutil.rmtree(more, ignore_errors=True)
            more.mkdir()
            for path in extra:
                shutil.copyfile(path, more / Path(path).name)
            env = dict(os.environ, CRIB_IMAGE_LIBRARIES=str(microdot_dir().parent),
                       CRIB_IMAGE_TAG=str(tag), CRIB_IMAGE_EXTRA=str(more),
                       SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH,
                       CRIB_IMAGE_BOARD_MANIFEST=str(own if own.exists() else
                                                     port / "boards" / "manifest.py"))
            bdir = "build-" + board
            options = ["-DPICO_BUILD_DOCS=0", "-DMICROPY_BOARD=" + board,
                       "-DMICROPY_BOARD_DIR=" + str(board_dir), "-DPICO_NO_PICOTOOL=1",
                       "-DMICROPY_FROZEN_MANIFEST=" + str(MANIFEST)]
            if BOARDS[board] == RP2040_FAMILY:
                options.append("-DMICROPY_BOARD_LINKER_SCRIPT=%s"
                               % linker_script(port, work))
            _run(["cmake", "-S", ".", "-B", bdir] + options, port, env, log)
            _run(["make", "-C", bdir, "-j%d" % jobs], port, env, log)
        finally:
            log.close()
        built = port / bdir
        data = (built / "firmware.bin").read_bytes()
        if len(data) > CODE_BYTES[board]:
            raise BuildFailed("the %s image is %d bytes: more than the %d before the "
                              "board's filesystem" % (board, len(data), CODE_BYTES[board]))
        out = Path(out)
        tmp = Path(tempfile.mkdtemp(prefix=".part-", dir=out.parent))
        (tmp / "firmware.bin").write_bytes(data)
        image = uf2(data, BOARDS[board])
        (tmp / "firmware.uf2").write_bytes(image)
        map_text = (built / "firmware.elf.map").read_text(errors="replace")
        (tmp / "firmware.map").write_text(map_text)
        info = {"board": board, "bin_sha256": hashlib.sha256(data).hexdigest(),
                "uf2_sha256": hashlib.sha256(image).hexdigest(), "bin_bytes": len(data),
                "gc_heap": gc_heap(map_text)}
        return info, tmp
    finally:
        if owned:
            shutil.rmtree(work, ignore_errors=True)


def image(board, cache=None, source=SOURCE, jobs=2, work=None, out=print, extra=()):
    """The cached folder of board's image for the inputs as they are now, built if the
    cache has none (extra: a bench's copy, module docstring); out() is told what
    happens."""
    k = key(board, source, extra=extra)
    folder = cache_root(cache) / ("%s%s-%s" % (board, "+bench" if extra else "", k[:16]))
    if (folder / "image.json").exists():
        out("%s: cached (key %s)" % (board, k[:16]))
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    out("%s: building (key %s), about 2 minutes on 2 cores" % (board, k[:16]))
    info, tmp = build(board, folder, source, jobs, work, k, extra)
    info["key"] = k
    info["ram_key"] = ram_key(board, source)
    (tmp / "image.json").write_text(json.dumps(info, indent=1, sort_keys=True) + "\n")
    try:
        os.rename(tmp, folder)  # whole or not at all: a cut build leaves no image
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)  # another build put it there first
    return folder


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("boards", nargs="+", choices=sorted(BOARDS))
    ap.add_argument("--cache", help="the images' cache folder")
    ap.add_argument("--source", default=str(SOURCE), help="MicroPython's sources (.tar.xz)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="build in this folder and keep it (else a temporary one)")
    ap.add_argument("--key", action="store_true", help="print each board's key; build nothing")
    args = ap.parse_args(argv)
    if not Path(args.source).exists():
        print("build.py: %s is missing" % args.source, file=sys.stderr)
        return 2
    work = args.keep or tempfile.mkdtemp(prefix="crib-image-")  # one for every board
    try:
        for board in args.boards:
            if args.key:
                print("%s %s" % (board, key(board, args.source)))
                continue
            folder = image(board, args.cache, args.source, args.jobs, work)
            info = json.loads((folder / "image.json").read_text())
            print("%s: firmware.bin sha256 %s, firmware.uf2 sha256 %s, GC heap %s bytes"
                  % (board, info["bin_sha256"], info["uf2_sha256"], info["gc_heap"]))
            print(folder)
    except BuildFailed as e:
        print("build.py: %s" % e, file=sys.stderr)
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
