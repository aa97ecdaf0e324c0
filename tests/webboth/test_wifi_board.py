"""The Pico 2 W's whole path, but the radio, under MicroPython's unix port (wifiboard.py):
pegboard.wifi brings the board up, boardweb.serve serves the table, and the board's USB
port, its buttons and its game record on flash keep working beside the phones."""

import os
import queue
import signal
import subprocess
import threading
import time

import httpx2 as httpx
import pytest
from both import Q, Table, seat, state

from crib.layout.source import firmware_dir
from crib.web import assets
from crib.web.unixboard import HEAP, free_port, microdot_dir, micropython
from cribcore.protocol import decode
from pegboard.joining import extend_protocol

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = 61


class WifiBoard:
    """The board as a process: its USB lines (usb(), said()) and its page (client())."""

    def __init__(self, root, dns_port=None):
        self.root = root
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.lines = queue.Queue()
        env = dict(os.environ, MICROPYPATH=os.pathsep.join(
            [".frozen", str(firmware_dir()), microdot_dir()]))
        self.proc = subprocess.Popen(
            [micropython(), "-X", "heapsize=" + HEAP, os.path.join(HERE, "wifiboard.py"),
             str(root), str(self.port)] + ([str(dns_port)] if dns_port else []),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        threading.Thread(target=self._read, daemon=True).start()
        self.seen = []

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode(errors="replace").rstrip("\n"))

    def said(self, prefix, seconds=20):
        """The first line the board wrote on USB, not taken yet, that begins with prefix
        (waiting for it)."""
        for line in self.seen:
            if line.startswith(prefix):
                self.seen.remove(line)
                return decode(line)
        end = time.monotonic() + seconds
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError("no %r on USB: %r" % (prefix, self.seen)) from None
            if line.startswith(prefix):
                return decode(line)
            self.seen.append(line)

    def usb(self, line, reply="ok"):
        """Send a line on USB; the board's reply."""
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        return self.said(reply)

    def client(self, key):
        end = time.monotonic() + 60  # a loaded machine is slow to start it
        while True:
            try:
                c = httpx.Client(base_url=self.url, headers={"X-Crib-Key": key}, timeout=20)
                c.get("/join.json")
                return c
            except httpx.HTTPError:
                if self.proc.poll() is not None or time.monotonic() > end:
                    raise AssertionError("no server: %r" % self.seen) from None
                time.sleep(0.1)

    def cut(self):
        """The power cut: the process killed at once."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture
def root(tmp_path):
    assets.write(str(tmp_path / "page"), "http://192.168.4.1/")
    extend_protocol()  # the `wifi` verb's fields, as crib.board.wifi reads them
    return tmp_path


SETUP = {"names": "Alice Bob", "target": str(TARGET), "dealer": "Alice"}


def set_up(c):
    """The page's setup questions answered from the shared screen; the state after."""
    shared = seat(c, "table")
    s = state(c)
    while s["question"]["kind"] in SETUP:
        q = s["question"]
        r = c.post("/api/answer", json={"question": q["id"], "answer": SETUP[q["kind"]],
                                        **shared})
        assert r.status_code == 200, r.text
        s = state(c)
    return s


def answer(c, table, s):
    q = s["question"]
    r = c.post("/api/answer", json={"question": q["id"], **table.who(q),
                                    "answer": table.players.answer(Q(q))})
    assert r.status_code == 200, r.text
    return state(c)


def until(c, table, kind):
    s = state(c)
    for _ in range(200):
        if s["question"]["kind"] == kind:
            return s
        s = answer(c, table, s)
    raise AssertionError("never asked %s" % kind)


def tap(board, button):
    """A tap on one of the board's buttons (the desk's `btn` verb on its USB)."""
    # Held past the debounce on the board's clock, moved by `tick` (from then on the board's
    # time moves only so): a loaded machine could not run the board while a tap held by
    # the wall clock lasted, and the board would never see it.
    board.usb("btn b=%s on=1" % button)
    board.usb("tick ms=60")
    board.usb("btn b=%s on=0" % button)
    board.usb("tick ms=60")


def changed(c, scores, seconds=10):
    """The page's state once its scores are no longer these."""
    end = time.monotonic() + seconds
    while True:
        s = state(c)
        if s["view"]["scores"] != scores:
            return s
        assert time.monotonic() < end, "the press never reached the page"
        time.sleep(0.05)


def test_usb_buttons_and_the_page_share_the_board_and_a_cut_loses_nothing(root):
    board = WifiBoard(root)
    try:
        board.said("evt boot")
        details = board.usb("wifi").args
        assert details["address"] == "192.168.4.1"
        c = board.client(details["key"])
        assert c.get("/state", headers={"X-Crib-Key": "wrong-key-000000000000"}
                     ).status_code == 403
        r = c.get("/state", headers={"Host": "192.168.4.1.evil.example"})
        assert r.status_code == 421  # only the board's own address is answered
        assert set_up(c)["view"]["target"] == TARGET
        table = Table(c, TARGET)
        s = until(c, table, "play")  # set up by the page, dealt, cut
        assert s["view"]["names"] == ["Alice", "Bob"]
        assert board.usb("hello").args["players"] == 2  # USB answers while the page runs

        # A press on Bob's button: the LEDs peg it, and every phone hears of it.
        before = s["view"]["scores"]
        for button in ("lane1", "confirm"):  # a tap, then confirm pegs it at once
            tap(board, button)
        assert board.said("evt peg").args["n"] == 1
        s = changed(c, before)
        assert s["view"]["scores"] == [before[0], before[1] + 1]
        assert any(e["kind"] == "say" and e["who"] == "Bob" for e in s["log"][-3:]), s["log"]
        tap(board, "undo")  # and the board's undo takes it back, on the page too
        assert board.said("evt undo").args["p"] == 1
        s = changed(c, s["view"]["scores"])
        assert s["view"]["scores"] == before

        for _ in range(6):
            s = answer(c, table, s)
        kept = s["view"]
        board.cut()
        c.close()

        board = WifiBoard(root)  # power back: the same details, the game where it was
        board.said("evt boot")
        assert board.usb("wifi").args["key"] == details["key"]
        c = board.client(details["key"])
        s = state(c)
        assert s["view"]["scores"] == kept["scores"]
        assert s["view"]["hand"] == kept["hand"]
        assert any("resumed" in (e["text"] or "") for e in s["log"]), s["log"]
        assert board.usb("games").kind == "ok"  # the record's verb over USB
    finally:
        if board.proc.poll() is None:
            board.cut()


def test_on_its_own_network_the_board_answers_dns_and_sends_probes_to_the_page(root):
    """pegboard.wifi's radio on the own network (no home network set), boardweb.serve's
    DNS responder and probe routes following it: real UDP and HTTP on loopback."""
    import socket
    import struct

    from crib.web.unixboard import free_udp_port

    dns_port = free_udp_port()
    board = WifiBoard(root, dns_port)
    try:
        key = board.usb("wifi").args["key"]
        c = board.client(key)
        home = board.usb("home")
        assert (home.args["net"], home.args["address"]) == ("own", "192.168.4.1")
        assert home.args["name"].startswith("cribbage-")
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.settimeout(20)
            sock.sendto(struct.pack(">HHHHHH", 99, 0x0100, 1, 0, 0, 0)
                        + b"\x07captive\x05apple\x03com\x00\x00\x01\x00\x01",
                        ("127.0.0.1", dns_port))
            reply = sock.recv(512)
        assert reply[:2] == b"\x00\x63" and reply[-4:] == bytes([192, 168, 4, 1])
        r = c.get("/hotspot-detect.html", headers={"Host": "captive.apple.com"})
        assert r.status_code == 302
        # the page by the own network's address (here with the tests' port)
        assert r.headers["location"] == "http://192.168.4.1:%d/?k=%s" % (board.port, key)
        assert c.get("/hotspot-detect.html", headers={"Host": "elsewhere.example"}
                     ).status_code == 421
    finally:
        board.cut()
