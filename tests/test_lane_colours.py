"""Which player is which lane: the terminal game names each lane's colour beside the
player, and the virtual board's drawing tells pegs from the lit every-fifth-hole marks even
without colour."""

import io

from crib.layout.source import load_layout
from crib.picture.model import board_picture
from crib.sim.screen import LIT, MARK, SimScreen, grid, row_labels
from crib.sim.virtual import VirtualBoard
from crib.ui.view import LANE_STYLES, View
from cribcore.protocol import decode


def test_the_terminal_board_says_each_players_lane_colour():
    out = io.StringIO()
    View(out, False).board(["Alice", "Bob", "Cat"], [5, 12, 0], 121)
    lines = out.getvalue().splitlines()
    assert [line.split()[:2] for line in lines] == [
        ["Alice", "red"], ["Bob", "blue"], ["Cat", "green"]]
    assert LANE_STYLES[:3] == tuple(ln.name.lower() for ln in load_layout().lanes)
    bars = {min(line.find(ch) for ch in "\u2588\u00b7" if ch in line) for line in lines}
    assert len(bars) == 1  # the bars still start in one column


def test_without_colour_pegs_and_hole_marks_differ(tmp_path):
    assert LIT != MARK
    with VirtualBoard(str(tmp_path / "s"), driven=True) as vb:
        assert decode(vb.ask("peg p=0 n=7")).kind == "ok"
        assert decode(vb.ask("peg p=0 n=4")).kind == "ok"  # back peg 7, front 11
        assert decode(vb.ask("tick ms=3000")).kind == "ok"  # the move's animation done
        out = io.StringIO()
        screen = SimScreen(vb, load_layout(), out, colour=False)
        pixels, state = screen.fetch()
        screen.refresh()
    assert state.pegs[0] == (7, 11)
    lines = [line.replace("\x1b[K", "") for line in
             out.getvalue().split("\x1b[H")[-1].split("\n")]
    pic = board_picture(load_layout(), pixels)
    cells = grid(pic)
    label = max(len(n) for n in row_labels(pic)) + 1

    def shown(lane, hole):
        r, c = cells[(lane, hole)]
        return lines[2 + r][label + c]  # under the (empty) header and a blank line
    assert shown(0, 7) == LIT and shown(0, 11) == LIT  # the pegs
    lit = {h.hole for h in pic.holes if h.lane == 1 and h.colour is not None}
    assert {5, 10, 15} <= lit  # lane 2 has no pegs: its lit holes are marks
    assert all(shown(1, hole) == MARK for hole in lit)
    assert shown(0, 5) == MARK and shown(0, 10) == MARK
