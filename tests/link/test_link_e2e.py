"""The link against the real desktop runner, over a pseudo terminal and over a socket."""

import time

import pytest
from rig import FakePeer, UsbPort, free_port, patient

from crib.board.link import (
    BoardRefused,
    BoardTimeout,
    Link,
    NotABoard,
    VersionMismatch,
)
from crib.board.ports import PICO_VID
from crib.board.state import Difference
from crib.connect import open_link
from crib.errors import CribError
from crib.sim.virtual import VirtualBoard
from cribcore.protocol import PROTO


def start(store, transport, port=None, driven=True):
    address = ("127.0.0.1", port or free_port()) if transport == "socket" else None
    return VirtualBoard(str(store), pty=transport == "pty", address=address,
                        driven=driven).start()


def url(vb):
    """The pty's stable link (it survives a restart) or the socket URL."""
    return vb.link if vb.port else vb.socket_url


@pytest.fixture(params=["pty", "socket"])
def transport(request):
    return request.param


@pytest.fixture
def board(tmp_path, transport):
    vb = start(tmp_path / "store", transport)
    yield vb
    vb.close()


def wait_for(pred, seconds=60.0):  # returns as soon as pred holds: generous for load
    end = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < end, "timed out waiting"
        time.sleep(0.01)


def test_handshake(board):
    with Link.open(url(board)) as link:
        assert link.info["proto"] == PROTO
        assert link.info["lanes"] == 3
        assert link.known.players == 3
        assert link.known.pegs == [(0, 0)] * 3


def test_peg_leapfrogs_and_state_agrees(board):
    with Link.open(url(board)) as link:
        after = link.peg(1, 8)
        assert after.pegs[1] == (0, 8)
        after = link.peg(1, 4)
        assert after.pegs[1] == (8, 12)
        assert after.rev == 2
        assert link.state() == after
        assert link.undo().pegs[1] == (0, 8)


def test_retry_after_a_dropped_reply_applies_once(board):
    dropped = []

    def tap(line):
        if line.startswith("ok") and "id=" in line and not dropped:
            dropped.append(line)
            return b""
        return line.encode() + b"\n"

    board.tap = tap
    with Link.open(url(board), **patient(0.3)) as link:
        after = link.peg(0, 5)
        assert len(dropped) == 1
        assert link.resends >= 1
        assert after.pegs[0] == (0, 5)
        fresh = link.state()
        assert fresh.pegs[0] == (0, 5)
        assert fresh.rev == 1  # applied once


# The change sent twice with the caller's id, and a step between the two sends that
# would make a second application visible (another undo, the peg cleared by a new game).
SAVED_IDS = [
    ("peg", {"lane": 0, "n": 5}, lambda link: None),
    ("undo", {}, lambda link: link.peg(1, 3)),
    ("new", {"target": 61}, lambda link: link.peg(2, 4)),
]


@pytest.mark.parametrize("verb, args, between", SAVED_IDS)
def test_an_id_saved_by_the_caller_and_sent_again_after_a_crash_is_applied_once(
        board, verb, args, between):
    with Link.open(url(board)) as first:
        first.peg(0, 2)
        first.peg(1, 6)
        applied = getattr(first, verb)(id="tbl0042", **args)
        between(first)
        expected = first.state()
    # The caller crashed before it heard the reply; a new run (ids of its own) sends the
    # saved id again, as `crib play --resume` does: the first reply, nothing applied.
    with Link.open(url(board)) as again:
        assert again.ids.prefix != first.ids.prefix
        assert getattr(again, verb)(id="tbl0042", **args) == expected
        assert again.state() == expected
        assert applied.rev == expected.rev - (verb != "peg")  # the step between counted
        fresh = getattr(again, verb)(**args) if verb != "undo" else again.undo()
        assert fresh.rev == expected.rev + 1  # without the id: a new change, applied


CHANGES = [("peg", {"lane": 1, "n": 4}), ("set", {"brightness": 70}), ("set", {"dealer": 2}),
           ("new", {"target": 61})]


@pytest.mark.parametrize("cut_after", [True, False])
@pytest.mark.parametrize("change", CHANGES)
def test_a_change_cut_off_by_a_reset_is_applied_once_and_no_drift(tmp_path, transport, change,
                                                                  cut_after):
    # A real clock: the restarted runner says `evt boot` at once, so the link resyncs
    # before (cut_after False) or after (True) the board has the change.
    with start(tmp_path / "s", transport, driven=False) as board:
        _cut_off(board, change, cut_after)


def _cut_off(board, change, cut_after):
    events, cut = [], []

    def tap(line):  # the board applied and saved it, then lost power before replying
        if line.startswith("ok") and " id=" in line and not cut:
            cut.append(line)
            board.kill()
            return b""
        return line.encode() + b"\n"

    with Link.open(url(board), on_event=events.append, **patient(0.3)) as link:
        link.peg(0, 2)
        before = link.known
        if cut_after:
            board.tap = tap
        else:
            board.kill()  # the power goes before the line arrives: it is lost
        verb, args = change
        after = getattr(link, verb)(**args)
        assert link.resends >= 1 and bool(cut) == cut_after
        assert link.drift == [] and not [e for e in events if e.name == "drift"]
        assert link.state() == after
        assert after.rev in (before.rev, before.rev + 1)  # applied once


def test_button_presses_arrive_as_events(board):
    seen = []
    with Link.open(url(board), on_event=seen.append) as link:
        link.set(pause_ms=300)
        for _ in range(3):  # three taps of lane 2's button: +3 after the pause
            link.button("lane2", True)
            link.tick(50)
            link.button("lane2", False)
            link.tick(50)
        assert link.state().pending[2] == 3
        link.tick(400)
        peg = next(e for e in link.events(timeout=30) if e.name == "peg")  # it comes at once
        assert (peg.args["p"], peg.args["n"], peg.args["src"]) == (2, 3, "button")
        assert not [e for e in link.poll_events() if e.name == "peg"]  # one jump of 3
        wait_for(lambda: any(e.name == "peg" for e in seen))  # the callback sees it too
        assert link.known.pegs[2] == (0, 3)  # followed from the event, no state fetch


def test_a_callback_may_use_the_link(board):
    got = []
    holder = {}

    def on_event(ev):
        if ev.name == "peg":
            got.append(holder["link"].state())  # a round trip from inside the callback

    with Link.open(url(board), on_event=on_event) as link:
        holder["link"] = link
        link.set(pause_ms=200)
        link.button("lane0", True)
        link.tick(50)
        link.button("lane0", False)
        link.tick(300)
        wait_for(lambda: got)
        assert got[0].pegs[0] == (0, 1)


def test_refused_command_raises_with_its_code(board):
    with Link.open(url(board)) as link:
        with pytest.raises(BoardRefused) as e:
            link.undo()
        assert e.value.code == "no_undo"
        with pytest.raises(BoardRefused) as e:
            link.new(players=4)  # a 3-lane board
        assert e.value.code == "bad_lane"
        assert link.state().rev == 0


def test_runner_killed_and_restarted(board):
    with Link.open(url(board), **patient(0.5)) as link:
        link.peg(0, 3)
        board.kill()
        board.wait_started(2)
        after = link.peg(0, 4)
        assert after.pegs[0] == (3, 7)
        assert link.state().rev == 2
        assert link.drift == []


def test_unplug_and_replug_reconnects(tmp_path, transport):
    port = free_port()
    vb = start(tmp_path / "s", transport, port)
    events = []
    try:
        link = Link.open(url(vb), on_event=events.append, **patient(0.5))
        link.peg(1, 6)
        vb.close(kill=True)  # the port goes away
        wait_for(lambda: any(e.name == "lost" for e in events))
        vb = start(tmp_path / "s", transport, port)
        after = link.peg(1, 2)
        assert after.pegs[1] == (6, 8)
        assert link.reconnects >= 1
        # on_event runs on the link's dispatch thread, which may call it after the peg returns
        wait_for(lambda: any(e.name == "back" for e in events))
        assert [e.name for e in events if not e.from_board][:2] == ["lost", "back"]
        assert link.drift == []
        link.close()
    finally:
        vb.close()


def test_changes_made_while_away_are_reported_not_overwritten(tmp_path, transport):
    port = free_port()
    vb = start(tmp_path / "s", transport, port)
    events = []
    try:
        link = Link.open(url(vb), on_event=events.append, **patient(0.5))
        link.peg(0, 2)
        vb.close(kill=True)
        # Someone pegs while our link is away (on a port our link does not know).
        with start(tmp_path / "s", "socket") as away, Link.open(away.socket_url) as other:
            other.peg(0, 5)
        vb = start(tmp_path / "s", transport, port)
        wait_for(lambda: any(e.name == "drift" for e in events))
        drift = [e for e in events if e.name == "drift"][0]
        assert Difference("lane 0", (0, 2), (2, 7)) in drift.args["differences"]
        assert link.known.pegs[0] == (2, 7)
        assert link.state().pegs[0] == (2, 7)  # the board keeps its state
        link.close()
    finally:
        vb.close()


def _hello(proto):
    def reply(line):
        if line.startswith("hello"):
            return ("ok rev=0 proto=%d fw=9.0.0 lanes=3 holes=121 target=121 players=2\n"
                    % proto).encode()
        return b""
    return reply


def test_version_mismatch_is_a_clear_error():
    peer = FakePeer(_hello(PROTO + 1))
    try:
        with pytest.raises(VersionMismatch) as e:
            Link.open(peer.url)  # answered at once: the timeout only bounds a failure
        assert isinstance(e.value, CribError)
        assert (e.value.board, e.value.ours) == (PROTO + 1, PROTO)
    finally:
        peer.close()


def test_silence_is_a_timeout_not_an_empty_reply():
    peer = FakePeer(lambda line: b"")
    try:
        with pytest.raises(BoardTimeout):
            Link.open(peer.url, timeout=0.1, retries=2)
        wait_for(lambda: len(peer.lines) >= 3)
        assert peer.lines[:3] == ["hello"] * 3  # the first send and two retries
    finally:
        peer.close()


def test_something_else_on_the_port_is_not_a_board():
    with pytest.raises(NotABoard):
        Link.open("loop://", timeout=0.1, retries=1)  # hears its own words back
    peer = FakePeer(lambda line: b"Traceback (most recent call last):\r\n>>> ")
    try:
        with pytest.raises(NotABoard):  # noise, then silence: a whole second for the noise
            Link.open(peer.url, timeout=1.0, retries=1)
    finally:
        peer.close()


def test_a_late_reply_is_not_taken_for_the_next_command():
    sent = {}

    def reply(line):
        if line.startswith("hello"):
            return _hello(PROTO)(line)
        if line.startswith("state"):
            return (b"ok rev=1 target=121 players=2 p0=0,4 p1=0,0 dealer=-1 winner=-1 "
                    b"wins=0,0 undos=1 pending=0,0 mode=play\n")
        if line.startswith("peg"):
            ident = line.split("id=")[1]
            sent[ident] = sent.get(ident, 0) + 1
            if sent[ident] == 1:
                return b""  # the first answer is late: it comes only once the link resent
            ok = ("ok rev=1 p0=0,4 winner=-1 id=%s\n" % ident).encode()
            return ok * 2  # the late answer to the first send, then the resend's
        return b""

    peer = FakePeer(reply)
    try:
        with Link.open(peer.url, timeout=0.15) as link:
            assert link.peg(0, 4).pegs[0] == (0, 4)
            st = link.state()  # the duplicate peg reply arrives first and is skipped
            assert st.mode == "play"
            assert st.pegs[0] == (0, 4)
            pegs = [x for x in peer.lines if x.startswith("peg")]
            assert len(set(pegs)) == 1 and len(pegs) >= 2  # resent with the same id
    finally:
        peer.close()


def test_the_runner_under_micropython(tmp_path):
    from support import micropython_path

    vb = VirtualBoard(str(tmp_path / "s"), python=micropython_path(), driven=True).start()
    try:
        with Link.open(vb.url, timeout=2) as link:
            assert link.info["proto"] == PROTO
            assert link.peg(2, 9).pegs[2] == (0, 9)
            vb.kill()
            vb.wait_started(2)
            assert link.peg(2, 3).pegs[2] == (9, 12)
            assert link.state().rev == 2
    finally:
        vb.close()


@pytest.mark.parametrize("slow", [False, True], ids=["at-once", "slowly"])
def test_a_runner_that_keeps_crashing_is_not_restarted_for_ever(tmp_path, slow):
    # slowly: it dies more than a second after its start, as a loaded machine can make a
    # runner that cannot start take; before it said a line, that is no start either.
    crash = tmp_path / "crash.py"
    crash.write_text("import sys, time\nsys.stderr.write('broken\\n')\n"
                     + ("time.sleep(1.1)\n" if slow else "") + "sys.exit(3)\n")
    vb = VirtualBoard(str(tmp_path / "s"), runner=str(crash)).start()
    try:
        wait_for(lambda: vb.log.count("runner exited with 3") >= 5)
        # The hub answers an ask only after it has finished with the fifth death (started
        # again or not): with no runner, the ask gets no reply.
        assert vb.ask("hello", 30) is None
        assert vb.starts == 5 and not vb.alive
        assert "runner exited with 3" in vb.log
    finally:
        vb.close()


def test_auto_follows_its_pico_to_a_new_device_name(tmp_path, monkeypatch):
    ports = []
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: list(ports))
    first = start(tmp_path / "a", "pty")
    other = start(tmp_path / "b", "pty")  # another Pico, another game
    try:
        with Link.open(other.url) as o:
            o.peg(0, 20)
        ports[:] = [UsbPort("/dev/ttyS0"), UsbPort(first.port, PICO_VID, 5, "E66A")]
        link = open_link("auto", timeout=0.3)
        assert link.name == first.port
        link.peg(1, 3)
        first.close(kill=True)
        first = start(tmp_path / "a", "pty")  # back, on another /dev/pts/N
        ports[:] = [UsbPort(other.port, PICO_VID, 5, "E66B"),
                    UsbPort(first.port, PICO_VID, 5, "E66A")]
        assert link.peg(1, 4).pegs[1] == (3, 7)
        assert link.state().pegs[0] == (0, 0)  # still our board, not the other one
        link.close()
    finally:
        first.close()
        other.close()
