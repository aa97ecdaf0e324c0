"""The table engine's Board (cribcore.table.record's interface) over the firmware App in
the same interpreter, the App's own serial port (USB on a board) still working: each call
runs as the App runs a line from USB (_run, given the verb and its fields, no line
made and parsed again: its reply at once, the frame left to the server's loop), so the
board's own rules (its checks, ids applied once, saved before the reply) hold for the
engine exactly as for the laptop's link. The LEDs move on every
peg; the board's buttons are news for the engine (events()).

    board = AppBoard(app, clock)      # app.port is shared from here on (Tap)
    board.peg(0, 5, "t1-3"); board.undo("t1-4"); board.set_turn(1)
    board.tick()                      # a step of the App: a frame, its buttons, USB lines
    board.news, board.events()        # whether the buttons did anything; what (BoardEvent)
    board.pegs()                      # [[back, front], ...] as the board holds them
    board.defer(); board.flush()      # pegs and the turn's light made after the reply

Deferred (defer(), the board's own server with its record on flash): the pegs, the
turn's light and the dealer's marker the engine sends while it takes an answer are made
after the phone's reply (flush(), BoardServer's: once the screens have the new state),
not before it; the App's save (a flash write) then costs the answer nothing. They are
made together by pegboard.direct.apply, on one copy of the board with one save, and
without the id bookkeeping of a line from USB (no id remembered, no reply line: none is
asked again, the record is their truth). Every other call makes them first, so the App
takes every command in the engine's order.
The record is written before each (cribcore.table.table), so a power cut before the
flush leaves the App behind the record, which a restart puts right (boardweb.resume's
resync), as it did a cut between the record's write and the peg.

Whatever the App writes during an engine's call is taken from its port (Tap) and never
reaches USB; whatever else it writes (the replies to a laptop's lines, its events) goes to USB as
before, and its button events (`evt peg`, `evt undo`, `evt new`: the App writes each line
in one write) are kept as news too.
"""

from cribcore import CoreError
from cribcore.pegs import PegError
from cribcore.protocol import CHANGE, ERRORS, Message, ProtocolError, command, decode
from cribcore.table.record import button_event
from pegboard.direct import apply

PRESSES = (b"evt peg ", b"evt undo ", b"evt new ")  # the lines kept (button_event reads them)


class BoardRefused(CoreError):
    """The App answered a command with an error (its code and message)."""


class LoopPort:
    """A serial port with nothing at the other end (the unix runner's App has no USB):
    nothing to read, what is written is dropped."""

    def read(self):
        return b""

    def write(self, data):
        pass


class Tap:
    """The App's port, shared: reads and writes go to the real port (USB), but while a
    call is being taken (`taking` a list) what the App writes is kept there instead; the
    button events written are also kept (`presses`)."""

    def __init__(self, port):
        self.port = port
        self.taking = None
        self.presses = []

    def read(self):
        return self.port.read()

    def write(self, data):
        if self.taking is not None:
            self.taking.append(data)
            return
        if data[:9] in PRESSES or data[:8] in PRESSES:
            self.presses.append(data)
        self.port.write(data)


class AppBoard:
    """A Board over an App (module docstring); clock: () -> ms, the App's clock
    (time.ticks_ms on a board)."""

    kind = "board"

    def __init__(self, app, clock):
        self.app = app
        self.tap = app.port = Tap(app.port)
        self.clock = clock
        self.capacity = len(app.config.lanes)
        self.later = None  # the calls waiting for flush(): a list once deferred
        self.behind = False  # a call flush() made was refused: the App behind the record
        self.tick()  # the boot: its events are the App's own, not news for a game
        del self.tap.presses[:]

    @property
    def news(self):
        """Whether the buttons did anything since the last events()."""
        return bool(self.tap.presses)

    def tick(self):
        """One step of the App: USB lines, a frame drawn, the buttons read."""
        self.flush()
        self.app.step(self.clock())

    def defer(self):
        """From now on, pegs, the turn and the dealer wait for flush() (module
        docstring)."""
        self.later = []

    def flush(self):
        """The calls waiting, made now, in order, with one save (pegboard.direct.apply);
        False if the App refused one or could not save them (it is then behind the
        record: boardweb.resume.resync)."""
        later = self.later
        if not later:
            return True
        try:
            done = apply(self.app, later)
        except Exception:  # noqa: BLE001 - OSError, MemoryError, a bug: all taken back
            done = False
        later.clear()  # the same list for the next answer's calls (no new one an answer)
        if not done:
            self.behind = True
        return done

    def _later(self, verb, fields):
        """Keep a call for flush() (its verb and fields, a tuple: pegboard.direct.apply's), if
        deferred; whether it was."""
        if self.later is None:
            return False
        self.later.append((verb, fields))
        return True

    def _call(self, verb, **args):
        """Run one command as the App runs a line from USB (its own checks, ids and
        save: _run, given the fields, no line made and parsed), without waiting for
        a frame (the server's loop draws them); its reply's fields (BoardRefused where
        the App would answer `err`: its code and message)."""
        tap = self.tap
        tap.taking = []  # what the App writes meanwhile is not for USB
        ident = args.pop("id", None)
        try:
            return _run(self.app, verb, args, ident)
        except (ProtocolError, PegError) as e:
            raise BoardRefused(str(e), e.code if e.code in ERRORS else "bad_arg") from None
        except OSError as e:
            raise BoardRefused(repr(e), "store_failed") from None
        except Exception as e:  # noqa: BLE001 - a bug, no memory: as the App's `internal`
            raise BoardRefused(repr(e), "internal") from None
        finally:
            tap.taking = None

    def peg(self, lane, n, op_id):
        if self._later("peg", (lane, n)):
            return {}
        return self._call("peg", p=lane, n=n, id=op_id)

    def undo(self, op_id):
        self.flush()
        return self._call("undo", id=op_id)

    def new_game(self, target, lanes, op_id, match=False):
        self.flush()
        return self._call("new", target=target, players=lanes, match=1 if match else 0,
                          id=op_id)

    def set_dealer(self, lane):
        if not self._later("set", (lane,)):
            self._call("set", dealer=lane)

    def set_turn(self, lane):
        if not self._later("turn", (lane,)):
            self._call("turn", p=lane)
        return True

    def state(self):
        self.flush()
        return self._call("state")

    def events(self):
        """The presses on the board's buttons since the last call (BoardEvent each)."""
        self.flush()
        out = []
        lines, self.tap.presses = self.tap.presses, []
        for raw in lines:
            msg = decode(raw.decode().rstrip("\n"))
            ev = button_event(msg.verb, msg.args)
            if ev is not None:
                out.append(ev)
        return out

    def pegs(self):
        """[[back, front], ...] of the lanes in play, as the App holds them."""
        self.flush()
        b = self.app.board
        return [[b.back(i), b.front(i)] for i in range(b.players)]


def _run(app, verb, args, ident):
    """Run a command on the App as its _line runs a line from USB (the same checks, the
    id applied once, the save before the reply), given as its verb and fields: its
    reply's fields (with rev, and id); what _line would answer with `err` is raised
    (ProtocolError, PegError, OSError...)."""
    run = app.VERBS.get(verb)
    if run is None:
        raise ProtocolError("%r runs on the desktop only" % verb, "desk_only")
    if command(verb)[1] & CHANGE:
        reply, line = app._change(Message("cmd", verb, args), ident, run)
        if reply is None:
            return decode(line).args  # answered from its memory of ids
        app.renderer.wake(app.now)
        if ident is not None:
            reply["id"] = ident
    else:
        reply = run(app, args) or {}
    reply["rev"] = app.board.rev
    return reply
