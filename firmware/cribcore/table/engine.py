"""The table engine: a session at the table (a match of games) that any front end drives,
with no input, no printing, no threads and no clock.

    engine = TableEngine(session, setup)      # a cribcore.table.session.Session (or the host's)
    events = engine.start()          # what happened before the first question
    q = engine.question()            # a Question: id, kind, who is asked, legal answers...
    events = engine.answer(q.id, "5h")   # validated; AnswerError (nothing changed) if not
    events = engine.answer(q.id, "5h", by=1)   # player 1 answering for the player asked
    engine.answered()                # who answered for whom, while the next question is open
    events = engine.undo()
    engine.undone()                  # what the last undo took back, while its question is open
    events = engine.redo(q.id)       # put it back: the answers it took back, given again
    events = engine.board_event(ev)  # a press on the board's buttons, whenever it happens
    events = engine.poll()           # the board's news (Board.events()), each board_event
    engine.question_id()             # the open question's id alone (nothing built)
    view = engine.view()             # scores, pegs, dealer, this hand so far, the result

Inside, the flow of a session is a generator (cribcore.table.session, turns, show) that
yields an Ask each time it needs an answer; the engine runs it, hands the Ask out as a
Question with an id, and sends the parsed answer back in. A question's id changes with
every answer and every undo (and whenever the board changes what is asked), so a double
tap or a replayed request is refused as stale and never applies twice; a board peg that
leaves the question as it was keeps its id, so it never swallows an answer being typed.

A question's id comes from the record, not from the run: the nonce (the record's name),
the game and its position in the record (Session.position: every line written moves it
on), how many questions were opened at that position, and the question's signature. So
the same question has the same id after a restart, and an answer a phone kept through a
power cut lands once. The answers taken that wrote no line yet (a hand's cards before
its "Peg N?") are kept too (Session.keep, kept): after a restart they are given again,
each only to the question it answered, so an acknowledged answer is never asked again.
Questions, events (event_dict) and the view are plain data: the same JSON on CPython and
MicroPython.
"""

from cribcore import CoreError
from cribcore.boardtext import crc
from cribcore.cards import CARD_NAMES
from cribcore.game import PLAY
from cribcore.table.answers import AnswerError, UndoRequest
from cribcore.table.entries import StateChanged
from cribcore.table.questions import Event, Question
from cribcore.table.session import Setup, result
from cribcore.table.viewparts import NOTHING, Parts

TRAIL = 40  # answers remembered, so an undo can be put back
# The questions whose player the board shows by pulsing their lane (Board.set_turn): to
# play, or to count (pone, dealer, then the dealer's crib).
TURN_KINDS = ("play", "play_points", "show", "crib", "count")
UNDONE = "undone: "
_NO_ARG = object()  # _run's step takes no argument (the host's own calls)


class StaleQuestion(AnswerError):
    """An answer to a question that is no longer the open one (answered, undone, changed)."""


class TableEngine:
    """A session at the table, driven by question and answer (module docstring)."""

    # What a board may raise that never stops a game (the host adds its link's errors).
    BOARD_ERRORS = (CoreError, OSError)  # type: tuple[type[Exception], ...]
    # What a parser may raise for an answer that does not fit (the host adds its own).
    ANSWER_ERRORS = (CoreError, ValueError)  # type: tuple[type[Exception], ...]

    def __init__(self, session, setup=None, resume=False, nonce="t"):
        self.session = session
        self.board = session.board
        self._events = session.view
        self._flow = session.run(setup or Setup(), resume)
        self._ask = None
        self._started = False
        self._serial = 0  # questions opened at the record's position self._pos
        self._pos = None  # its text (Session.position), made when first kept (_keep)
        self._pos_table = None  # the table and its record's position the serial counts at
        self._pos_n = -1
        self._qid = None
        self._sig = None  # the ask whose signature the id was made for (_same_question)
        self._id_ask = None  # the ask the id was last made or checked for
        self._fresh = True
        self._nonce = nonce
        self._pending = []  # [crc of signature, text, by] of the answers that wrote no line
        self._lit = None  # the lane the board was last told is asked (None: not told)
        self._trail = []  # the recent answers, each a text (_remember): crc, by, answer
        self._undone = None  # (question id after the undo, what it took back, answers)
        self._for = None  # (question id after an answer given for another, what it says)
        self._crc_ask = None  # the Ask whose signature's CRC is self._crc: made once an ask
        self._crc = None
        self._names = (None, [], [])  # (a Table, its names, its sides' names) for view()
        self._parts = None  # the last view's parts (cribcore.table.viewparts.Parts)

    # -- running the flow -------------------------------------------------------------------

    def start(self):
        """Run the session to its first question; the events on the way."""
        if not self._started:
            self._started = True
            self._run(next, self._flow)
            self._answer_kept()
        return self._events.take()

    def _answer_kept(self):
        """After a restart: the answers taken at this position of the record that wrote no
        line yet (Session.kept), given again, each only to the question it answered (its
        signature), so the question open before the restart is open again, with its id."""
        kept = self.session.kept()
        if not kept or self._ask is None or kept.get("pos") != self._position():
            return
        for sig, text, by in kept.get("answers") or ():
            qid = self.question_id()
            if qid is None or self._crc_of(self._ask) != sig:
                return
            try:
                self.answer(qid, text, by)
            except self.ANSWER_ERRORS:
                return
        if self._ask is not None and self._position() == kept["pos"]:
            self.question_id()
            self._serial = kept.get("n", self._serial)
            self._qid = self._make_id()
            if kept.get("undone"):  # what the last undo took back: Put it back, still
                self._undone = (self._qid, kept["undone"][0], kept["undone"][1])

    def _position(self):
        """Where the record is: "game.position" (Session.position), "0" before a game."""
        return self.session.position()

    def _run(self, step, arg=_NO_ARG, news=False):
        """Advance the flow by step(arg) (step() without arg) to its next Ask (None: the
        session is over). If the flow fails inside a game, it is restarted from the record
        (which holds every answer) before the error goes on to the caller. news: the
        board's news re-ran the flow; a question asked again exactly as it was keeps its
        id (question()), so an answer being tapped meanwhile still applies. An answer or
        an undo always opens a new id, even for a question that reads the same."""
        if not news:
            self._fresh = True
        try:
            self._ask = step() if arg is _NO_ARG else step(arg)  # no closure an answer
        except StopIteration:
            self._ask = None
        except BaseException:
            table = self.session.table
            if table is None or self._ask is None:
                self._ask = None
                self._light_turn()
                raise
            table.rebuild()
            self._flow = self.session.games(table)
            self._ask = next(self._flow)
            self._light_turn()
            raise
        self._light_turn()

    def turn(self):
        """The lane (side) of the player asked to play or to count now, -1 when no one is."""
        ask, table = self._ask, self.session.table
        if ask is None or table is None or ask.asks is None or ask.kind not in TURN_KINDS \
                or table.game.over:
            return -1
        return table.game.side_of(ask.asks)

    def _light_turn(self):
        """Tell the board whose turn it is when that changed. A board without the light
        (older firmware) says so and is not asked again; one offline is told when back."""
        lane = self.turn()
        if lane == self._lit:
            return
        try:
            self.board.set_turn(lane)
            self._lit = lane
        except self.BOARD_ERRORS:
            self._lit = None  # offline or refused: the light helps, it never stops a game

    @property
    def over(self):
        """True when the session has ended (no game wanted, or the setup refused)."""
        return self._started and self._ask is None

    def question_id(self):
        """The open question's id (None when the session is over), without building the
        question or the view: what a server compares to see whether anything changed."""
        if not self._started:
            self.start()
        ask = self._ask
        if ask is None:
            return None
        if ask is self._id_ask and not self._fresh:
            return self._qid  # the ask its id was made for (asked most, once each call)
        self._id_ask = ask
        if self._fresh or not _same_question(ask, self._sig):
            # where the record is, read as numbers: its text (Session.position) is made
            # only when something keeps it (_keep), not an answer
            table = self.session.table
            n = table.rec.position() if table is not None and table.rec is not None else -1
            if table is not self._pos_table or n != self._pos_n:
                self._pos_table, self._pos_n, self._serial = table, n, 0
                self._pos = None
            self._serial += 1
            self._sig = ask
            self._fresh = False
            self._qid = self._make_id()
        return self._qid

    def _make_id(self):
        table, n = self._pos_table, self._pos_n
        if table is None or n < 0:  # no record: its text as it is ("0")
            return "%s-%s-%d-%.4s" % (self._nonce, self._position(), self._serial,
                                      self._crc_of(self._ask))
        # Session.position's "game.position" spelled in the id itself: no text of its own
        return "%s-%d.%d-%d-%.4s" % (self._nonce, table.game_id, n, self._serial,
                                     self._crc_of(self._ask))

    def _crc_of(self, ask):
        """The CRC of an ask's signature (_crc_sig), made once for each ask: its id, the
        answers remembered and kept are each given it."""
        if self._crc_ask is not ask:  # two fields, not a tuple made an ask
            self._crc = _crc_sig(ask.kind, ask.prompt, ask.default, ask.asks)
            self._crc_ask = ask
        return self._crc

    def question(self, known=True):
        """The open question (a Question), or None when the session is over. known=False
        leaves its `known` (the view) None, for a front end that builds the view itself."""
        qid = self.question_id()
        if qid is None:
            return None
        return Question(qid, self._ask, self._ask.undo, self.view() if known else None)

    def asked(self):
        """The open question as plain data, question(False).to_dict() without `known`
        (a front end that sends the view apart: cribcore.table.room), made without a
        Question or a copy of its legal answers (the ask's own: no one changes it); None
        when the session is over."""
        qid = self.question_id()
        if qid is None:
            return None
        ask = self._ask
        return {"id": qid, "kind": ask.kind, "asks": ask.asks, "prompt": ask.prompt,
                "hint": ask.hint, "default": ask.default, "undo": ask.undo,
                "legal": ask.legal}

    def _check(self, question_id):
        """The open question's id if question_id is it; AnswerError, StaleQuestion if not."""
        qid = self.question_id()
        if qid is None:
            raise AnswerError("the session is over: nothing is asked")
        if question_id != qid:
            raise StaleQuestion("question %r is no longer open (now %s: %s)"
                                % (question_id, qid, self._ask.prompt))
        return qid

    def _take(self, ask):
        """The events since the last take; a show with no owner named is the hand of the
        player ask (the question open before the step) asked for: named here, so that
        every front end says whose it was."""
        events = self._events.take()
        table = self.session.table
        if ask is None or ask.asks is None or table is None \
                or not 0 <= ask.asks < len(table.names):
            return events
        # named in place, and only a show with no owner: no new list an answer
        name = None
        for i in range(len(events)):
            ev = events[i]
            if ev.kind == "show" and ev.who is None:
                if name is None:
                    name = table.names[ask.asks]
                events[i] = Event(ev.kind, name, ev.text, ev.points, ev.data)
        return events

    def answer(self, question_id, text, by=None):
        """Validate the answer (text as a player gives it: '5h', 'go', '12', 'y', '' for
        the default) and apply it; the events it made. AnswerError, and nothing changed,
        if it does not fit or the question is no longer open. by: the player giving the
        answer, when it may be another than the player asked (a phone's seat): an answer
        for another is said first among the events, on every screen while the next
        question is open (answered()), and recorded with each entry it made."""
        self._check(question_id)
        ask = self._ask
        if not isinstance(text, str):
            raise AnswerError("an answer is text, not %s" % type(text).__name__)
        table = self.session.table
        names = table.names if table is not None else ()  # read, not kept: no copy
        if by is not None and (type(by) is not int or not 0 <= by < len(names)):
            raise AnswerError("no such player: %r" % (by,))
        text = text.strip()
        if not text and ask.default is not None:
            text = str(ask.default)
        try:
            value = ask.parse(text)
        except self.ANSWER_ERRORS as e:
            if isinstance(e, AnswerError):
                raise
            raise AnswerError(str(e) or "not understood: %r" % (text,)) from None
        crc = self._crc_of(ask)
        pos_table, pos_n = self._pos_table, self._pos_n
        said = None
        if by is not None and ask.asks is not None and by != ask.asks:  # for another player
            said = {"by": names[by], "for": names[ask.asks],
                    "text": "%s answered for %s: %s" % (names[by], names[ask.asks], text)}
            table.answering = (by, ask.asks)
        try:
            self._run(self._flow.send, value)
        finally:
            if table is not None:
                table.answering = None
        # in place (no copy of the trail an answer), each one text (_remembered)
        self._trail.append(_remember(crc, text, by))
        if len(self._trail) > TRAIL + 1:
            self._trail.pop(0)
        self._undone = None
        events = self._take(ask)  # before question_id(): it starts the flow, taking them
        after = self.question_id()
        self._for = (after, said) if said and after is not None else None
        if after is not None and self._pos_n == pos_n and self._pos_table is pos_table:
            # no line written: kept apart
            self._pending.append((crc, text, by))
            self._keep()
        elif self._pending:  # a new list only when there was one to drop
            self._pending = []
        if said:  # said first, in the list _take made (no other list made for it)
            events.insert(0, Event("note", said["by"], said["text"], 0, None))
        return events

    def answered(self):
        """Who answered the last question for another player ({"by", "for", "text"}),
        while the question that answer opened is the open one; else None."""
        qid = self.question_id()
        if self._for is None or qid is None or qid != self._for[0]:
            return None
        return dict(self._for[1])

    def undo(self, question_id=None):
        """Take back the last entry (or step back inside a question of several steps)."""
        if question_id is not None:
            self._check(question_id)
        self.start()
        ask = self._ask
        if ask is None or not ask.undo:
            raise AnswerError("nothing to undo at this question")
        pos_table, pos_n = self._pos_table, self._pos_n
        self._run(self._flow.throw, UndoRequest())
        events = self._take(ask)
        self._remember_undo(events)
        if self.question_id() is None or self._pos_n != pos_n or self._pos_table is not pos_table:
            self._pending = []  # lines written: the answers kept were for before them
        elif self._pending:
            # a step back inside a question: the answers kept up to the one it asks again
            sig = self._crc_of(self._ask)
            i = len(self._pending) - 1
            while i >= 0 and self._pending[i][0] != sig:
                i -= 1
            self._pending = self._pending[:max(i, 0)]
        self._keep()  # what it took back, for a restart to offer to put back
        return events

    def _keep(self):
        """Keep the answers that wrote no line (Session.keep): a restart gives them again.
        A store that fails is no reason to refuse an answer the game took."""
        try:
            undone = self._undone
            if self._pos is None:  # the position's text, made once a position kept
                self._pos = self._position()
            self.session.keep({"pos": self._pos, "n": self._serial,
                               "answers": self._pending,
                               "undone": None if undone is None or undone[0] != self._qid
                               else [undone[1], undone[2]]})
        except self.BOARD_ERRORS:
            pass

    def _remember_undo(self, events):
        """What an undo took back, and the answers that put it back: those given since the
        question now open was last asked (it is asked again exactly as it was)."""
        said = [ev.text[len(UNDONE):] for ev in events
                if ev.kind == "note" and ev.text.startswith(UNDONE)]
        qid = self.question_id()
        back = []
        if qid is not None:
            sig = self._crc_of(self._ask)
            for i in range(len(self._trail) - 1, -1, -1):
                if self._trail[i].startswith(sig):
                    back, self._trail = self._trail[i:], self._trail[:i]
                    break
        text = "; ".join(said) or ("the answer %r" % (_remembered(back[0])[1],) if back
                                   else "")
        self._undone = (qid, text, back) if qid is not None and text else None

    def undone(self):
        """What the last undo took back ({"text", "redo": whether redo can put it back}),
        while the question it opened is still the open one; else None."""
        qid = self.question_id()
        if self._undone is None or qid is None or qid != self._undone[0]:
            return None
        return {"text": "Undone: " + self._undone[1], "redo": bool(self._undone[2])}

    def redo(self, question_id):
        """Put back what the last undo took back: its answers given again, each to the same
        question it answered (AnswerError, nothing changed, if there is nothing to put back)."""
        self._check(question_id)
        if self.undone() is None or not self._undone[2]:
            raise AnswerError("nothing to put back: the last undo is no longer the last change")
        said, back, self._undone = self._undone[1], self._undone[2], None
        out = []
        for i in range(len(back)):
            sig, text, by = _remembered(back[i])
            qid = self.question_id()
            if qid is None or self._crc_of(self._ask) != sig:
                break  # the game went another way (a board peg, say): stop here
            try:
                out += self.answer(qid, text, by)
            except Exception:
                # not taken (a full flash, say): what is left can still be put back
                qid = self.question_id()
                if qid is not None and self._crc_of(self._ask) == sig:
                    self._undone = (qid, said, back[i:])
                raise
        return out

    def board_event(self, ev):
        """A board event (a press on the board's buttons, the link's news): recorded at
        once; the open question is asked again if it no longer applies."""
        table, ask = self.session.table, self._ask
        if table is None or ask is None:
            return self._events.take()  # no game yet: news from before it
        self._lit = None  # the board's news (back after a restart, say): tell it again
        changed = table.board_event(ev)
        # Between games, the game is over unless the board took back its winning peg.
        if (changed or table.decisions) and (self.session.playing or not table.game.over):
            self._run(self._flow.throw, StateChanged(), news=True)
        return self._take(ask)

    def poll(self):
        """The board's news since the last poll (Board.events(): its buttons' presses),
        each applied as board_event does; the events they made."""
        self.start()
        ask = self._ask
        self._news()
        out = self._take(ask)
        for ev in self.board.events():
            out += self.board_event(ev)
        return out

    def _news(self):
        """What a poll does before it reads the board's presses (the host tries an
        offline board again here); nothing in the core."""

    # -- what the table sees ------------------------------------------------------------------

    def seen(self, player):
        """What a seat can see now, for a computer answering its own questions (practice)."""
        return self.session.turns.seen(player)

    def view(self):
        """Scores, pegs, the dealer, this hand so far and the result once the game is over
        (cribcore.table.session.result), as plain data. A part unchanged since the view
        before (the scores and pegs, a player's cards laid, the pile, the hands shown:
        cribcore.table.viewparts) is that view's own list again, not a copy, and a view
        (or its hand) with nothing changed is the view before's own dict: read a view,
        never change it (cribcore.table.patch compares two by value)."""
        table = self.session.table
        if table is None:
            return {"game": None}
        g = table.game
        parts = self._parts
        if parts is None or parts.table is not table:
            parts = self._parts = Parts(table)
        # the back peg: where the front was before its last jump (kept as entries are added)
        parts.scored(table.standing().backs, g.scores)
        play, starter = g.play, g.starter
        count, turn = 0, None
        # (PLAY, SHOW) spelled as literals: a tuple of names is built at every call, one
        # of constants is the compiler's own (no object, no global kept for it)
        if play is not None and g.phase in ("play", "show"):
            # A card laid by its rank alone is named by its rank: its suit was only lent.
            turns = self.session.turns
            lent = turns.context()[1] if hasattr(turns, "context") else {}
            count = play.count
            parts.cards(play.pile, play.laid, lent, table.players)
            turn = play.turn if g.phase == PLAY else None
        else:
            parts.cards(NOTHING, None, None, table.players)
        parts.counted(g.shown)
        if self._names[0] is not table:  # the same two lists each view of a game
            self._names = (table, list(table.names), list(table.side_names))
        # the view before itself (or its hand) when nothing in it changed
        return parts.view(self._names[1], self._names[2], g,
                          None if starter is None else CARD_NAMES[starter], count, turn,
                          result(table) if g.over else None)


def _remember(crc, text, by):
    """An answer remembered for a redo as one text: the CRC of its question's signature
    (8 hex digits), who gave it (digits; none: the player asked), ":", the answer. One
    object, where a tuple of three held three (about 60 bytes less a remembered answer on
    the chip: the trail holds 41)."""
    return "%s%s:%s" % (crc, "" if by is None else by, text)


def _remembered(item):
    """(crc, text, by) of an answer remembered (_remember); one kept before a restart
    by older code, a [crc, text, by] list, as it is."""
    if not isinstance(item, str):
        return item[0], item[1], item[2]
    colon = item.index(":", 8)
    by = item[8:colon]
    return item[:8], item[colon + 1:], int(by) if by else None


def _same_question(ask, other):
    """Whether two asks are the same question (Ask.signature's fields compared one by
    one: no tuple of them made an answer); other may be None."""
    return other is not None and (ask is other or (
        ask.kind == other.kind and ask.prompt == other.prompt
        and ask.default == other.default and ask.asks == other.asks
        and ask.legal == other.legal))


def _crc_sig(kind, prompt, default, asks):
    """A question's signature as 8 hex digits, the same in every run and on both runtimes:
    its kind, prompt, default and who is asked (the hash of its legal answers is left out:
    Python's hash of a text changes from run to run, and MicroPython's dicts print in
    another order; repr spells a text's symbols, 4♣, in its own way on each)."""
    if isinstance(default, list) or isinstance(default, tuple):
        return crc("|".join([_text(v) for v in (kind, prompt, default, asks)]))
    # the same text in one piece ("%s" spells a text, an int and None as str() does)
    return crc("%s|%s|%s|%s" % (kind, prompt, default, asks))


def _text(value):
    if isinstance(value, list) or isinstance(value, tuple):
        return ",".join([_text(v) for v in value])
    return str(value)
