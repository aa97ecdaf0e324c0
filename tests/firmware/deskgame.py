"""A scripted 3-lane 121 game for the desk runner: pegs with ids, retries, undo, a button
peg, queries, a win, a refused peg, undoing the win and winning again.

Used by the desk runner tests (CPython and MicroPython) and by bench/heap.py.
"""

import random

from cribcore.pegs import Board


def script(seed=121):
    """(command lines, the model board after them)."""
    rng = random.Random(seed)
    model = Board(players=3, target=121)
    lines = ["hello", "new target=121 players=3 match=1 id=g0", "set dealer=0 id=g1"]
    model.new_game(121, 3, True)
    model.set_dealer(0)
    k = 2
    lane = 0
    while True:
        n = rng.randint(1, 24)
        line = "peg p=%d n=%d id=g%d" % (lane, n, k)
        lines.append(line)
        k += 1
        won = model.peg(lane, n)
        if won:
            break
        if k % 7 == 0:
            lines += ["undo id=g%d" % k, line.rsplit(" ", 1)[0] + " id=g%d" % (k + 1)]
            k += 2
            model.undo()
            model.peg(lane, n)
        if k % 10 == 0:
            lines.append(line)  # a retry of a line already answered: applied once
        if k % 9 == 0:
            lines += ["state", "leds"]
        if k == 12:
            # lane 1 pegs 2 on its button: two taps, then the pause
            for _ in range(2):
                lines += ["btn b=lane1 on=1", "tick ms=60", "btn b=lane1 on=0", "tick ms=60"]
            lines.append("tick ms=2000")
            model.peg(1, 2)
        lane = (lane + 1) % 3
    winner_line = lines[-1]
    lines += ["state", "peg p=%d n=1 id=late" % ((lane + 1) % 3), "undo id=u1", "state",
              winner_line.rsplit(" ", 1)[0] + " id=again", "state", "leds", "help"]
    model.undo()
    model.peg(lane, n)
    return lines, model


def saved_game(undo_depth=64):
    """Command lines that leave a saved game under way whose undo history is full (more
    pegs than undo_depth), with every id slot of the store's ring taken: what a restart
    reads back (the heap tests boot on it, not on a blank store)."""
    return ["new target=121 players=3 id=s0"] + [
        "peg p=%d n=1 id=5e3a1c-%d" % (i % 3, i) for i in range(undo_depth + 6)]
