"""One picture of the board on both servers (issue 36.2): neither draws it for the page;
each sends the same compact description in its state (the layout's holes, each lane's
name and colour in order) beside the view's pegs, and the page draws the board from it.
`crib serve` is run as a player runs it, on the virtual board; the board's own server is
the firmware App under MicroPython's unix port."""

import httpx2 as httpx
from both import polled
from browser import Serve
from webtools import KEY, NAMES

from crib.web.unixboard import UnixBoard


def described(get):
    """The state once it describes the board (crib serve reads its board's layout after its
    first frame: the description comes with the first picture)."""
    return polled(get, lambda s: s.get("lanes"), "the board's description")


def test_both_servers_describe_the_same_board_and_draw_no_picture(tmp_path):
    serve = Serve(tmp_path, NAMES, target=61)
    try:
        crib = described(serve.state)
    finally:
        serve.stop()
    with UnixBoard(KEY, names=NAMES, target=61, dealer=0) as url:
        with httpx.Client(base_url=url, headers={"X-Crib-Key": KEY}, timeout=20) as http:
            board = described(lambda: http.get("/state").json())
            assert http.get("/board.svg").status_code == 404  # no picture made on the chip
    assert crib["holes"] == board["holes"] == 121
    assert crib["lanes"] == board["lanes"]  # each lane's name and colour, in order
    assert [ln["name"] for ln in board["lanes"][:2]] == ["Red", "Blue"]
    assert all(ln["colour"].startswith("#") and len(ln["colour"]) == 7
               for ln in board["lanes"])
    assert crib["view"]["pegs"] == board["view"]["pegs"]  # a new game: every peg home
