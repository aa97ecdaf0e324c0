"""Power on the emulated Pico: a power cycle keeps the game; a power cut at every flash
command of a save boots to the acknowledged change or the one in flight, loses nothing
acknowledged, applies nothing twice, and is not reported as damage (`bad_state`)."""

import pytest
from picorig import Pico, game_state

from cribcore.protocol import decode

pytestmark = pytest.mark.pico

BASE = ["peg p=0 n=7 id=b1", "set brightness=55 id=b2", "peg p=2 n=3 id=b3"]
CHANGE = "peg p=1 n=4 id=cut1"


@pytest.fixture(scope="module", params=[0, 9], ids=["new-slot", "ring-wrapped"])
def saved(image, request):
    """(whole flash with a game saved on it, the state reply, flash commands of one save).
    The save is counted on the change every cut below interrupts, from the same flash:
    after BASE it creates its slot (a directory and a file); after 9 more changes it
    rewrites one, as every save does from then on."""
    with Pico(fs=image) as p:
        p.booted()
        for line in BASE + ["peg p=0 n=1 id=w%d" % i for i in range(request.param)]:
            assert p.ask(line).startswith("ok")
        state = p.ask("state")
        flash = p.dump()
    with Pico(flash=flash) as p:
        p.booted()
        before = p.stats()["flash"]
        assert p.ask(CHANGE).startswith("ok")
        after = p.stats()["flash"]
    commands = sum(after[k] - before[k] for k in ("programs", "erase4k", "erase32k",
                                                  "erase64k"))
    assert commands >= 1
    return flash, state, commands


def boot_state(flash):
    """Boot a Pico from a flash image: (evt boot args, state args, the Pico's flash after
    the id of CHANGE is retried)."""
    with Pico(flash=flash) as p:
        boot = decode(p.booted().text).args
        state = decode(p.ask("state")).args
        retry = decode(p.ask(CHANGE))
        after = decode(p.ask("state")).args
    return boot, state, retry, after


def test_a_power_cycle_keeps_the_game(saved):
    flash, state, _ = saved
    boot, now, retry, after = boot_state(flash)
    old = decode(state).args
    assert "warn" not in boot and boot["rev"] == old["rev"]
    assert game_state(now) == game_state(old)
    assert retry.kind == "ok" and after["p1"] == (0, 4)


def test_a_retried_id_after_a_power_cycle_gets_the_same_reply(image):
    with Pico(fs=image) as p:
        p.booted()
        first = p.ask("peg p=0 n=9 id=same1")
        flash = p.dump()
    with Pico(flash=flash) as p:
        p.booted()
        assert p.ask("peg p=0 n=9 id=same1") == first
        assert decode(p.ask("state")).args["p0"] == (0, 9)


def cut_at(flash, k):
    """Run CHANGE from flash with the power cut at its k-th flash command: the flash then."""
    with Pico(flash=flash) as p:
        p.booted()
        p.arm_cut(k)
        start = len(p.lines)
        p.send(CHANGE + "\n")
        p.wait(lambda: p.cut_event is not None, what="the power cut")
        assert not any(ln.text.startswith("ok") for ln in p.lines[start:])  # in flight
        return p.dump()


def test_a_power_cut_at_every_flash_command_of_a_save(saved):
    flash, state, commands = saved
    old = decode(state).args
    problems = []
    for k in range(1, commands + 1):
        boot, now, retry, after = boot_state(cut_at(flash, k))
        # Everything acknowledged before is there; the change in flight is all or nothing.
        assert now["p0"] == old["p0"] and now["p2"] == old["p2"], k
        assert now["brightness"] == 55, k
        assert now["p1"] in ((0, 0), (0, 4)), k
        assert now["rev"] == old["rev"] + (now["p1"] == (0, 4)), k
        # Retrying the change's id applies it exactly once.
        assert retry.kind == "ok" and after["p1"] == (0, 4), k
        if "warn" in boot:
            problems.append((k, boot["warn"]))
    # An ordinary power cut loses nothing: it must not be reported as damage.
    assert problems == []
