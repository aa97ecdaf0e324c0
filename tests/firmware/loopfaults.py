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
    """A port after whose next read() no memory is left until the read after it."""

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
        self.release()
        data = Port.read(self)
        if self.starve and data:
            self.starve = False
            if heap_lock is not None:
                heap_lock()
                self.locked = True
            else:
                self.app.reader.feed = self._no_memory  # the reader runs out of memory
        return data

    def _no_memory(self, data):
        del self.app.reader.feed
        raise MemoryError("memory allocation failed")


def rig():
    r = Rig(config(lanes=2))
    port = StarvedPort()
    r.port = r.app.port = port
    port.app = r.app
    return r


def warnings(lines):
    return [decode(x).args["code"] for x in lines if x.startswith("evt warn")]


def test_no_memory_while_reading_a_line_does_not_stop_the_loop():
    r = rig()
    r.port.starve = True
    r.port.inbox += b"peg p=0 n=5 id=1\n"
    try:
        for _ in range(20):
            r.step()  # must not raise
    finally:
        r.port.release()
    got = r.port.take()
    assert warnings(got) == ["internal"], got
    assert decode(r.send("peg p=0 n=6 id=2")[-1]).args["p0"] == (0, 6)
    assert r.app.board.rev == 1


def test_no_memory_mid_line_drops_only_that_line():
    r = rig()
    r.port.inbox += b"peg p=0"
    r.step()
    r.port.starve = True
    r.port.inbox += b" n=5 id=1\nhello\n"
    try:
        r.step(100)
    finally:
        r.port.release()
    r.port.inbox += b"state\n"
    for _ in range(20):
        r.step()
    got = r.port.take()
    assert warnings(got) == ["internal"], got
    replies = [decode(x) for x in got if not x.startswith("evt")]
    assert replies and replies[-1].args["players"] == 2  # `state` answered, whole
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
    assert decode(r.send("hello")[-1]).kind == "ok"
