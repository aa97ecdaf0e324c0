"""The virtual board: the firmware's desktop runner (firmware/desk.py) behind a pseudo
terminal and/or a TCP socket, so the companion talks to it like to a Pico on USB.

A VirtualBoard runs the runner as a child process and a hub thread between them: lines
from every client (the pty, each TCP connection, the sim's own screen through ask())
go to the runner whole, one line at a time; each reply goes back to whoever sent the
line (the runner answers every line once, in order); events go to everybody. If the
runner dies it is started again on the same store, like a Pico after a reset: clients
see `evt boot`. With a store, the board holds a lock there and writes its port in
`sim.port`, so `--board sim` finds a running sim instead of starting a second runner
on the same state. A game for more lanes than the shipped layout has gets a layout of
its own, written into the store (`widen`), which the board on that store runs from then
on. docs/sim.md.
"""

from __future__ import annotations

import os
import queue
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import cast

from crib.sim import runner
from crib.sim.lines import Ask, Client
from crib.sim.store import (
    SimError,
    publish,
    release_store,
    store_layout,
    take_store,
    write_layout,
)
from cribcore.protocol import MAX_REPLY, LineReader, ProtocolError, decode

# A runner dying this many times before it said a line (or within a second of starting):
# give up. The line is the condition: on a loaded machine a runner that cannot even start
# may take longer than a second to die.
_QUICK_DEATHS = 5
_RESTART = "restart"  # in the hub's queue of asks: end the runner so it starts again
# Pseudo terminals are POSIX: where there are none (Windows), a board that asked for one
# listens on a local TCP socket instead (socket://127.0.0.1:PORT works for every command).
HAS_PTY = hasattr(os, "openpty")
# The runner waits on its stdin with select.poll and the hub selects on the runner's pipes:
# neither works on Windows yet (pipes are not selectable there), so there the virtual board
# refuses to start with a clear error instead of a traceback.
UNSUPPORTED = ("the virtual board does not run on Windows yet (its runner and hub wait on "
               "pipes with select); play with --board none, or on Linux or macOS")
RUNS_HERE = sys.platform != "win32"


class VirtualBoard:
    """The desktop runner behind a pty (`port`) and/or a TCP socket (`address`)."""

    def __init__(self, store: str | None = None, config: str | None = None, pty: bool = True,
                 address: tuple[str, int] | None = None, driven: bool = False,
                 python: str | None = None, runner: str | None = None,
                 restart: bool = True) -> None:
        self.store = store
        self.config = config
        self.use_pty = pty
        self.address = address
        self.driven = driven
        self.python = python or sys.executable
        self.runner = runner
        self.restart = restart
        self.port: str | None = None  # the pty's device path
        self.link: str | None = None  # store/tty: a stable path to the pty, across restarts
        self.listeners: list[Callable[[str], None]] = []  # callables given every event line
        # fault tests: fn(line) -> the bytes clients get instead (b"": none)
        self.tap: Callable[[str], bytes] | None = None
        # the runner's stderr and any line it sent that is not protocol
        self.log: list[str] = []
        self.given: list[str] = []  # the last lines given to the runner (fault tests)
        self.starts = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._sel: selectors.BaseSelector | None = None
        self._thread: threading.Thread | None = None
        self._closing = False
        self._fifo: list[Client | Ask] = []  # who sent each line the runner has yet to answer
        self._clients: dict[int | socket.socket, Client] = {}  # fileobj -> Client
        self._asks: queue.Queue[Ask | str] = queue.Queue()  # lines, or _RESTART
        self._lockfd: int | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._server: socket.socket | None = None
        self._wake_r: int | None = None
        self._wake_w: int | None = None
        self._out = LineReader(MAX_REPLY)
        self._quick = 0
        # the runner kill() or reset() stopped: its death is no crash
        self._killed: subprocess.Popen[bytes] | None = None
        self._frozen: subprocess.Popen[bytes] | None = None  # the runner freeze() stopped
        self._freeze_at: str | None = None  # freeze_at(): the line that stops the runner
        self._started_at = 0.0
        self._spoke = False  # the runner now up has said a line on its stdout

    @property
    def _hub(self) -> selectors.BaseSelector:
        """The hub's selector (start makes it)."""
        assert self._sel is not None, "the virtual board was not started"
        return self._sel

    # -- life ------------------------------------------------------------------------------

    def start(self) -> VirtualBoard:
        """Take the store, open the pty and/or socket, start the runner and the hub."""
        if not RUNS_HERE:
            raise SimError(UNSUPPORTED)
        try:
            self._open()
        except BaseException:
            self.close()
            raise
        self._thread = threading.Thread(target=self._loop, daemon=True, name="crib-sim-hub")
        self._thread.start()
        return self

    def _open(self) -> None:
        self._sel = selectors.DefaultSelector()
        if self.store is not None:
            self._lockfd = take_store(self.store)
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._sel.register(self._wake_r, selectors.EVENT_READ, "wake")
        if self.use_pty and not HAS_PTY:
            self.use_pty = False
            if self.address is None:
                self.address = ("127.0.0.1", 0)
        if self.use_pty:
            import tty  # POSIX, like the pty itself

            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)  # no echo, no line editing: bytes pass as they are
            os.set_blocking(self._master, False)
            self.port = os.ttyname(self._slave)
            self._clients[self._master] = Client("pty", self._pty_write)
            self._sel.register(self._master, selectors.EVENT_READ, "client")
        if self.address is None and self.store is not None:
            # Commands that find this board through the store (--board sim) each get a
            # connection of their own here; a pty is one connection for one program.
            self.address = ("127.0.0.1", 0)
        if self.address is not None:
            srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                srv.bind(self.address)
            except OSError as e:
                srv.close()
                raise SimError("cannot listen on %s:%d: %s" % (self.address + (e,))) from None
            srv.listen(8)
            srv.setblocking(False)
            self._server = srv
            self.address = srv.getsockname()[:2]
            self._sel.register(srv, selectors.EVENT_READ, "accept")
        self._spawn()
        if self.store is not None:
            self._publish(self.store)

    def _publish(self, store: str) -> None:
        url = self.socket_url or self.url
        assert url is not None  # a board on a store always listens on TCP (_open)
        self.link = publish(store, url, self.port)

    @property
    def url(self) -> str | None:
        """What to give --port: the pty path, else socket://HOST:PORT."""
        if self.port:
            return self.port
        return self.socket_url

    @property
    def socket_url(self) -> str | None:
        """socket://HOST:PORT of the TCP listener (None without one)."""
        if self._server is None or self.address is None:
            return None
        return "socket://%s:%d" % self.address

    def close(self, kill: bool = False) -> None:
        """Stop the hub and the runner: closing its stdin lets it finish and exit, or with
        kill, SIGKILL it first (a power cut)."""
        if kill:
            self.kill()
        self.thaw()  # a frozen runner could not finish
        self._closing = True
        if self._wake_w is not None:
            try:
                os.write(self._wake_w, b"x")
            except OSError:
                pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)
        self._stop_runner()
        if self._sel is not None:
            self._sel.close()
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = self._wake_r = self._wake_w = None
        for c in list(self._clients):
            if isinstance(c, socket.socket):
                c.close()
        self._clients = {}
        if self._server is not None:
            self._server.close()
        if self._lockfd is not None and self.store is not None:  # the lock is the store's
            release_store(self.store, self._lockfd)
            self._lockfd = None
        self._fail_asks()

    def __enter__(self) -> VirtualBoard:
        return self if self._thread is not None else self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def kill(self) -> None:
        """Kill the runner at once (SIGKILL, mid-write if it was writing; frozen or not); the
        hub starts it again, as a Pico's reset would."""
        proc = self._proc
        if proc is not None and proc.poll() is None:
            self._killed = proc
            proc.kill()

    # Fault tests: a board that hangs. freeze() stops the runner where it is (SIGSTOP):
    # lines sent meanwhile wait for it (`unanswered` counts them), as on a Pico stuck
    # mid-command; then thaw() lets it go on and answer them, or kill() resets it and
    # they are lost.

    def freeze(self) -> None:
        """Stop the runner (SIGSTOP) until thaw() or kill(); SimError if none is running."""
        proc = self._proc
        if proc is None or proc.poll() is not None:
            raise SimError("no runner to freeze; log: %r" % (self.log[-5:],))
        self._frozen = proc
        proc.send_signal(signal.SIGSTOP)

    def freeze_at(self, prefix: str) -> None:
        """Freeze the runner just before it is given the next line that starts with prefix:
        that line then waits for it, as a command a Pico got and is stuck on. (A test that
        froze first and then sent could find the client holding the line back instead,
        e.g. a companion offline by its own budget on a loaded machine.)"""
        self._freeze_at = prefix

    @property
    def frozen(self) -> bool:
        """Whether the runner is stopped by freeze() or freeze_at()."""
        return self._frozen is not None

    def thaw(self) -> None:
        """Let a runner stopped by freeze() go on (nothing if it was killed meanwhile)."""
        proc, self._frozen = self._frozen, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGCONT)

    @property
    def runner_pid(self) -> int | None:
        """The runner's process id (None while it is down); each restart has a new one."""
        proc = self._proc
        return proc.pid if proc is not None else None

    @property
    def unanswered(self) -> int:
        """How many lines the runner has been given and not yet answered."""
        return len(self._fifo)

    @property
    def layout(self) -> str | None:
        """The layout file the runner is started with: --config, else one crib wrote into
        the store (store_layout), else None (the shipped firmware/config.json)."""
        return self.config if self.config is not None else store_layout(self.store)

    def lanes(self, timeout: float = 30.0) -> int:
        """The lanes of the layout the runner runs (asked with hello); SimError if it does
        not answer within timeout s (a runner just started may still be importing)."""
        try:
            return decode(self.ask("hello", timeout) or "").args["lanes"]
        except (ProtocolError, KeyError):
            raise SimError("the runner did not answer hello; log: %r"
                           % (self.log[-5:],)) from None

    def reset(self, timeout: float = 10.0) -> None:
        """Reset the runner on purpose: it answers the lines it has, exits, and the hub starts
        it again on the same store (clients see `evt boot`). Waits for the new one."""
        if not self.restart:
            raise SimError("this virtual board does not start its runner again")
        if self._wake_w is None:
            raise SimError("the virtual board is not running")
        count = self.starts + 1
        self._asks.put(_RESTART)
        os.write(self._wake_w, b"x")
        self.wait_started(count, timeout)

    def widen(self, lanes: int) -> bool:
        """Run a layout of at least `lanes` lanes: if the runner has fewer and was given no
        --config, write layout_for(lanes) into the store and restart it on that (the game
        in progress stays). True if it has them now, False if it cannot."""
        have = self.lanes()
        if have >= lanes:
            return True
        if self.config is not None or self.store is None:
            return False
        write_layout(self.store, lanes)
        self.reset()
        if self.lanes() != lanes:
            raise SimError("the runner refused the layout written to %s; log: %r"
                           % (self.store, self.log[-5:]))
        return True

    @property
    def clients(self) -> list[str]:
        """Names of the connections: "pty" (always there) and each TCP client's address."""
        return [c.name for c in list(self._clients.values())]

    @property
    def alive(self) -> bool:
        """True while a runner process is up."""
        return self._proc is not None and self._proc.poll() is None

    def wait_started(self, count: int, timeout: float = 10.0) -> None:
        """Wait until the runner has been started `count` times (restarts included)."""
        end = time.monotonic() + timeout
        while self.starts < count or not self.alive:
            if time.monotonic() > end:
                raise SimError("the runner did not start; log: %r" % (self.log[-5:],))
            time.sleep(0.01)

    # -- the sim's own lines -----------------------------------------------------------------

    def ask(self, line: str, timeout: float = 5.0) -> str | None:
        """Send a line from the sim itself (leds, state, btn ...); its reply line, or None
        if the runner died or did not answer in time."""
        a = Ask(line)
        self._asks.put(a)
        if self._wake_w is None:  # not started, or closed
            return None
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            return None
        a.done.wait(timeout)
        return a.reply

    def _fail_asks(self) -> None:
        while True:
            try:
                a = self._asks.get_nowait()
            except queue.Empty:
                return
            if isinstance(a, Ask):  # not _RESTART
                a.done.set()

    # -- the runner --------------------------------------------------------------------------

    def _command(self) -> list[str]:
        return runner.command(self.python, self.runner, self.store, self.layout, self.driven)

    def _spawn(self) -> None:
        proc = runner.spawn(self._command())
        _, stdout, stderr = runner.pipes(proc)
        self._hub.register(stdout, selectors.EVENT_READ, "out")
        self._hub.register(stderr, selectors.EVENT_READ, "err")
        self._proc = proc
        self._out = LineReader(MAX_REPLY)
        self._fifo = []
        self.starts += 1
        self._started_at = time.monotonic()
        self._spoke = False

    def _stop_runner(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            runner.stop(proc)

    def _runner_died(self, proc: subprocess.Popen[bytes]) -> None:
        """The runner's stdout ended: unanswered lines get nothing; start it again."""
        _, stdout, stderr = runner.pipes(proc)
        for f in (stdout, stderr):
            try:
                self._hub.unregister(f)
            except (KeyError, ValueError):
                pass
        self._said(runner.reap(proc))
        self.log.append("runner exited with %d" % proc.returncode)
        for owner in self._fifo:
            if isinstance(owner, Ask):
                owner.done.set()
        self._fifo = []
        self._proc = None
        # A runner that keeps dying by itself right after its start will not get better.
        quick = self._killed is not proc and (
            not self._spoke or time.monotonic() - self._started_at < 1.0)
        self._quick = self._quick + 1 if quick else 0
        if self.restart and not self._closing and self._quick < _QUICK_DEATHS:
            self._spawn()

    def _said(self, text: str) -> None:
        """Keep what the runner said on stderr (the last 100 lines)."""
        if text:
            self.log.extend(text.splitlines())
            del self.log[:-100]

    def _to_runner(self, data: bytes, owners: Sequence[Client | Ask]) -> None:
        """Write whole lines to the runner; owners receive their replies in order."""
        proc = self._proc
        if proc is None or runner.pipes(proc)[0].closed:
            for owner in owners:
                if isinstance(owner, Ask):
                    owner.done.set()
            return  # a board in reset hears nothing: the client will send again
        self._fifo.extend(owners)
        lines = data.decode("utf-8", "replace").splitlines()
        self.given.extend(lines)
        del self.given[:-50]
        if self._freeze_at is not None and any(x.startswith(self._freeze_at) for x in lines):
            self._freeze_at = None
            self.freeze()  # before the write: the line waits in the pipe for the runner
        try:
            runner.pipes(proc)[0].write(data)
        except (BrokenPipeError, OSError):
            pass  # it is dying: its stdout ends next and _runner_died cleans up

    # -- the hub loop ------------------------------------------------------------------------

    def _loop(self) -> None:
        while not self._closing:
            try:
                ready = self._hub.select(0.5)
            except (OSError, ValueError):
                return
            for key, _ in ready:
                if self._closing:
                    return
                what = key.data
                if what == "wake":
                    self._wake()
                elif what == "out":
                    self._from_runner()
                elif what == "err":
                    self._drain_stderr_once()
                elif what == "accept":
                    self._accept()
                else:  # "client": the pty's fd or a TCP connection
                    self._from_client(cast("int | socket.socket", key.fileobj))

    def _wake(self) -> None:
        try:
            if self._wake_r is not None:  # None: closed
                os.read(self._wake_r, 4096)
        except OSError:
            pass
        while True:
            try:
                a = self._asks.get_nowait()
            except queue.Empty:
                return
            if isinstance(a, Ask):
                self._to_runner(a.line.encode() + b"\n", [a])
            else:  # _RESTART
                self._end_runner()

    def _end_runner(self) -> None:
        """reset(): close the runner's stdin; once it has answered and exits, it is
        started again (_runner_died)."""
        proc = self._proc
        if proc is not None and not runner.pipes(proc)[0].closed:
            self._killed = proc
            try:
                runner.pipes(proc)[0].close()
            except OSError:
                pass

    def _drain_stderr_once(self) -> None:
        proc = self._proc
        try:
            data = runner.pipes(proc)[2].read(65536) if proc else None
        except OSError:
            data = None
        if data:
            self._said(data.decode(errors="replace"))

    def _from_runner(self) -> None:
        proc = self._proc
        if proc is None:  # stopped meanwhile (close)
            return
        try:
            data = runner.pipes(proc)[1].read(65536)
        except OSError:
            data = b""
        if data is None:
            return
        if not data:
            self._runner_died(proc)
            return
        for item in self._out.feed(data):
            self._spoke = True
            if not isinstance(item, str):
                self.log.append("runner sent a bad line: %s" % item)
                continue
            raw = item.encode() + b"\n"
            if self.tap is not None:
                raw = self.tap(item)
            word = item.split(" ", 1)[0]
            if word == "evt":
                for c in list(self._clients.values()):
                    c.write(raw)
                for fn in list(self.listeners):
                    fn(item)
            elif word in ("ok", "err") and self._fifo:
                owner = self._fifo.pop(0)
                owner.write(item.encode() + b"\n" if isinstance(owner, Ask) else raw)
            else:
                self.log.append(item)
                del self.log[:-100]

    def _accept(self) -> None:
        if self._server is None:  # closed meanwhile
            return
        try:
            conn, peer = self._server.accept()
        except OSError:
            return
        conn.setblocking(False)

        def write(data: bytes, conn: socket.socket = conn) -> None:
            try:
                conn.send(data)
            except OSError:
                pass  # a client that stopped reading loses lines, as on a real port

        self._clients[conn] = Client("%s:%d" % peer[:2], write)
        self._hub.register(conn, selectors.EVENT_READ, "client")

    def _from_client(self, f: int | socket.socket) -> None:
        client = self._clients.get(f)
        if client is None:
            return
        try:
            data = os.read(f, 4096) if isinstance(f, int) else f.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            if isinstance(f, socket.socket):
                self._hub.unregister(f)
                del self._clients[f]
                f.close()
            return
        for seg in client.segments(data):
            owners = [client] * len(client.counter.feed(seg))
            self._to_runner(seg, owners)

    def _pty_write(self, data: bytes) -> None:
        if self._master is None:  # closed: the line is lost
            return
        try:
            os.write(self._master, data)
        except OSError:
            pass  # nobody reads the pty and its buffer is full: the line is lost


