"""The desk runner (firmware/desk.py) under CPython, ended with the process that started it:

    python -m crib.sim.watch PARENT_PID path/to/desk.py [desk.py's options]

A runner ends when its stdin ends; but a parent killed with SIGKILL (kill -9 of `crib play`
or `crib serve`) may leave the write end of that stdin open in another process that
inherited it, and the runner would then run on as an orphan. A thread here looks at the
parent twice a second and ends the process once it is gone (an orphan is given to init or
a subreaper, so getppid changes, on Linux and macOS). This stays out of the firmware: on
MicroPython every byte of the runner's code counts against the heap cap it is tested in.
Imports nothing of crib, so it starts as fast as desk.py itself.
"""

import os
import runpy
import sys
import threading
import time

PERIOD_S = 0.5  # how often the parent is looked at: the most an orphan outlives it


def watch(parent: int, period: float = PERIOD_S) -> None:
    """End this process (at once, as a power cut would) when its parent is no longer
    `parent`: the board's state is saved before every answer, so nothing is lost."""
    while os.getppid() == parent:
        time.sleep(period)
    os._exit(0)


def main(argv: list[str]) -> None:
    """Run the script argv[1] with the arguments after it, watching the parent argv[0]."""
    parent, script = int(argv[0]), argv[1]
    threading.Thread(target=watch, args=(parent,), daemon=True, name="parent-watch").start()
    sys.argv = argv[1:]
    sys.path[0] = os.path.dirname(os.path.abspath(script))  # as `python desk.py` has it
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
