"""Faults: the runner killed at random moments during 1,000 pegs; garbage on the wire."""

import random
import socket
import threading
import time

import pytest
from rig import PATIENCE, Proxy, free_port, patient

from crib.board.link import Link
from crib.sim.virtual import VirtualBoard

PEGS = 1000


def start(store, transport, port):
    address = ("127.0.0.1", port) if transport == "socket" else None
    return VirtualBoard(str(store), pty=transport == "pty", address=address).start()


def url(vb):
    return vb.link if vb.port else vb.socket_url


class Killer(threading.Thread):
    """Every 10 to 40 pegs, kills the runner a random 0..3 ms into a command (before, while
    or after the runner handles it): mostly a reset, sometimes the whole port goes, as when
    the USB cable is pulled."""

    def __init__(self, vb, store, transport, port, seed):
        super().__init__(daemon=True)
        self.vb = vb
        self.store, self.transport, self.port = store, transport, port
        self.rng = random.Random(seed)
        self.stop = threading.Event()
        self.done = 0  # pegs acknowledged so far (the test counts)
        self.kills = self.unplugs = 0

    def run(self):
        at = self.rng.randint(10, 40)
        while not self.stop.is_set():
            if self.done < at:
                time.sleep(0.0005)
                continue
            time.sleep(self.rng.uniform(0, 0.003))
            if self.rng.random() < 0.8:
                self.vb.kill()
                self.kills += 1
            else:
                self.vb.close(kill=True)
                time.sleep(self.rng.uniform(0, 0.05))
                self.vb = start(self.store, self.transport, self.port)
                self.unplugs += 1
            at = self.done + self.rng.randint(10, 40)


@pytest.mark.parametrize("transport", ["pty", "socket"])
def test_every_acknowledged_peg_is_there_once(tmp_path, transport):
    port = free_port()
    store = tmp_path / "store"
    vb = start(store, transport, port)
    drift = []
    link = Link.open(url(vb), on_event=lambda e: e.name == "drift" and drift.append(e),
                     **patient(0.3))
    link.new(target=1000, players=3)
    rev0 = link.known.rev
    killer = Killer(vb, store, transport, port, seed=7)
    rng = random.Random(11)
    pegs = [[0, 0] for _ in range(3)]
    killer.start()
    try:
        for i in range(PEGS):
            lane, n = i % 3, rng.randint(1, 2)
            after = link.peg(lane, n)
            pegs[lane] = [pegs[lane][1], pegs[lane][1] + n]
            # Acknowledged exactly once, in order: the revision counts every peg once.
            assert after.rev == rev0 + i + 1, (i, after)
            assert list(after.pegs[lane]) == pegs[lane], (i, after)
            killer.done = i + 1
    finally:
        killer.stop.set()
        killer.join()
    vb = killer.vb
    assert killer.kills >= 15 and killer.unplugs >= 2
    assert link.resends > 0
    final = link.state()
    assert [list(p) for p in final.pegs] == pegs
    assert final.rev == rev0 + PEGS
    assert drift == []  # a peg applied just before a kill is recognised, not "drift"
    link.close()
    vb.close()
    with start(store, transport, port) as again, Link.open(url(again), **patient()) as fresh:
        assert [list(p) for p in fresh.state().pegs] == pegs  # it was on "flash"


GARBAGE = [b"\x00\xff\xfe", b"peg p=1", b" n=0\n", b"x" * 500 + b"\n", b"\r\n\r\n", b"ok rev=9\n",
           b"evt peg p=9 n=9\n", b'set brightness="\n', b"peg p=0 n=1 id=\x80\n", b"\n" * 50,
           b"undo id=" + b"z" * 40 + b"\n", b"btn b=lane0 on=1\n", b"btn b=lane0 on=0\n"]


def test_garbage_sent_to_the_board_changes_nothing(tmp_path):
    with VirtualBoard(str(tmp_path / "s"), address=("127.0.0.1", 0), driven=True) as vb:
        link = Link.open(vb.socket_url, **patient())
        link.peg(0, 3)
        before = link.state()
        rng = random.Random(3)
        with socket.create_connection(tuple(vb.address)) as raw:
            for _ in range(400):
                if rng.random() < 0.5:
                    chunk = rng.choice(GARBAGE)
                else:
                    chunk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
                raw.sendall(chunk.replace(b"id=", b"xd="))  # no commands with ids
            raw.sendall(b"\nhello\n")
            raw.settimeout(PATIENCE)
            got = b""
            while b"proto=" not in got:
                got += raw.recv(65536)  # the board still answers after all that
        assert vb.alive and vb.starts == 1
        after = link.state()
        assert after == before
        assert link.peg(1, 2).pegs[1] == (0, 2)
        link.close()


def test_garbage_and_half_lines_towards_the_host_are_survived(tmp_path):
    rng = random.Random(5)

    def mangle(data):
        r = rng.random()
        if r < 0.15:
            return data[: len(data) // 2]  # half a line, never finished: garbles the next
        if r < 0.35:
            return rng.choice(GARBAGE) + data
        if r < 0.45:
            return bytes(rng.randrange(256) for _ in range(20)) + b"\n" + data
        return data

    with VirtualBoard(str(tmp_path / "s"), address=("127.0.0.1", 0), driven=True) as vb:
        proxy = Proxy(tuple(vb.address), mangle)
        try:
            link = Link.open(proxy.url, **patient(0.1))
            total = 0
            for _ in range(100):
                total = min(total + 1, 121)
                assert link.peg(0, 1).pegs[0] == (total - 1, total)
            link.close()
        finally:
            proxy.close()
        with Link.open(vb.socket_url, **patient()) as clean:
            st = clean.state()
            assert st.pegs[0] == (99, 100) and st.rev == 100
