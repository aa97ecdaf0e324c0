"""pegboard.usbserial.UsbSerial, the Pico's port (fakes of the USB serial's two sides):
a host that stops reading makes at most one write wait, once; a reading host gets each
reply in one write; the REPL hand-over happens on mpremote's raw-REPL entry (Ctrl-C then
Ctrl-A) but never on a stray Ctrl-C."""

import pytest
from apprig import Files, Strip, config

from cribcore.protocol import decode
from pegboard.app import App
from pegboard.store import Store
from pegboard.usbserial import FIFO, OUT_LIMIT, PIECE, UsbSerial


class Input:
    """The USB serial's receive buffer: bytes the host sent, read one at a time."""

    def __init__(self, data=b""):
        self.data = bytearray(data)

    def read(self, n):
        out, self.data[:n] = bytes(self.data[:n]), b""
        return out


class Output:
    """The USB serial's send FIFO. `room`: what it takes now (0: the host stopped
    reading). A write longer than the room is what MicroPython waits on, up to its USB
    timeout (500 ms a chunk): counted in `stalls`, never expected."""

    def __init__(self, room=256):
        self.room = room
        self.got = b""
        self.stalls = 0
        self.writes = 0

    def write(self, data):
        self.writes += 1
        if len(data) > self.room:
            self.stalls += 1
        n = min(len(data), self.room)
        self.room -= n
        self.got += bytes(data[:n])
        return n

    def host_reads(self, room=1 << 20):
        self.room = room


class Port(UsbSerial):
    """The real port over the fakes; readiness as MicroPython's poll reports it."""

    def __init__(self, out_room=256, data=b""):
        self.input = Input(data)
        self.output = Output(out_room)
        UsbSerial.__init__(self, self.input, self.output)

    def ready(self, timeout_ms=0):
        return bool(self.input.data)

    def writable(self):
        return self.output.room > 0


def lines(n):
    return [b"ok rev=%d proto=1 fw=0.1.0 desk=0 lanes=3 holes=121\n" % i for i in range(n)]


def test_a_host_that_stops_reading_makes_one_write_wait_once():
    port = Port(out_room=100)  # room for one line and a half: the second line must wait
    for line in lines(500):
        port.write(line)
        port.flush()
    assert port.output.stalls == 1  # the write the host stopped during; then careful
    assert not port.trusting
    assert port.queued <= OUT_LIMIT + 64  # bounded: whole lines past the limit dropped
    port.output.host_reads()
    port.flush()
    got = port.output.got.decode().splitlines(True)
    assert all(x.endswith("\n") for x in got)  # only whole lines, in order
    assert [decode(x.strip()).args["rev"] for x in got] == list(range(len(got)))
    assert port.dropped == 500 - len(got) > 0
    assert port.trusting  # everything went and there is room: whole pieces again
    port.write(lines(1)[0])
    assert port.output.got.endswith(lines(1)[0])  # a reading host gets the next at once


def test_a_reading_host_gets_each_reply_in_few_writes():
    port = Port(out_room=1 << 20)
    reply = b"ok rev=12 p0=3,7 winner=-1 id=ab12cd-17\n"
    long = b"ok rev=1 px=" + b"0:ff0000," * 30 + b'""\n'
    for data in (reply, long):
        before = port.output.writes
        port.write(data)
        assert port.output.got.endswith(data)
        # One write a USB packet's worth: a write costs the Pico about as much as one byte
        assert port.output.writes - before == -(-len(data) // PIECE)
    assert port.output.stalls == 0


def test_a_host_that_reads_in_fits_and_starts_waits_once_a_buffer():
    port = Port(out_room=30)
    for line in lines(60):
        port.write(line)
        port.flush()
        port.output.room += 50  # the host reads about a line now and then
        port.flush()
    assert port.output.stalls <= 1 + len(port.output.got) // FIFO
    port.output.host_reads()
    port.flush()
    got = port.output.got.decode().splitlines(True)
    assert all(x.endswith("\n") for x in got)
    assert [decode(x.strip()).args["rev"] for x in got] == list(range(len(got)))


def test_a_long_reply_written_in_pieces_is_never_torn():
    port = Port(out_room=0)
    port.write(b"x" * (OUT_LIMIT + 10) + b"\n")  # fills the outbox
    port.write(b"ok rev=1 px=")  # a reply written run by run, as `leds` does
    for _ in range(50):
        port.write(b"0:ff0000,")
    port.write(b'""\n')
    port.output.host_reads()
    port.flush()
    assert port.output.got == b"x" * (OUT_LIMIT + 10) + b"\n"  # dropped whole
    assert port.output.stalls == 0


def test_a_stray_ctrl_c_does_not_stop_the_app_and_never_reaches_the_protocol():
    port = Port(data=b"\x03")
    assert port.read() == b""
    port.input.data += b"hel\x03lo\n\x03\n"
    got = port.read()
    assert got.replace(b"\n", b"") == b"hello"  # Ctrl-C bytes are the REPL's, not ours


@pytest.mark.parametrize("entry", [
    b"\r\x03" + b"\r\x01",  # mpremote: interrupt, then raw REPL
    b"\r\x03\x03" + b"\r\x01",  # pyboard.py and older tools
])
def test_mpremote_entering_the_raw_repl_gets_the_repl(entry):
    port = Port(data=b"hello\n" + entry)
    with pytest.raises(KeyboardInterrupt):
        for _ in range(3):
            port.read()
    assert bytes(port.input.data) == b"\x01"  # left for the REPL, which enters raw mode


def test_a_person_gets_the_repl_with_enter_ctrl_c_enter():
    port = Port(data=b"\r")
    port.read()
    port.input.data += b"\x03"
    port.read()
    port.input.data += b"\r"
    with pytest.raises(KeyboardInterrupt):
        port.read()


def test_the_app_keeps_stepping_and_pegging_while_the_host_reads_nothing():
    cfg = config(lanes=2)
    port = Port(out_room=0)
    app = App(cfg, Strip(cfg.leds), {"undo": lambda: False}, Store("state", Files()), port)
    for k in range(40):
        port.input.data += b"leds\nstate\npeg p=%d n=1 id=%d\n" % (k % 2, k)
        for t in range(10):
            app.step(100 * k + t)
    assert port.output.stalls == 0 and app.board.rev == 40  # every peg applied
    assert port.queued <= OUT_LIMIT + 4096
    port.output.host_reads()
    port.input.data += b"peg p=1 n=1 id=39\n"  # a retry: the remembered reply
    for t in range(5):
        app.step(5000 + t)
    last = port.output.got.decode().splitlines()[-1]
    assert decode(last).args["id"] == "39" and app.board.rev == 40
