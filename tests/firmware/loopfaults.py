"""Nothing stops the board's loop: a fault in reading, parsing or replying is caught and
reported as a warning, and the next line is answered. Plain tests: tests/firmware/
test_loop_faults.py runs them under CPython and under the unix MicroPython, where the
MemoryError is a real one (the heap is locked while the app handles what it read)."""

from apprig import Port, Rig, config

from cribcore.protocol import decode

try:
    from micropython import heap_lock, heap_unlock
except ImportError:  # CPython: the fault is raised by hand
    heap_lock = heap_unlock = None


class StarvedPort(Port):
    """A port after whose next read() no memory is left until release() (the test calls it
    between steps: the memory a step's garbage held comes back)."""

    def __init__(self):
        Port.__init__(self)
        self.starve = False
        self.locked = False

    def release(self):
        """Give the memory back (a test that failed must not leave the heap locked)."""
        if self.locked:
            heap_unlock()
            self.locked = False

    def read(self):
        data = Port.read(self)
        if self.starve and data:
            self.starve = False
            if heap_lock is not None:
                heap_lock()
                self.locked = True
            else:  # the reader runs out of memory once it has taken the bytes
                self.app.reader._end = self._no_memory
        return data

    def _no_memory(self, out):
        del self.app.reader._end
        raise MemoryError("memory allocation failed")


class LossyPort(Port):
    """A port whose next read() runs out of memory and loses what it had read (the Pico's
    USB port reads byte by byte into a buffer)."""

    lose = 0

    def read(self):
        if self.lose and self.inbox:
            lost, self.inbox = self.inbox[:self.lose], self.inbox[self.lose:]
            self.lose = 0
            raise MemoryError("memory allocation failed (lost %r)" % bytes(lost))
        return Port.read(self)


def rig(port):
    r = Rig(config(lanes=2))
    r.port = r.app.port = port
    port.app = r.app
    return r


def warnings(lines):
    return [decode(x).args["code"] for x in lines if x.startswith("evt warn")]


def starved_steps(r, n=20):
    try:
        for _ in range(n):
            r.step()  # must not raise
            r.port.release()
    finally:
        r.port.release()


def test_no_memory_while_reading_a_line_loses_nothing():
    r = rig(StarvedPort())
    r.port.starve = True
    r.port.inbox += b"peg p=0 n=5 id=1\n"
    starved_steps(r)
    got = r.port.take()
    assert warnings(got) == ["internal"], got
    replies = [decode(x) for x in got if not x.startswith("evt")]
    assert [(m.kind, m.args["p0"]) for m in replies] == [("ok", (0, 5))], got
    assert decode(r.send("peg p=0 n=6 id=2")[-1]).args["p0"] == (5, 11)
    assert r.app.board.rev == 2


def test_no_memory_mid_line_loses_no_line():
    r = rig(StarvedPort())
    r.port.inbox += b"peg p=0"
    r.step()
    r.port.starve = True
    r.port.inbox += b" n=5 id=1\nhello\n"
    starved_steps(r)
    r.port.inbox += b"state\n"
    starved_steps(r)
    got = r.port.take()
    assert warnings(got) == ["internal"], got
    replies = [decode(x) for x in got if not x.startswith("evt")]
    assert [m.kind for m in replies] == ["ok", "ok", "ok"], got
    assert replies[0].args["p0"] == (0, 5) and replies[-1].args["players"] == 2
    assert r.app.board.rev == 1


def test_bytes_lost_in_reading_drop_only_their_line():
    r = rig(LossyPort())
    r.port.inbox += b"peg p=0"
    r.step()
    r.port.lose = 5  # " n=5 ": the peg line is torn
    r.port.inbox += b" n=5 id=1\nhello\n"
    for _ in range(20):
        r.step()
    r.port.inbox += b"state\n"
    for _ in range(20):
        r.step()
    got = r.port.take()
    assert warnings(got) == ["internal"], got
    replies = [decode(x) for x in got if not x.startswith("evt")]
    assert [m.kind for m in replies] == ["ok", "ok"], got  # hello and state, whole
    assert replies[-1].args["players"] == 2
    assert r.app.board.rev == 0  # the torn peg line was never applied


class FailingWrites(Port):
    """A port whose next write raises MemoryError (a reply that could not be sent)."""

    fail = 0

    def write(self, data):
        if self.fail:
            self.fail -= 1
            raise MemoryError("memory allocation failed")
        Port.write(self, data)


def test_a_reply_that_cannot_be_written_does_not_stop_the_loop():
    r = Rig(config(lanes=2))
    port = FailingWrites()
    r.port = r.app.port = port
    port.fail = 2  # the reply, then the error reply about it
    port.inbox += b"hello\n"
    for _ in range(10):
        r.step()
    got = port.take()
    assert warnings(got) == ["internal"], got
    # a constant reply, when not even the error reply could be written
    replies = [decode(x) for x in got if not x.startswith("evt")]
    assert [(m.kind, m.args["code"]) for m in replies] == [("err", "internal")], got
    assert decode(r.send("hello")[-1]).kind == "ok"
