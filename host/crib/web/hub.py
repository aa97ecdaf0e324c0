"""The one game behind every phone: the table's Room (cribcore.table.room: the engine, the
numbered events, the state every screen is sent) run on a single worker thread (the
engine is not thread-safe, and a board's serial link may block), its state published to
every connected screen as one JSON text per change.

    hub = Hub(make_engine, picture=board_svg)
    hub.prepare()                          # the engine made and started on the worker
    await hub.open()                       # the board's poller, in the server's event loop
    out = await hub.act("answer", {"question": qid, "answer": "5h"}, seat)   # one hop
    out = await hub.act("undo", {"question": qid}, seat)   # and "redo": put it back
    async for text in hub.states():        # each new state (coalesced), for server push
    hub.room                               # the Room: its state, log, version (worker's)

act() runs Room.act on the worker, once: the room checks the question is the open one and
the turn, runs the engine, numbers its events and builds the state; a refusal is a
Refused (status, message) and changes nothing. The hub adds the board's picture revision
and its layout (lanes' names and colours, holes: the page draws the board from them and the
pegs) to the state (Room.show), and polls the board every
POLL_S for its buttons' presses (Room.poll).
"""

import asyncio
import secrets
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from crib.table.engine import TableEngine
from cribcore.table.questions import Event, Question
from cribcore.table.room import LOG_KEEP, Outcome, Room, dumps
from cribcore.table.seats import TABLE
from cribcore.web.screens import ENDED, HEARTBEAT, Screens

__all__ = ["LOG_KEEP", "POLL_S", "Hub", "SharedEngine"]

POLL_S = 0.1  # how often the board's news is fetched (presses on its buttons)
# A peg jumps hole by hole (up to 0.9 s) and a win chases for 3 s: the picture is read
# again at each poll for this long after a change, so the page ends on the settled board.
SETTLE_S = 3.5
FAST_S, FAST_POLL_S = 0.5, 0.02  # and more often just after it: the LEDs follow a tap fast

T = TypeVar("T")


class Frame:
    """One version of the state as the streams send it: its patch from the version before
    (made with it, or None) and its whole JSON text, made the first time a screen needs it
    (a new or lagging one, GET /state), not for every version. The state dict is never
    changed once published (Room makes a new one per version), so the text may be made
    on any thread; two made at once are the same text."""

    __slots__ = ("version", "state", "patch", "_text")

    def __init__(self, version: int, state: dict[str, Any], patch: str | None) -> None:
        self.version = version
        self.state = state
        self.patch = patch
        self._text: str | None = None

    def text(self) -> str:
        if self._text is None:
            self._text = dumps(self.state)
        return self._text


class Hub:
    """The room, its worker thread and the screens listening (module docstring).

    make: a function of no argument that makes the TableEngine, run on the worker (the
    history's SQLite connection belongs to the thread that opens it); picture: a function
    of the engine's board run on the worker after each change, returning the board's
    picture (SVG text) or None (its `lanes`, if it has them, go in the state); on_change:
    called on the worker after each change with the engine (`crib serve --club`: a game's
    result reported when it ends, crib.web.clubreport). The board's whose-turn light is
    crib.table.engine's."""

    def __init__(self, make: Callable[[], TableEngine],
                 picture: Callable[[Any], str | None] | None = None,
                 on_change: Callable[[TableEngine], None] | None = None) -> None:
        self._make = make
        self.engine: TableEngine | None = None
        self._the_room: Room | None = None
        self._picture = picture
        self._on_change = on_change
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="crib-engine")
        self.version = 0
        # the version now as the streams send it, read whole by a stream so that its
        # parts always agree (cribcore.table.patch)
        self.frame = Frame(0, {}, None)
        self.state: dict[str, Any] = {}
        self.svg: str | None = None
        self.board_rev = 0
        self.screens = Screens()  # every stream of states (cribcore.web.screens)
        self._poller: asyncio.Task[None] | None = None
        self.unfinished = False  # a game was left unfinished when the engine closed
        self.game_id: str | None = None  # the game the engine had when it closed
        self._settle = self._fast = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = False
        self._run_id = secrets.token_hex(4)  # versions count from here: a restart is new

    # -- on the worker thread ---------------------------------------------------------------

    @property
    def room(self) -> Room:
        """The room (cribcore.table.room): touch it on the worker only (call())."""
        if self._the_room is None:
            raise RuntimeError("the hub has no engine yet (prepare() makes it)")
        return self._the_room

    def _act(self, kind: str, body: dict[str, Any], seat: int | str | None) -> Outcome:
        """Room.act, and every screen told what it changed (on the worker)."""
        room = self.room
        try:
            out = room.act(kind, body, seat)
        except BaseException:
            if room.version != self.version:  # refused, but the engine moved all the same
                self._publish()
            raise
        return self._after(out)

    def _after(self, out: Outcome) -> Outcome:
        """After a change: on_change, every screen told, the picture read again."""
        if out.changed:
            if self._on_change is not None and self.engine is not None:
                self._on_change(self.engine)
            now = time.monotonic()
            self._settle, self._fast = now + SETTLE_S, now + FAST_S
            self._publish()  # every screen has the answer now; the board's picture follows
            if self._repaint():
                self._show()
        return out

    def _repaint(self) -> bool:
        """Read the board's picture again; True if it changed."""
        if self._picture is None or self.engine is None:
            return False
        svg = self._picture(self.engine.board)
        if svg == self.svg:
            return False
        self.svg = svg
        self.board_rev += 1
        return True

    def _extra(self) -> dict[str, Any]:
        """The hub's own fields of the state: the board picture's revision, and the board's
        layout the page draws it from: its lanes (names and colours) and holes, kept once
        read (a board that misses one reading keeps its picture and its rows' colours)."""
        return {"board_rev": self.board_rev if self.svg else None,
                "lanes": getattr(self._picture, "lanes", None),
                "holes": getattr(self._picture, "holes", None)}

    def _show(self) -> None:
        """A new picture: the state again with its revision (the room builds nothing)."""
        self.room.show(self._extra())
        self._publish()

    @property
    def text(self) -> str:
        """The state now as JSON (made once, when first asked)."""
        return self.frame.text()

    def _publish(self) -> None:
        room = self.room
        self.state = room.state
        self.frame = Frame(room.version, room.state, room.patch_text())
        self.version = room.version  # after the frame: a reader of the version has it
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._notify)

    def _tick(self) -> None:
        """The board's news (on the worker), and the picture while it settles; a board
        gone wrong is news on every screen, not the end of the server."""
        room = self.room
        try:
            out = room.poll()
            if out is not None:
                self._after(out)
            elif time.monotonic() < self._settle and self._repaint():
                self._show()
        except Exception as e:
            room.problem(f"board: {e}")

    # -- in the event loop ------------------------------------------------------------------

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, fn, *args)
        finally:
            self._notify()

    def _notify(self) -> None:
        self.screens.changed()

    def prepare(self) -> None:
        """Make the engine and run it to its first question, on the worker (its errors,
        a --resume with nothing to resume say, come out here)."""
        def first() -> None:
            self.engine = self._make()
            self._the_room = Room(self.engine, self._run_id, self._extra(), since=True)
            self._after(self.room.start())
        self._pool.submit(first).result()

    async def open(self, poll: bool = True) -> None:
        """Listen for changes (and poll the board) in the running event loop."""
        if self.engine is None:
            self.prepare()
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

    def _shutdown(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            table = engine.session.table
            self.unfinished = table is not None and not table.game.over
            self.game_id = None if table is None else table.game_id
            try:
                engine.board.close()
            finally:
                engine.history.close()

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run fn on the worker and wait for it (for a front end on another thread)."""
        return self._pool.submit(fn, *args).result()

    def act_now(self, kind: str, body: dict[str, Any],
                seat: int | str | None = TABLE) -> Outcome:
        """act() for a front end on another thread: run on the worker, waited for."""
        return self.call(self._act, kind, body, seat)

    def stop(self) -> None:
        """Close the engine's board and history if still open, and end the worker (sync);
        again: nothing more."""
        if self._stopped:
            return
        self._stopped = True
        self._pool.submit(self._shutdown).result()
        self._pool.shutdown(wait=True)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(FAST_POLL_S if time.monotonic() < self._fast else POLL_S)
            await self._run(self._tick)

    async def act(self, kind: str, body: dict[str, Any],
                  seat: int | str | None = TABLE) -> Outcome:
        """Answer, undo or redo (Room.act, one call on the worker): the Outcome, every
        screen told; Refused (status, message) and nothing changed if it may not apply.
        body: the request's checked fields (question, answer, for); seat: the seat it
        speaks for (checked with its token: cribcore.web.edge)."""
        return await self._run(self._act, kind, body, seat)

    def end_streams(self) -> None:
        """The server is stopping: every stream of states ends now, so that no screen holds
        it open (safe from a signal handler on the event loop's thread)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.screens.end)
        else:
            self.screens.ending = True

    async def states(self, heartbeat: float | None = None) -> AsyncIterator[str | None]:
        """The state now, then each new one (a slow reader skips to the latest): the patch
        from the version before when this stream sent that one, else the whole state; None
        after heartbeat seconds without a change; ends when the server stops
        (end_streams)."""
        sent = 0
        while True:
            now = await self.screens.next(sent, lambda: self.version, heartbeat)
            if now == ENDED:
                return
            if now == HEARTBEAT:
                yield None
            else:
                frame = self.frame
                version, patch = frame.version, frame.patch
                yield patch if patch is not None and sent == version - 1 else frame.text()
                sent = version


class SharedEngine:
    """The hub's engine as a second front end on another thread sees it (the terminal of
    `crib serve --terminal`): each call runs on the hub's worker through its room, every
    screen is told what it changed, and poll() hands over what the others did (the
    phones, the board). A refusal is a Refused (an AnswerError: the terminal says it)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._seen = hub.call(lambda: hub.room.seq)

    def _mine(self, kind: str, body: dict[str, Any]) -> list[Event]:
        """One request of this front end (the table's seat); what it made is its news."""
        out = self.hub.act_now(kind, body, TABLE)
        if out.events:
            self._seen = max(self._seen, out.events[-1]["seq"])
        return out.raw

    def start(self) -> list[Event]:
        """The engine is started by the hub: nothing new."""
        return []

    def poll(self) -> list[Event]:
        """What happened since this front end last looked (answers from phones, presses)."""
        def news() -> list[Event]:
            room = self.hub.room
            out = room.since(self._seen)
            self._seen = room.seq
            return out
        return self.hub.call(news)

    def question(self) -> Question | None:
        """The open question (with what is known: the terminal's status line)."""
        def ask() -> Question | None:
            engine = self.hub.room.engine
            return engine.question()
        return self.hub.call(ask)

    def answer(self, question_id: str, text: str) -> list[Event]:
        """Answer (checked as any phone's answer from the table's seat)."""
        return self._mine("answer", {"question": question_id, "answer": text})

    def undo(self, question_id: str | None = None) -> list[Event]:
        """Take back the last entry (the open question's, when no id is given)."""
        if question_id is None:
            question_id = self.hub.call(lambda: self.hub.room.engine.question_id())
        return self._mine("undo", {"question": question_id})
