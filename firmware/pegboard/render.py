"""Board state to LED frames: pegs, hole marks, ghost peg, jump and win animations, light.

A Renderer draws one frame per draw() call and never blocks. It keeps the frame it last
sent and sets only the pixels whose colour changed (and writes the strip only then), so a
peg move touches a handful of LEDs, not the whole chain. What a player sees is described
in docs/board.md; the levels below are perceived brightness, gamma-corrected per channel.

It runs in every pass of the Pico's loop, so it does little (docs/firmware.md, "The
renderer", has the figures): each frame works out when it can next change (a blink, the
moving peg's next hole, dimming), and until then draw() only checks that its inputs are
the ones drawn; the frame it composes (pegboard.frame) repaints a lane's marks only when
they change and compares with the strip only the LEDs that can have changed. The tones
are gamma-corrected and brightness-scaled once per brightness.

Holes: a score s shows at hole s, except that a target above the layout's holes wraps
laps (score holes + 1 is hole 1 again). The start hole (score 0) shows only where the
layout gives it an LED.
"""

from cribcore.rules import skunk_lines
from pegboard import light
from pegboard.frame import Frame
from pegboard.ticks import elapsed, later

# Perceived levels 0..255 (before gamma) of what a lane shows.
FRONT = 255
BACK = 120
GHOST = 200
TALLY = 90
MARK = 80
FLASH = 150  # marks while the board asks "new game?"
MARK_RGB = (255, 170, 90)  # warm white: every 5th hole
SKUNK_RGB = (150, 0, 255)  # violet: the skunk and double-skunk lines
GAME_RGB = (255, 255, 255)  # the game hole
ALERT_RGB = (255, 0, 0)
_TONES = (FRONT, BACK, GHOST, TALLY, MARK)  # per-lane tone order: index with _F, _B...
_F, _B, _G, _T, _M = 0, 1, 2, 3, 4

HOLE_MS = 30  # a jump moves one hole per 30 ms (33 frames a second)...
JUMP_MS = 900  # ...but never takes longer than this, however far
WIN_MS = 3000  # the winner's chase runs this long, then the game hole keeps blinking
TICK_MS = 50  # blink patterns change on this grid: a still frame is redrawn no faster
IDLE_SHIFT = 2  # idle dimming: a quarter of the brightness
# Whose turn (the `turn` command): that lane's hole marks breathe in its colour, up and
# down these levels, a step every PULSE_MS; around MARK and under BACK, so the pegs
# stand out (and a low level still lights after gamma).
PULSE = (50, 65, 80, 95)
PULSE_MS = 250
LOOK_MS = 1000  # a still frame's inputs are looked at afresh at least this often


class Renderer:
    """Draws a board (and the buttons' pending entries and modes) on a strip."""

    def __init__(self, config, strip):
        self.config = config
        self.strip = strip
        self.brightness = config.brightness
        self.budget_ma = config.budget_ma
        self.turn = -1  # the lane whose turn it is (the `turn` command), -1 none
        self._gamma = config.levels  # the gamma table (pegboard.config)
        self._frame = Frame(min(len(strip), config.leds), len(config.lanes))
        self._alert = False
        self._woke = None
        self._state: tuple = ()  # what the last frame was composed from
        self._board = 0  # id() of the board (not the board: its memory is the app's), rev...
        self._rev = -1
        self._buttons = None
        self._brev = None
        self._due = None  # ...and the tick before which nothing else can change the frame
        self._wait = 0  # while composing: ms until the frame can next change
        lanes = len(config.lanes)
        self._seen: list = [None] * lanes  # (front, back) per lane as last drawn
        self._jump: list = [None] * lanes  # (from, to, start_ms, ms) of a moving peg
        # The settings the last frame was drawn with, [brightness, budget_ma, idle_ms, turn]:
        # set and checked in draw() only, in place (the idle check makes no tuple).
        self._drawn: list = [None] * 4
        self._win_ms = None
        self._marks_target = None
        self._marks = None
        self._bri = -1
        self._retone(self._bright(False))

    @property
    def idle_ms(self):
        """Idle time before dimming (0: never): the config's, settable at run time."""
        return self.config.idle_ms

    @idle_ms.setter
    def idle_ms(self, ms):
        self.config.idle_ms = ms

    @property
    def last_ma(self):
        """The estimated draw (mA) of the frame last sent (0 before the first)."""
        if not self._frame.sent:
            return 0
        return light.sum_ma(self._frame.channel_sum(), self.config.leds, self.config.led_ma)

    def _retone(self, bri):
        # Every tone, gamma-corrected and with the brightness applied, once per brightness
        # (a faint mark must not vanish at low brightness: at least 1).
        g = self._gamma

        def tone(rgb, level):
            r, gr, b = g[rgb[0] * level // 255], g[rgb[1] * level // 255], g[rgb[2] * level // 255]
            return (((r * bri) >> 8 or 1) if r else 0, ((gr * bri) >> 8 or 1) if gr else 0,
                    ((b * bri) >> 8 or 1) if b else 0)

        lanes = self.config.lanes
        self._lanes = [tuple([tone(ln.colour, v) for v in _TONES]) for ln in lanes]
        self._pulse = [tuple([tone(ln.colour, v) for v in PULSE]) for ln in lanes]
        self._mark = tone(MARK_RGB, MARK)
        self._flash = tone(GAME_RGB, FLASH)
        self._skunk = tone(SKUNK_RGB, MARK)
        self._game = tone(GAME_RGB, MARK)
        self._red = tone(ALERT_RGB, FRONT)
        self._bri = bri

    def _bright(self, dim):
        bri = max(1, min(100, self.brightness)) * 256 // 100
        return max(1, bri >> IDLE_SHIFT) if dim else bri

    def alert(self, on):
        """Show (or stop) a red blink on the first holes: True the alert's (a bad config,
        no Wi-Fi: three blinks on holes 1-3), or a pattern (phases of 150 ms lit in a
        1600 ms cycle, holes) of its own (pegboard.radio.LIGHTS), False none. (Red only:
        a colour a pattern cost the firmware's 96K heap test its margin.)"""
        self._alert = on or False
        self._due = None

    def wake(self, now_ms):
        """Activity: restart the idle-dimming timer."""
        self._woke = now_ms
        self._due = None

    def animating(self, now_ms):
        """True while a jump or the win chase is in motion."""
        for j in self._jump:
            if j is not None and elapsed(now_ms, j[2]) < j[3]:
                return True
        return self._win_ms is not None and self._since_win(now_ms) < WIN_MS

    def _since_win(self, now):
        # Time since the win, held below WIN_MS + 1000 (the settled blink's period) by
        # moving the start on: a signed tick difference flips after 2**29 ms (6.2 days),
        # and an old win must not play its chase again.
        t = elapsed(now, self._win_ms)
        if t >= WIN_MS + 1000:
            shift = (t - WIN_MS) // 1000 * 1000
            self._win_ms = later(self._win_ms, shift)
            t -= shift
        return t

    def _soon(self, ms):
        """The frame changes again in ms (while composing)."""
        if ms < self._wait:
            self._wait = ms

    def pixel(self, i):
        """The (r, g, b) last sent to LED i."""
        return self._frame.pixel(i)

    def hole_led(self, lane, score):
        """The LED showing a score in a lane (-1 if that hole has none); laps wrap."""
        holes = self.config.holes
        pos = 0 if score <= 0 else (score - 1) % holes + 1
        return self.config.lane_leds[lane][pos]

    # -- a frame ---------------------------------------------------------------------------

    def draw(self, board, buttons, now_ms):
        """Draw one frame; set the pixels that changed, write the strip if any; return them."""
        if self._woke is None:
            self._woke = now_ms
        fresh = board.rev != self._rev or id(board) != self._board
        drawn = self._drawn
        if (not fresh and self._due is not None and elapsed(now_ms, self._due) < 0
                and buttons is self._buttons and (buttons is None or buttons.rev == self._brev)
                and self.brightness == drawn[0] and self.budget_ma == drawn[1]
                and self.config.idle_ms == drawn[2] and self.turn == drawn[3]):
            return 0  # what the frame shows cannot have changed yet: the idle loop's way
        players = min(board.players, len(self.config.lanes))
        mode = "play" if buttons is None else buttons.mode
        choice = buttons.choice if mode == "setup" else None
        pend = tuple([0 if buttons is None else buttons.pending(i) for i in range(players)])
        idle = self.config.idle_ms
        self._board, self._rev, self._buttons = id(board), board.rev, buttons
        self._brev = None if buttons is None else buttons.rev
        drawn[0], drawn[1], drawn[2], drawn[3] = self.brightness, self.budget_ma, idle, self.turn
        self._wait = LOOK_MS
        if fresh:
            self._track(board, players, now_ms)
        self._start_win(board, players, now_ms)
        state = (id(board), board.rev, board.players, board.target, board.dealer,
                 board.winner, mode, choice, pend, self.brightness, self.budget_ma, idle,
                 self._alert, self.turn)
        if state != self._state:
            self._state = state
            self._woke = now_ms
        dim = idle > 0 and elapsed(now_ms, self._woke) >= idle
        if dim:
            # Keep the idle time at idle_ms once dimmed: a signed tick difference flips
            # after 2**29 ms (6.2 days), which would wake the board on its own.
            self._woke = later(now_ms, -idle)
        elif idle > 0:
            self._soon(idle - elapsed(now_ms, self._woke))
        if (self._alert or mode != "play" or board.winner >= 0 or max(pend + (0,)) > 0
                or 0 <= self.turn < players):
            # The blinks (ghost, question, turn pulse, skunk, alert) change on this grid,
            # which starts again where the ticks wrap.
            grid = TICK_MS - now_ms % TICK_MS
            wrap = elapsed(0, now_ms)
            self._soon(wrap if 0 < wrap < grid else grid)
        bri = self._bright(dim)
        if bri != self._bri:
            self._retone(bri)
        frame = self._frame
        frame.clear()
        if mode == "setup" and choice is not None:
            self._compose_setup(choice)
        else:
            self._compose(board, players, mode, pend, now_ms, dim)
        alert = self._alert
        if alert and (now_ms % 1600) // 150 in ((0, 2, 4) if alert is True else alert[0]):
            for lane in range(players):
                for hole in range(1, 4 if alert is True else alert[1] + 1):
                    frame.paint(self.hole_led(lane, hole), self._red)
        self._due = later(now_ms, self._wait)
        return frame.send(self.strip, self.config.leds, self.config.led_ma, self.budget_ma)

    def _track(self, board, players, now):
        # A leapfrog (new back == old front, front moved on) starts the jump animation:
        # the old back peg travels hole by hole to the new front hole.
        for lane in range(len(self._seen)):
            if lane >= players:
                self._seen[lane] = self._jump[lane] = None
                continue
            f, b = board.front(lane), board.back(lane)
            old = self._seen[lane]
            if old is not None and old != (f, b):
                if b == old[0] and f > old[0]:
                    self._jump[lane] = (old[1], f, now, min((f - old[1]) * HOLE_MS, JUMP_MS))
                else:
                    self._jump[lane] = None
            self._seen[lane] = (f, b)

    def _start_win(self, board, players, now):
        w = board.winner
        if w < 0 or w >= players:
            self._win_ms = None
        elif self._win_ms is None and self._flying(w, now) < 0:
            self._win_ms = now  # the chase starts once the winning jump has landed

    def _flying(self, lane, now):
        """The score the lane's moving peg is passing now, or -1 when none moves."""
        j = self._jump[lane]
        if j is None:
            return -1
        a, b, t0, dur = j
        t = elapsed(now, t0)
        if t >= dur:
            self._jump[lane] = None
            return -1
        p = a + (b - a) * max(t, 0) // dur
        # It reaches the next hole at the first t with (b - a) * t >= (p + 1 - a) * dur.
        nxt = ((p + 1 - a) * dur + b - a - 1) // (b - a)
        self._soon(min(nxt, dur) - t)
        return p

    def _mark_leds(self, target):
        """Per lane: (LEDs of every 5th hole, of the skunk lines, (of the game hole,))."""
        if self._marks_target != target:
            top = min(target, self.config.holes)
            skunks = [s for s in skunk_lines(target) if s > 0]
            out = []
            for lane in range(len(self.config.lanes)):
                game = self.hole_led(lane, target)
                leds = self.config.lane_leds[lane]  # hole h <= holes is LED leds[h]: no laps
                fives = [leds[h] for h in range(5, top + 1, 5)]
                while game in fives:  # the game hole shows as itself
                    fives.remove(game)
                lines = tuple([self.hole_led(lane, s) for s in skunks])
                out.append((tuple(fives), lines, (game,)))
            self._marks_target = target
            self._marks = out
        return self._marks

    def _show_marks(self, lane, target, fives, lines, game, shown):
        # A lane's marks: every 5th hole, the skunk lines, the game hole, in these tones.
        key = (target, fives, lines, game) if shown else None
        self._frame.marks(lane, key, self._mark_leds(target)[lane])

    def _compose_setup(self, choice):
        # Settings: the lanes that will play, each showing the chosen game hole.
        target, players = choice
        active = min(players, len(self.config.lanes))
        for lane in range(len(self.config.lanes)):
            self._show_marks(lane, target, self._mark, self._skunk, self._game, lane < active)
        for lane in range(active):
            self._frame.paint(self.hole_led(lane, target), self._lanes[lane][_F])

    def _compose(self, board, players, mode, pend, now, dim):
        target = board.target
        winner = board.winner
        flash = mode == "confirm_new" and (now // 250) % 2 == 0
        ghost_on = (now // 300) % 2 == 0
        tally = winner >= 0 or dim  # the games-won tally: at idle, after a win, at the start
        pulse = (now // PULSE_MS) % (2 * len(PULSE) - 2)  # 0 1 2 3 2 1: up, then down
        if pulse >= len(PULSE):
            pulse = 2 * len(PULSE) - 2 - pulse
        for lane in range(len(self.config.lanes)):
            if flash:
                f = self._flash
                self._show_marks(lane, target, f, f, f, lane < players)
                continue
            mark = self._mark
            if lane < players:
                mark = self._lanes[lane][_M] if board.dealer == lane else self._mark
                if lane == self.turn and winner < 0 and mode == "play" and not dim:
                    mark = self._pulse[lane][pulse]
            self._show_marks(lane, target, mark, self._skunk, self._game, lane < players)
        paint = self._frame.paint
        for lane in range(players):
            tones = self._lanes[lane]
            f, b = board.front(lane), board.back(lane)
            if tally or f == 0:
                for h in range(1, min(board.wins[lane], target - 1, self.config.holes) + 1):
                    paint(self.hole_led(lane, h), tones[_T])
            if lane == winner and self._win_ms is not None:
                t = self._since_win(now)
                if t < WIN_MS:
                    # The chase: every 4th of the last 16 holes, running into the game hole.
                    step = t // 60
                    for k in range(1, 17):
                        if (k + step) % 4 == 0 and target - k > 0:
                            paint(self.hole_led(lane, target - k), tones[_F])
                    self._soon(60 - t % 60)
            if b > 0:
                paint(self.hole_led(lane, b), tones[_B])
            p = self._flying(lane, now)
            if p > 0:
                paint(self.hole_led(lane, p), tones[_F])
            elif p < 0 and f > 0:
                paint(self.hole_led(lane, f), tones[_F])
            if pend[lane] and ghost_on:
                paint(self.hole_led(lane, min(f + pend[lane], target)), tones[_G])
            if lane == winner and self._win_ms is not None:
                t = self._since_win(now)
                period = 200 if t < WIN_MS else 1000
                if (t % period) * 2 >= period:
                    paint(self.hole_led(lane, target), tones[_B])
                self._soon(period // 2 - t % (period // 2))
            if winner >= 0 and lane != winner and (now // 500) % 2 == 0:
                level = board.skunk(lane)
                lines = skunk_lines(target)
                for i in range(level):
                    paint(self.hole_led(lane, lines[i]), tones[_F])
