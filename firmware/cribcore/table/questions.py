"""The values the table engine hands to front ends: a Question to answer, the Events an
answer made, and the Ask a flow yields when it needs an answer (the engine's own view of a
Question: the same fields plus the parser that validates the answer).

Front ends read questions and events as plain data (`to_dict()`, `event_dict(ev)`: dicts,
lists, str, int, bool and None, the same JSON on CPython and MicroPython); they never see
a parser, a game or the record.
"""

from collections import namedtuple

# What happened: kind is one of "say" (who did what, points pegged), "note", "problem",
# "heading", "show" (a hand itemised: data has cards, starter, crib, items, total), "board"
# (the scores after a peg: data has scores, fresh), "over" (the game ended: data has the
# winner, scores, level), "line" (plain text).
Event = namedtuple("Event", ("kind", "who", "text", "points", "data"))

# Question kinds.
SETUP_KINDS = ("names", "partnerships", "target", "dealer")
KINDS = SETUP_KINDS + ("resume", "cut", "dealt", "discard", "starter", "play", "play_points",
                       "show", "crib", "confirm", "suits", "count", "muggins",
                       "another")
QUESTION_FIELDS = ("id", "kind", "asks", "prompt", "hint", "default", "undo", "legal",
                   "known")


def plain(value):
    """value as plain data: tuples (namedtuples too) become lists, all the way down."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def event_dict(ev):
    """An Event as plain data (for JSON)."""
    return {"kind": ev.kind, "who": ev.who, "text": ev.text, "points": ev.points,
            "data": plain(ev.data)}


class Ask:
    """A question as a flow yields it (see the module docstring)."""

    # A field left at its default is read from the class, not set on the ask (no
    # __slots__: MicroPython has none, and an instance's table of attributes grows with
    # each one set: an ask an answer, 9 set took a table of 10, the play's 6 one of 6).
    default = None
    hint = ""
    undo = True
    asks = None
    _sig = None

    def __init__(self, kind, prompt, parse, default=None, hint="", undo=True, asks=None,
                 legal=None):
        self.kind = kind
        self.prompt = prompt
        self.parse = parse
        if default is not None:
            self.default = default
        if hint:
            self.hint = hint
        if not undo:
            self.undo = undo
        if asks is not None:
            self.asks = asks
        self.legal = legal or {}

    def signature(self):
        """What makes two asks the same question (a board peg between them changes none):
        its kind, prompt, default, who is asked and its legal answers (the dict itself,
        compared by value: no text of it is made, and the engine keeps only the
        signature of the question open and the CRC of the others)."""
        if self._sig is None:
            self._sig = (self.kind, self.prompt, self.default, self.asks, self.legal)
        return self._sig


class Question:
    """The question a front end shows: id, kind, who is asked, the prompt and hint, the
    answer Enter gives (default), whether undo can be asked for now, what answers are
    legal, and what is known of the game so far (known: TableEngine.view())."""

    __slots__ = QUESTION_FIELDS

    def __init__(self, qid, ask, undo, known):
        self.id = qid
        self.kind = ask.kind
        self.asks = ask.asks
        self.prompt = ask.prompt
        self.hint = ask.hint
        self.default = ask.default
        self.undo = undo
        self.legal = dict(ask.legal)
        self.known = known

    def __repr__(self):
        return "<Question %s %s %r>" % (self.id, self.kind, self.prompt)

    def to_dict(self):
        """The question as plain data (for JSON): QUESTION_FIELDS, spelled out (a getattr
        a field cost the chip more than the dict)."""
        return {"id": self.id, "kind": self.kind, "asks": self.asks, "prompt": self.prompt,
                "hint": self.hint, "default": self.default, "undo": self.undo,
                "legal": self.legal, "known": self.known}


class Events:
    """Collects what the flow reports, in the calls a terminal view has (say, note,
    problem, heading, show, board, line): the engine hands the list to the front end."""

    def __init__(self):
        self.items = []

    def take(self):
        """The events since the last take."""
        out, self.items = self.items, []
        return out

    def _add(self, kind, who=None, text="", points=0, data=None):
        self.items.append(Event(kind, who, text, points, data))

    def line(self, text, style=""):
        """Plain text."""
        self._add("line", text=text)

    def note(self, text):
        """A remark."""
        self._add("note", text=text)

    def problem(self, text):
        """Something refused or gone wrong."""
        self._add("problem", text=text)

    def heading(self, text):
        """A new section: a game, a hand."""
        self._add("heading", text=text)

    def say(self, who, text, points=0, style=""):
        """An announcement: who did what, and the points it pegged."""
        self._add("say", who, text, points)

    def show(self, hand, starter, crib, items, total, who=None):
        """A hand itemised (who: whose, when it is not the player asked). hand and items,
        when lists, are the event's as they are (the flow makes them for it: no copy)."""
        self._add("show", who, text="crib" if crib else "hand", points=total,
                  data={"cards": hand if type(hand) is list else list(hand),
                        "starter": starter, "crib": crib,
                        "items": items if type(items) is list else list(items),
                        "total": total})

    def board(self, names, scores, target, fresh=None, skunk=None):
        """The scores after a peg (fresh: the lane just pegged). names, a list, is the
        event's as it is (the table's side names: they never change in a game, so no
        copy an event, nor one in each event the room's log keeps); read, never change."""
        if type(names) is not list:
            names = list(names)
        self._add("board", data={"names": names, "scores": list(scores),
                                 "target": target, "fresh": fresh, "skunk": skunk})

    def over(self, winner, scores, level, text):
        """The game ended."""
        self._add("over", text=text, data={"winner": winner, "scores": list(scores),
                                           "level": level})
