"""Helpers for the render tests: a board set up on the shipped layout, expected colours
and hole-to-LED positions computed independently of the renderer."""

from boardfakes import FakeStrip

from cribcore.pegs import Board
from pegboard import light, render
from pegboard.config import default_dict, from_dict
from pegboard.render import FLASH, GAME_RGB, MARK, MARK_RGB, SKUNK_RGB

RED, BLUE, GREEN = (255, 24, 0), (0, 60, 255), (0, 255, 40)
COLOURS = (RED, BLUE, GREEN)
BLACK = (0, 0, 0)


def make(players=3, target=121, **settings):
    d = default_dict()
    d["budget_ma"] = 30000  # no limiting unless a test asks for it
    for k in settings:
        d[k] = settings[k]
    cfg = from_dict(d)
    strip = FakeStrip(cfg.leds)
    return cfg, strip, render.Renderer(cfg, strip), Board(players, target)


GAMMA = light.gamma_table(2.8)  # the shipped gamma


def tone(rgb, level, bri=40):
    """The expected pixel: gamma of the level-scaled colour, then brightness (at least 1)."""
    g = GAMMA
    scale = bri * 256 // 100
    out = []
    for c in rgb:
        v = g[c * level // 255]
        out.append(((v * scale) >> 8 or 1) if v else 0)
    return tuple(out)


def led(lane, hole):
    """The default serpentine layout, written out independently of the config code."""
    return (hole - 1, 242 - hole, 241 + hole)[lane]


class Frame:
    """An expected frame of 363 pixels: [led] = (r, g, b), compact like the strip's."""

    def __init__(self):
        self.buf = bytearray(3 * 363)

    def __setitem__(self, i, rgb):
        k = 3 * i
        self.buf[k], self.buf[k + 1], self.buf[k + 2] = rgb

    def __getitem__(self, i):
        k = 3 * i
        return (self.buf[k], self.buf[k + 1], self.buf[k + 2])


def shows(strip, want):
    """True if the strip shows exactly the expected frame."""
    return strip.frame() == bytes(want.buf)


def marks(lanes, target=121, dealer=-1, flash=False):
    """The Frame of a board (121 holes) showing only its hole marks, on these lanes."""
    out = Frame()
    top = min(target, 121)
    skunks = [target - 30] + ([target - 60] if target >= 121 else [])
    fives, skunk, game = tone(MARK_RGB, MARK), tone(SKUNK_RGB, MARK), tone(GAME_RGB, MARK)
    if flash:
        fives = skunk = game = tone(GAME_RGB, FLASH)
    for lane in range(lanes):
        own = tone(COLOURS[lane], MARK) if lane == dealer and not flash else fives
        for h in range(5, top + 1, 5):
            out[led(lane, h)] = own
        for h in skunks:
            out[led(lane, h)] = skunk
        out[led(lane, top)] = game
    return out


def settle(r, board, now, buttons=None, step=20):
    """Draw until no animation runs; return the time reached."""
    r.draw(board, buttons, now)
    while r.animating(now):
        now += step
        r.draw(board, buttons, now)
    return now + step
