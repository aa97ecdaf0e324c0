"""The board app: serial commands and button gestures change the board, a frame per step.

`App.step(now_ms)` never blocks: it reads what the port has, runs a few complete lines,
polls the buttons, applies their actions and draws one frame. Every change is saved
(board, settings and the recent id -> reply table, in one state write) before its reply
or event is written, so an acknowledged change survives a power cut and a retried id is
answered, not applied twice. A change that fails to save is taken back.
"""

from cribcore import VERSION
from cribcore.boardtext import FORMAT
from cribcore.pegs import ID_MEMORY, PegError, checksum
from cribcore.protocol import (
    CHANGE,
    ERRORS,
    PROTO,
    LineReader,
    ProtocolError,
    canonical,
    command,
    decode,
    encode,
    err,
    event,
    ok,
    pixel_runs,
    usage,
    verbs,
)
from cribcore.settings import NAMES
from pegboard import drop
from pegboard.buttons import Buttons
from pegboard.light import budget_problem
from pegboard.render import Renderer
from pegboard.ticks import elapsed

SETTINGS = NAMES  # what `set` changes besides the dealer, kept with the state
# ID_MEMORY (cribcore.pegs): the recent ids answered from memory, kept as the state file's
# own `id IDENT KEY REPLY` lines: one string each
LINES_PER_STEP = 4  # keep a step short even when the host sends a burst
MAX_WARNINGS = 8  # warnings kept (for hello and the boot replay): the newest
REPEAT_MS = 10000  # the same warning again within this is counted, not sent again


class App:
    """The firmware app over its drivers: strip, button readers, store, serial port. It
    answers the verbs of VERBS; the desktop runner's own (btn, tick) are desk.py's."""

    desk = 0  # `hello`'s desk=: 1 in the desktop runner

    def __init__(self, config, strip, readers, store, port, saved=None, renderer=None):
        """saved: what pegboard.restore.load(store, config) found, (board, settings, ids,
        warnings) (loaded here when None);
        renderer: one that has drawn the first frame already (pegboard.pico's)."""
        self.config = config
        self.strip = strip
        self.store = store
        self.port = port
        self._drain = getattr(port, "flush", None)
        self.free = None  # the Pico's: () -> free heap, in `state` (pegboard.pico sets it)
        self.now = 0
        self.buttons = Buttons(config, readers)
        self.renderer = renderer or Renderer(config, strip)
        self.reader = LineReader()
        self.queue = []
        self.warnings = []
        self._booted = False
        self._saving = False
        self._unsaid = None  # a fault that could not be reported yet
        self._torn = None  # bytes read were lost: drop the reader's line (True: torn)
        self._prepare = True  # the store may have slot directories to make ahead (idle)
        if saved is None:
            from pegboard.restore import load

            saved = load(store, config)
            del load
            drop("pegboard.restore")  # reading the saved state is done with until the next boot
        self.board, self.settings, self.ids, warnings = saved
        for code, msg in warnings:
            self.warn(code, msg)
        self._apply_settings()

    # -- the loop --------------------------------------------------------------------------

    def step(self, now_ms):
        """One pass: a few serial lines, the buttons, one frame. Never blocks, never raises:
        a fault (a MemoryError say) is reported as `evt warn code=internal` and the loop
        goes on. (KeyboardInterrupt, the REPL hand-over, is not a fault: it passes.)"""
        self.now = now_ms
        data = b""
        try:
            if not self._booted:
                self._boot()
            if not self.queue and self.reader.pending:  # a feed out of memory goes on
                self.queue = self.reader.feed(b"")
            elif not self.queue:
                data = self.port.read()
                if self._torn is not None:
                    self.reader.drop(self._torn)
                    self._torn = None
                if data:
                    self.queue = self.reader.feed(data)
        except Exception as e:  # noqa: BLE001 - nothing may stop the loop
            # No memory may be left here: only note what happened. Bytes the reader took
            # are held, and read on at the next step; bytes read but not taken are lost
            # (the next line is whole only if they ended one).
            if not self.reader.pending:
                self._torn = not data or data[-1] not in (10, 13)
            self._unsaid = e
        if self._unsaid is not None:
            fault, self._unsaid = self._unsaid, None
            self._fault(fault)
        for _ in range(LINES_PER_STEP):
            if not self.queue:
                break
            try:
                self._line(self.queue.pop(0))
            except Exception as e:  # noqa: BLE001 - e.g. no memory for the error reply
                # Every line gets a reply: this one is a constant, it needs no heap. (Not
                # a name of its own: in the 96K cap one more name costs a pool of names.)
                self.port.write(b'err code=internal msg="no memory"\n')
                self._fault(e)
        self._work(self.now)
        if self._prepare and not self.queue:
            try:
                self._prepare = self.store.prepare()  # idle: a slot's folder before its save
            except Exception:  # noqa: BLE001 - e.g. MemoryError: the save makes it instead
                self._prepare = False
        if self._drain is not None:
            try:
                self._drain()  # what a slow host has not taken yet (the Pico's port)
            except Exception as e:  # noqa: BLE001
                self._fault(e)

    def _fault(self, e):
        """Report a fault of the loop; with no memory even for that, on the next step."""
        try:
            self.warn("internal", repr(e))
        except Exception:  # noqa: BLE001
            self._unsaid = e

    def _work(self, now):
        failure = self.buttons.sampler.take_failure()
        if failure is not None:
            self._fault(failure)  # the buttons' timer failed: the loop samples them now
        try:
            for action in self.buttons.poll(now, self.board):
                self._button(action, now)
            self.renderer.draw(self.board, self.buttons, now)
        except Exception as e:  # noqa: BLE001 - e.g. MemoryError: the next step tries again
            self._fault(e)

    def warn(self, code, msg):
        """Report a problem (bad config, bad state file, flash failure, a fault of the
        loop) as `evt warn`. Bounded: the newest MAX_WARNINGS are kept, and the same
        warning again within REPEAT_MS is only counted (a fault in every frame is said
        every REPEAT_MS, with how often it happened)."""
        now = self.now
        for w in self.warnings:
            if w[0] == code and w[1] == msg:
                w[2] += 1
                if self._booted and elapsed(now, w[3]) >= REPEAT_MS:
                    w[3] = now
                    self._send(event("warn", code=code, msg="%s (%d times)" % (msg, w[2])))
                return
        self.warnings.append([code, msg, 1, now])
        if len(self.warnings) > MAX_WARNINGS:
            self.warnings.pop(0)
        if self._booted:
            self._send(event("warn", code=code, msg=msg))

    def bad_config(self, msg):
        """The layout file was refused: say so and blink red (the app runs on the built-in
        layout)."""
        self.warn("bad_config", msg)
        self.renderer.alert(True)

    def _warn_codes(self):
        codes = []
        for w in self.warnings:
            if w[0] not in codes:
                codes.append(w[0])
        return tuple(codes) or None

    def _boot(self):
        self._send(event("boot", proto=PROTO, fw=VERSION, rev=self.board.rev,
                         warn=self._warn_codes()))
        for w in self.warnings:
            self._send(event("warn", code=w[0], msg=w[1]))
        self._booted = True  # only now: a boot event lost to a fault is sent again

    def _send(self, line):
        self.port.write(line.encode() + b"\n")

    # -- commands ----------------------------------------------------------------------------

    def _line(self, item):
        rev = self.board.rev
        if type(item) is not str:
            self._send(err(item.code, str(item), rev=rev))
            return
        ident = None
        try:
            msg = decode(item)
            if msg.kind != "cmd":
                raise ProtocolError(f"{msg.kind!r} is for the board to send", "unknown_verb")
            ident = msg.args.pop("id", None)
            run = self.VERBS.get(msg.verb)
            if run is None:  # a verb of the protocol this app has none for: the desk's
                raise ProtocolError(f"{msg.verb!r} runs on the desktop only", "desk_only")
            if command(msg.verb)[1] & CHANGE:
                reply, line = self._change(msg, ident, run)
                self._send(line)
                if reply is not None:
                    self.renderer.wake(self.now)
            else:
                reply = run(self, msg.args)  # tick may change rev
                if reply is not None:  # (leds writes its own)
                    self._send(ok(rev=self.board.rev, **reply))
        except (ProtocolError, PegError) as e:
            code = e.code if e.code in ERRORS else "bad_arg"
            self._send(err(code, str(e), rev=self.board.rev, id=ident))
        except OSError as e:
            self._send(err("store_failed", repr(e), rev=self.board.rev, id=ident))
        except Exception as e:  # noqa: BLE001 - a bug must not stop the board
            self._send(err("internal", repr(e), rev=self.board.rev, id=ident))

    def _change(self, msg, ident, run):
        """Apply a state-changing command once per id; save; (its reply's fields, its
        reply line), (None, the line) for an id answered already (boardweb.appboard's
        too: no line parsed there)."""
        key = checksum(canonical(msg)) if ident is not None else None
        mine = "id %s " % ident
        for entry in self.ids:
            if not entry.startswith(mine):  # (in C: splitting every entry cost 1 ms)
                continue
            _, rid, rkey, line = entry.split(" ", 3)
            if rid == ident:
                if rkey != key:
                    raise ProtocolError(f"id {ident!r} was used for another command",
                                        "id_reused")
                tail = " id=" + ident  # kept without it (below); a line from before, with
                return None, (line if line.endswith(tail) else line + tail)
        old = self._begin()
        try:
            reply = run(self, msg.args)
            line = ok(rev=self.board.rev, id=ident, **reply)
            if ident is not None:
                # Remembered without its last field, ` id=IDENT` (id is the protocol's last
                # field; the line names the id already): with a companion's id, those 14
                # bytes took a slot file past one flash page (docs/firmware.md, "The state
                # on flash").
                tail = " id=" + ident
                kept = line[:-len(tail)] if line.endswith(tail) else line
                self.ids.append(f"id {ident} {key} {kept}")
                if len(self.ids) > ID_MEMORY:
                    self.ids.pop(0)
            self._save()
        except Exception:
            self._abort(old)  # a refusal, a failed save, a MemoryError: nothing changed
            raise
        return reply, line

    def _lane(self, lane):
        b = self.board
        reply = {"p%d" % lane: (b.back(lane), b.front(lane)), "winner": b.winner}
        if b.winner >= 0:
            reply["skunk"] = tuple([b.skunk(i) for i in range(b.players)])
        return reply

    def _new(self, target, players, match):
        lanes = len(self.config.lanes)
        if players is not None and players > lanes:
            raise PegError(f"this board has {lanes} lanes, not {players}", "bad_lane")
        self.board.new_game(target, players, match)
        return {"target": self.board.target, "players": self.board.players,
                "wins": tuple(self.board.wins[:self.board.players])}

    def _c_peg(self, args):
        self.board.peg(args["p"], args["n"])
        return self._lane(args["p"])

    def _c_undo(self, args):
        return self._lane(self.board.undo())

    def _c_new(self, args):
        return self._new(args.get("target"), args.get("players"), args.get("match") == 1)

    def _c_set(self, args):
        problem = budget_problem(args.get("budget_ma", self.settings["budget_ma"]),
                                 self.config.leds, self.config.led_ma)
        if problem:
            raise ProtocolError(problem, "bad_arg")
        if "dealer" in args:
            self.board.set_dealer(args["dealer"])
        for k in SETTINGS:
            if k in args:
                self.settings[k] = args[k]
        self._apply_settings()
        return args

    def _q_hello(self, args):
        return {"proto": PROTO, "fw": VERSION, "lanes": len(self.config.lanes),
                "holes": self.config.holes, "players": self.board.players,
                "target": self.board.target, "desk": self.desk,
                "warn": self._warn_codes()}

    def _q_state(self, args):
        b = self.board
        reply = {"target": b.target, "players": b.players, "dealer": b.dealer,
                 "winner": b.winner, "wins": tuple(b.wins[:b.players]), "undos": b.undo_count,
                 "pending": tuple([self.buttons.pending(i) for i in range(b.players)]),
                 "mode": self.buttons.mode, "ma": self.renderer.last_ma}
        for lane in range(b.players):
            reply.update(self._lane(lane))
        reply.update(self.settings)
        if self.free is not None:
            reply["free"] = self.free()
        return reply

    def _q_leds(self, args):
        """`ok rev=.. leds=N px=...` written run by run: no long string on the heap."""
        n = min(len(self.strip), self.config.leds)
        write = self.port.write
        write(ok(rev=self.board.rev, leds=n).encode() + b" px=")
        sep = b""
        for run in pixel_runs(self.renderer.pixel, n):
            write(sep + run.encode())
            sep = b","
        write(b'""\n' if not sep else b"\n")

    def _q_turn(self, args):
        """Whose turn the companion is asking (shown, never saved: a reboot clears it)."""
        p = args["p"]
        if p >= self.board.players:
            raise PegError(f"no lane {p} in a game of {self.board.players}", "bad_lane")
        self.renderer.turn = p
        return {"p": p}

    def _q_help(self, args):
        if "verb" not in args:
            return {"verbs": verbs()}
        verb = args["verb"]
        return {"verb": verb, "args": usage(verb), "msg": command(verb)[3]}

    # Every verb this app answers, to its method (tests/firmware/test_app_protocol.py checks
    # them against the protocol's table: the Pico answers all but the desk's).
    VERBS = {"hello": _q_hello, "state": _q_state, "peg": _c_peg, "undo": _c_undo,
             "new": _c_new, "set": _c_set, "leds": _q_leds, "turn": _q_turn, "help": _q_help}

    # -- buttons -----------------------------------------------------------------------------

    def _button(self, action, now):
        """Apply a button action, save, then tell the host with events."""
        kind = action[0]
        if kind not in ("peg", "undo", "new", "setup"):
            return
        old = self._begin()
        b = self.board
        try:
            if kind == "peg":
                b.peg(action[1], action[2])
                lines = [event("peg", p=action[1], n=action[2], src="button", rev=b.rev,
                               **self._lane(action[1]))]
                if b.winner >= 0:
                    lines.append(event("win", p=b.winner, rev=b.rev,
                                       skunk=self._lane(b.winner)["skunk"]))
            elif kind == "undo":
                lane = b.undo()
                lines = [event("undo", p=lane, src="button", rev=b.rev, **self._lane(lane))]
            else:
                args = action[1:] if kind == "setup" else (None, None)
                new = self._new(args[0], args[1], False)
                lines = [event("new", src="button", rev=b.rev, **new)]
            self._save()
        except PegError:
            self._abort(old)
            return  # refused before any change, e.g. undo with nothing to undo
        except Exception as e:  # noqa: BLE001 - OSError, MemoryError...: taken back, said
            self._abort(old)
            self.warn("store_failed", repr(e))
            return
        for line in lines:
            self._send(line)
        self.renderer.wake(now)

    # -- state -------------------------------------------------------------------------------

    def _state_lines(self):
        """The state file's lines: board, settings, and the recent id -> reply table."""
        # The board without its own checksum: the slot file's covers it (9 bytes less).
        return ["board " + self.board.dumps(check=False), self._set_line] + self.ids

    def _begin(self):
        """Start a change: it is made on copies of board, settings and ids, which become
        the app's only once saved. Returns the originals for _abort. Copying first means
        taking a change back needs no memory (a MemoryError may be why it failed)."""
        old = (self.board, self.settings, self.ids)
        self.board, self.settings, self.ids = old[0].copy(), dict(old[1]), list(old[2])
        self._saving = False
        return old

    def _save(self, line=None):
        """Save the state; line: its board line in pieces made already (pegboard.direct)."""
        self._saving = True  # from here a failure may have left a half-done save
        b = self.board
        # The board line in pieces (pegboard.slots.frame writes them one after the other):
        # Board.dumps(check=False) is _body(FORMAT, _htext), the history (up to a few
        # hundred characters) left out of the formatting and written as it is, never
        # copied (tests/firmware/test_app_direct.py checks the line against dumps).
        lines = [line or ("board ", b._body(FORMAT, ""), b._htext), self._set_line]
        lines.extend(self.ids)
        self.store.save(lines)

    def _abort(self, old):
        """Take back a change that failed (or was refused, or cut short): the originals
        again. Then try to save them: a half-done save must not leave a change nobody heard
        of as the newest copy on flash."""
        changed = self.settings is not old[1] and self.settings != old[1]
        self.board, self.settings, self.ids = old
        if changed:
            self._apply_settings()
        if not self._saving:
            return
        self._saving = False
        try:
            self.store.save(self._state_lines())
        except Exception:  # noqa: BLE001 - the flash keeps failing: the next change tries again
            pass

    def _apply_settings(self):
        s = self.settings
        # The state's settings line, made when they change, not at every save: encoding
        # (and checking) it cost the emulated Pico 11 ms, a fifth of a `peg`'s reply time.
        self._set_line = encode("set", **s)
        self.renderer.brightness = s["brightness"]
        self.renderer.budget_ma = s["budget_ma"]
        # Buttons and the renderer read these timings from the config on every use.
        self.config.pause_ms = s["pause_ms"]
        self.config.idle_ms = s["idle_ms"]
