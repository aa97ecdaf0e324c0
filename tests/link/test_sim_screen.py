"""The virtual board's terminal UI driven by scripted keys, with no terminal."""

import io

import pytest

from crib.board.state import BoardState
from crib.layout.source import load_layout
from crib.picture.model import board_picture
from crib.sim.screen import (
    BLIND,
    DARK,
    LIT,
    MARK,
    WIDTH,
    SimScreen,
    draw,
    grid,
    row_labels,
    visible,
)
from crib.sim.store import MAX_LANES, layout_for
from crib.sim.virtual import VirtualBoard
from cribcore.protocol import decode
from pegboard.config import from_dict, lane_layout


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


@pytest.fixture
def ui(tmp_path):
    with VirtualBoard(str(tmp_path / "s"), driven=True) as vb:
        clock = Clock()
        out = io.StringIO()
        screen = SimScreen(vb, load_layout(), out, colour=False, clock=clock)
        yield vb, screen, clock, out


def ms(vb, n):
    """Move the runner's driven clock on."""
    assert decode(vb.ask("tick ms=%d" % n)).kind == "ok"


def tap(vb, screen, clock, key):
    screen.key(key)
    ms(vb, 50)
    clock.t += 0.1
    screen.tick()  # the tap's release is due
    ms(vb, 50)


def board_state(vb):
    return BoardState.from_reply(decode(vb.ask("state")).args)


def cell(screen, lines, lane, hole):
    """The character drawn for a hole (lines as printed, after the two header lines)."""
    pic = board_picture(screen.config, [(0, 0, 0)] * screen.config.leds)
    r, c = grid(pic)[(lane, hole)]
    label = max(len(n) for n in row_labels(pic)) + 1
    return lines[2 + r][label + c]


def frame(screen, out):
    screen.refresh()
    text = out.getvalue().split("\x1b[H")[-1]
    return [line.replace("\x1b[K", "") for line in text.split("\n")]


def test_taps_peg_and_the_drawing_follows(ui):
    vb, screen, clock, out = ui
    for _ in range(3):
        tap(vb, screen, clock, "1")
    assert board_state(vb).pending[0] == 3
    ms(vb, 3000)  # the pause: pegged as one jump, the animation done
    lines = frame(screen, out)
    assert board_state(vb).pegs[0] == (0, 3)
    assert cell(screen, lines, 0, 3) == LIT
    assert cell(screen, lines, 0, 2) == DARK
    assert cell(screen, lines, 0, 0) == BLIND
    assert any(line.startswith("1 \u25a0 Red") and " 3 " in line for line in lines)
    assert any(line.startswith("keys: 1-3") for line in lines)


def test_a_hold_adds_five_and_undo_taps_back(ui):
    vb, screen, clock, out = ui
    screen.key("h")
    screen.key("2")  # lane 1's button goes down and stays down
    ms(vb, 700)  # past hold_ms: +5
    assert any("holding lane1" in line for line in frame(screen, out))
    screen.key("x")  # any key lets go, and does nothing else
    ms(vb, 3000)
    assert board_state(vb).pegs[1] == (0, 5)
    tap(vb, screen, clock, "u")
    assert board_state(vb).pegs[1] == (0, 0)


def test_holding_undo_asks_for_a_new_game(ui):
    vb, screen, clock, out = ui
    tap(vb, screen, clock, "3")
    ms(vb, 3000)
    screen.key("U")
    ms(vb, 3200)  # long_ms
    screen.key(" ")  # let go
    ms(vb, 50)
    assert board_state(vb).mode == "confirm_new"
    assert any("NEW GAME?" in line for line in frame(screen, out))
    tap(vb, screen, clock, "\r")  # confirm: yes
    ms(vb, 50)
    st = board_state(vb)
    assert (st.mode, st.pegs[2]) == ("play", (0, 0))


def test_run_draws_until_q_and_lets_go_of_held_buttons(ui):
    vb, screen, clock, out = ui
    script = iter(["U", None, "z", "?", None, "q"])

    def keys(timeout):
        clock.t += 0.2
        return next(script, "q")

    screen.run(keys)
    assert screen.quit and screen.frames >= 2
    text = out.getvalue()
    assert text.startswith("\x1b[2J\x1b[?25l") and text.rstrip().endswith("\x1b[?25h")
    assert "key '?' does nothing here" in text
    ms(vb, 5000)
    assert board_state(vb).mode == "play"  # undo was let go after 0.4 s: no new game


@pytest.mark.parametrize("lanes", [2, 3, 4])
def test_the_grid_never_puts_two_holes_in_one_cell(lanes):
    d = load_layout().to_dict()
    d["lanes"] = [dict(d["lanes"][i % 3], button=10 + i, name="L%d" % i) for i in range(lanes)]
    for lane, segs in zip(d["lanes"], lane_layout(lanes, 121)):
        lane["segments"] = segs
    d["leds"] = 121 * lanes
    d["budget_ma"] = 2000  # above the idle draw of a longer strip
    config = from_dict(d)
    pic = board_picture(config, [(0, 0, 0)] * config.leds)
    cells = grid(pic)
    assert len(set(cells.values())) == len(cells) == lanes * 122
    lines = draw(pic, colour=False)
    assert sum(line.count(DARK) for line in lines) == lanes * 121


def _widest_state(players, mode):
    """A state with the longest lines a lane can have: three-digit scores, a tally, pending
    points, the crib and a double skunk."""
    return BoardState.from_dict({
        "rev": 9999, "target": 121, "players": players, "dealer": 0, "winner": players - 1,
        "pegs": [[119, 120]] * players, "wins": [99] * players, "settings": {},
        "skunk": [2] * players, "undos": 0, "pending": [31] * players, "mode": mode,
        "ma": 450})


@pytest.mark.parametrize("lanes", range(2, MAX_LANES + 1))
@pytest.mark.parametrize("colour", [False, True])
def test_the_drawing_fits_80_columns_for_every_layout_the_sim_can_show(lanes, colour):
    config = from_dict(layout_for(lanes))  # the shipped 3 lanes, or widened to 2..4
    pic = board_picture(config, [(200, 40, 40)] * config.leds)
    for mode in ("play", "setup", "confirm_new"):
        lines = draw(pic, _widest_state(lanes, mode), ("undo", 2.5), "a note " * 20, colour)
        shown = [visible(line) for line in lines]
        assert max(len(line) for line in shown) <= WIDTH, max(shown, key=len)
        # Nothing was cut: every hole is drawn, and the key help is all there.
        board = shown[:shown.index("")]  # the rows of holes, above the lanes' lines
        assert sum(line.count(LIT) + line.count(MARK) + line.count(BLIND)
                   for line in board) == len(pic.holes)
        assert "U hold undo" in " ".join(shown) and "q quit" in shown[-2]
    # Rows are labelled with the lane names where they fit (two lanes), else with the keys.
    first = row_labels(pic)[0]
    assert first == ("Red" if lanes == 2 else "1") and shown[0].lstrip().startswith(first)


def test_the_header_of_a_long_store_path_wraps(tmp_path):
    config = load_layout()
    screen = SimScreen(None, config, io.StringIO(), colour=False,
                       header="virtual board: /dev/pts/12  socket://127.0.0.1:65535   store: "
                              + "/home/somebody/" + "x" * 90 + "/sim")
    screen.fetch = lambda: ([(0, 0, 0)] * config.leds, _widest_state(3, "play"))
    screen.refresh()
    shown = screen.out.getvalue().replace("\x1b[K", "").split("\x1b[H")[-1].split("\n")
    assert max(len(visible(line)) for line in shown) <= WIDTH
    assert "x" * 70 in "".join(shown)
