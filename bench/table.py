"""Taps and questions of a typical hand at the table, for 2 and 3 players, in each way of
entering it: cards (each show card by card with its suit), ranks (the show by ranks: a
hand laid in the play is known, a crib is four ranks, a flush or nobs one answer at the
confirmation; crib serve's way, `crib play --ranks`) and totals (`--totals`).

On the page: the buttons tapped (tests/web/taps.py). In the terminal: the prompts and the
keystrokes typed (Enter counts). The players lay ranks in the play, as at a real table. Each
hand is played through the real table engine against a reference game with real cards, and
must end with the reference game's scores.

    python bench/table.py [--deals 10]
"""

import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "web"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "table"))

from taps import taps  # noqa: E402
from webtools import Players  # noqa: E402

from crib.board.memory import MemoryBoard  # noqa: E402
from crib.history.db import History  # noqa: E402
from crib.table.engine import TableEngine  # noqa: E402
from crib.table.session import Setup  # noqa: E402

NAMES = ["Alice", "Bob", "Cat"]
MODES = {"cards": {}, "ranks": {"ranks": True}, "totals": {"totals": True}}
FIRST_SEED = 20


def hand(players, mode, seed, db):
    """(taps, questions, keystrokes) of the first hand of a game on seed."""
    history = History.open(db)
    try:
        engine = TableEngine(history, MemoryBoard(4), dict(confirm=True, **MODES[mode]),
                             Setup(NAMES[:players], False, 121, 0))
        engine.start()
        people = Players(players, 121, False, seed=seed, totals=mode == "totals")
        tapped = asked = keys = 0
        while True:
            q = engine.question()
            if q.kind == "starter" and asked:
                if engine.view()["scores"] != list(people.g.scores):
                    raise SystemExit(f"seed {seed} {mode}: scores differ from the reference")
                return tapped, asked, keys
            text = people.answer(q)
            tapped += len(taps(q.to_dict(), text))
            asked += 1
            keys += len(text) + 1
            engine.answer(q.id, text)
    finally:
        history.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10, help="deals averaged (default 10)")
    args = parser.parse_args()
    seeds = range(FIRST_SEED, FIRST_SEED + args.deals)
    print(f"one hand at the table, average of {args.deals} deals (the first hand of each)")
    print("players  mode     page taps  questions  terminal keystrokes")
    for players in (2, 3):
        for mode in MODES:
            total = [0, 0, 0]
            for seed in seeds:
                with tempfile.TemporaryDirectory() as d:
                    got = hand(players, mode, seed, os.path.join(d, "h.sqlite3"))
                total = [a + b for a, b in zip(total, got)]
            t, q, k = (x / len(seeds) for x in total)
            print(f"{players:>7}  {mode:<7}  {t:9.1f}  {q:9.1f}  {k:19.1f}")


if __name__ == "__main__":
    main()
