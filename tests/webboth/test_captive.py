"""The board's own network as a phone meets it, under MicroPython's unix port with real
UDP and HTTP on loopback (boardweb.unix --dns-port): the DNS responder answers every name
with the board's address, the phones' captive-portal probes are redirected to the page,
and every other request keeps the rules (a foreign Host 421, the game needs the key)."""

import random
import socket
import struct

import httpx2 as httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import FIRMWARE

from crib.web.unixboard import UnixBoard


def _dns_module():
    """boardweb.dns, read from the firmware (boardweb is not an installed package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("boardweb_dns", FIRMWARE / "boardweb/dns.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


answer = _dns_module().answer

KEY = "captive-test-key-0123456789"
PROBES = [("connectivitycheck.gstatic.com", "/generate_204"),  # Android
          ("captive.apple.com", "/hotspot-detect.html"),  # Apple
          ("www.msftconnecttest.com", "/connecttest.txt")]  # Windows
A, AAAA, HTTPS = 1, 28, 65


def query(name, qtype=A, ident=None, opcode=0):
    ident = random.randrange(65536) if ident is None else ident
    labels = b"".join(bytes([len(p)]) + p.encode() for p in name.split("."))
    return struct.pack(">HHHHHH", ident, 0x0100 | opcode << 11, 1, 0, 0, 0) + labels + \
        b"\0" + struct.pack(">HH", qtype, 1)


def parse(reply):
    """(id, flags, question count, answers [(type, ttl, rdata)]) of a reply."""
    ident, flags, qd, an, _, _ = struct.unpack(">HHHHHH", reply[:12])
    i = 12
    while reply[i]:
        i += reply[i] + 1
    i += 5
    answers = []
    for _ in range(an):
        assert reply[i:i + 2] == b"\xc0\x0c"  # the question's name
        rtype, _, ttl, size = struct.unpack(">HHIH", reply[i + 2:i + 12])
        answers.append((rtype, ttl, reply[i + 12:i + 12 + size]))
        i += 12 + size
    assert i == len(reply)
    return ident, flags, qd, answers


def ask(sock, packet):
    sock.send(packet)
    return sock.recv(512)


def unix_board(dns):
    """The board's server answering to its own Host only (127.0.0.1:PORT)."""
    b = UnixBoard(KEY, names=["Alice", "Bob"], target=61, dealer=0, dns=dns)
    b.args += ["--hosts", "127.0.0.1:%d" % b.port]
    return b


@pytest.fixture(scope="module")
def server():
    b = unix_board(dns=True)
    with b:
        yield b


@pytest.fixture(scope="module")
def resolver(server):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", server.dns_port))
    yield sock
    sock.close()


@pytest.mark.parametrize("name", ["connectivitycheck.gstatic.com", "captive.apple.com",
                                  "www.msftconnecttest.com", "example.org", "x"])
def test_every_a_query_gets_the_boards_address(resolver, name):
    packet = query(name, ident=4242)
    ident, flags, qd, answers = parse(ask(resolver, packet))
    assert ident == 4242 and flags & 0x8000 and flags & 0x0400  # a response, authoritative
    assert flags & 0x000F == 0 and qd == 1
    assert answers == [(A, 60, socket.inet_aton("127.0.0.1"))]


@pytest.mark.parametrize("qtype", [AAAA, HTTPS])
def test_other_types_get_no_answer_and_no_error(resolver, qtype):
    ident, flags, qd, answers = parse(ask(resolver, query("captive.apple.com", qtype)))
    assert flags & 0x8000 and flags & 0x000F == 0 and answers == []


def test_another_opcode_is_not_implemented_and_junk_gets_nothing(resolver):
    _, flags, _, answers = parse(ask(resolver, query("a.b", opcode=2)))
    assert flags & 0x000F == 4 and answers == []
    resolver.send(b"\x00\x01junk")  # not a query: nothing is sent back
    ident, *_ = parse(ask(resolver, query("after.junk", ident=7)))
    assert ident == 7  # the responder goes on


@pytest.mark.parametrize("host, path", PROBES)
def test_a_phones_probe_is_redirected_to_the_page_which_opens(server, host, path):
    with httpx.Client(base_url=server.url, timeout=20) as client:
        r = client.get(path, headers={"Host": host})
        assert r.status_code == 302
        assert r.headers["location"] == server.join_url
        page = client.get(r.headers["location"])
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert client.get("/state", params={"k": KEY}).status_code == 200


@pytest.mark.parametrize("host, path", [
    ("evil.example", "/generate_204"),  # a probe's path under another Host
    ("captive.apple.com", "/generate_204"),  # another phone's path
    ("connectivitycheck.gstatic.com", "/state"),  # a probe's Host on another route
])
def test_everything_else_keeps_the_rules(server, host, path):
    with httpx.Client(base_url=server.url, timeout=20) as client:
        r = client.get(path, headers={"Host": host})
        assert r.status_code == 421, (host, path, r.status_code)


def test_the_page_still_needs_the_key(server):
    with httpx.Client(base_url=server.url, timeout=20) as client:
        assert client.get("/state").status_code == 403


def test_without_its_own_network_probes_are_not_redirected():
    with unix_board(dns=False) as url:
        with httpx.Client(base_url=url, timeout=20) as client:
            r = client.get("/generate_204", headers={"Host": "connectivitycheck.gstatic.com"})
            assert r.status_code == 421


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=80))
def test_any_packet_gets_a_well_formed_reply_or_none(data):
    reply = answer(data, "192.168.4.1")
    if reply is not None:
        ident, flags, qd, answers = parse(reply)
        assert reply[:2] == data[:2] and flags & 0x8000 and qd == 1
        assert all(a == (A, 60, bytes([192, 168, 4, 1])) for a in answers)
