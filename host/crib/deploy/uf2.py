"""Our MicroPython image onto a board (`crib deploy --image`): which image the board runs,
the image for its kind (firmware/image/build.py, from its cache or built), checked before
anything is copied, the boot ROM's USB drive (BOOTSEL) found and the UF2 copied onto it.

A board running our image says so: the image freezes a module, cribimage (build.TAG),
holding the board it was built for and the key of its inputs; stock MicroPython has none.
The boot ROM's drive holds INFO_UF2.TXT, whose Board-ID says the chip: RPI-RP2 (RP2040)
or RP2350. The boot ROM writes every block of its own family at its address, then boots.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import struct
import time
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterable

from crib.deploy.plan import DeployError
from crib.layout.source import firmware_dir

INFO = "INFO_UF2.TXT"
NAME = "crib-%s.uf2"  # the file copied onto the drive
# Board-ID in the boot ROM's INFO_UF2.TXT, and the UF2 family each chip takes.
CHIPS = {"RPI-RP2": 0xE48BFF56, "RP2350": 0xE48BFF59}
# Where desktops mount a USB drive by its label (Linux: udisks; macOS).
MOUNTS = ("/media/*/%s", "/run/media/*/%s", "/media/%s", "/Volumes/%s")
DRIVE_TIMEOUT = 60.0  # s for the drive to appear after the board is asked to show it
# MicroPython's name for each board (os.uname().machine: "NAME with MCU").
KINDS = {"Raspberry Pi Pico": "RPI_PICO", "Raspberry Pi Pico W": "RPI_PICO_W",
         "Raspberry Pi Pico2": "RPI_PICO2", "Raspberry Pi Pico 2": "RPI_PICO2",
         "Raspberry Pi Pico 2 W": "RPI_PICO2_W"}
UF2_MAGIC = (0x0A324655, 0x9E5D5157)
UF2_FAMILY_FLAG = 0x00002000


def builder() -> ModuleType:
    """firmware/image/build.py, loaded (it is a script of the firmware tree, not a package
    the host imports)."""
    path = firmware_dir() / "image" / "build.py"
    spec = importlib.util.spec_from_file_location("crib_image_build", path)
    if spec is None or spec.loader is None:
        raise DeployError("%s is missing: this crib cannot make our image" % path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def board_kind(machine: str) -> str:
    """The MicroPython board name of os.uname().machine ("Raspberry Pi Pico W with
    RP2040" -> RPI_PICO_W); DeployError for a board we make no image for."""
    kind = KINDS.get(machine.split(" with ")[0].strip())
    if kind is None:
        raise DeployError("the board says it is %r: our image is made for the Raspberry Pi "
                          "Pico, Pico W, Pico 2 and Pico 2 W only" % machine)
    return kind


def tree_key(build: ModuleType, kind: str) -> str:
    """The key of our image for kind as the firmware tree is now; DeployError if it cannot
    be worked out here (no MicroPython sources or no cross compiler)."""
    if not Path(build.SOURCE).exists():
        raise DeployError("our image is built from MicroPython's sources, %s, which this "
                          "computer does not have" % build.SOURCE)
    try:
        return build.key(kind, build.SOURCE)
    except build.BuildFailed as e:
        raise DeployError("cannot make our image: %s" % e) from None


def make_image(build: ModuleType, kind: str, out: Callable[[str], object]) -> Path:
    """The folder of our image for kind (taken from the cache, or built: minutes)."""
    tree_key(build, kind)
    try:
        return Path(build.image(kind, out=lambda line: out("image     " + line)))
    except build.BuildFailed as e:
        raise DeployError("building our image failed: %s" % e) from None


def uf2_blocks(data: bytes) -> list[tuple[int, int]]:
    """[(address, family)] of a UF2's blocks; DeployError if it is no UF2."""
    if not data or len(data) % 512:
        raise DeployError("not a UF2 file (%d bytes, not whole 512-byte blocks)" % len(data))
    out = []
    for off in range(0, len(data), 512):
        m0, m1, flags, addr, size, _n, _total, family = struct.unpack_from("<8I", data, off)
        if (m0, m1) != UF2_MAGIC or size != 256 or not flags & UF2_FAMILY_FLAG:
            raise DeployError("not a UF2 of ours: block %d is no 256-byte block with a "
                              "family id" % (off // 512))
        out.append((addr, family))
    return out


def uf2_payload(data: bytes) -> bytes:
    """The bytes a UF2 writes, its blocks' 256-byte payloads in their order: a string of
    the image may straddle two blocks, so it is looked for here, not in the container."""
    return b"".join(data[off + 32:off + 288] for off in range(0, len(data), 512))


def check_image(folder: Path, kind: str, key: str, build: ModuleType) -> bytes:
    """The UF2 of our image in folder, checked: built by build.py for kind from today's
    tree (image.json's board and key; the UF2's sha256), every block of kind's family and
    before the board's filesystem (so the copy never touches the game in progress), and
    its tag frozen in. DeployError says which check failed; nothing is copied then."""
    try:
        info = json.loads((folder / "image.json").read_text())
        data = (folder / "firmware.uf2").read_bytes()
    except (OSError, ValueError) as e:
        raise DeployError("no image of ours in %s: %s" % (folder, e)) from None
    if info.get("board") != kind or info.get("key") != key:
        raise DeployError("the image in %s is not ours for this %s and this code (it was "
                          "built for %s, key %s)" % (folder, kind, info.get("board"),
                                                     str(info.get("key"))[:16]))
    if hashlib.sha256(data).hexdigest() != info.get("uf2_sha256"):
        raise DeployError("%s is not the UF2 that was built (its sha256 differs from "
                          "image.json's): refusing to copy it" % (folder / "firmware.uf2"))
    family = build.BOARDS[kind]
    end = build.FLASH_BASE + build.CODE_BYTES[kind]
    for addr, fam in uf2_blocks(data):
        if fam != family:
            raise DeployError("the UF2 holds a block of family 0x%08x: a %s takes 0x%08x"
                              % (fam, kind, family))
        if not build.FLASH_BASE <= addr < end:
            raise DeployError("the UF2 writes at 0x%08x, outside the image's flash (0x%08x"
                              "-0x%08x): it would overwrite the board's files, so it is "
                              "not copied" % (addr, build.FLASH_BASE, end))
    payload = uf2_payload(data)
    if key.encode() not in payload or build.TAG.encode() not in payload:
        raise DeployError("the UF2 in %s does not carry our image's tag (%s)"
                          % (folder, build.TAG))
    return data


def drive_chip(drive: Path) -> str | None:
    """The Board-ID of a boot ROM drive (a key of CHIPS), or None if it is none."""
    try:
        text = (drive / INFO).read_text(errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("Board-ID:"):
            return line.split(":", 1)[1].strip()
    return None


def candidates(roots: Iterable[str] = MOUNTS) -> list[Path]:
    """Mounted drives named as a boot ROM names its drive."""
    import glob

    found = []
    for pattern in roots:
        for label in CHIPS:
            found += [Path(p) for p in glob.glob(pattern % label)]
    return sorted(set(p for p in found if drive_chip(p) is not None))


def find_drive(given: str | None, timeout: float = DRIVE_TIMEOUT,
               roots: Iterable[str] = MOUNTS, sleep: Callable[[float], object] = time.sleep,
               clock: Callable[[], float] = time.monotonic) -> Path:
    """The boot ROM's drive: given (a folder), once its INFO_UF2.TXT is there, else the
    one mounted drive labelled RPI-RP2 or RP2350; DeployError after timeout s."""
    end = clock() + timeout
    roots = tuple(roots)
    while True:
        if given is not None:
            if drive_chip(Path(given)) is not None:
                return Path(given)
        else:
            found = candidates(roots)
            if len(found) > 1:
                raise DeployError("several boot ROM drives are mounted (%s): name one with "
                                  "--drive" % ", ".join(str(p) for p in found))
            if found:
                return found[0]
        if clock() >= end:
            raise DeployError(
                "no boot ROM drive (RPI-RP2 or RP2350, with %s) appeared within %d s%s. The "
                "board waits in its boot ROM: mount its drive and deploy again with --drive "
                "PATH, or unplug it to go back to the MicroPython it had"
                % (INFO, timeout, "" if given is None else " at %s" % given))
        sleep(0.2)


def copy_image(data: bytes, kind: str, drive: Path, build: ModuleType) -> Path:
    """Copy our UF2 onto the drive, after checking the drive's chip takes its family; the
    path written. The boot ROM writes it to the flash and boots it."""
    chip = drive_chip(drive)
    want = build.BOARDS[kind]
    if CHIPS.get(chip or "") != want:
        raise DeployError("the drive %s is a %s's boot ROM, but the image is for a %s: "
                          "nothing copied" % (drive, chip or "unknown chip", kind))
    path = drive / (NAME % kind)
    try:
        with open(path, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        raise DeployError("copying the image onto %s failed: %s" % (drive, e)) from None
    return path
