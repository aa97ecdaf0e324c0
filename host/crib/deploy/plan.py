"""What a deploy will do, worked out before any device is touched: the firmware compiled
(plan_firmware) or a layout alone (plan_config), each file with its hash, checked against
the protocol's and the board's rules; describe() is what `crib deploy --dry-run` prints.
"""

from __future__ import annotations

import hashlib
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
# The oldest MicroPython the firmware runs on: pegboard.ws2812 has rp2.DMA write to a
# StateMachine (its TX FIFO), which MicroPython 1.23 brought.
MIN_MICROPYTHON = (1, 23, 0)
DOWNLOAD = "https://micropython.org/download/RPI_PICO/"
FLASH_HOW = ("hold BOOTSEL while plugging the Pico in and copy the RPI_PICO .uf2 from %s "
             "onto the drive that appears" % DOWNLOAD)


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

    def __init__(self, files, config, config_always, lanes, mpy=None, compiler=""):
        self.files = files  # Items, in write order (main.py last)
        self.config = config  # the config.json Item
        self.config_always = config_always  # --config: replace the device's layout
        self.lanes = lanes  # the lane count the new layout has
        self.mpy = mpy  # .mpy format version of the compiled files (None: no .mpy)
        self.compiler = compiler


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
    full deploy."""
    root = firmware_dir() if root is None else root
    written = build.build(work_dir, root)
    work_dir = Path(work_dir)
    files = []
    config = None
    mpy = None
    for path in written:
        rel = path.relative_to(work_dir).as_posix()
        if rel == CONFIG:
            config = Item(rel, path.read_bytes())
        elif path.suffix in (".py", ".mpy", ".pack") or rel == CACHE:
            files.append(Item(rel, path.read_bytes()))
            if path.suffix == ".mpy":
                mpy = build.mpy_version(path)
    if config is None:
        raise DeployError("%s has no %s" % (root, CONFIG))
    lanes = check_config(config.data.decode(), Path(root) / CONFIG)
    files.sort(key=lambda it: _order(it.path))
    _check_paths(files + [config])
    return Plan(files, config, False, lanes, mpy, build.mpy_cross_version())


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
        if it.path in STATE_FILES or name.endswith(PART):
            raise DeployError("refusing to deploy %r: that name belongs to the state file "
                              "or to a copy in progress" % it.path)


def describe(plan: "Plan", port: str) -> list[str]:
    """The steps of a plan as lines of text (what --dry-run prints)."""
    out = []
    if plan.files:
        out.append("compile %d firmware files with %s" % (len(plan.files), plan.compiler))
    out.append("connect to %s with mpremote (raw REPL; stops the running app)"
               % ("the one Pico on USB" if port == "auto" else port))
    if plan.mpy is not None:
        out.append("refuse unless the device runs MicroPython %s or newer and loads .mpy "
                   "format v%d" % (".".join(str(v) for v in MIN_MICROPYTHON[:2]), plan.mpy))
    for it in plan.files:
        out.append("write %s (%d bytes, sha256 %s) unless the device has it already"
                   % (it.path, len(it.data), it.sha.hex()[:12]))
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
    out.append("never touch %s (the game in progress) or any file not listed here, but for "
               "that slot" % ", ".join(STATE_FILES))
    out.append("soft reset; send hello until the board answers ok proto=%d lanes=..."
               % protocol.PROTO)
    return out


# -- the device side: short programs run in the raw REPL -----------------------------------
