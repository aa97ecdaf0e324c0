"""bench/chip.py --undos on MicroPython's unix port: chipgame's undos after its answers go
through the server's request path (POST /api/undo) to every phone, each one a step back:
the game after N answers and K undos is at the question it was at after N - K answers."""

import json
import os

import microdot
from support import FIRMWARE, TESTS, run_micropython

SCRIPT = """
import chipgame, desk
from boardweb.appboard import LoopPort
app = desk.build({"store": None, "config": None, "driven": False}, LoopPort())
chipgame.play(app, 1, 11, 121, %d, record=%r, undos=%d)
"""


def run(tmp_path, name, answers, undos):
    os.mkdir(tmp_path / name)
    script = tmp_path / (name + ".py")
    script.write_text(SCRIPT % (answers, str(tmp_path / name / "games"), undos))
    path = ":".join([".frozen", str(FIRMWARE), os.path.dirname(os.path.dirname(
        microdot.__file__)), str(TESTS / "pico"), str(TESTS / "core_table")])
    proc = run_micropython([script], heap="1M", env={"MICROPYPATH": path})
    assert proc.returncode == 0, proc.stderr + proc.stdout
    lines = proc.stdout.splitlines()
    end = [json.loads(ln[4:]) for ln in lines if ln.startswith("END ")]
    undone = [[int(x) for x in ln.split()[1:]] for ln in lines if ln.startswith("U ")]
    return end[0], undone


def test_undos_after_the_answers_step_the_game_back_and_reach_every_phone(tmp_path):
    end, undone = run(tmp_path, "undone", 40, 3)
    back, none = run(tmp_path, "plain", 37, 0)
    assert none == [] and [u[0] for u in undone] == [0, 1, 2]
    assert all(u[1] > 0 for u in undone)  # each one timed to the last phone
    versions = [u[3] for u in undone]
    assert versions == sorted(versions) and len(set(versions)) == 3  # each a new state
    assert end["answers"] == 40 and back["answers"] == 37
    assert end["question"] is not None and end["question"] == back["question"]
