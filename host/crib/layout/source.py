"""Where the firmware tree is, and the board layout the companion reads from it.

The host finds the firmware one way only: beside the installed `pegboard` package (in a
source checkout that is firmware/; the build, the virtual board's runner and the shipped
layout are all found from there).
"""

from pathlib import Path

import pegboard
from pegboard.config import Config, ConfigError, default_dict, from_dict, load_config

SHIPPED = "config.json"  # the layout the firmware ships, in the firmware folder


def firmware_dir() -> Path:
    """The firmware folder: the one holding the pegboard package (and desk.py, main.py)."""
    return Path(pegboard.__file__).resolve().parent.parent


def shipped_layout() -> Path:
    """firmware/config.json (it may be missing from an installed companion)."""
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
