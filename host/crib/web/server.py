"""Running the web app with uvicorn: in the foreground (`crib serve`), or on a thread of
its own (the tests and bench/web.py)."""

import socket
import threading
import time

import uvicorn

from crib.errors import CribError


class ListenError(CribError):
    """The web port cannot be listened on (in use, not allowed)."""


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


def server(app, **options) -> uvicorn.Server:
    """A uvicorn Server for app: quiet, and quick to stop (open event streams are cut after
    a second)."""
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1,
                            lifespan="on", **options)
    return uvicorn.Server(config)


class Background:
    """The app served on a thread (on sock, default a free loopback port):
    `with Background(app) as url`."""

    def __init__(self, app, sock: socket.socket | None = None):
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

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
