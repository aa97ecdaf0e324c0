"""Button gestures through the whole app: the events a host sees, and what the board keeps."""

from apprig import Files, Rig, config

from cribcore.protocol import decode
from pegboard.sampler import SAMPLE_MS


def events(lines):
    return [(m.verb, m.args.get("p")) for m in map(decode, lines) if m.kind == "evt"]


def test_the_press_that_commits_a_winning_entry_never_starts_a_game():
    rig = Rig(config(lanes=2))
    rig.send("peg p=0 n=120 id=1")
    rig.press("lane0", 60)  # the winning point, pending
    got = rig.press("lane1", 60)  # the turn passes: lane 0's entry is pegged and wins
    got += rig.port.take()
    rig.step(rig.config.pause_ms + 100)
    got += rig.port.take()
    assert events(got) == [("peg", 0), ("win", 0)]
    state = rig.ask("state").args
    assert state["winner"] == 0 and state["skunk"] == (0, 2) and state["undos"] == 2
    assert rig.ask("undo id=2").args["winner"] == -1  # the win can still be taken back


class SlowFlash(Files):
    """Flash whose every write blocks the loop for 90 ms, while the timer samples on."""

    def __init__(self):
        Files.__init__(self)
        self.timer = None

    def write(self, name, chunks):
        if self.timer is not None:
            self.timer.run_to(self.timer.t + 90)
        Files.write(self, name, chunks)


class Timer:
    """machine.Timer as main.py starts it: samples the rig's keys every SAMPLE_MS, the keys
    following a schedule of (from_ms, to_ms, name) presses."""

    def __init__(self, rig, presses):
        self.rig, self.presses, self.t = rig, presses, rig.now
        rig.app.buttons.sampler.timed = True

    def run_to(self, t):
        while self.t <= t:
            for name in self.rig.keys:
                self.rig.keys[name] = any(a <= self.t < b and n == name
                                          for a, b, n in self.presses)
            self.rig.app.buttons.sampler.tick(self.t)
            self.t += SAMPLE_MS


def test_four_quick_taps_while_saves_block_the_loop_count_as_four():
    files = SlowFlash()
    rig = Rig(config(lanes=2), files=files)
    t0 = rig.now
    taps = [(t0 + 20 + 60 * k, t0 + 50 + 60 * k, "lane1") for k in range(4)]
    timer = files.timer = Timer(rig, taps)
    out = []
    for k in range(3):  # the host pegs meanwhile: three saves, 270 ms of a blocked loop
        rig.port.inbox += b"peg p=0 n=1 id=h%d\n" % k
    while rig.now < t0 + 400:
        timer.run_to(rig.now)
        rig.app.step(rig.now)
        rig.now = max(rig.now + 10, timer.t)
        out += rig.port.take()
    assert [x.split(" ")[0] for x in out] == ["ok"] * 3
    assert rig.app.buttons.pending(1) == 4
    while rig.now < t0 + 400 + rig.config.pause_ms + 100:
        timer.run_to(rig.now)
        rig.app.step(rig.now)
        rig.now += 10
    got = [decode(x) for x in rig.port.take()]
    assert [(m.verb, m.args["p"], m.args["n"]) for m in got] == [("peg", 1, 4)]


def test_a_timer_whose_sampling_fails_is_reported_and_the_loop_samples_instead():
    rig = Rig(config(lanes=2))
    sampler = rig.app.buttons.sampler
    sampler.timed = True
    broken = [True]
    reads = sampler.reads

    def fail():
        if broken[0]:
            raise MemoryError("in the interrupt")
        return False

    sampler.reads = (fail,) + reads[1:]
    sampler.tick(rig.now)  # the timer's call: nothing may escape it
    broken[0] = False
    sampler.reads = reads
    rig.step()
    warns = [decode(x) for x in rig.port.take()]
    assert [(m.verb, m.args["code"]) for m in warns] == [("warn", "internal")]
    assert "MemoryError" in warns[0].args["msg"]
    rig.app.config.pause_ms = 200
    got = rig.press("lane0", 60)  # no timer runs now: the loop reads the buttons
    rig.step(300)
    got += rig.port.take()
    assert [(m.verb, m.args["p"]) for m in map(decode, got)] == [("peg", 0)]
