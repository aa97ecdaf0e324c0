"""The link's parts without a board: ids, the state it follows, ports, the hub's splitter."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rig import UsbPort

from crib.board.ids import Ids
from crib.board.ports import PICO_VID, format_port, list_ports, pico_ports
from crib.board.state import BoardState, Difference, differences
from crib.sim.lines import Client
from crib.sim.store import SimError, parse_address
from cribcore.protocol import MAX_LINE, LineReader, decode, encode, event, ok


def test_ids_are_fresh_valid_and_differ_between_runs():
    a, b = Ids(), Ids()
    assert a.prefix != b.prefix  # 16**6 random prefixes: a clash here is a broken RNG
    seen = {a.next() for _ in range(5000)}
    assert len(seen) == 5000
    for ident in list(seen)[:50] + [b.next()]:
        assert decode(encode("undo", id=ident)).args["id"] == ident


@given(st.integers(min_value=0, max_value=10 ** 11))
def test_ids_stay_within_sixteen_characters(count):
    ids = Ids("abcdef")
    ids.count = count
    ident = ids.next()
    assert len(ident) <= 16
    assert decode(encode("undo", id=ident)).args["id"] == ident
    if count + 1 < 10 ** 9:
        assert ident[:7] == "abcdef-" and int(ident[7:]) == count + 1
    else:  # the counter would not fit: a new random run starts
        assert ids.count == 1 and ident == ids.prefix + "-1"


def _state(**kw):
    base = dict(rev=5, target=121, players=3, p0=(3, 9), p1=(0, 4), p2=(0, 0), dealer=1,
                winner=-1, wins=(1, 0, 2), undos=3, pending=(0, 2, 0), mode="play",
                brightness=40, budget_ma=500, pause_ms=1500, idle_ms=600000, ma=12)
    base.update(kw)
    return BoardState.from_reply(decode(ok(**base)).args)


def test_state_from_a_state_reply():
    s = _state()
    assert (s.rev, s.target, s.players, s.dealer, s.winner) == (5, 121, 3, 1, -1)
    assert s.pegs == [(3, 9), (0, 4), (0, 0)]
    assert s.wins == [1, 0, 2] and s.pending == (0, 2, 0) and s.mode == "play"
    assert s.settings["brightness"] == 40
    assert s.score(0) == 9


def test_state_follows_replies_and_events():
    s = _state()
    s.apply(decode(ok(rev=6, p0=(9, 121), winner=0, skunk=(0, 2, 2), id="x")).args)
    assert (s.winner, s.wins, s.skunk, s.rev) == (0, [2, 0, 2], (0, 2, 2), 6)
    s.apply(decode(event("undo", p=0, src="button", rev=7, p0=(3, 9), winner=-1)).args)
    assert (s.winner, s.wins, s.pegs[0], s.skunk) == (-1, [1, 0, 2], (3, 9), ())
    s.apply(decode(ok(rev=8, target=61, players=2, wins=(1, 0), id="y")).args)
    assert (s.target, s.players, s.pegs, s.wins, s.dealer) == (61, 2, [(0, 0)] * 2, [1, 0], -1)
    s.apply(decode(ok(rev=9, dealer=0, brightness=80, id="z")).args)
    assert (s.dealer, s.settings["brightness"], s.rev) == (0, 80, 9)


def test_differences_name_each_field():
    a = _state()
    assert differences(a, a.copy()) == []
    assert a == a.copy()
    b = _state(p1=(4, 10), dealer=-1, brightness=60)
    diffs = differences(a, b)
    assert Difference("lane 1", (0, 4), (4, 10)) in diffs
    assert Difference("dealer", 1, -1) in diffs
    assert Difference("brightness", 40, 60) in diffs
    assert differences(a, _state(rev=9)) == [Difference("rev", 5, 9)]
    two = _state(players=2, wins=(1, 0), pending=(0, 0))
    assert Difference("lane 2", (0, 0), None) in differences(a, two)
    assert all(str(d) and d.to_dict()["field"] for d in diffs)


PORTS = [UsbPort("/dev/ttyS0", description="n/a"),
         UsbPort("/dev/ttyACM1", PICO_VID, 0x0005, "E66", "Board in FS mode"),
         UsbPort("/dev/ttyUSB0", 0x10C4, 0xEA60, "0001", "CP2102"),
         UsbPort("/dev/ttyACM0", PICO_VID, 0x0005, "E65", "Board in FS mode")]


def test_ports_list_picos_first():
    ports = list_ports(lambda: PORTS)
    assert [p["device"] for p in ports] == ["/dev/ttyACM0", "/dev/ttyACM1", "/dev/ttyS0",
                                            "/dev/ttyUSB0"]
    assert [p["pico"] for p in ports] == [True, True, False, False]
    assert pico_ports(lambda: PORTS) == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert pico_ports(lambda: PORTS, serial="E66") == ["/dev/ttyACM1"]
    assert "2E8A:0005" in format_port(ports[0]) and "pico" in format_port(ports[0])
    assert "pico" not in format_port(ports[2])


def test_parse_address():
    assert parse_address("localhost:7000") == ("localhost", 7000)
    assert parse_address(":0") == ("127.0.0.1", 0)
    for bad in ("7000", "host:", "host:x", "host:70000"):
        with pytest.raises(SimError):
            parse_address(bad)


@given(st.lists(st.binary(max_size=300), max_size=8))
def test_hub_splits_client_bytes_into_the_lines_the_board_would_see(chunks):
    # The hub forwards whole lines and expects one reply per line the board's reader
    # yields: whatever the bytes, its count must match the board's own splitter.
    client = Client("t", None)
    board = LineReader(MAX_LINE)
    counted = []
    seen = []
    for chunk in chunks:
        for seg in client.segments(chunk):
            counted.extend(client.counter.feed(seg))
            seen.extend(board.feed(seg))
    direct = LineReader(MAX_LINE)
    expected = []
    for chunk in chunks:
        expected.extend(direct.feed(chunk))
    assert len(counted) == len(seen) == len(expected)
    assert [x for x in seen if isinstance(x, str)] == [x for x in expected if isinstance(x, str)]
