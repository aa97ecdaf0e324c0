"""boardweb: the board's own web server (a Pico 2 W serves the phone page itself): microdot
on MicroPython, the shared engine's room, the firmware App as its board. Optional: only a
board with Wi-Fi carries it (crib.deploy.build.OPTIONAL). See docs/boardweb.md."""
