"""A finished game leaves the heap once the next one is set up: the board's server plays
game after game in a fixed heap, so what it holds is the game in play, never the games
before it (cribcore.table.session.Session.games retires each table; see
Table.retire). Checked by the objects alive on CPython, and by the live heap under
MicroPython's unix port (whose collector is conservative: a stale slot of a generator's
frame can keep a finished table reachable)."""

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS / "core_table"))

from support import FIRMWARE, micropython_path  # noqa: E402
from tablegame import play  # noqa: E402

from cribcore.table.record import Entry  # noqa: E402
from cribcore.table.table import Table  # noqa: E402


def test_only_the_game_in_play_keeps_its_entries_alive():
    seen = []

    def out(q, events):
        engine = holder[0]
        if engine is None or q is None or engine.session.table is None:
            return
        gc.collect()
        alive = [o for o in gc.get_objects() if isinstance(o, Entry)]
        tables = [o for o in gc.get_objects() if isinstance(o, Table)]
        seen.append((engine.session.table.game_id, len(alive)))
        assert len(alive) == len(engine.session.table.entries), (q["kind"], seen[-1])
        assert sum(len(t.entries) for t in tables) == len(alive)

    holder = [None]
    import tablegame

    real = tablegame.engine_for

    def engine_for(*args, **kwargs):
        holder[0] = real(*args, **kwargs)
        return holder[0]
    tablegame.engine_for = engine_for
    try:
        engine, _ = play(2, "cards", 11, games=3, out=out)
    finally:
        tablegame.engine_for = real
    assert engine.over
    assert {game for game, _ in seen} == {1, 2, 3}
    assert max(n for game, n in seen if game == 3) > 30  # a whole game's entries


def test_the_live_heap_at_each_new_game_does_not_grow_under_micropython():
    """The room over the App (tests/pico/roomgame.py, as the board's server plays) for
    three games to 61: the live heap at the third game's first question is no more than
    at the second's (the first game's modules are loaded by then)."""
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(
        [str(FIRMWARE), str(TESTS / "core_table"), str(TESTS / "pico")]))
    proc = subprocess.run([micropython_path(), "-X", "heapsize=640K",
                           str(TESTS / "pico" / "roomgame.py"), "3", "11", "61"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    marks = [json.loads(line.split(" ", 1)[1]) for line in proc.stdout.splitlines()
             if line.startswith("ROOM-MARK ")]
    firsts = [m["live"] for m in marks if m["at"] == "first"]
    ends = [m for m in marks if m["at"] == "another"]
    assert len(firsts) == 3 and len(ends) == 3, marks
    # Before each table was retired, the third game's start held the games before it:
    # about 40 KB more than the second's.
    assert firsts[2] <= firsts[1] + 8 * 1024, firsts
