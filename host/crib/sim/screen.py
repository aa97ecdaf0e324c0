"""The virtual board in a terminal: the face on its side in colour, and keys as its buttons.

Keys (shown under the board): 1-4 tap a lane's button, u taps undo, Enter (or c) taps
confirm. A terminal reports no key releases, so a hold is explicit: h then a button key
holds that button down until the next key (any key lets go; that key does nothing
else), and U holds undo (3 s of it asks "new game?"). q (or Ctrl-C) quits.
"""

import re
import textwrap
import time
from collections.abc import Callable, Iterable
from typing import Protocol, TextIO

from crib.board.pixels import parse_pixels
from crib.board.state import BoardState
from crib.layout import face
from crib.picture.model import RGB, Picture, board_picture
from cribcore.protocol import ProtocolError, decode
from pegboard.config import Config

TAP_MS = 80  # a tap holds the button this long: past the firmware's 20 ms debounce
REFRESH_S = 0.1  # the drawing asks the runner for its LEDs this often
LIT = "\u25cf"  # a lit hole with a peg in it (any lit hole when the pegs are not known)
MARK = "+"  # a lit hole without a peg: every fifth hole, skunk lines, a ghost, the game hole
DARK = "\u00b7"  # a dark hole over an LED
BLIND = "\u25cb"  # a hole with no LED under it (the start holes)
KEY_HELP = ("keys: 1-%d tap a lane  u undo  Enter confirm  q quit  h then a key: hold that "
            "button (any key lets go)  U hold undo")
WIDTH = 80  # the drawing fits a terminal this wide: the board, its labels and every line
_ESCAPE = re.compile("\x1b\\[[0-9;?]*[A-Za-z]")


class Asker(Protocol):
    """What the screen needs of the board: a line from the sim itself, answered (a
    crib.sim.virtual.VirtualBoard; None: no answer)."""

    def ask(self, line: str) -> str | None:
        """The runner's reply line to line."""


def visible(line: str) -> str:
    """A drawn line as it shows: without its colour codes."""
    return _ESCAPE.sub("", line)


def wrap(text: str, width: int = WIDTH) -> list[str]:
    """Text (one line or several) as lines of at most width columns, continuations
    indented."""
    return [part for line in text.split("\n")
            for part in textwrap.wrap(line, width, subsequent_indent="  ",
                                      break_on_hyphens=False) or [""]]


def _ranks(values: Iterable[float], near: float, wide: float) -> dict[float, int]:
    """{value: index} for positions along one axis: values closer than `near` share an
    index, neighbours further apart than `wide` leave an empty index between them."""
    out: dict[float, int] = {}
    index = -1
    last: float | None = None
    for v in sorted(values):
        if last is None:
            index = 0
        elif v - last > near:
            index += 2 if v - last > wide else 1
        out[v] = index
        last = v
    return out


def grid(pic: Picture) -> dict[tuple[int, int], tuple[int, int]]:
    """{(lane, hole): (row, col)}: the picture's holes in terminal cells, in face.py's order
    along each axis, a blank cell where the face has a gap (between groups of five)."""
    spec = face.DEFAULT_SPEC
    cols = _ranks([h.x for h in pic.holes], 1.0, 1.5 * spec.hole_pitch)
    rows = _ranks([h.y for h in pic.holes], spec.track_gap / 2, 1.5 * spec.track_gap)
    return {(h.lane, h.hole): (rows[h.y], cols[h.x]) for h in pic.holes}


def row_labels(pic: Picture) -> list[str]:
    """What each lane's row is labelled with: its name, or its key (1-4) where the names
    would push the board past WIDTH (the shipped board's "Green" already would)."""
    cols = max(c for _, c in grid(pic).values()) + 1
    if max(len(n) for n in pic.names) + 1 + cols <= WIDTH:
        return list(pic.names)
    return [str(lane + 1) for lane in range(len(pic.names))]


def _fg(rgb: RGB) -> str:
    return "\x1b[38;2;%d;%d;%dm" % tuple(rgb)


_GREY = (90, 84, 78)
_RESET = "\x1b[0m"


def draw(pic: Picture, state: BoardState | None = None, held: tuple[str, float] | None = None,
         note: str = "", colour: bool = True, footer: bool = True) -> list[str]:
    """The screen's lines: the board, a line per lane (score, back peg, tally, pending,
    dealer), the mode; with footer, what is held, a note and the keys."""
    cells = grid(pic)
    rows = max(r for r, _ in cells.values()) + 1
    cols = max(c for _, c in cells.values()) + 1
    labels = row_labels(pic)
    label = max(len(n) for n in labels) + 1
    canvas = [[" "] * cols for _ in range(rows)]
    paint: list[list[RGB | None]] = [[None] * cols for _ in range(rows)]
    pegs = None if state is None else _peg_holes(pic, state)
    for h in pic.holes:
        r, c = cells[(h.lane, h.hole)]
        if h.colour is not None:
            lit = LIT if pegs is None or (h.lane, h.hole) in pegs else MARK
            canvas[r][c], paint[r][c] = lit, _brighten(h.colour)
        else:
            canvas[r][c], paint[r][c] = (BLIND if h.led < 0 else DARK), _GREY
    names: dict[int, tuple[str, RGB | None]] = {}
    for lane, name in enumerate(labels):
        names[cells[(lane, 0)][0]] = (name, pic.colours[lane])
    lines = []
    for r in range(rows):
        name, rgb = names.get(r, ("", None))
        head = name.rjust(label - 1) + " "
        text = (_fg(rgb) + head + _RESET) if colour and rgb else head
        for c in range(cols):
            ch, hue = canvas[r][c], paint[r][c]
            if colour and hue is not None:
                text += _fg(hue) + ch + _RESET
            else:
                text += ch
        lines.append(text)
    lines.append("")
    if state is not None:
        lines.extend(_lanes(pic, state, colour))
        mode = {"play": "playing", "confirm_new": "NEW GAME? tap undo or confirm for yes",
                "setup": "SETTINGS: tap the last lane to play, hold one for 61/121, "
                         "undo starts"}.get(state.mode, state.mode)
        lines += wrap("game to %d, %d players, %s" % (state.target, state.players, mode))
    if footer:
        lines.append(("holding %s (%.1f s): any key lets go" % held) if held else "")
        lines += wrap(note)
        lines += wrap(KEY_HELP % len(pic.names))
    return lines


def _peg_holes(pic: Picture, state: BoardState) -> set[tuple[int, int]]:
    """{(lane, hole)} where the state's pegs stand (a score past the last hole: the game
    hole)."""
    last: dict[int, int] = {}
    for h in pic.holes:
        last[h.lane] = max(last.get(h.lane, 0), h.hole)
    return {(lane, min(score, last[lane]))
            for lane, pair in enumerate(state.pegs[:state.players]) if lane in last
            for score in pair if score > 0}


def _brighten(rgb: RGB) -> RGB:
    # A terminal glyph is small: lift dim colours so marks stay visible.
    top = max(rgb)
    if top == 0:
        return rgb
    lift = max(1.0, 110.0 / top)
    return tuple(min(255, int(v * lift)) for v in rgb)


def _lanes(pic: Picture, state: BoardState, colour: bool) -> list[str]:
    out = []
    for lane in range(state.players):
        back, front = state.pegs[lane]
        name = pic.names[lane]
        mark = "\u25a0"
        if colour:
            mark = _fg(pic.colours[lane]) + mark + _RESET
        bits = ["%d %s %-8s %3d  (back %3d)  games %d" % (lane + 1, mark, name, front, back,
                                                         state.wins[lane])]
        if lane < len(state.pending) and state.pending[lane]:
            bits.append("pending +%d" % state.pending[lane])
        if state.dealer == lane:
            bits.append("crib")
        if state.winner == lane:
            bits.append("WINS")
        elif state.winner >= 0 and lane < len(state.skunk) and state.skunk[lane]:
            bits.append(("skunked", "double skunked")[state.skunk[lane] - 1])
        out.append("  ".join(bits))
    return out


class SimScreen:
    """The interactive virtual board: keys press buttons, the drawing follows the LEDs.

    `board` is a VirtualBoard (ask(line) -> reply line); `out` a text stream; time comes
    from `clock` (seconds), so tests run it with scripted keys and no terminal.
    """

    def __init__(self, board: Asker, config: Config, out: TextIO, colour: bool = True,
                 clock: Callable[[], float] = time.monotonic, header: str = "") -> None:
        self.board = board
        self.config = config
        self.out = out
        self.colour = colour
        self.clock = clock
        self.header = header
        self.lanes = len(config.lanes)
        self.held: tuple[str, float] | None = None  # (button, since)
        self.arm_hold = False
        self.releases: list[tuple[float, str]] = []  # (when, button)
        self.note = ""
        self.quit = False
        self.frames = 0
        self.last: list[str] | None = None
        self._next_refresh = 0.0

    # -- keys ------------------------------------------------------------------------------

    def button_for(self, key: str) -> str | None:
        """The button a key stands for (lane0.., undo, confirm), or None."""
        if key.isdigit() and 1 <= int(key) <= self.lanes:
            return "lane%d" % (int(key) - 1)
        if key in ("u", "U"):
            return "undo"
        if key in ("\r", "\n", "c"):
            return "confirm"
        return None

    def key(self, key: str) -> None:
        """Act on one key press."""
        now = self.clock()
        if self.held is not None:
            self._press(self.held[0], False)
            self.note = "let go of %s after %.1f s" % (self.held[0], now - self.held[1])
            self.held = None
            return
        if key in ("q", "\x03", "\x04"):
            self.quit = True
            return
        if key == "h":
            self.arm_hold = True
            self.note = "hold which button? (1-%d, u, Enter)" % self.lanes
            return
        button = self.button_for(key)
        if button is None:
            self.arm_hold = False
            self.note = "key %r does nothing here" % key
            return
        if self.arm_hold or key == "U":
            self.arm_hold = False
            self._press(button, True)
            self.held = (button, now)
            self.note = ""
            return
        self._press(button, True)
        self.releases.append((now + TAP_MS / 1000.0, button))
        self.note = "tapped %s" % button

    def _press(self, button: str, down: bool) -> None:
        reply = self.board.ask("btn b=%s on=%d" % (button, 1 if down else 0))
        if reply is None:
            self.note = "the board did not answer (restarting?)"

    def tick(self) -> None:
        """Let go of tapped buttons whose time is up; redraw when it is time."""
        now = self.clock()
        due = [b for t, b in self.releases if t <= now]
        self.releases = [(t, b) for t, b in self.releases if t > now]
        for b in due:
            self._press(b, False)
        if now >= self._next_refresh:
            self._next_refresh = now + REFRESH_S
            self.refresh()

    # -- drawing ---------------------------------------------------------------------------

    def fetch(self) -> tuple[list[tuple[int, int, int]], BoardState] | None:
        """(pixels, state) from the runner now, or None if it did not answer."""
        leds = self.board.ask("leds")
        st = self.board.ask("state")
        try:
            lm, sm = decode(leds), decode(st)
            pixels = parse_pixels(lm.args.get("px", ""), lm.args["leds"])
            return pixels, BoardState.from_reply(sm.args)
        except (ProtocolError, KeyError, TypeError, AttributeError):
            return None

    def refresh(self) -> None:
        """Draw the board if anything changed since the last frame."""
        got = self.fetch()
        if got is None:
            lines = wrap(self.header) + ["", "the board is not answering (it restarts when it "
                                          "dies)"]
        else:
            pixels, state = got
            pic = board_picture(self.config, pixels, state.settings.get("brightness"))
            held = None
            if self.held is not None:
                held = (self.held[0], self.clock() - self.held[1])
            lines = wrap(self.header) + [""] + draw(pic, state, held, self.note, self.colour)
        if lines == self.last:
            return
        self.last = lines
        self.frames += 1
        self.out.write("\x1b[H" + "".join(line + "\x1b[K\n" for line in lines) + "\x1b[J")
        self.out.flush()

    def run(self, keys: Callable[[float], str | None]) -> None:
        """The loop: keys is a callable(timeout_s) -> a key or None; until q."""
        self.out.write("\x1b[2J\x1b[?25l")
        try:
            while not self.quit:
                self.tick()
                k = keys(0.02)
                if k:
                    self.key(k)
                    self._next_refresh = 0.0
        finally:
            try:
                if self.held is not None:
                    self._press(self.held[0], False)
                for _, b in self.releases:
                    self._press(b, False)
            finally:  # the cursor comes back even when the board has gone
                self.out.write("\x1b[?25h\n")
                self.out.flush()
