"""The virtual board's store: the folder that holds its state, its lock and port files
(take_store, publish, release_store, running_sim), and the layout crib writes there for a
game of more lanes; where the runner is; --socket.
"""

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from crib.env import data_dir
from crib.errors import CribError
from crib.filelock import try_lock, unlock
from crib.layout.source import RUNNER, firmware_dir
from pegboard.config import default_dict, from_dict, lane_layout

STORE_LAYOUT = "config.json"  # in a store: the layout crib wrote there for more lanes
# The lanes a generated layout adds after the shipped ones (a free GPIO for the button).
EXTRA_LANES = ({"name": "Yellow", "colour": [255, 210, 0], "button": 7},)
MAX_LANES = len(default_dict()["lanes"]) + len(EXTRA_LANES)  # the most a layout may have: 4


class SimError(CribError):
    """The virtual board could not start (no runner, a busy store, a bad address)."""


def default_store(environ: Mapping[str, str] | None = None) -> str:
    """Where the virtual board keeps its state unless --store says: $CRIB_SIM_STORE, or
    crib/sim in crib's data folder (crib.env.data_dir)."""
    environ = os.environ if environ is None else environ
    return environ.get("CRIB_SIM_STORE") or str(data_dir(environ) / "sim")


def desk_path() -> Path:
    """firmware/desk.py (the firmware folder: crib.layout.source)."""
    path = firmware_dir() / RUNNER
    if not path.exists():
        raise SimError("the desktop runner %s is missing: reinstall crib" % path)
    return path


def parse_address(text: str) -> tuple[str, int]:
    """(host, port) from HOST:PORT or :PORT (host 127.0.0.1); SimError if bad."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise SimError("expected HOST:PORT for --socket, got %r" % (text,))
    return (host or "127.0.0.1", int(port))


def make_store(store: str) -> None:
    """Make the store's folder if it is not there; SimError if it cannot be one."""
    try:
        os.makedirs(store, exist_ok=True)
    except OSError as e:
        raise SimError("cannot use %r as the virtual board's store: %s"
                       % (store, e.strerror or e)) from None


def take_store(store: str) -> int:
    """Make the store if need be and hold its lock (store/sim.lock), for as long as the
    returned fd stays open; SimError if a virtual board already runs on it."""
    make_store(store)
    fd = os.open(os.path.join(store, "sim.lock"), os.O_RDWR | os.O_CREAT, 0o644)
    if not try_lock(fd):
        os.close(fd)
        raise SimError("a virtual board already runs on %s (port %s)"
                       % (store, running_sim(store))) from None
    return fd


def publish(store: str, url: str, pty: str | None) -> str | None:
    """Say where the board on store is: store/sim.port holds the URL to reach it, store/tty
    links to its pty (if it has one: that link's path is returned)."""
    link = None
    if pty:
        link = os.path.join(store, "tty")
        tmp = link + ".new"
        try:
            os.unlink(tmp)
        except OSError:
            pass
        os.symlink(pty, tmp)
        os.replace(tmp, link)
    with open(os.path.join(store, "sim.port"), "w") as f:
        f.write(url + "\n")
    return link


def release_store(store: str, fd: int) -> None:
    """The board on store has stopped: its port files go, its lock is let go."""
    for name in ("sim.port", "tty"):
        try:
            os.unlink(os.path.join(store, name))
        except OSError:
            pass
    unlock(fd)


def running_sim(store: str) -> str | None:
    """The port of a virtual board running on `store` (it holds the lock), else None."""
    lock = os.path.join(store, "sim.lock")
    try:
        fd = os.open(lock, os.O_RDWR)
    except OSError:
        return None
    if try_lock(fd):
        unlock(fd)
        return None
    os.close(fd)
    try:
        with open(os.path.join(store, "sim.port")) as f:
            return f.read().split()[0]
    except (OSError, IndexError):
        return None


def layout_for(lanes: int) -> dict[str, Any]:
    """The shipped layout (pegboard.config.default_dict) with `lanes` lanes on its serpentine
    chain: the shipped lanes first, then EXTRA_LANES; as a dict, validated."""
    d = default_dict()
    looks = [{k: ln[k] for k in ("name", "colour", "button")} for ln in d["lanes"]]
    looks += [dict(ln) for ln in EXTRA_LANES]
    if not 2 <= lanes <= MAX_LANES:
        raise SimError("the virtual board can have 2 to %d lanes, not %r" % (MAX_LANES, lanes))
    leds = lanes * d["holes"]
    # The same light as the shipped board above what the longer chain draws when idle.
    d["budget_ma"] += (leds - d["leds"]) * d["led_ma"]["idle"]
    d["leds"] = leds
    d["lanes"] = [dict(look, segments=seg)
                  for look, seg in zip(looks, lane_layout(lanes, d["holes"]))]
    return from_dict(d).to_dict()


def store_layout(store: str | None) -> str | None:
    """The layout crib wrote into `store` for a game of more lanes (its path), or None: the
    virtual board on that store runs it unless given another with --config."""
    if store is None:
        return None
    path = os.path.join(store, STORE_LAYOUT)
    return path if os.path.exists(path) else None


def write_layout(store: str, lanes: int) -> str:
    """Write layout_for(lanes) into `store` (atomically); its path."""
    d = layout_for(lanes)
    d["_comment"] = ("written by crib for a game of %d lanes on the virtual board; delete it "
                     "(no sim running) to go back to the shipped layout" % lanes)
    make_store(store)
    path = os.path.join(store, STORE_LAYOUT)
    with open(path + ".new", "w") as f:
        json.dump(d, f, indent=1)
    os.replace(path + ".new", path)
    return path
