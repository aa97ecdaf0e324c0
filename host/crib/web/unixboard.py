"""The board's own web server (firmware/boardweb) run under MicroPython's unix port with
its heap capped, as a real server process on a loopback port: the route tests, the
browser tier and bench/board_web.py play against it as phones play against a Pico 2 W.

    with UnixBoard(key, names=["Alice", "Bob"]) as url:   # http://127.0.0.1:PORT
        ...

The page's files are gzipped into a temporary folder (crib.web.assets, as `crib deploy`
stores them on a board); microdot is imported from its installed package.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from crib.errors import CribError
from crib.layout.source import firmware_dir
from crib.web import assets

# The heap the server runs in (bench/board_web.py: 1,000 answers with 4 phones peak at
# about 491 KB live). The unix port's objects are 64-bit: the same game takes 0.62-0.64 of
# the heap on the emulated Pico (32-bit), so this cap is about 410 KB of a board's heap,
# and the peak about 314 KB of a Pico 2 W's (about 400 KB, estimated). docs/boardweb.md.
HEAP = "640K"


class BoardServerError(CribError):
    """The board's server did not start (its output says why)."""


def micropython() -> str:
    """The unix port's interpreter (the test extra's), beside this Python or on PATH."""
    here = Path(sys.executable).with_name("micropython")
    found = str(here) if here.exists() else shutil.which("micropython")
    if not found:
        raise BoardServerError("no micropython interpreter (pip install '.[test]')")
    return found


def microdot_dir() -> str:
    """The folder holding the installed microdot package (found, not imported: microdot
    runs only in boardweb, under MicroPython; an import contract keeps it there)."""
    import importlib.util

    spec = importlib.util.find_spec("microdot")
    if spec is None or spec.origin is None:
        raise BoardServerError("microdot is not installed (pip install '.[test]')")
    return str(Path(spec.origin).resolve().parent.parent)


def free_port() -> int:
    """A TCP port free on the loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_udp_port() -> int:
    """A UDP port free on the loopback now."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class UnixBoard:
    """The board's server as a process (module docstring). names/target/dealer: the
    game's setup (else the page asks); hooks: the tests' /test/board and /test/heap;
    suits: each show card asked by rank and suit (else by ranks, as crib serve); dns: as on
    the board's own network (a DNS responder at dns_port, the phones' probes redirected);
    club, club_retry: the club night it reports its games to (boardweb.unix --club);
    home: a file where it keeps a home network (boardweb.unix --home: the page's Wi-Fi
    form; no radio joins it)."""

    def __init__(self, key: str, names: list[str] | None = None, target: int = 121,
                 dealer: int | None = 0, heap: str = HEAP, hooks: bool = True,
                 hosts: list[str] | None = None, firmware: str | Path | None = None,
                 suits: bool = False, store: str | None = None, dns: bool = False,
                 club: str | None = None, club_retry: int | None = None,
                 home: str | None = None):
        self.key = key
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.heap = heap
        self._dir = tempfile.TemporaryDirectory(prefix="crib-boardweb-")
        self.files = os.path.join(self._dir.name, "web")
        self.join_url = "%s/?k=%s" % (self.url, key)
        self.total = assets.write(self.files, self.join_url)
        args = ["--port", str(self.port), "--key", key, "--files", self.files,
                "--target", str(target), "--join", self.join_url]
        if names:
            args += ["--names", ",".join(names)]
        if dealer is not None:
            args += ["--dealer", str(dealer)]
        if hosts:
            args += ["--hosts", ",".join(hosts)]
        if hooks:
            args.append("--hooks")
        if suits:
            args.append("--suits")
        if store:
            args += ["--store", store]
        self.dns_port = None  # with dns: the own network's DNS responder (UDP, loopback)
        if dns:
            self.dns_port = free_udp_port()
            args += ["--dns-port", str(self.dns_port)]
        if home:  # a home network kept in this file (the page's Wi-Fi form), no radio
            args += ["--home", home]
        if club:
            args += ["--club", club]
        if club_retry:
            args += ["--club-retry", str(club_retry)]
        self.args = args
        self.firmware = str(firmware or firmware_dir())
        self.proc: subprocess.Popen | None = None
        self.log = os.path.join(self._dir.name, "server.log")

    def __enter__(self) -> str:
        return self.start()

    def restart(self, sig: int = signal.SIGKILL) -> str:
        """Stop the server with sig (SIGKILL: a power cut) and start it again, on the same
        port and store: what a board does when its power comes back."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(10)
        return self.start()

    def start(self) -> str:
        """Start the server's process; its url once it listens."""
        env = dict(os.environ, MICROPYPATH=os.pathsep.join(
            [".frozen", self.firmware, microdot_dir()]))
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [micropython(), "-X", "heapsize=" + self.heap, "-m", "boardweb.unix",
                 *self.args], env=env, stdout=out, stderr=subprocess.STDOUT,
                cwd=self._dir.name)
        deadline = time.monotonic() + 60  # a loaded machine is slow to start it
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.5):
                    return self.url
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                said = self.output()
                self.__exit__()
                raise BoardServerError("the board's server did not start:\n" + said)
            time.sleep(0.05)

    def output(self) -> str:
        """What the server printed so far."""
        try:
            return Path(self.log).read_text(errors="replace")
        except OSError:
            return ""

    def alive(self) -> bool:
        """Whether the server's process still runs."""
        return self.proc is not None and self.proc.poll() is None

    def __exit__(self, *exc) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._dir.cleanup()
