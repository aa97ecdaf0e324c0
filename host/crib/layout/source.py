"""Where the firmware tree is, and the board layout the companion reads from it.

The host finds the firmware one way only, firmware_dir(): the build, the virtual board's
runner and the shipped layout are all found from there. A wheel carries the tree as package
data in crib/firmware/ (pyproject.toml); a source checkout (an editable install) has it in
firmware/, the folder that holds the `pegboard` package.
"""

from pathlib import Path

import pegboard
from pegboard.config import Config, ConfigError, default_dict, from_dict, load_config

SHIPPED = "config.json"  # the layout the firmware ships, in the firmware folder


RUNNER = "desk.py"  # the desktop runner: in every firmware folder, beside main.py
PACKAGED = Path(__file__).resolve().parent.parent / "firmware"  # crib/firmware in a wheel


def firmware_dir() -> Path:
    """The firmware folder (main.py, desk.py, config.json, cribcore/, pegboard/): the copy
    a wheel installs in crib/firmware, else the source checkout's, beside `pegboard`."""
    if (PACKAGED / RUNNER).is_file():
        return PACKAGED
    return Path(pegboard.__file__).resolve().parent.parent


def shipped_layout() -> Path:
    """config.json in the firmware folder (load_layout falls back to the built-in one)."""
    return firmware_dir() / SHIPPED


def load_layout(path: "str | Path | None" = None) -> Config:
    """The board layout: from a config file, else the shipped firmware/config.json, else the
    built-in default; ConfigError (a CoreError) names a bad field or an unreadable file."""
    if path is None:
        path = shipped_layout()
        if not path.exists():
            return from_dict(default_dict())
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError("cannot read config %r: %s" % (str(path), e)) from None
    return load_config(text)
