"""Button gestures through the whole app: the events a host sees, and what the board keeps."""

from apprig import Rig, config

from cribcore.protocol import decode


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
