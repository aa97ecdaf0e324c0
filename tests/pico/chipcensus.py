"""The heap's census on the chip (tests/pico/chipgame.py's, bench/chip.py --census): what
is live at a game's first question, part by part. Plain code for MicroPython.

Each figure is a difference of the live heap (gc.collect() then gc.mem_alloc()) around
one step, so it is what that step keeps (its garbage collected):

- step: a stage of the boot (main.py, the board's main with the App, the server built);
- import: one module imported (in IMPORTS' order, before the server is built, so each
  counts its own function, class and globals objects; `with`: the modules it imported
  first, counted with it);
- drop: at game G's first question, the objects are let go one attribute at a time, in
  TOP's order and depth first (a `room.state` set to None frees what only it held; what
  two attributes share is counted at the second), and what each frees is its figure.
  Destructive: the run ends there (chipgame then prints DONE). What is left after the
  last drop is the modules, the tasks and the bench's own (`left`).

What grows between two figures (the census's own lists and lines, a few dozen bytes
each) has a line of its own ("between ..."), so the steps and imports add up to the live
heap at the first question, and so do the drops and what is left.
A line each: CENSUS {"kind", "what", "bytes", "with"?}. main.py makes the Census
(tests/pico/chiprun.py's CENSUS_MAIN): chipcensus is imported before anything else.
"""

import gc
import json
import sys

# asyncio and pegboard's modules, as the board's main imports them (before it runs)
PEGBOARD = ("asyncio", "pegboard", "pegboard.ticks", "pegboard.ws2812", "pegboard.frame",
            "pegboard.light", "pegboard.slots", "pegboard.render", "pegboard.store",
            "pegboard.sampler", "pegboard.buttons", "pegboard.usbserial", "pegboard.app",
            "pegboard.pico")
# the server's modules, each after those it imports at its top (a module that imports
# one not yet imported counts it: `with`)
IMPORTS = ("asyncio", "microdot", "boardweb", "cribcore", "cribcore.settings",
           "cribcore.protocol", "cribcore.table", "cribcore.table.record",
           "boardweb.appboard", "cribcore.table.club", "boardweb.clubreport",
           "cribcore.table.answers", "cribcore.table.seats", "cribcore.web",
           "cribcore.web.rules", "boardweb.quick", "cribcore.web.edge", "boardweb.conn",
           "boardweb.homeroute", "boardweb.push", "cribcore.boardtext", "cribcore.rules",
           "cribcore.pegs", "cribcore.cards", "cribcore.deal", "cribcore.show",
           "cribcore.counting", "cribcore.play", "cribcore.game", "cribcore.table.entries",
           "cribcore.table.questions", "cribcore.table.cards", "cribcore.table.ranks",
           "cribcore.match", "cribcore.table.table", "cribcore.table.show",
           "cribcore.table.turns", "cribcore.table.words", "cribcore.table.session",
           "cribcore.table.engine", "cribcore.table.patch", "cribcore.table.room",
           "pegboard.recordsession", "boardweb.resume", "boardweb.routes",
           "boardweb.server", "cribcore.table.gamelines", "pegboard.flashrecord",
           "pegboard.logfiles", "pegboard.gamelog", "pegboard.gamesverb", "boardweb.board")
# the objects let go at a game's first question, in this order (attribute paths from
# the server; the App is the board's)
TOP = ("push", "room", "room.engine.session", "room.engine", "board", "app", "edge", "",
       "board.app")
SCALARS = (bool, int, float)
# let go first where an object has them (a room's state before what it shares)
FIRST = ("_frame", "_patch", "_text", "_before", "state", "question", "view", "_log",
         "_raw")


def live():
    """(allocated, free) after a collection."""
    gc.collect()
    return gc.mem_alloc(), gc.mem_free()


class Census:
    """The census's steps (module docstring): main.py makes it with base, the live heap
    before it imported this module, and game, the game at whose first question the
    objects are counted."""

    def __init__(self, base, game, out=print):
        self.live = live
        self.out = out
        self.game = game
        self.server = None  # the board's server, once built (chipgame.play)
        self.app = None  # the App (pegboard.app), once the board's main made it
        self.seen = None  # the modules imported by the census's imports
        self.line("step", "the interpreter at main.py", base)
        self.at = base  # the live heap at the last step
        self.step("the census's own code (chipcensus)")

    def line(self, kind, what, count, also=None):
        item = {"kind": kind, "what": what, "bytes": count}
        if also:
            item["with"] = also
        self.out("CENSUS " + json.dumps(item))

    def step(self, what):
        """The live heap's growth since the last step, said as what."""
        now = self.live()[0]
        self.line("step", what, now - self.at)
        self.at = self.live()[0]

    def _import(self, names):
        last = self.at  # where the last figure ended
        between = 0  # what grew between two figures (the census's own lists and lines)
        for name in names:
            if name in sys.modules:
                continue
            before = list(sys.modules)
            a0 = self.live()[0]
            between += a0 - last
            try:
                __import__(name)
            except ImportError:
                last = a0
                continue  # not on this board (a stand-in's module)
            last = self.live()[0]
            also = [m for m in sys.modules if m not in before and m != name]
            del before
            self.line("import", name, last - a0, also)
        self.seen = list(sys.modules)
        now = self.live()[0]
        self.line("step", "between those imports (the census's own)", between + now - last)
        self.at = now

    def core(self):
        """cribcore's modules, one at a time (before chipgame's players import them)."""
        self._import([m for m in IMPORTS if m.startswith("cribcore")])

    def pegboard(self):
        """asyncio's and pegboard's modules, one at a time (before the board's main
        runs)."""
        self._import(PEGBOARD)

    def imports(self):
        """The server's modules, one at a time (before it is built)."""
        self._import(IMPORTS)

    def objects(self, game):
        """Let go of the server's objects one attribute at a time (destructive: module
        docstring), then what is left and the modules imported since the census's."""
        now = self.live()[0]
        self.line("step", "the game to its first question (the state, the log, the record)",
                  now - self.at)
        self.line("game", "game %d's first question" % game, now)
        objs = []
        for path in TOP:
            obj = self.server
            for name in path.split(".") if path else ():
                obj = getattr(obj, name)
            objs.append(obj)
        done = [id(obj) for obj in objs]
        self.last, self.between = self.live()[0], now - self.live()[0]
        for i, path in enumerate(TOP):
            obj, objs[i] = objs[i], None
            self._drop(path or "server", obj, done, 0)
            obj = None
        self.server = self.app = None
        later = [m for m in sys.modules if m not in self.seen]
        self.line("drop", "between those (the census's own)",
                  self.between + self.last - self.live()[0])
        self.line("left", "left: the modules, the tasks, the phones' stand-ins, chipgame's",
                  self.live()[0], later)

    def _drop(self, label, obj, done, depth):
        """Each attribute of obj (those of an object it alone holds first, to depth 2)
        set to None, and what each freed."""
        names = [n for n in FIRST if n in _attrs(obj)]
        names += [n for n in _attrs(obj) if n not in FIRST]
        for name in names:
            try:
                value = getattr(obj, name)
            except AttributeError:
                continue
            if value is None or type(value) in SCALARS:
                continue
            if depth < 2 and _instance(value) and id(value) not in done:
                done.append(id(value))
                self._drop(label + "." + name, value, done, depth + 1)
            a0 = self.live()[0]
            self.between += self.last - a0
            try:
                setattr(obj, name, None)
            except (AttributeError, TypeError):
                self.last = a0
                continue
            value = None
            self.last = self.live()[0]
            self.line("drop", label + "." + name, a0 - self.last)


def _attrs(obj):
    d = getattr(obj, "__dict__", None)
    if d is not None:
        return sorted(d)
    cls = type(obj)
    return sorted([n for n in dir(obj) if not n.startswith("__") and
                   getattr(cls, n, _attrs) is _attrs])


def _instance(value):
    """Whether value is an object of a class of ours (or microdot's, asyncio's): its
    attributes are counted one by one."""
    if isinstance(value, (str, bytes, bytearray, list, tuple, dict, type)):
        return False
    return getattr(value, "__dict__", None) is not None and \
        not hasattr(value, "__name__")
