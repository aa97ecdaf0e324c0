"""Shared pieces of the link tests: patience under load, free ports, a fake peer, a
garbling proxy."""

import math
import os
import socket
import threading

from crib.board.link import RETRIES, TIMEOUT

# CI runs the tests two at a time on two cores beside other work, so a reply may wait
# seconds for a CPU (the runner's start, a burst of garbage to chew through). A test's
# `timeout` is when the link sends a line again, which is what fault tests exercise; how
# long it keeps trying before failing is PATIENCE, far past any pause the load causes, so
# a slow machine is never taken for a lost board. CRIB_TEST_PATIENCE scales it.
PATIENCE = 60.0 * float(os.environ.get("CRIB_TEST_PATIENCE", "1"))


def patient(timeout=TIMEOUT):
    """Link.open options: send again after `timeout` s, give up only after PATIENCE s."""
    return {"timeout": timeout, "retries": max(RETRIES, math.ceil(PATIENCE / timeout)),
            "reconnect": PATIENCE}


class UsbPort:
    """What serial.tools.list_ports.comports() lists for a port (the fields we read)."""

    def __init__(self, device, vid=None, pid=None, serial=None, description=""):
        self.device, self.vid, self.pid = device, vid, pid
        self.serial_number, self.description = serial, description


def free_port():
    """A TCP port nobody listens on now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class FakePeer:
    """A TCP server answering each line with reply(line) -> bytes (or b"" for nothing)."""

    def __init__(self, reply):
        self.reply = reply
        self.lines = []
        self.srv = socket.socket()
        self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(4)
        self.url = "socket://127.0.0.1:%d" % self.srv.getsockname()[1]
        self.closed = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while not self.closed:
            try:
                conn, _ = self.srv.accept()
            except OSError:
                return
            threading.Thread(target=self._talk, args=(conn,), daemon=True).start()

    def _talk(self, conn):
        buf = b""
        with conn:
            while True:
                try:
                    data = conn.recv(4096)
                except OSError:
                    return
                if not data:
                    return
                buf += data
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    self.lines.append(line.decode(errors="replace"))
                    out = self.reply(line.decode(errors="replace"))
                    if out:
                        conn.sendall(out)

    def close(self):
        self.closed = True
        self.srv.close()


class Proxy:
    """A TCP proxy to `target`; towards the client, chunks pass through mangle(bytes)."""

    def __init__(self, target, mangle):
        self.target = target
        self.mangle = mangle
        self.srv = socket.socket()
        self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(4)
        self.url = "socket://127.0.0.1:%d" % self.srv.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.srv.accept()
            except OSError:
                return
            up = socket.create_connection(self.target)
            threading.Thread(target=self._pump, args=(conn, up, None), daemon=True).start()
            threading.Thread(target=self._pump, args=(up, conn, self.mangle),
                             daemon=True).start()

    @staticmethod
    def _pump(src, dst, mangle):
        while True:
            try:
                data = src.recv(4096)
            except OSError:
                data = b""
            if not data:
                for s in (src, dst):
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                return
            try:
                dst.sendall(mangle(data) if mangle else data)
            except OSError:
                return

    def close(self):
        self.srv.close()
