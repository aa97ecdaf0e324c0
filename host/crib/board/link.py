"""The serial link to the board: commands with retries, replies told from events, reconnects.

A Link talks the protocol of cribcore.protocol over any pyserial port (a device path or a
URL: socket://host:port, loop://, rfc2217://...). A reader thread splits what arrives
into lines: replies go to the command waiting for them, events to the caller as they come
(`on_event` callback, `events()` iterator). Every state-changing command carries an id
that is fresh across runs; when its reply does not come in time the same line is sent
again, and the board, which applies an id once, answers the repeat with the first reply.
When the port goes away (unplug, a killed virtual board) or the board reboots, the link
reopens the port, shakes hands again, fetches the state and reports every difference
from what it expected (a `drift` event); it never writes the board back. The port, the
thread reading it and the reconnect's retries are its transport's (crib.board.transport);
what the port is (a Pico found again by its serial number, a virtual board started for
the link) is its opener's (crib.connect). docs/link.md.
"""

import queue
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from crib.board.ids import Ids
from crib.board.pixels import parse_pixels
from crib.board.state import BoardState, Difference, differences
from crib.board.transport import (  # noqa: F401 - LinkError, Disconnected, open_url: here too
    Disconnected,
    LinkError,
    PortLost,
    SerialTransport,
    open_url,
)
from cribcore.protocol import (
    CHANGE,
    PROTO,
    Message,
    ProtocolError,
    command,
    decode,
    encode,
)

TIMEOUT = 1.0  # seconds to wait for one reply before sending the line again
RETRIES = 3  # sends after the first before a command gives up with BoardTimeout
RECONNECT = 10.0  # seconds a command waits for a lost port to come back
EVENT_BACKLOG = 1000  # events kept for events() when nobody reads them
_GARBLED = ("bad_line", "too_long")  # our line arrived damaged: send it again


class BoardTimeout(LinkError):
    """No reply in time (after the retries): never an empty reply."""


class VersionMismatch(LinkError):
    """The board speaks another protocol version than this companion."""

    def __init__(self, msg: str, board: object, ours: int) -> None:
        super().__init__(msg)
        self.board = board
        self.ours = ours


class NotABoard(LinkError):
    """Something answered, but not in the board's protocol (a REPL, another device)."""


class BoardRefused(LinkError):
    """The board answered `err`: `code` is the protocol's stable error code."""

    def __init__(self, msg: str, code: str | None, rev: int | None = None) -> None:
        super().__init__(msg)
        self.code = code
        self.rev = rev


class Event:
    """An event: one the board sent (`evt NAME ...`: boot, peg, undo, new, win, warn), or
    one the link noticed (lost, back, drift); `args` holds its fields."""

    def __init__(self, name: str, args: dict[str, Any], from_board: bool = True) -> None:
        self.name = name
        self.args = args
        self.from_board = from_board

    def __repr__(self) -> str:
        return "Event(%r, %r, from_board=%r)" % (self.name, self.args, self.from_board)


# Sentinels in the reply queue.
_LOST = "lost"
_BOOT = "boot"

# What a query's reply must hold, so a late reply to another query is not taken for it.
_SHAPES = {"hello": ("proto",), "state": ("mode", "players"), "leds": ("px",),
           "tick": ("now",), "wifi": ("ssid",), "home": ("set",), "club": ("url",)}


class Link:
    """A connection to one board: commands, replies, events, retries and reconnects."""

    def __init__(self, opener: Callable[[], Any], name: str = "", timeout: float = TIMEOUT,
                 retries: int = RETRIES, reconnect: float = RECONNECT,
                 on_event: Callable[[Event], None] | None = None,
                 ids: Ids | None = None) -> None:
        # opener: () -> an open pyserial-like port (LinkError if absent); with a `close`,
        # closed with the link (crib.board.transport).
        self.transport = SerialTransport(opener, name, self._line, self._port_lost,
                                         self._drain)
        self.name = name
        self.timeout = timeout
        self.retries = retries
        self.reconnect = reconnect
        self.on_event = on_event
        self.ids = ids or Ids()
        self.info: dict[str, Any] = {}  # the last `hello` reply
        self.drift: list[Difference] = []  # differences found at the last resync
        self.resends = 0  # lines sent again (timeouts, reboots, reconnects)
        self.reconnects = 0
        self._replies: queue.Queue[Any] = queue.Queue()
        self._events: queue.Queue[Event] = queue.Queue()
        self._lock = threading.RLock()  # one exchange at a time
        self._slock = threading.Lock()  # the known state
        self._known: BoardState | None = None
        self._rebooted = False
        self._noise: list[str] = []
        self._calls: queue.Queue[Event | None] = queue.Queue()
        if on_event is not None:
            threading.Thread(target=self._dispatch, daemon=True, name="crib-link-events").start()

    # -- opening and closing ----------------------------------------------------------------

    @classmethod
    def open(cls, port: str, **kw: Any) -> "Link":
        """A connected link to `port`, a device path or a pyserial URL (the other kinds of
        board, "auto" and "sim", are opened by crib.connect.open_link)."""
        link = cls(lambda: open_url(port), name=port, **kw)
        link.connect()
        return link

    def connect(self) -> "Link":
        """Open the port, shake hands, fetch the state; raise LinkError if that fails."""
        with self._lock:
            try:
                self.transport.open()
                self._sync()
            except PortLost:
                self.close()
                raise Disconnected("%s went away during the handshake" % self.name) from None
            except BoardTimeout:
                self.close()
                if self._noise:
                    raise NotABoard("%s does not speak the board's protocol; it said %r"
                                    % (self.name, self._noise[-1])) from None
                raise
            except BaseException:
                self.close()
                raise
        self.transport.watch(self._repair)
        return self

    def close(self) -> None:
        """Close the port and stop the threads (and what the opener started for the link)."""
        self._calls.put(None)
        self.transport.close()

    def __enter__(self) -> "Link":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- commands --------------------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        """The handshake reply: proto, fw, lanes, holes, players, target, desk, rev."""
        self.info = self.request("hello").args
        return self.info

    def state(self) -> BoardState:
        """The board's whole state, fetched now."""
        return BoardState.from_reply(self.request("state").args)

    # The changes take `id`: the caller's own operation id (one it saved before sending, to
    # send again after a crash); the board applies an id once. Without it, a fresh one.

    def peg(self, lane: int, n: int, id: str | None = None) -> BoardState | None:
        """Lane `lane` scores n (applied once per id, however often it is sent); the state
        after."""
        self.request("peg", p=lane, n=n, id=id)
        return self.known

    def undo(self, id: str | None = None) -> BoardState | None:
        """Undo the last jump on the board (once per id); the state after."""
        self.request("undo", id=id)
        return self.known

    def new(self, target: int | None = None, players: int | None = None, match: bool = False,
            id: str | None = None) -> BoardState | None:
        """Start a new game (match=True also clears the games-won tally; once per id); the
        state after."""
        args = {k: v for k, v in (("target", target), ("players", players)) if v is not None}
        if match:
            args["match"] = 1
        self.request("new", id=id, **args)
        return self.known

    def set(self, **settings: Any) -> BoardState | None:
        """Change settings (dealer, brightness, budget_ma, pause_ms, idle_ms); the state after."""
        self.request("set", **settings)
        return self.known

    def leds(self) -> list[tuple[int, int, int]]:
        """The board's pixel buffer now: a list of (r, g, b), one per LED."""
        args = self.request("leds").args
        try:
            return parse_pixels(args.get("px", ""), args["leds"])
        except (KeyError, ProtocolError) as e:
            raise NotABoard("bad leds reply from %s: %s" % (self.name, e)) from None

    def button(self, name: str, down: bool) -> None:
        """Desktop runner only: hold a button (lane0.., undo, confirm) down or let it go."""
        self.request("btn", b=name, on=1 if down else 0)

    def tick(self, ms: int) -> int:
        """Desktop runner only (driven clock): move time ms forward; the runner's clock."""
        return self.request("tick", ms=ms).args["now"]

    @property
    def connected(self) -> bool:
        """Whether the port is open and the board's handshake holds (no loss, no reboot,
        not closed): False means a command would first wait for a reconnect."""
        t = self.transport
        return not (t.lost or self._rebooted or t.closed)

    @property
    def known(self) -> BoardState | None:
        """What the link believes the board holds (kept up to date by replies and events)."""
        with self._slock:
            return self._known.copy() if self._known else None

    def reconcile(self, expected: BoardState) -> list[Difference]:
        """Differences between `expected` (a BoardState) and the board now; changes nothing."""
        return differences(expected, self.state())

    def request(self, verb: str, **args: Any) -> Message:
        """Send one command and return its `ok` Message; BoardRefused for `err`. A change
        without an `id` (or with id=None) gets a fresh one."""
        if args.get("id", 0) is None:
            del args["id"]
        if command(verb)[1] & CHANGE and "id" not in args:
            args["id"] = self.ids.next()
        line = encode(verb, **args)  # a bad argument fails here, before anything is sent
        with self._lock:
            if self.transport.closed:
                raise Disconnected("the link to %s is closed" % self.name)
            msg, _ = self._exchange(verb, args.get("id"), line, recover=True)
        if msg.kind == "err":
            raise BoardRefused("board refused %r: %s (%s)" % (line, msg.args.get("msg"),
                                                              msg.args.get("code")),
                               msg.args.get("code"), msg.args.get("rev"))
        return msg

    # -- events ------------------------------------------------------------------------------

    def events(self, timeout: float | None = None) -> Iterator[Event]:
        """Events as they come; stops after `timeout` seconds without one (None: never)."""
        while True:
            try:
                yield self._events.get(timeout=timeout)
            except queue.Empty:
                return

    def poll_events(self) -> list[Event]:
        """The events waiting now, without blocking."""
        out = []
        while True:
            try:
                out.append(self._events.get_nowait())
            except queue.Empty:
                return out

    def _emit(self, ev: Event) -> None:
        if self._events.qsize() >= EVENT_BACKLOG:
            try:
                self._events.get_nowait()  # nobody reads them: keep the newest
            except queue.Empty:
                pass
        self._events.put(ev)
        if self.on_event is not None:
            self._calls.put(ev)

    def _dispatch(self) -> None:
        """Run on_event for each event on a thread of its own: a callback may use the link
        (the reader thread must stay free to deliver the replies it waits for)."""
        while True:
            ev = self._calls.get()
            if ev is None:
                return
            try:
                if self.on_event is not None:
                    self.on_event(ev)
            except Exception:  # noqa: BLE001 - a bug in a callback must not stop the link
                traceback.print_exc()

    # -- the exchange ------------------------------------------------------------------------

    def _exchange(self, verb: str, ident: str | None, line: str,
                  recover: bool) -> tuple[Message, BoardState | None]:
        """Send line until its reply comes: (reply Message, state fetched on a recovery)."""
        tries = 0
        fresh = None
        deadline = None
        while True:
            if recover and (self.transport.lost or self._rebooted):
                deadline = deadline or time.monotonic() + self.reconnect
                fresh = self._recover(deadline, ident is not None)
                tries = 0
            elif not recover and self.transport.lost:
                raise PortLost()
            if not self.transport.write(line):
                continue
            got = self._await(verb, ident)
            if got is None:
                tries += 1
                if tries > self.retries:
                    raise BoardTimeout("no reply from %s to %r within %.1f s (sent %d times)"
                                       % (self.name, line, self.timeout, tries))
                self.resends += 1
                continue
            if got in (_LOST, _BOOT):
                if not recover and got == _LOST:
                    raise PortLost()
                if not recover:
                    # The handshake goes on after the boot: what it fetches is fresh.
                    self._rebooted = False
                self.resends += 1
                continue
            if fresh is not None and ident is not None:
                self._after_recovery(fresh, got)
            return got, fresh

    def _await(self, verb: str, ident: str | None) -> Any:
        """The reply to our line, a sentinel (_LOST, _BOOT), or None on a timeout."""
        end = time.monotonic() + self.timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return None
            try:
                item = self._replies.get(timeout=left)
            except queue.Empty:
                return None
            if item in (_LOST, _BOOT):
                return item
            msg = item[0]
            rid = msg.args.get("id")
            if ident is not None:
                if rid == ident:
                    return msg
                if rid is None and msg.kind == "err" and msg.args.get("code") in _GARBLED:
                    return None  # our line was damaged on the way: send it again now
                continue  # a late reply to an earlier command
            if rid is not None:
                continue
            if msg.kind == "err":
                if msg.args.get("code") in _GARBLED:
                    return None
                return msg
            if all(k in msg.args for k in _SHAPES.get(verb, ())):
                return msg

    # -- recovery ----------------------------------------------------------------------------

    def _recover(self, deadline: float, pending: bool) -> BoardState:
        """Reopen if the port went away, shake hands and fetch the state; report drift
        (unless a change is pending: _after_recovery reports once its reply is in)."""
        def handshake(reopened: bool) -> BoardState:
            self._rebooted = False
            prev, fresh = self._sync()
            if reopened:
                self.reconnects += 1
                self._emit(Event("back", {"port": self.name, "rev": fresh.rev}, False))
            if prev is None:
                prev = fresh
            if not pending:
                self._report(differences(prev, fresh), fresh)
            self._fresh_prev = prev
            return fresh
        return self.transport.reconnect(handshake, deadline, self.reconnect, (BoardTimeout,))

    def _after_recovery(self, fresh: BoardState, reply: Message) -> None:
        """Report drift once a change resent after a recovery has its reply: if the board
        had applied it before the loss, it is part of the state fetched, not a difference."""
        expected, board = self._fresh_prev.copy(), fresh.copy()
        if reply.kind == "ok" and reply.args.get("rev") == fresh.rev:
            # Applied before the loss (or a setting, which moves no revision): compare
            # both sides with it applied. Otherwise the board moved on without us.
            expected.apply(reply.args)
            board.apply(reply.args)
        self._report(differences(expected, board), self.known)

    def _report(self, diffs: list[Difference], fresh: BoardState | None) -> None:
        self.drift = diffs
        if diffs:
            self._emit(Event("drift", {"differences": diffs, "state": fresh}, False))

    def _sync(self) -> tuple[BoardState | None, BoardState]:
        """hello (version check), then state: (state expected before, state on the board)."""
        hello, _ = self._exchange("hello", None, "hello", recover=False)
        if hello.kind != "ok" or "proto" not in hello.args:
            raise NotABoard("%s answered hello with %r" % (self.name, hello))
        proto = hello.args["proto"]
        if proto != PROTO:
            raise VersionMismatch(
                "%s speaks protocol %r, this companion speaks %d: update %s"
                % (self.name, proto, PROTO, "the board (crib deploy)" if proto < PROTO
                   else "the companion"), proto, PROTO)
        self.info = hello.args
        msg, _ = self._exchange("state", None, "state", recover=False)
        if msg.kind != "ok":
            raise NotABoard("%s answered state with %r" % (self.name, msg))
        # _line put the state known before this reply on it as `prev`.
        return getattr(msg, "prev", None), BoardState.from_reply(msg.args)

    def _repair(self) -> bool:
        """Between commands (the transport's watcher): bring a lost port back and resync
        after a reboot; False if that has to be tried again."""
        with self._lock:
            t = self.transport
            if not (t.lost or self._rebooted) or t.closed:
                return True
            try:
                self._recover(time.monotonic() + 1.0, False)
            except (LinkError, ProtocolError):
                return False
            return True

    # -- what the transport reports ----------------------------------------------------------

    def _drain(self) -> None:
        """A new port: replies of the old one are not waited for."""
        while True:
            try:
                self._replies.get_nowait()
            except queue.Empty:
                return

    def _port_lost(self) -> None:
        self._replies.put(_LOST)
        if not self.transport.closed:
            self._emit(Event("lost", {"port": self.name}, False))

    def _line(self, line: str) -> None:
        try:
            msg = decode(line)
        except ProtocolError:
            msg = None
        if msg is None or msg.kind == "cmd":
            self._noise.append(line)  # an echo, a REPL, a log line: not ours
            del self._noise[:-20]
            return
        args = msg.args
        with self._slock:
            prev = self._known
            if msg.kind == "ok" and "mode" in args and "players" in args and "id" not in args:
                self._known = BoardState.from_reply(args)
            elif self._known is not None and args.get("rev", -1) >= self._known.rev and (
                    msg.kind == "evt" or (msg.kind == "ok" and "id" in args)):
                self._known.apply(args)
        if msg.kind == "evt":
            if msg.verb == "boot":
                self._rebooted = True
                self._replies.put(_BOOT)
                self.transport.trouble()
            self._emit(Event(msg.verb, args))
            return
        msg.prev = prev.copy() if prev is not None else None
        self._replies.put((msg,))
