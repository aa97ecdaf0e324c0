"""The table engine's Board (cribcore.table.record's interface) over the firmware App in
the same interpreter: each call is a protocol line the App runs as a line from USB
(App._line: its reply at once, the frame left to the server's loop), so the board's own
rules (ids applied once, saved before the reply) hold for the engine exactly as for the
laptop's link. The LEDs move on every peg.

    board = AppBoard(app, port)       # port: a LoopPort, the App's serial port
    board.peg(0, 5, "t1-3"); board.undo("t1-4"); board.set_turn(1)
    board.tick(now_ms)                # a frame (the server's loop calls it)
    board.pegs()                      # [[back, front], ...] as the board holds them
"""

from cribcore import CoreError
from cribcore.protocol import decode, encode


class BoardRefused(CoreError):
    """The App answered a command with an error (its code and message)."""


class LoopPort:
    """The App's serial port inside the interpreter: lines handed in, lines written out."""

    def __init__(self):
        self.inbox = b""
        self.out = []

    def read(self):
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data):
        self.out.append(data)

    def take(self):
        """What the App wrote since the last take, as text lines."""
        text = b"".join(self.out).decode()
        self.out = []
        return [line for line in text.split("\n") if line]


class AppBoard:
    """A Board over an App (module docstring)."""

    kind = "board"

    def __init__(self, app, port, clock):
        self.app = app
        self.port = port
        self.clock = clock  # () -> ms, the App's clock (time.ticks_ms on a board)
        self.capacity = len(app.config.lanes)
        self._news = []  # what the App said on its own (button presses): evt lines
        self.tick()  # the boot: its events are the App's own, not news for a game
        self.port.take()

    def tick(self):
        """One step of the App: a frame drawn, the buttons read."""
        self.app.step(self.clock())

    def _call(self, verb, **args):
        """Run one command line as the App runs a line from USB (its own checks, ids and
        save), without waiting for a frame (the server's loop draws them); its reply's
        fields (BoardRefused on an `err`)."""
        self.app._line(encode(verb, **args))
        reply = None
        for line in self.port.take():
            msg = decode(line)
            if msg.kind == "evt":
                self._news.append(msg)
            elif msg.kind == "err":
                raise BoardRefused(msg.args.get("msg") or verb, msg.args.get("code"))
            else:
                reply = msg.args
        if reply is None:
            raise BoardRefused("no reply from the board app to %r" % verb, "internal")
        return reply

    def peg(self, lane, n, op_id):
        return self._call("peg", p=lane, n=n, id=op_id)

    def undo(self, op_id):
        return self._call("undo", id=op_id)

    def new_game(self, target, lanes, op_id, match=False):
        return self._call("new", target=target, players=lanes, match=1 if match else 0,
                          id=op_id)

    def set_dealer(self, lane):
        self._call("set", dealer=lane)

    def set_turn(self, lane):
        self._call("turn", p=lane)
        return True

    def state(self):
        return self._call("state")

    def events(self):
        """The App's own news since the last call (presses on its buttons)."""
        out, self._news = self._news, []
        return out

    def pegs(self):
        """[[back, front], ...] of the lanes in play, as the App holds them."""
        b = self.app.board
        return [[b.back(i), b.front(i)] for i in range(b.players)]
