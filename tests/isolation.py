"""Tests never read or write the user's own data: every test runs with a private HOME and data
folder (tests/conftest.py), set in the environment so the processes a test starts get them too.

The user's real data folders are found once, before anything is redirected, and kept in
CRIB_TESTS_REAL_DATA (pytest-xdist's workers inherit the redirected environment, so they read
them from there); a snapshot of them taken then is compared after each test.
"""

import json
import os
import tempfile
from pathlib import Path

REAL_FOLDERS = "CRIB_TESTS_REAL_DATA"


def real_data_folders():
    """crib's data folders in the environment as it is now: where it keeps its data and the
    folder older releases used (~/.local/share/crib); sorted, as strings."""
    from crib.env import data_dir, legacy_data_dir

    return sorted({str(data_dir()), str(legacy_data_dir())})


def snapshot(folders):
    """{path: (size, mtime_ns)} of the folders and everything in them ({} while absent)."""
    seen = {}
    for top in folders:
        for dirpath, _, filenames in os.walk(top):
            for path in [dirpath] + [os.path.join(dirpath, f) for f in filenames]:
                try:
                    st = os.stat(path)
                except OSError:  # gone while we looked: the next snapshot tells
                    continue
                seen[path] = (st.st_size, st.st_mtime_ns)
    return seen


def changes(before, after):
    """The paths added, removed or modified between two snapshots, sorted."""
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


# crib's own variables that point at the user's things: the virtual board's store and the
# board's port. The tests never inherit them (a test that wants one sets it).
CRIB_VARS = ("CRIB_SIM_STORE", "CRIB_PORT")


def private_environ(home):
    """HOME and the XDG folders (what decides where crib, and all a test runs, keeps its
    files) pointing into home."""
    home = Path(home)
    return {"HOME": str(home),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_STATE_HOME": str(home / ".local" / "state")}


def keep_tools_working():
    """Environment variables that keep pip finding the user's own cache and configuration
    under a private HOME (building and installing the wheel, pip download)."""
    home = Path(os.path.expanduser("~"))
    keep = {}
    cache = Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache") / "pip"
    if "PIP_CACHE_DIR" not in os.environ and cache.is_dir():
        keep["PIP_CACHE_DIR"] = str(cache)
    conf = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "pip" / "pip.conf"
    if "PIP_CONFIG_FILE" not in os.environ and conf.is_file():
        keep["PIP_CONFIG_FILE"] = str(conf)
    return keep


def redirect_session():
    """Point HOME and the XDG folders of this process at a new temporary folder for the
    whole session (session fixtures and xdist's workers start under it). Returns (the user's
    real data folders, that temporary folder, or None in a worker: its controller redirected
    already)."""
    saved = os.environ.get(REAL_FOLDERS)
    if saved:
        return json.loads(saved), None
    real = real_data_folders()
    if os.environ.get("CRIB_SIM_STORE"):
        real.append(os.environ["CRIB_SIM_STORE"])  # the user's virtual board: theirs too
    home = tempfile.mkdtemp(prefix="crib-tests-home-")
    os.environ.update(keep_tools_working())
    os.environ[REAL_FOLDERS] = json.dumps(real)
    os.environ.update(private_environ(home))
    for name in CRIB_VARS:
        os.environ.pop(name, None)
    return real, home
