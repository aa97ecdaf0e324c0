"""Warnings are bounded: kept, listed in hello and sent as events without growing for ever;
every fault of the loop is reported, a fault repeating every frame once in a while."""

from apprig import Files, Rig, config

from cribcore.protocol import decode
from pegboard.app import MAX_WARNINGS, REPEAT_MS


def peg_on_buttons(rig, times):
    """Enter a point on lane 0 and confirm it at once, `times` times; the lines written."""
    out = []
    for _ in range(times):
        rig.press("lane0", 40)
        out += rig.press("confirm", 40)
        out += rig.port.take()
    return [decode(x) for x in out]


def test_a_full_flash_and_many_presses_keep_hello_short():
    files = Files()
    rig = Rig(config(lanes=2), files=files)
    files.fail = True
    got = peg_on_buttons(rig, 3 * MAX_WARNINGS)
    assert got and {(m.verb, m.args["code"]) for m in got} == {("warn", "store_failed")}
    hello = rig.send("hello")[-1]
    assert decode(hello).args["warn"] == ("store_failed",)
    assert len(hello) < 160
    assert len(rig.app.warnings) <= MAX_WARNINGS
    rig.now += REPEAT_MS  # later, the same failure is said again
    again = peg_on_buttons(rig, 1)
    assert [m.args["code"] for m in again] == ["store_failed"]


def test_every_loop_fault_is_reported_and_a_repeating_one_is_bounded(monkeypatch):
    rig = Rig(config(lanes=2))
    faults = []

    def draw(board, buttons, now):
        if faults:
            raise faults[0]

    monkeypatch.setattr(rig.app.renderer, "draw", draw)
    faults.append(MemoryError("first"))
    rig.step(1000)  # a hundred frames, each failing
    faults[0] = ValueError("second")
    rig.step(1000)
    warns = [decode(x) for x in rig.port.take()]
    assert [(m.verb, m.args["code"]) for m in warns] == [("warn", "internal")] * 2
    assert "first" in warns[0].args["msg"] and "second" in warns[1].args["msg"]
    rig.step(REPEAT_MS)
    later = [decode(x) for x in rig.port.take()]
    assert 1 <= len(later) <= 2 and "second" in later[-1].args["msg"]
    del faults[:]
    assert rig.ask("hello").kind == "ok"  # and the board answers all along
