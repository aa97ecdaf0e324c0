"""The board's server (its record on disk) under MicroPython's unix port, played by
tests/pico/chipgame.py's phones: prints each answer's A line (chipgame's), then a line
`STEPS N` (the App's steps in all), `PEGS [[back, front], ...]` as the App holds them
and `VIEW [[...], ...]` as the room shows them. test_frames_held.py runs it:

    micropython framesgame.py FOLDER ANSWERS
"""

import sys

import chipgame
import desk
from boardweb.appboard import LoopPort


def main(folder, answers):
    import asyncio

    app = desk.build({"store": folder, "config": None, "driven": False}, LoopPort())
    steps = [0]
    step = app.step

    def counted(now):
        steps[0] += 1
        step(now)

    app.step = counted
    parts = chipgame.Parts()
    server = chipgame.build(app, parts, 61, folder + "/games")
    server.hold_ms = 600000  # no frame forced by the bound (a loaded machine is slow)
    asyncio.run(chipgame.game(server, parts, 1, 11, answers, print))
    server.flush()
    print("STEPS %d" % steps[0])
    print("PEGS %s" % (server.board.pegs(),))
    print("VIEW %s" % (server.room.view["pegs"],))


main(sys.argv[1], int(sys.argv[2]))
