"""Button contacts sampled in a way a blocked loop cannot starve: debounced edges, with the
time each began, in a small preallocated ring.

On the Pico a machine.Timer calls tick() every SAMPLE_MS (main.py), so a press made while
the loop is busy (a flash save takes 75-90 ms) is still seen and keeps its place in time;
Buttons.poll replays the edges in order. On the desktop, and whenever no timer runs,
Buttons.poll calls tick() itself. tick() allocates nothing (a hard timer interrupt may
run it): ints, a list of ints and a bytearray, all made here in __init__.

Should sampling ever fail inside the timer, tick() hands it back to poll and keeps the
error for the app to report (an error escaping an interrupt would be printed on the
protocol's line and stop the timer silently).

The ring has one writer (tick) and one reader (edges): each moves only its own index, so
neither needs a lock. A full ring holds an edge back until there is room (it then keeps
its original time); a contact's later changes wait behind it, none is lost or reordered.
"""

from pegboard.ticks import elapsed

DEBOUNCE_MS = 20  # a contact must read the same this long before it counts
SAMPLE_MS = 5  # the timer's period: a 40 ms tap is sampled 8 times
RING = 32  # edges held between two polls: 16 taps
STALE_MS = 1000  # a timer silent this long is taken for dead: poll samples again


class Sampler:
    """Debounced edges of up to 8 contacts; reads are zero-argument callables (True while
    pressed). tick(now) samples them; edges() gives (ms, contact, pressed) in order."""

    def __init__(self, reads):
        self.reads = tuple(reads)
        self.down = 0  # debounced levels: bit i for contact i
        self.timed = False  # a timer calls tick(): poll must not
        self.at = 0  # the last tick's time
        self.failure = None  # what stopped the timer's sampling, for the app to report
        self._raw = 0  # the levels last read
        self._since = [0] * len(self.reads)  # when each contact's raw level last changed
        self._t = [0] * RING  # edge times
        self._e = bytearray(RING)  # edge codes: 2 * contact + pressed
        self._head = 0  # written by tick only
        self._tail = 0  # written by edges only

    def tick(self, now):
        """Sample every contact once at now (ms); record the edges that have now been stable
        for DEBOUNCE_MS, each at the time it began. Allocates nothing."""
        self.at = now
        if not self.timed:
            self._sample(now)  # called by poll: a fault is the loop's to report
            return
        try:
            self._sample(now)
        except Exception as e:  # noqa: BLE001 - in an interrupt an escaping error would be
            # printed on the protocol's line and stop the timer silently: hand the
            # sampling back to poll instead, and the fault to the app to report.
            self.timed = False
            self.failure = e

    def _sample(self, now):
        bit = 1
        i = 0
        for read in self.reads:
            level = bit if read() else 0
            if (self._raw ^ level) & bit:
                self._raw ^= bit
                self._since[i] = now
            elif (self.down ^ level) & bit and elapsed(now, self._since[i]) >= DEBOUNCE_MS:
                head = self._head
                nxt = head + 1 if head + 1 < RING else 0
                if nxt != self._tail:  # else full: this edge waits for room
                    self._t[head] = self._since[i]
                    self._e[head] = 2 * i + (1 if level else 0)
                    self._head = nxt
                    self.down ^= bit
            bit <<= 1
            i += 1

    def quiet(self):
        """True when no contact is down and no edge waits to be taken."""
        return not self.down and self._tail == self._head

    def take_failure(self):
        """What stopped the timer's sampling (once), or None."""
        failure, self.failure = self.failure, None
        return failure

    def stale(self, now):
        """True when a timer should be sampling but has been silent for STALE_MS."""
        return self.timed and elapsed(now, self.at) >= STALE_MS

    def edges(self):
        """The recorded edges, oldest first, each once: (ms, contact, pressed)."""
        while self._tail != self._head:
            k = self._tail
            code = self._e[k]
            yield self._t[k], code >> 1, (code & 1) == 1
            self._tail = k + 1 if k + 1 < RING else 0

    def releasing(self, i, before):
        """True while contact i, down, reads released since a time before `before` (the
        release is still being debounced)."""
        bit = 1 << i
        return bool(self.down & bit) and not self._raw & bit and elapsed(
            before, self._since[i]) > 0
