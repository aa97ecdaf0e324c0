"""Buttons to board actions: debounced presses, taps and holds, the new-game and settings menus.

Readers are zero-argument callables (True while pressed); time comes in as now_ms on each
poll, so tests drive the clock. The gestures (docs/board.md has the picture):

- player button: a tap adds 1 to that lane's pending amount (shown as a blinking ghost
  peg); held, the press counts 5 at hold_ms and 5 more every hold_ms after. The amount is
  pegged as one ("peg", lane, n) pause_ms after the lane's last press, at once on a
  confirm press, or when another player's button is pressed.
- undo, tapped: cancels every pending amount if there is one, else ("undo",).
- undo held long_ms: "new game?" (mode confirm_new); a tap of undo (or confirm) within
  ASK_MS says yes: ("new",); a player button or the timeout says no. Holding undo on to
  twice long_ms (or long_ms again while asked) opens the settings (mode setup).
- settings: tap the button of the last lane that should play (2..lanes; lane 1's or 2's
  button picks 2); hold any player button to switch 61 / 121; tap undo (or confirm) to
  start that game: ("setup", target, players). Holding undo long_ms, or SETUP_MS without a
  press, leaves the settings unchanged.
- after a win (poll is given the board): a player button tap starts the next game
  ("new",), if the press began after the win (the press that pegged the winning entry
  never does); undo still undoes the winning jump.
While undo is held nothing commits: the press may yet cancel the entry.
"""

from pegboard.sampler import DEBOUNCE_MS, Sampler  # noqa: F401 - DEBOUNCE_MS for callers
from pegboard.ticks import elapsed

ASK_MS = 8000  # "new game?" waits this long for its yes
SETUP_MS = 20000  # the settings close unchanged after this long untouched
MAX_PENDING = 1000  # the most one jump can peg (cribcore.pegs takes 1..1000)
TARGETS = (61, 121)
PLAY = "play"
CONFIRM_NEW = "confirm_new"
SETUP = "setup"


class _Input:
    """One contact as the gestures see it: its debounced level and what a press has done.
    stage counts what a long press has already done (0: a live press; > 0: already acted,
    the release does nothing)."""

    def __init__(self, index):
        self.index = index  # the contact's number in the Sampler
        self.down = False
        self.at = 0  # when the current press (or release) began: its first edge
        self.stage = 0
        self.won = False  # the press began with the game already won

    def edge(self, t, pressed):
        """Take a debounced edge; 1 for a press, -1 for a release."""
        self.down = pressed
        self.at = t
        if pressed:
            self.stage = 0
            return 1
        return -1


class Buttons:
    """Turns button readers into board actions; poll(now_ms) once per loop pass.

    The readers are sampled by a Sampler (`self.sampler`): by a timer when main.py starts
    one (sampler.timed), else by poll itself."""

    def __init__(self, config, readers):
        self.config = config
        reads: list = []
        keys: list = []
        while readers.get("lane%d" % len(keys)) is not None:
            reads.append(readers["lane%d" % len(keys)])
            keys.append(_Input(len(keys)))
        self._keys = keys
        self._undo = self._confirm = None
        if readers.get("undo"):
            self._undo = _Input(len(reads))
            reads.append(readers["undo"])
        if readers.get("confirm"):
            self._confirm = _Input(len(reads))
            reads.append(readers["confirm"])
        self.sampler = Sampler(reads)
        n = len(keys)
        self._pending = [0] * n
        self._last = [0] * n  # the lane's last press, +5 or release
        self._next = [0] * n  # when the held lane button adds its next 5
        self._holds = [0] * n
        self.mode = PLAY
        self._target = 121  # the settings' choice
        self._players = 2
        self._mode_ms = 0
        self.rev = 0  # bumped whenever mode, choice or a pending amount changes

    @property
    def pause_ms(self):
        """The pause before an entry is pegged: the config's, settable at run time."""
        return self.config.pause_ms

    @pause_ms.setter
    def pause_ms(self, ms):
        self.config.pause_ms = ms

    @property
    def choice(self):
        """(target, players) chosen so far while in the settings, else None."""
        return (self._target, self._players) if self.mode == SETUP else None

    def pending(self, lane):
        """Points entered on a lane's button and not yet pegged."""
        return self._pending[lane] if 0 <= lane < len(self._pending) else 0

    def poll(self, now_ms, board=None):
        """Read every button once; return the actions due: ("peg", lane, n), ("undo",),
        ("new",), ("setup", target, players). Give the board so lanes beyond its players
        are ignored, a won game restarts on a tap and the settings start from its game.
        Edges sampled since the last poll (by a timer, while the loop was busy) are taken
        in order, each at its own time."""
        sampler = self.sampler
        if not sampler.timed or sampler.stale(now_ms):
            sampler.tick(now_ms)
        acts: list = []
        if self.mode == PLAY and sampler.quiet() and not any(self._pending):
            return acts  # nothing pressed, held or waiting: the idle loop's way
        lanes = len(self._keys)
        players = lanes if board is None else min(board.players, lanes)
        over = board is not None and board.winner >= 0
        if over and self.mode == PLAY:
            self._clear()  # nothing can be pegged after a win (a press may have entered 1)
        for t, i, pressed in sampler.edges():
            if i < lanes:
                key = self._keys[i]
                if not pressed and key.down and key.stage == 0:
                    self._lane_held(i, key, t, over)  # a hold reached before the release
                if key.edge(t, pressed) > 0:
                    self._lane_press(i, key, t, players, over, acts)
                else:
                    self._lane_release(i, key, t, over, acts)
            elif self._undo is not None and i == self._undo.index:
                self._undo_edge(self._undo, self._undo.edge(t, pressed), t, acts)
            elif self._confirm is not None and self._confirm.edge(t, pressed) > 0:
                self._yes(t, acts)
        for i in range(lanes):
            key = self._keys[i]
            if key.down and key.stage == 0:
                self._lane_held(i, key, now_ms, over)
        if self._undo is not None and self._undo.down:
            self._undo_held(self._undo, now_ms, board)
        self._timers(now_ms, acts)
        return acts

    def _commit(self, acts, skip=-1):
        for i in range(len(self._pending)):
            if i != skip and self._pending[i]:
                acts.append(("peg", i, self._pending[i]))
                self._pending[i] = 0
                self.rev += 1

    def _clear(self):
        if any(self._pending):
            for i in range(len(self._pending)):
                self._pending[i] = 0
            self.rev += 1

    def _enter(self, mode, now, board=None):
        self.mode = mode
        self._mode_ms = now
        self.rev += 1
        self._clear()
        if mode == SETUP:
            target, players = 121, 2
            if board is not None:
                target = board.target if board.target in TARGETS else 121
                players = board.players
            self._target = target
            self._players = max(2, min(players, len(self._keys)))

    def _lane_press(self, i, key, now, players, over, acts):
        key.won = over
        if self.mode == CONFIRM_NEW:
            key.stage = 1  # "no": back to play, and this press pegs nothing
            self._enter(PLAY, now)
        elif self.mode == SETUP:
            self._mode_ms = now
            self._next[i] = key.at + self.config.hold_ms
        elif i >= players:
            key.stage = 1  # a lane not in this game
        elif not over:
            self._commit(acts, i)  # the turn passed: another lane's entry is done
            self._add(i, 1, now)
            self._next[i] = key.at + self.config.hold_ms
            self._holds[i] = 0

    def _lane_held(self, i, key, now, over):
        while elapsed(now, self._next[i]) >= 0 and not (self.mode == PLAY and over):
            if self.sampler.releasing(key.index, self._next[i]):
                return  # let go before the hold time: its release, still debouncing, decides
            if self.mode == SETUP:
                self._target = TARGETS[1] if self._target == TARGETS[0] else TARGETS[0]
                self.rev += 1
                self._mode_ms = now
                key.stage = 1
                return
            if self.mode != PLAY:
                return
            # The press already counted 1: the first hold step makes it 5.
            self._add(i, 4 if self._holds[i] == 0 else 5, now)
            self._holds[i] += 1
            self._next[i] = self._next[i] + self.config.hold_ms

    def _lane_release(self, i, key, now, over, acts):
        if key.stage:
            return
        if self.mode == SETUP:
            self._players = max(2, min(i + 1, len(self._keys)))
            self._mode_ms = now
            self.rev += 1
        elif self.mode == PLAY:
            if over:
                if key.won:
                    # Only a press made after the win starts the next game: the press that
                    # committed the winning entry (the turn passed) must not.
                    acts.append(("new",))
            else:
                self._last[i] = now

    def _add(self, i, n, now):
        self._pending[i] = min(self._pending[i] + n, MAX_PENDING)
        self._last[i] = now
        self.rev += 1

    def _undo_edge(self, key, ev, now, acts):
        if ev < 0 and key.stage == 0:
            if self.mode != PLAY:
                self._yes(now, acts)
            elif max(self._pending + [0]):
                self._clear()  # a tap first takes back what is not pegged yet
            else:
                acts.append(("undo",))

    def _undo_held(self, key, now, board):
        held = elapsed(now, key.at)
        long_ms = self.config.long_ms
        if self.mode == PLAY and key.stage == 0 and held >= long_ms:
            self._enter(CONFIRM_NEW, now)
            key.stage = 1
        elif self.mode == CONFIRM_NEW and key.stage < 2 and held >= (key.stage + 1) * long_ms:
            self._enter(SETUP, now, board)
            key.stage = 2
        elif self.mode == SETUP and key.stage == 0 and held >= long_ms:
            self._enter(PLAY, now)  # leave the settings unchanged
            key.stage = 3

    def _yes(self, now, acts):
        if self.mode == CONFIRM_NEW:
            acts.append(("new",))
        elif self.mode == SETUP:
            acts.append(("setup", self._target, self._players))
        else:
            self._commit(acts)
            return
        self._enter(PLAY, now)

    def _timers(self, now, acts):
        if self.mode == PLAY:
            if self._undo is not None and self._undo.down:
                return  # undo held: it may yet cancel the entry, so nothing commits now
            for i in range(len(self._pending)):
                if self._pending[i] and not self._keys[i].down and (
                        elapsed(now, self._last[i]) >= self.pause_ms):
                    acts.append(("peg", i, self._pending[i]))
                    self._pending[i] = 0
                    self.rev += 1
        elif elapsed(now, self._mode_ms) >= (ASK_MS if self.mode == CONFIRM_NEW else SETUP_MS):
            self._enter(PLAY, now)
