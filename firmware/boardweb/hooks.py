"""The tests' view of the board's server (BoardServer(hooks=True)): its pegs and lit
LEDs, and the heap, the connections and streams open.

    GET /test/board[?lit=1]   {pegs, turn, animating[, fronts]}
    GET /test/heap            {alloc, live, free, peak, conns, streams, refused, caps,
                              behind, heard} (caps: connections, streams, streams per
                              seat; behind: streams whose phone has not taken their
                              bytes; heard: the phone's port of each connection whose
                              request the board has begun to read)
"""

import gc

from boardweb.conn import MAX_CONNECTIONS, MAX_STREAMS, SEAT_STREAMS


def hooks(server, app):
    """Add the tests' routes to app (module docstring)."""

    @app.get("/test/board")
    async def board(req):
        """The pegs as the App holds them, the lane asked, whether a jump or the win
        chase is in motion, and with ?lit=1 the colour of the LED under each lane's
        front peg now."""
        renderer = server.board.app.renderer
        pegs = server.board.pegs()
        out = {"pegs": pegs, "turn": renderer.turn,
               "animating": renderer.animating(server.board.clock())}
        if req.args.get("lit"):
            out["fronts"] = [list(renderer.pixel(renderer.hole_led(lane, peg[1])))
                             for lane, peg in enumerate(pegs)]
        return out

    @app.get("/test/heap")
    async def heap(req):
        alloc = gc.mem_alloc()
        gc.collect()
        return {"alloc": alloc, "live": gc.mem_alloc(), "free": gc.mem_free(),
                "peak": server.peak, "conns": len(app.conns),
                "streams": len(app.streams), "refused": app.refused,
                "caps": [MAX_CONNECTIONS, MAX_STREAMS, SEAT_STREAMS],
                "behind": sum([1 for f in server.push.follows if f.busy]),
                "heard": [_port(c[2]) for c in app.conns
                          if c[0] is not None and c[1].reading and c[1].heard]}

    def note():
        server.peak = max(server.peak, gc.mem_alloc())
    app.noted = note  # after a request boardweb.quick served

    @app.after_request
    async def measure(req, res):
        note()


def _port(gathered):
    """The phone's port of a connection (its peer's address: a raw sockaddr on MicroPython's
    unix port, (host, port) elsewhere), so a test can tell its own connection; None if
    not known."""
    try:
        addr = gathered.get_extra_info("peername")
    except (AttributeError, KeyError, OSError):
        return None
    if isinstance(addr, tuple):
        return addr[1]
    if isinstance(addr, (bytes, bytearray)) and len(addr) >= 4:
        return addr[2] << 8 | addr[3]  # sockaddr_in's port, in network order
    return None
