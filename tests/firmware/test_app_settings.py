"""Settings the layout allows are settings the protocol allows: one range, one check.

A small board (2 x 31 holes, 62 LEDs idling at 62 mA) may run on a budget under 100 mA.
Every change must still reach flash, and `set` must accept what config.json may hold.
"""

from apprig import Rig, config

from cribcore.protocol import _spec, command, decode
from pegboard.store import Store


def small(budget=80):
    return Rig(config(lanes=2, holes=31, budget_ma=budget))


def saved(rig):
    """The state text on the rig's flash, as the next boot reads it."""
    return Store("state", rig.files).load()


def test_a_small_boards_budget_does_not_stop_saves():
    rig = small(80)
    m = rig.ask("peg p=0 n=3 id=1")
    assert m.kind == "ok" and m.args["p0"] == (0, 3)
    assert "board " in saved(rig) and Rig(rig.config, files=rig.files).app.board.front(0) == 3
    assert rig.ask("peg p=0 n=3 id=1") == m  # the retry: the same reply, nothing new


def test_set_takes_a_budget_the_layout_allows_and_refuses_one_under_the_idle_draw():
    rig = small(80)
    assert rig.ask("set budget_ma=90 id=2").kind == "ok"
    assert "budget_ma=90" in saved(rig)
    before = saved(rig)
    m = rig.ask("set budget_ma=62 id=3")  # 62 LEDs idle at 62 mA: nothing left to light
    assert (m.kind, m.args["code"]) == ("err", "bad_arg")
    assert saved(rig) == before and rig.ask("state").args["budget_ma"] == 90


def test_the_layout_and_the_protocol_share_the_ranges_of_the_settings():
    from pegboard import config as layout

    for name in ("brightness", "budget_ma", "pause_ms", "idle_ms"):
        low, high, _ = _spec(command("set"))[name]
        d = layout.default_dict()
        for value, good in ((low - 1, False), (low, True), (high, True), (high + 1, False)):
            d[name] = value
            if name == "budget_ma" and good and value <= d["leds"]:
                continue  # the idle-draw check, tested above
            try:
                layout.from_dict(d)
                ok = True
            except layout.ConfigError:
                ok = False
            assert ok == good, (name, value)
    assert decode("set budget_ma=1").args == {"budget_ma": 1}
