"""The table as every screen sees it: the engine, the numbered events, and the state every
screen is sent, built once per change; one call per request (any server: the host's
`crib serve`, the board's own).

    room = Room(engine, run="ab12", extra={"board_rev": None})   # engine: a TableEngine
    out = room.start()                   # the engine run to its first question
    out = room.act("answer", {"question": qid, "answer": "5h", "for": False}, seat)
    out = room.act("undo", {"question": qid}, seat)
    out = room.act("redo", {"question": qid}, seat)   # put back what the undo took back
    out = room.poll()                    # the board's news (engine.poll()); None: nothing
    room.problem("board: gone")          # a problem said on every screen (numbered)
    room.show({"board_rev": 3})          # the server's own fields (a picture's revision)
    room.state, room.text()              # the state (a dict), and as JSON text
    room.patch_text()                    # from the version before (cribcore.table.patch)
    room.sent()                          # every screen has it: its text let go
    room.version, room.seq, room.names() # the state's number, the last event's, the names
    room.since(seq)                      # the engine's Events numbered after seq

act(kind, body, seat) -> Outcome. kind: "answer", "undo" or "redo"; body: the request's
fields (str question, str answer, bool for: cribcore.table.seats's checks come first);
seat: the seat the request speaks for (an int player, seats.TABLE, or None: a front end
of the table's own, as TABLE). It checks the question is the open one (409) and the turn
(seats.check_turn: 409), runs the engine once (an answer that does not fit: 422), numbers
the events it made (a show's `who` named by the engine), builds the next question and the
view once, and returns an Outcome: events (numbered dicts), question (a dict, or None),
view (a dict), version (int), changed (bool). Every refusal is a seats.Refused (status,
message) and changes nothing.

The state (every screen's): run (this room's name: versions count from here), version,
question (the open question as Question.to_dict() without `known`: the view is sent
once), view (TableEngine.view()), log (the last LOG_KEEP events, numbered: a screen that
slept catches up), over, undone (what the last undo took back, while its question is
open), answered (who answered for whom, while the next question is open), and the
server's own fields (show()). An event is {seq, kind, who, text, points, data}, a show's
cards and items by name.

Plain data on CPython and MicroPython (no I/O, no threads, no typing at runtime); the
room is not thread-safe: one caller at a time (the host runs it on one worker thread).
"""

import json

from cribcore.cards import card_name
from cribcore.table.answers import AnswerError
from cribcore.table.engine import StaleQuestion
from cribcore.table.patch import patch
from cribcore.table.seats import TABLE, Refused, check_turn

# Events kept for screens that join or wake up: the page draws the last 30
# (host/crib/web/static/app.js, drawLog), so more would be heap (about 200 bytes an event
# on the chip) and state text that no screen shows.
LOG_KEEP = 30
KINDS = ("answer", "undo", "redo")
OVER = "the session is over: nothing is asked"


class _NoSession:
    """An engine without a session's keeping (a test's fake): nothing kept."""

    def keep_log(self, added, log):
        pass

    def kept_log(self):
        return None


_NO_SESSION = _NoSession()


def _card(c):
    return c if isinstance(c, str) or c is None else card_name(c)


def numbered(seq, ev):
    """An engine Event as plain JSON data, numbered seq (a show's cards and items by
    name)."""
    data = ev.data
    if ev.kind == "show" and data:
        data = {"cards": [_card(c) for c in data["cards"] or ()],
                "starter": _card(data["starter"]), "crib": data["crib"],
                "total": data["total"],
                "items": [{"kind": it.kind, "cards": [_card(c) for c in it.cards],
                           "points": it.points} for it in data["items"]]}
    return {"seq": seq, "kind": ev.kind, "who": ev.who, "text": ev.text,
            "points": ev.points, "data": data}


class Outcome:
    """What one call did: events (numbered dicts), raw (the same as the engine's Events),
    question (a dict without `known`, or None), view (a dict), version (int), changed."""

    __slots__ = ("events", "raw", "question", "view", "version", "changed")

    def __init__(self, events, raw, question, view, version, changed):
        self.events = events
        self.raw = raw
        self.question = question
        self.view = view
        self.version = version
        self.changed = changed

    def __repr__(self):
        return "<Outcome v%d %d events>" % (self.version, len(self.events))


class Room:
    """The engine and what every screen is sent (module docstring)."""

    def __init__(self, engine, run="", extra=None, since=False):
        self.engine = engine
        self.run = run
        self.version = 0
        self.seq = 0
        self.question = None  # the open question as sent (a dict), or None
        self.view = {}
        self.state = {}
        self._qid = None
        self._log = []  # the numbered event dicts, at most LOG_KEEP
        # (seq, Event): the same events as the engine gave them, for since(); None: not
        # kept (a room made without since=True: the board's, whose heap is small)
        self._raw = [] if since else None
        self._extra = dict(extra or {})  # the server's own fields of the state (show())
        self._text = None
        self._before = None  # the state before this one, until its patch is made
        self._patch = None  # the patch's JSON text (None: none, or let go), made once
        self._patched = -1  # the version it was made for (two fields: no tuple a version)

    # -- one call per request ------------------------------------------------------------

    def start(self):
        """Run the engine to its first question; the state is built (once). The log kept
        before a restart (Session.kept_log) is the log again: every screen shows what it
        showed before, and the events number on from it."""
        events = self.engine.start()
        kept = self._session().kept_log()
        if kept:
            self._log = list(kept[-LOG_KEEP:])
            self.seq = self._log[-1]["seq"]
        return self._after(events, True)

    def _session(self):
        return getattr(self.engine, "session", None) or _NO_SESSION

    def act(self, kind, body, seat=TABLE):
        """Answer, undo or redo (module docstring): an Outcome, or Refused and nothing
        changed."""
        if kind not in KINDS:
            raise Refused(400, "no such request: %r" % (kind,))
        if self._qid is None:
            raise Refused(409, OVER)
        qid = body.get("question")
        if qid != self._qid:
            raise Refused(409, "that question is no longer open (now: %s)"
                          % self.question["prompt"])
        engine = self.engine
        if seat is None:
            seat = TABLE
        try:
            if kind == "answer":
                check_turn(seat, self.question["asks"], self.names(), body.get("for", False))
                by = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
                events = engine.answer(qid, body.get("answer"), by)
            elif kind == "undo":
                events = engine.undo(qid)
            else:
                events = engine.redo(qid)
        except Refused:
            raise
        except StaleQuestion as e:
            self._catch_up()
            raise Refused(409, str(e)) from None
        except AnswerError as e:
            self._catch_up()
            raise Refused(422, str(e)) from None
        except BaseException:
            self._catch_up()  # the flow restarted from the record: what it asks now
            raise
        return self._after(events)

    def poll(self):
        """The board's news (the engine's poll()): an Outcome when it changed anything,
        else None."""
        out = self._after(self.engine.poll())
        return out if out.changed else None

    def problem(self, text):
        """Something gone wrong outside a request (the board's link): a numbered event in
        the log, sent with the next state."""
        self.seq += 1
        item = {"seq": self.seq, "kind": "problem", "who": None, "text": text,
                "points": 0, "data": None}
        self._keep(item, None)
        self._keep_log([item])

    def show(self, extra):
        """The server's own fields of the state (a board picture's revision, its lanes):
        a new version with them, the question and the view as they were."""
        self._extra = dict(extra)
        self._publish()

    # -- what every screen sees ----------------------------------------------------------

    def names(self):
        """The players' names (none before the game is set up)."""
        return self.view.get("names") or []

    def text(self):
        """The state as compact JSON text (made once per version)."""
        if self._text is None:
            self._text = dumps(self.state)
        return self._text

    def patch_text(self):
        """The patch from the version before to this one as compact JSON text
        (cribcore.table.patch: what a screen that has the one before is sent), or None if
        only the whole state will do; made once per version."""
        if self._patched != self.version:
            p = patch(self._before, self.state)
            self._patched = self.version
            self._patch = None if p is None else dumps(p)
            self._before = None  # its patch made: the old state leaves the heap
        return self._patch

    def sent(self):
        """Every screen has this version (a server's streams all written): its patch's
        text leaves the heap (about 1 KB between answers on a board). A screen that still
        wants it gets the whole state: patch_text() is None for this version from now."""
        if self._patched == self.version:
            self._patch = None

    def since(self, seq):
        """The engine's Events numbered after seq (those still kept), oldest first: a
        room made with since=True (else ValueError)."""
        if self._raw is None:
            raise ValueError("this room keeps no events for since(): Room(since=True)")
        return [ev for s, ev in self._raw if s > seq]

    def log(self):
        """The numbered events kept (dicts), oldest first."""
        return list(self._log)

    # -- inside ---------------------------------------------------------------------------

    def _keep(self, item, ev):
        self._log.append(item)
        if len(self._log) > LOG_KEEP:
            self._log.pop(0)
        raw = self._raw
        if raw is not None:
            raw.append((item["seq"], ev))
            if len(raw) > LOG_KEEP:
                raw.pop(0)

    def _keep_log(self, added):
        """The log kept for a restart (Session.keep_log); a store that fails is no reason
        to refuse what the game took (it is said on the next start's log, not here): nor
        is a heap too fragmented for its text (MemoryError: the answer is on flash, so a
        refusal would tell the phone it was not taken)."""
        try:
            self._session().keep_log(added, self._log)
        except (OSError, ValueError, MemoryError):
            pass

    def _after(self, events, force=False):
        """Number the events; build the question and the view once if anything changed."""
        out = []
        for ev in events:
            self.seq += 1
            item = numbered(self.seq, ev)
            self._keep(item, ev)
            out.append(item)
        if out:
            self._keep_log(out)
        changed = force or bool(events) or self.engine.question_id() != self._qid
        if changed:
            self._build()
        return Outcome(out, events, self.question, self.view, self.version, changed)

    def _catch_up(self):
        """After a refusal: the state again if the engine moved all the same."""
        self._after([])

    def _build(self):
        engine = self.engine
        q = engine.asked()  # without `known`: the view, sent once
        self._qid = None if q is None else q["id"]
        self.question = q
        self.view = engine.view()
        self._publish()

    def _publish(self):
        engine = self.engine
        self.version += 1
        state = {"run": self.run, "version": self.version, "question": self.question,
                 "view": self.view, "log": list(self._log), "over": engine.over,
                 "undone": engine.undone(), "answered": engine.answered()}
        state.update(self._extra)
        self._before, self.state = self.state, state
        self._text = self._patch = None


def dumps(value):
    """value as compact JSON text (a state's: Room.text, crib serve's hub)."""
    try:
        return json.dumps(value, separators=(",", ":"))
    except TypeError:  # pragma: no cover - a MicroPython without separators
        return json.dumps(value)
