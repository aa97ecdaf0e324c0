"""Whole games through the core's table engine (cribcore.table), scripted: plain Python
that runs unchanged on CPython and MicroPython (no pytest, no random module: a small LCG
picks every answer, so both runtimes give the same answers and must ask the same).

    steps = play(players=3, mode="ranks", seed=7)   # [(question dict, [event dicts])...]

`mode`: "cards" (every card with its suit; the crib by its cards), "ranks" (the play by
ranks, the shows by ranks with their flush and nobs said at the confirmation), "totals"
(no cards: the play's points and each show's total). Each answer is checked: a legal one
is never refused. `undo_every` takes back an answer now and then and gives it again.

As a script (for the MicroPython side of the JSON test; MICROPYPATH names firmware/):
    micropython tablegame.py PLAYERS MODE SEED [GAMES [UNDO_EVERY]]
prints one JSON line per question asked (with the events of the answer before it); with
a sixth argument `peak`, only the live heap's peak (gc.mem_alloc after a collection at
each question) when the games are over.
"""

import json
import sys

from cribcore.table.engine import TableEngine
from cribcore.table.questions import Events, event_dict
from cribcore.table.record import NoBoard
from cribcore.table.session import Session, Setup

NAMES = ("Ann", "Bob", "Cy", "Di")


class Lcg:
    """A tiny deterministic generator (the same numbers on every runtime)."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def choose(q, rng, mode):
    """An answer to question q (a dict) that its legal answers allow."""
    kind, legal = q["kind"], q["legal"]
    if kind == "cut":
        return " ".join(legal["cards"][i * 4] for i in range(legal["count"]))  # distinct ranks
    if kind == "starter":
        return legal["cards"][rng.below(len(legal["cards"]))]
    if kind == "play":
        if mode == "totals" or (rng.below(40) == 0):
            return "points"
        if mode == "ranks" and legal["ranks"]:
            return legal["ranks"][rng.below(len(legal["ranks"]))]
        if legal["cards"]:
            return legal["cards"][rng.below(len(legal["cards"]))]
        return "go"
    if kind == "play_points":
        return str(rng.below(9))
    if kind in ("show", "crib"):
        if mode == "totals":
            return str(legal["totals"][rng.below(12)])
        if legal["known"]:
            return ""
        if legal["ranks"]:
            return " ".join(legal["ranks"])
        cards = legal["cards"]
        out = []
        while len(out) < 4:
            c = cards[rng.below(len(cards))]
            if c not in out:
                out.append(c)
        return " ".join(out)
    if kind in ("confirm", "suits"):
        choices = [c for c in legal["choices"] if c != "n"]
        return choices[rng.below(len(choices))]
    if kind == "count":
        return str(legal["totals"][rng.below(10)])
    if kind == "muggins":
        return legal["choices"][0]
    if kind == "another":
        return "n"
    if kind == "dealer":
        return ""
    raise ValueError("no answer for %r" % (kind,))


def engine_for(players, mode, target=61, options=None):
    """A core engine with no board and a record in memory, set up for a game."""
    opts = {"ranks": mode == "ranks", "totals": mode == "totals"}
    opts.update(options or {})
    session = Session(NoBoard(), Events(), opts)
    setup = Setup(list(NAMES[:players]), players == 4, target, "cut")
    return TableEngine(session, setup)


def play(players, mode, seed, games=1, undo_every=0, options=None, target=61, limit=2000,
         out=None):
    """Play whole games; the engine, and the (question, events) steps as plain data (or
    each step handed to out(question, events) as it happens, keeping none: a small heap)."""
    rng = Lcg(seed)
    engine = engine_for(players, mode, target, options)
    events = engine.start()
    steps = []
    keep = out or (lambda q, evs: steps.append((q, evs)))
    played = asked = 0
    while asked < limit:
        q = engine.question()
        if q is None:
            break
        asked += 1
        d = q.to_dict()
        keep(d, [event_dict(e) for e in events])
        if d["kind"] == "another":
            played += 1
            text = "y" if played < games else "n"
        else:
            text = choose(d, rng, mode)
        if undo_every and q.undo and rng.below(undo_every) == 0:
            events += engine.undo(q.id)  # take the last answer back, then put it back
            undone = engine.undone()
            if undone is not None and undone["redo"]:
                events += engine.redo(engine.question().id)
            continue
        events = engine.answer(q.id, text)
    keep(None, [event_dict(e) for e in events])
    return engine, steps


def main(argv):
    games = int(argv[4]) if len(argv) > 4 else 1
    undo_every = int(argv[5]) if len(argv) > 5 else 0
    if len(argv) > 6 and argv[6] == "peak":  # bench/heap.py: the live heap's peak, no JSON
        import gc

        peak = [0]

        def measure(q, events):
            gc.collect()
            peak[0] = max(peak[0], gc.mem_alloc())
        engine, _ = play(int(argv[1]), argv[2], int(argv[3]), games, undo_every, out=measure)
        print("over", engine.over, "peak", peak[0])
        return
    play(int(argv[1]), argv[2], int(argv[3]), games, undo_every,
         out=lambda q, events: print(json.dumps([q, events])))


if __name__ == "__main__":
    main(sys.argv)
