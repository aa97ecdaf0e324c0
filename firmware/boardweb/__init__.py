"""boardweb: the board's own web server (a Pico 2 W serves the phone page itself): microdot
on MicroPython, the shared engine's room, the firmware App as its board. Optional: only a
board with Wi-Fi carries it (crib.deploy.build.OPTIONAL). See docs/boardweb.md.
serve(app, key, address) is the Pico 2 W's entry (pegboard.wifi calls it: boardweb.board,
which imports what it needs when it runs); boardweb.unix runs the same under MicroPython's
unix port."""

from boardweb.board import serve  # noqa: F401 - the entry
