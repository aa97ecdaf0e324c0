"""The one game behind every phone: a TableEngine run on a single worker thread (the engine
is not thread-safe, and a board's serial link may block), its state published to every
connected screen as one JSON text per change.

    hub = Hub(make_engine, picture=board_svg)
    hub.prepare()                          # the engine made and started on the worker
    await hub.open()                       # the board's poller, in the server's event loop
    events = await hub.answer(qid, "5h")   # AnswerError / StaleQuestion, nothing changed
    events = await hub.answer(qid, "5h", by=0)   # player 0's phone answering for another
    events = await hub.undo(qid); await hub.redo(qid2)   # take back, and put back
    async for text in hub.states():        # each new state (coalesced), for server push

A state carries the open question, the engine's view, what the last undo took back (while
its question is open: every screen says it and offers to put it back), who answered the last
question for another player (while the next is open: every screen says it), the recent events
(numbered, so a screen that slept catches up on what it missed, up to LOG_KEEP of them)
and the board's picture revision. The board is polled every POLL_S for its buttons' presses.
"""

import asyncio
import json
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cribcore.cards import card_name

POLL_S = 0.1  # how often the board's news is fetched (presses on its buttons)
# A peg jumps hole by hole (up to 0.9 s) and a win chases for 3 s: the picture is read
# again at each poll for this long after a change, so the page ends on the settled board.
SETTLE_S = 3.5
FAST_S, FAST_POLL_S = 0.5, 0.02  # and more often just after it: the LEDs follow a tap fast
LOG_KEEP = 60  # events kept for screens that join or wake up


def _cards(cards):
    return [c if isinstance(c, str) else card_name(c) for c in cards or ()]


def event_dict(seq: int, ev) -> dict[str, Any]:
    """An engine Event as plain JSON data (a show's cards and items by name)."""
    data = ev.data
    if ev.kind == "show" and data:
        data = {"cards": _cards(data["cards"]),
                "starter": _cards([data["starter"]])[0] if data["starter"] is not None
                else None, "crib": data["crib"], "total": data["total"],
                "items": [{"kind": it.kind, "cards": _cards(it.cards), "points": it.points}
                          for it in data["items"]]}
    return {"seq": seq, "kind": ev.kind, "who": ev.who, "text": ev.text,
            "points": ev.points, "data": data}


class Hub:
    """The engine, its worker thread and the screens listening (module docstring).

    make: a function of no argument that makes the TableEngine, run on the worker (the
    history's SQLite connection belongs to the thread that opens it); picture: a function
    of the engine's board run on the worker after each change, returning the board's
    picture (SVG text) or None; on_change: called on the worker after each change with the
    engine (the board's whose-turn light is crib.table.engine's)."""

    def __init__(self, make: Callable[[], Any],
                 picture: Callable[[Any], str | None] | None = None,
                 on_change: Callable[[Any], None] | None = None):
        self._make = make
        self.engine: Any = None
        self._picture = picture
        self._on_change = on_change
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="crib-engine")
        self._log: deque = deque(maxlen=LOG_KEEP)
        self._raw: deque = deque(maxlen=LOG_KEEP)  # the same events as the engine gave them
        self._seq = 0
        self.version = 0
        self.text = "{}"  # the state as JSON, what every screen is sent
        self.state: dict[str, Any] = {}
        self.svg: str | None = None
        self.board_rev = 0
        self._changed: asyncio.Event | None = None
        self._poller: asyncio.Task | None = None
        self._last_key = None
        self.unfinished = False  # a game was left unfinished when the engine closed
        self.game_id = None  # the game the engine had when it closed
        self._settle = self._fast = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = False
        self._run_id = secrets.token_hex(4)  # versions count from here: a restart is new
        self._ending = False  # the server is stopping: every stream of states ends

    # -- on the worker thread ---------------------------------------------------------------

    def _after(self, events, force=False):
        """Log the events, refresh the picture and the state (on the worker)."""
        changed = bool(events)
        for ev in events:
            self._seq += 1
            self._log.append(event_dict(self._seq, ev))
            self._raw.append((self._seq, ev))
        q = self.engine.question()
        key = (q.id if q else None, self._seq)
        if not force and key == self._last_key and not changed:
            return False
        self._last_key = key
        if self._on_change is not None:
            self._on_change(self.engine)
        now = time.monotonic()
        self._settle, self._fast = now + SETTLE_S, now + FAST_S
        self._publish(q)  # every screen has the answer now; the board's picture follows
        if self._repaint():
            self._publish(q)
        return True

    def _repaint(self):
        """Read the board's picture again; True if it changed."""
        if self._picture is None:
            return False
        svg = self._picture(self.engine.board)
        if svg == self.svg:
            return False
        self.svg = svg
        self.board_rev += 1
        return True

    def _publish(self, q):
        view = self.engine.view()
        question = None
        if q is not None:
            question = q.to_dict()
            del question["known"]  # the same as the view, sent once
        self.version += 1
        self.state = {"run": self._run_id, "version": self.version, "question": question,
                      "view": view,
                      "log": list(self._log), "over": self.engine.over,
                      "undone": self.engine.undone(),
                      "answered": self.engine.answered(),
                      "board_rev": self.board_rev if self.svg else None}
        self.text = json.dumps(self.state, separators=(",", ":"))
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._notify)

    def _do(self, fn, *args):
        q = self.engine.question()
        events = fn(*args)
        names = (self.engine.view().get("names") or [])
        if q is not None and q.asks is not None and q.asks < len(names):
            for i, ev in enumerate(events):  # whose show it was: the player asked for it
                if ev.kind == "show" and ev.who is None:
                    events[i] = ev._replace(who=names[q.asks])
        self._after(events)
        return events

    def _tick(self):
        """The board's news (on the worker), and the picture while it settles."""
        if not self._do(self.engine.poll) and time.monotonic() < self._settle:
            if self._repaint():
                self._publish(self.engine.question())

    # -- in the event loop ------------------------------------------------------------------

    async def _run(self, fn, *args):
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, fn, *args)
        finally:
            self._notify()

    def _notify(self):
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    def prepare(self) -> None:
        """Make the engine and run it to its first question, on the worker (its errors,
        a --resume with nothing to resume say, come out here)."""
        def first():
            self.engine = self._make()
            self._after(self.engine.start(), force=True)
        self._pool.submit(first).result()

    async def open(self, poll: bool = True) -> None:
        """Listen for changes (and poll the board) in the running event loop."""
        if self.engine is None:
            self.prepare()
        self._changed = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        if poll:
            self._poller = asyncio.create_task(self._poll())

    async def close(self) -> None:
        """Stop polling; the board and the history are closed on the worker."""
        if self._poller is not None:
            self._poller.cancel()
            try:
                await self._poller
            except asyncio.CancelledError:
                pass
            self._poller = None
        await asyncio.get_running_loop().run_in_executor(self._pool, self._shutdown)

    def _shutdown(self):
        engine, self.engine = self.engine, None
        if engine is not None:
            table = engine.session.table
            self.unfinished = table is not None and not table.game.over
            self.game_id = None if table is None else table.game_id
            try:
                engine.board.close()
            finally:
                engine.history.close()

    def call(self, fn, *args):
        """Run fn on the worker and wait for it (for a front end on another thread)."""
        return self._pool.submit(fn, *args).result()

    def stop(self) -> None:
        """Close the engine's board and history if still open, and end the worker (sync);
        again: nothing more."""
        if self._stopped:
            return
        self._stopped = True
        self._pool.submit(self._shutdown).result()
        self._pool.shutdown(wait=True)

    async def _poll(self):
        while True:
            await asyncio.sleep(FAST_POLL_S if time.monotonic() < self._fast else POLL_S)
            try:
                await self._run(self._tick)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # a board gone wrong is news, not the end of the server
                self._seq += 1
                self._log.append({"seq": self._seq, "kind": "problem", "who": None,
                                  "text": f"board: {e}", "points": 0, "data": None})

    async def answer(self, question_id: str, text: str, by: int | None = None) -> list:
        """Answer the open question (the engine validates it); the events it made. by: the
        player whose phone answers (said and recorded when it answers for another)."""
        return await self._run(self._do, self.engine.answer, question_id, text, by)

    async def undo(self, question_id: str | None) -> list:
        """Take back the last entry."""
        return await self._run(self._do, self.engine.undo, question_id)

    async def redo(self, question_id: str) -> list:
        """Put back what the last undo took back."""
        return await self._run(self._do, self.engine.redo, question_id)

    async def question(self):
        """The engine's open question now (on the worker)."""
        return await self._run(self.engine.question)

    def end_streams(self) -> None:
        """The server is stopping: every stream of states ends now, so that no screen holds
        it open (safe from a signal handler on the event loop's thread)."""
        self._ending = True
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._notify)

    async def states(self, heartbeat: float | None = None) -> AsyncIterator[str | None]:
        """The state now, then each new one (a slow reader skips to the latest); None after
        heartbeat seconds without a change; ends when the server stops (end_streams)."""
        sent = 0
        while True:
            waiter = self._changed
            if self._ending:
                return
            if self.version != sent:
                sent = self.version
                yield self.text
            if waiter is None:
                return
            try:
                await asyncio.wait_for(waiter.wait(), heartbeat)
            except asyncio.TimeoutError:
                yield None


class SharedEngine:
    """The hub's engine as a second front end on another thread sees it (the terminal of
    `crib serve --terminal`): each call runs on the hub's worker, every screen is told what
    it changed, and poll() hands over what the others did (the phones, the board)."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self._seen = hub.call(lambda: hub._seq)

    def _mine(self, fn, *args):
        """Run an engine call on the worker; what it made is this front end's news."""
        def run():
            events = self.hub._do(fn, *args)
            self._seen = self.hub._seq
            return events
        return self.hub.call(run)

    def start(self) -> list:
        """The engine is started by the hub: nothing new."""
        return []

    def poll(self) -> list:
        """What happened since this front end last looked (answers from phones, presses)."""
        def news():
            out = [ev for seq, ev in self.hub._raw if seq > self._seen]
            self._seen = self.hub._seq
            return out
        return self.hub.call(news)

    def question(self):
        """The open question."""
        return self.hub.call(self.hub.engine.question)

    def answer(self, question_id: str, text: str) -> list:
        """Answer (validated by the engine, like any phone's answer)."""
        return self._mine(self.hub.engine.answer, question_id, text)

    def undo(self, question_id: str | None = None) -> list:
        """Take back the last entry."""
        return self._mine(self.hub.engine.undo, question_id)
