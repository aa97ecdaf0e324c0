"""The board server's game without the server: the firmware App on fake drivers as the
engine's board (boardweb.appboard), the table engine and the room (cribcore.table.room)
with the state's JSON text made once per version, as boardweb.board.build does (less the
server, and the game record in memory, as boardweb.unix without --store), answered
by tests/core_table/tablegame.py's scripted players, game after game. Plain code that
runs unchanged on MicroPython's unix port (64-bit) and on the emulated Pico (the rp2
port, 32-bit): the same answers, so the two heaps compare object for object.

    marks = play(games=2, seed=11, out=print)   # the live heap at each game's marks

At two points of every game it reads the live heap (gc.mem_alloc() after a collection):
"first", the new game's first question after the dealer is named, and "another", the
"Another game?" at its end; out(mark) is handed {"at", "game", "answers", "live",
"free"} for each. As a script: `micropython roomgame.py GAMES [SEED [TARGET]]` prints
one JSON line per mark, each starting with MARK.
"""

import gc
import json
import sys

import desk
from boardweb.appboard import AppBoard, LoopPort
from tablegame import NAMES, Lcg, choose

from cribcore.table.engine import TableEngine
from cribcore.table.questions import Events
from cribcore.table.room import Room
from cribcore.table.session import Session, Setup

MARK = "ROOM-MARK "
TARGET = 121


def _clock():
    import time

    return time.ticks_ms()


def room_for(names=NAMES[:2], target=TARGET):
    """A room over the App on fake drivers (in-memory state), set up for a game."""
    app = desk.build({"store": None, "config": None, "driven": False}, LoopPort())
    board = AppBoard(app, _clock)
    engine = TableEngine(Session(board, Events(), {"confirm": True}),
                         Setup(list(names), False, target, 0), nonce="r1")
    room = Room(engine, run="r1", extra={"board_rev": None, "lanes": None})
    room.start()
    return room, board


def live():
    gc.collect()
    return gc.mem_alloc(), gc.mem_free()


def play(games=2, seed=11, out=None, target=TARGET, limit=4000):
    """Play `games` whole games to target through the room; the marks (module
    docstring)."""
    rng = Lcg(seed)
    room, board = room_for(target=target)
    marks = []
    keep = out or marks.append
    game = answers = 0
    mark_next = "first"
    while answers < limit:
        q = room.question
        if q is None:
            break
        if mark_next is not None:
            alloc, free = live()
            keep({"at": mark_next, "game": game, "answers": answers, "live": alloc,
                  "free": free})
            mark_next = None
        kind = q["kind"]
        if kind == "another":
            game += 1
            text = "y" if game < games else "n"
        elif kind == "dealer":
            text = ""
        else:
            text = choose(q, rng, "cards")
        room.act("answer", {"question": q["id"], "answer": text}, None)
        room.text()  # the state's JSON, as every screen is sent it
        board.tick()
        answers += 1
        nxt = room.question
        if nxt is not None and nxt["kind"] == "another":
            mark_next = "another"
        elif kind == "dealer":
            mark_next = "first"
    return marks


def main(argv):
    games = int(argv[1]) if len(argv) > 1 else 2
    seed = int(argv[2]) if len(argv) > 2 else 11
    target = int(argv[3]) if len(argv) > 3 else TARGET
    play(games, seed, out=lambda m: print(MARK + json.dumps(m)), target=target)


if __name__ == "__main__":
    main(sys.argv)
