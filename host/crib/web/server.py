"""Running the web app with uvicorn: in the foreground (`crib serve`), or on a thread of
its own (the tests and bench/web.py).

Strangers on the Wi-Fi cannot keep the players out: a connection that has not sent a
whole request head within REQUEST_S is closed (before the key is ever checked), and at
most PER_CLIENT connections of one address may wait for their first request; a new one
closes the oldest of them, so a phone that asks at once is always served, however many
idle sockets are open; at most MAX_OPEN connections are open in all (the oldest idle one
closed for a new one). After a response, uvicorn's keep-alive timeout closes idle ones. A
request's body comes whole within cribcore.web.edge.BODY_S (crib.web.app), and a process
out of files says so in its log once a while (Quiet), never a traceback per retry."""

import asyncio
import logging
import socket
import threading
import time
from typing import Any

import uvicorn

from crib.errors import CribError
from cribcore.web.edge import HEAD_S

REQUEST_S = float(HEAD_S)  # a connection sends a whole request head within this (the edge)
PER_CLIENT = 16  # connections of one address waiting for their first request, at most
MAX_OPEN = 256  # connections open in all: past it the oldest idle one is closed
SAY_EVERY_S = 30.0  # the log says "out of system resource" once in this long
FULL = ("crib serve: too many connections open (the system's limit of open files): new"
        " ones wait until some close")


class ListenError(CribError):
    """The web port cannot be listened on (in use, not allowed)."""


def lan_address() -> str:
    """This computer's address on the local network (no packet is sent)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def listen(lan: bool, port: int) -> socket.socket:
    """The listening socket: 127.0.0.1 unless lan (then every interface)."""
    # proto IPPROTO_TCP: asyncio then sets TCP_NODELAY on each connection (with proto 0 it
    # does not, and every reply on a kept-alive connection waits ~40 ms for a delayed ACK).
    host = "0.0.0.0" if lan else "127.0.0.1"
    if not 0 <= port <= 65535:
        raise ListenError(f"no such TCP port: {port} (0-65535; 0 picks a free one)")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError as e:
        sock.close()
        raise ListenError(f"cannot listen on {host}:{port}: {e.strerror or e} (another"
                          f" crib serve? --web-port N picks another port, 0 any free"
                          f" one)") from None
    return sock


class Quiet(logging.Filter):
    """asyncio's log of a listening socket out of files (`socket.accept() out of system
    resource`, a traceback each time it retries) said in one line once every
    SAY_EVERY_S, never a flood."""

    def __init__(self, every: float = SAY_EVERY_S) -> None:
        super().__init__()
        self.every = every
        self.said = -every

    def filter(self, record: logging.LogRecord) -> bool:
        text = str(record.msg)
        if "_start_serving" in text:
            return False  # that retry, due after the listening socket closed (stopping)
        if "out of system resource" not in text:
            return True
        now = time.monotonic()
        if now - self.said < self.every:
            return False
        self.said = now
        record.msg, record.args, record.exc_info, record.exc_text = FULL, (), None, None
        return True


QUIET = Quiet()


def guarded(base: type, request_s: float = REQUEST_S, per_client: int = PER_CLIENT,
            max_open: int = MAX_OPEN) -> type:
    """uvicorn's HTTP protocol class base, with the idle connections' limits (module
    docstring); its own count of waiting and open connections (one class per server)."""
    waiting: dict[str, list[Any]] = {}  # client address -> connections without a request yet
    opened: list[Any] = []  # every open connection, oldest first

    class Guarded(base):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            opened.append(self)
            if len(opened) > max_open:  # the oldest idle one goes (never self: last)
                for other in opened[:-1]:
                    if other.idle():
                        other._forget()
                        other.transport.close()
                        break
            self._host = self.client[0] if self.client else ""
            queue = waiting.setdefault(self._host, [])
            queue.append(self)
            self._timer = self.loop.call_later(request_s, self._too_slow)
            while len(queue) > per_client:  # the oldest waiting goes (never self: last)
                oldest = queue[0]
                oldest._forget()
                oldest.transport.close()

        def _too_slow(self) -> None:
            if self.cycle is None:  # no whole request head yet
                self.transport.close()
            self._forget()

        def _forget(self) -> None:
            timer, self._timer = getattr(self, "_timer", None), None
            if timer is not None:
                timer.cancel()
            queue = waiting.get(getattr(self, "_host", ""), [])
            if self in queue:
                queue.remove(self)
                if not queue:
                    waiting.pop(self._host, None)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None:
                self._forget()

        def idle(self) -> bool:
            """No request, or its response sent (kept alive): nobody waits on it."""
            return self.cycle is None or self.cycle.response_complete

        def connection_lost(self, exc: Exception | None) -> None:
            self._forget()
            if self in opened:
                opened.remove(self)
            super().connection_lost(exc)

    return Guarded


def server(app: Any, **options: Any) -> uvicorn.Server:
    """A uvicorn Server for app: quiet, quick to stop (open event streams are cut after a
    second), and guarded against idle connections (module docstring)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    options.setdefault("http", guarded(AutoHTTPProtocol))
    if QUIET not in logging.getLogger("asyncio").filters:
        logging.getLogger("asyncio").addFilter(QUIET)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1,
                            lifespan="on", **options)
    return uvicorn.Server(config)


class Background:
    """The app served on a thread (on sock, default a free loopback port):
    `with Background(app) as url`."""

    def __init__(self, app: Any, sock: socket.socket | None = None) -> None:
        self.sock = sock or listen(False, 0)
        self.url = "http://127.0.0.1:%d" % self.sock.getsockname()[1]
        self.server = server(app)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web server did not start")
            time.sleep(0.01)
        return self.url

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
