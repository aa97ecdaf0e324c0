"""A board that never holds up the game: a link's calls run on a thread of their own, and
the caller waits for each at most a budget (BUDGET_S). Past it, or when the link has lost
its port, the board is offline: every call fails at once (BoardOffline) instead of waiting
for the link's retries and reconnect, and the guard's thread tries the board again
(PROBE_S) until it answers; then `back()` says so once.

    guard = Guard(link)
    st = guard.call(link.peg, 0, 2, id="a.1")  # the state after, or BoardOffline at once
    guard.back()                                # True once after the board came back

A call that timed out goes on on the guard's thread and may still be applied: the ids the
table sends make that safe (its pending operation is settled from the board's pegs when
the board is back, crib.table.sync).
"""

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

from crib.board.link import BoardRefused, LinkError
from crib.errors import CribError

T = TypeVar("T")
BUDGET_S = 0.15  # the longest one board call may hold up the game
PROBE_S = 0.25  # how often an offline board is tried again (off the game's path)
_STOP = object()


class BoardOffline(LinkError):
    """The board did not answer in time, or its port is gone: the call was not waited for."""


class Guard:
    """A link's calls with a time budget, on a thread of their own (module docstring)."""

    def __init__(self, link: Any, budget: float = BUDGET_S, probe: float = PROBE_S) -> None:
        self.link = link
        self.budget = budget
        self.probe = probe
        self.online = True
        self.why = ""
        self._jobs: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._outstanding = 0  # calls handed to the thread and not finished
        self._back = False
        self._thread = threading.Thread(target=self._run, daemon=True, name="crib-board-guard")
        self._thread.start()

    def call(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        """fn(*args, **kw) on the guard's thread; its result, its exception (a refusal, a
        link error), or BoardOffline once the budget is spent or while offline."""
        if self.online and not getattr(self.link, "connected", True):
            self._down("the link lost its port")
        with self._lock:
            if not self.online:
                raise BoardOffline(f"the board is offline ({self.why})")
            if self._outstanding:
                self._down("an earlier call is still waiting for the board")
                raise BoardOffline(f"the board is offline ({self.why})")
            self._outstanding += 1
        fut: Future[T] = Future()
        self._jobs.put((fut, fn, args, kw))
        try:
            return fut.result(self.budget)
        except FutureTimeout:
            self._down(f"no answer within {self.budget * 1000:.0f} ms")
            raise BoardOffline(f"the board is offline ({self.why})") from None
        except BoardRefused:
            raise
        except LinkError as e:
            self._down(str(e))
            raise

    def back(self) -> bool:
        """True once after an offline board answered again."""
        with self._lock:
            back, self._back = self._back, False
        return back

    def lost(self, why: str) -> None:
        """The link said it lost the board: offline until it answers again."""
        self._down(why)

    def close(self) -> None:
        """Stop the thread (a call still running on it is left to end by itself)."""
        self._jobs.put(_STOP)

    def _down(self, why: str) -> None:
        with self._lock:
            if self.online:
                self.online = False
                self.why = why

    def _run(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=self.probe)
            except queue.Empty:
                if not self.online:
                    self._try_again()
                continue
            if job is _STOP:
                return
            fut, fn, args, kw = job
            try:
                if fut.set_running_or_notify_cancel():
                    try:
                        fut.set_result(fn(*args, **kw))
                    except BaseException as e:  # noqa: BLE001 - handed to the caller
                        fut.set_exception(e)
            finally:
                with self._lock:
                    self._outstanding -= 1

    def _try_again(self) -> None:
        """Off the game's path: ask the board for its state; online again if it answers."""
        try:
            self.link.state()
        except (CribError, OSError):
            return
        if getattr(self.link, "connected", True):
            with self._lock:
                self.online = True
                self.why = ""
                self._back = True
