"""What a deploy will do, worked out before any device is touched: the firmware compiled
(plan_firmware) or a layout alone (plan_config), each file with its hash, checked against
the protocol's and the board's rules; describe() is what `crib deploy --dry-run` prints.
"""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path

from crib.deploy import build, migrate
from crib.errors import CribError
from crib.layout.source import firmware_dir
from cribcore import protocol
from pegboard import slots
from pegboard.config import ConfigError, load_config
from pegboard.layout import CACHE  # the board's record of its layout's validation

CONFIG = "config.json"
STATE = "state"  # main.py's Store("/state")
STATE_FILES = slots.names(STATE) + migrate.names(STATE)  # the game, and earlier firmware's
PART = ".part"
WIFI_FILE = "wifi"  # pegboard.joining's FILE: the board's Wi-Fi details, made on the board
OURS_KEEP = ("main.py",)  # what our image needs on the flash besides the layout and the page
HOME_FILE = "home"  # pegboard.homenet's FILE: the board's name and home network
PAGE = "page"  # the phone page's files, pre-compressed (crib.web.assets), on a board with Wi-Fi
# The oldest MicroPython the firmware runs on: pegboard.ws2812 has rp2.DMA write to a
# StateMachine (its TX FIFO), which MicroPython 1.23 brought.
MIN_MICROPYTHON = (1, 23, 0)
DOWNLOAD = "https://micropython.org/download/RPI_PICO/"
DOWNLOAD_2W = "https://micropython.org/download/RPI_PICO2_W/"
FLASH_HOW = ("hold BOOTSEL while plugging the Pico in and copy the RPI_PICO .uf2 from %s "
             "onto the drive that appears (RPI-RP2; a Pico 2 W: the RPI_PICO2_W .uf2, 1.25"
             " or newer, from %s onto the drive RP2350)" % (DOWNLOAD, DOWNLOAD_2W))


class DeployError(CribError):
    """A deploy that cannot go on: no device, a version mismatch, a bad copy."""


class Item:
    """One file of the plan: its path on the device and its bytes."""

    def __init__(self, path: str, data: bytes) -> None:
        self.path = path
        self.data = bytes(data)
        self.sha = hashlib.sha256(self.data).digest()

    def __repr__(self) -> str:
        return "Item(%r, <%d bytes>)" % (self.path, len(self.data))


class Plan:
    """What a deploy will do: the firmware files, the layout, the expected hello."""

    def __init__(self, files, config, config_always, lanes, mpy=None, compiler="",
                 wifi_files=None):
        self.files = files  # Items, in write order (main.py last): a plain Pico's
        self.config = config  # the config.json Item
        self.config_always = config_always  # --config: replace the device's layout
        self.lanes = lanes  # the lane count the new layout has
        self.mpy = mpy  # .mpy format version of the compiled files (None: no .mpy)
        self.compiler = compiler
        self.wifi_files = files if wifi_files is None else wifi_files  # a board with Wi-Fi's

    def files_for(self, wifi: bool) -> list:
        """The Items for a board with Wi-Fi (wifi) or a plain Pico."""
        return self.wifi_files if wifi else self.files

    def ours(self, wifi: bool) -> list:
        """The Items for a board running our image (its code frozen): main.py, and on a
        board with Wi-Fi the phone page."""
        return [it for it in self.files_for(wifi) if it.path in OURS_KEEP
                or it.path.startswith(PAGE + "/")]

    def stale(self, wifi: bool) -> list:
        """The paths of a stock deploy's code that a board running our image must not
        keep (they would shadow its frozen modules): every file of either build but
        those of ours() and the layout."""
        keep = {it.path for it in self.ours(wifi)} | {CONFIG}
        return sorted({it.path for it in self.files + self.wifi_files} - keep)


def has_wifi(machine: str) -> bool:
    """Whether MicroPython's name for the board (os.uname().machine, e.g. "Raspberry Pi
    Pico 2 W with RP2350") is a board with Wi-Fi: a W after the board's name (Pico W,
    Pico 2 W); "Raspberry Pi Pico with RP2040" and "Raspberry Pi Pico2 with RP2350" are
    not."""
    return "W" in machine.split(" with ")[0].split()


def _order(path):
    # Packages before main.py, so a reset half-way never starts new main.py on old modules.
    return (path == "main.py", path)


def check_config(text: str, source: object) -> int:
    """The lane count of a layout text; DeployError naming the source if it is refused."""
    try:
        return len(load_config(text).lanes)
    except ConfigError as e:
        raise DeployError("%s: %s" % (source, e)) from None


def plan_firmware(work_dir: str | Path, root: str | Path | None = None) -> "Plan":
    """Compile the firmware (root, default the firmware folder) into work_dir; the Plan of a
    full deploy: a plain Pico's files, and a board with Wi-Fi's (the same, with the
    optional packages, build.OPTIONAL, and the phone page; their own code pack)."""
    root = firmware_dir() if root is None else root
    work_dir = Path(work_dir)
    files, config, mpy = _items(work_dir, build.build(work_dir, root))
    wifi_dir = work_dir / ".wifi"
    written = build.build(wifi_dir, root, extras=build.OPTIONAL)
    wifi_files = _items(wifi_dir, written + page_files(wifi_dir / PAGE))[0]
    if config is None:
        raise DeployError("%s has no %s" % (root, CONFIG))
    lanes = check_config(config.data.decode(), Path(root) / CONFIG)
    _check_paths(files + wifi_files + [config])
    return Plan(files, config, False, lanes, mpy, build.mpy_cross_version(), wifi_files)


def _items(out_dir, written):
    """(Items of the files a deploy writes, in write order; the config.json Item; the .mpy
    version) of a build's written paths."""
    files = []
    config = None
    mpy = None
    for path in written:
        rel = path.relative_to(out_dir).as_posix()
        if rel == CONFIG:
            config = Item(rel, path.read_bytes())
        elif path.suffix in (".py", ".mpy", ".pack", ".gz") or rel == CACHE:
            files.append(Item(rel, path.read_bytes()))
            if path.suffix == ".mpy":
                mpy = build.mpy_version(path)
    files.sort(key=lambda it: _order(it.path))
    return files, config, mpy


def page_files(folder: Path) -> list[Path]:
    """The phone page's files, gzipped at build time (crib.web.assets.write, issue 27's
    server work), written into folder; none while that module is not there."""
    try:
        assets = importlib.import_module("crib.web.assets")
    except ImportError:
        return []
    assets.write(folder)
    return sorted(p for p in folder.rglob("*") if p.is_file())


def plan_config(path: str | Path) -> "Plan":
    """The Plan of `--config FILE`: a new layout only, validated before anything is sent."""
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise DeployError("cannot read %s: %s" % (path, e)) from None
    lanes = check_config(text, path)
    return Plan([], Item(CONFIG, text.encode()), True, lanes)


def _check_paths(items):
    for it in items:
        name = it.path.rsplit("/", 1)[-1]
        if it.path in STATE_FILES or it.path in (WIFI_FILE, HOME_FILE) or name.endswith(PART):
            raise DeployError("refusing to deploy %r: that name belongs to the state file "
                              "or to a copy in progress" % it.path)


def describe(plan: "Plan", port: str, image: bool = False) -> list[str]:
    """The steps of a plan as lines of text (what --dry-run prints)."""
    out = []
    if plan.files:
        out.append("compile %d firmware files with %s" % (len(plan.files), plan.compiler))
    out.append("connect to %s with mpremote (raw REPL; stops the running app)"
               % ("the one Pico on USB" if port == "auto" else port))
    if plan.mpy is not None:
        out.append("refuse unless the device runs MicroPython %s or newer and loads .mpy "
                   "format v%d" % (".".join(str(v) for v in MIN_MICROPYTHON[:2]), plan.mpy))
    if plan.files:
        out.append("tell the board's kind from os.uname().machine: a board with Wi-Fi (a W "
                   "after its name: \"Raspberry Pi Pico 2 W with RP2350\") or a plain Pico")
        out.append("ask which image it runs (our image freezes the module cribimage: its "
                   "board and key); stock MicroPython: the files below, and an offer of "
                   "our image (--image)")
        if image:
            out.append("--image: unless it runs our image of this code, take ours for its "
                       "kind from the cache (or build it: firmware/image/build.py), check "
                       "it (its family, its sha256, every block below the filesystem), "
                       "restart the board into its boot ROM's USB drive (RPI-RP2 or "
                       "RP2350; --drive PATH) and copy the UF2 there; wait for the board")
        out.append("on our image of this code: write only %s (and a board with Wi-Fi's "
                   "phone page) and the layout; remove the .mpy files and code.pack of a "
                   "stock deploy (they would shadow the frozen code)"
                   % ", ".join(OURS_KEEP))
    for it in plan.files:
        out.append("write %s (%d bytes, sha256 %s) unless the device has it already"
                   % (it.path, len(it.data), it.sha.hex()[:12]))
    plain = {it.path: it.sha for it in plan.files}
    for it in plan.wifi_files:
        if plain.get(it.path) != it.sha:
            out.append("board with Wi-Fi only: write %s (%d bytes, sha256 %s) unless the "
                       "device has it already" % (it.path, len(it.data), it.sha.hex()[:12]))
    if plan.config_always:
        out.append("write %s (%d lanes)" % (CONFIG, plan.lanes))
    else:
        out.append("write %s (%d lanes) only if the device has none: a layout on the device "
                   "is kept (replace it with --config FILE)" % (CONFIG, plan.lanes))
    out.append("each file goes to <path>%s first; its sha256 is checked on the device "
               "before it replaces the old one" % PART)
    if plan.files:
        out.append("remove <module>.py where a new <module>.mpy replaces it (a .py shadows "
                   "the .mpy)")
    if plan.files:
        out.append("if no slot holds a saved game but earlier firmware's files do (state.a, "
                   "state.b and state.r0..; or state, state.new, state.old): write the newest "
                   "good one, in today's format, as its slot, after the files above")
    out.append("never touch %s (the game in progress), %s (a board with Wi-Fi's network "
               "name, password and page key), %s (its name and home network) or any file "
               "not listed here, but for that slot" % (", ".join(STATE_FILES), WIFI_FILE,
                                                       HOME_FILE))
    out.append("soft reset; send hello until the board answers ok proto=%d lanes=..."
               % protocol.PROTO)
    return out


# -- the device side: short programs run in the raw REPL -----------------------------------
