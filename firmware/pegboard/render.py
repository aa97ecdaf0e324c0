"""Board state to LED frames: pegs, hole marks, ghost peg, jump and win animations, light.

A Renderer draws one frame per draw() call and never blocks. It keeps the frame it last
sent and sets only the pixels whose colour changed (and writes the strip only then), so a
peg move touches a handful of LEDs, not the whole chain. What a player sees is described
in docs/board.md; the levels below are perceived brightness, gamma-corrected per channel.

Holes: a score s shows at hole s, except that a target above the layout's holes wraps
laps (score holes + 1 is hole 1 again). The start hole (score 0) shows only where the
layout gives it an LED.
"""

from cribcore.rules import skunk_lines
from pegboard import light
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

HOLE_MS = 40  # a jump moves one hole per 40 ms...
JUMP_MS = 900  # ...but never takes longer than this, however far
WIN_MS = 3000  # the winner's chase runs this long, then the game hole keeps blinking
TICK_MS = 50  # blink patterns change on this grid: a still frame is redrawn no faster
IDLE_SHIFT = 2  # idle dimming: a quarter of the brightness
# Whose turn (the `turn` command): that lane's hole marks breathe in its colour, up and
# down these levels, a step every PULSE_MS; around MARK and under BACK, so the pegs
# stand out (and a low level still lights after gamma).
PULSE = (50, 65, 80, 95)
PULSE_MS = 250


class Renderer:
    """Draws a board (and the buttons' pending entries and modes) on a strip."""

    def __init__(self, config, strip):
        self.config = config
        self.strip = strip
        self.brightness = config.brightness
        self.budget_ma = config.budget_ma
        self.last_ma = 0
        n = min(len(strip), config.leds)
        self._n = n
        g = light.gamma_table(config.gamma)
        self._gamma = g
        self._want = bytearray(3 * n)
        self._out = bytearray(3 * n)
        self._on = bytearray(n)
        self._cur: list = []  # LEDs painted in this frame
        self._prev: list = []  # LEDs lit in the last frame
        self._force = True  # the strip may hold anything at boot: first frame sets all
        self._alert = False
        self._woke = None
        self._state = None
        self._key = None
        self._seen: list = [None] * 4  # (front, back) per lane as last drawn
        self._jump: list = [None] * 4  # (from, to, start_ms, ms) of a moving peg
        self._win_ms = None
        self._lanes = [tuple(self._tone(ln.colour, v) for v in _TONES)
                       for ln in config.lanes]
        self._mark = self._tone(MARK_RGB, MARK)
        self._flash = self._tone(GAME_RGB, FLASH)
        self._skunk = self._tone(SKUNK_RGB, MARK)
        self._game = self._tone(GAME_RGB, MARK)
        self._red = self._tone(ALERT_RGB, FRONT)
        self._marks_target = None
        self._marks = None
        self._pulse = [tuple(self._tone(ln.colour, v) for v in PULSE) for ln in config.lanes]
        self.turn = -1  # the lane whose turn it is (the `turn` command), -1 none

    @property
    def idle_ms(self):
        """Idle time before dimming (0: never): the config's, settable at run time."""
        return self.config.idle_ms

    @idle_ms.setter
    def idle_ms(self, ms):
        self.config.idle_ms = ms

    def _tone(self, rgb, level):
        g = self._gamma
        return (g[rgb[0] * level // 255], g[rgb[1] * level // 255], g[rgb[2] * level // 255])

    def alert(self, on):
        """Show (or stop) the red blink pattern of a bad config."""
        self._alert = bool(on)

    def wake(self, now_ms):
        """Activity: restart the idle-dimming timer."""
        self._woke = now_ms

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

    def pixel(self, i):
        """The (r, g, b) last sent to LED i."""
        k = 3 * i
        return (self._out[k], self._out[k + 1], self._out[k + 2])

    def hole_led(self, lane, score):
        """The LED showing a score in a lane (-1 if that hole has none); laps wrap."""
        holes = self.config.holes
        pos = 0 if score <= 0 else (score - 1) % holes + 1
        return self.config.lane_leds[lane][pos]

    def draw(self, board, buttons, now_ms):
        """Draw one frame; set the pixels that changed, write the strip if any; return them."""
        if self._woke is None:
            self._woke = now_ms
        players = min(board.players, len(self.config.lanes))
        mode = "play" if buttons is None else buttons.mode
        choice = buttons.choice if mode == "setup" else None
        pend = tuple(0 if buttons is None else buttons.pending(i) for i in range(players))
        self._track(board, players, now_ms)
        state = (id(board), board.rev, board.players, board.target, board.dealer,
                 board.winner, mode, choice, pend, self.brightness, self.budget_ma,
                 self.idle_ms, self._alert, self.turn)
        if state != self._state:
            self._state = state
            self._woke = now_ms
        idle = self.idle_ms
        dim = idle > 0 and elapsed(now_ms, self._woke) >= idle
        if dim:
            # Keep the idle time at idle_ms once dimmed: a signed tick difference flips
            # after 2**29 ms (6.2 days), which would wake the board on its own.
            self._woke = later(now_ms, -idle)
        blinky = (self._alert or mode != "play" or board.winner >= 0 or max(pend + (0,)) > 0
                  or 0 <= self.turn < players)
        # A finished jump still needs the frame that lands it: _flying clears it then.
        moving = self._jump.count(None) < 4 or self.animating(now_ms)
        key = (state, dim, now_ms // TICK_MS if blinky else 0)
        if key == self._key and not moving and not self._force:
            return 0
        self._key = key
        if mode == "setup" and choice is not None:
            self._compose_setup(choice)
        else:
            self._compose(board, players, mode, pend, now_ms, dim)
        if self._alert and (now_ms % 1600) // 150 in (0, 2, 4):
            for lane in range(players):
                for hole in (1, 2, 3):
                    self._paint(self.hole_led(lane, hole), self._red)
        return self._flush(dim)

    def _track(self, board, players, now):
        # A leapfrog (new back == old front, front moved on) starts the jump animation:
        # the old back peg travels hole by hole to the new front hole.
        for lane in range(4):
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
        return a + (b - a) * max(t, 0) // dur

    def _paint(self, led, tone):
        if led < 0 or led >= self._n:
            return
        if not self._on[led]:
            self._on[led] = 1
            self._cur.append(led)
        k = 3 * led
        w = self._want
        w[k] = tone[0]
        w[k + 1] = tone[1]
        w[k + 2] = tone[2]

    def _mark_leds(self, target):
        """Per lane: (LEDs of every 5th hole, of the skunk lines, of the game hole)."""
        if self._marks_target != target:
            top = min(target, self.config.holes)
            out = []
            for lane in range(len(self.config.lanes)):
                game = self.hole_led(lane, target)
                fives = [self.hole_led(lane, h) for h in range(5, top + 1, 5)]
                lines = [self.hole_led(lane, s) for s in skunk_lines(target) if s > 0]
                out.append((tuple(led for led in fives if led != game), tuple(lines), game))
            self._marks_target = target
            self._marks = out
        return self._marks

    def _paint_marks(self, lane, target, fives_tone, flash):
        fives, lines, game = self._mark_leds(target)[lane]
        for led in fives:
            self._paint(led, self._flash if flash else fives_tone)
        for led in lines:
            self._paint(led, self._flash if flash else self._skunk)
        self._paint(game, self._flash if flash else self._game)

    def _compose_setup(self, choice):
        # Settings: the lanes that will play, each showing the chosen game hole.
        target, players = choice
        for lane in range(min(players, len(self.config.lanes))):
            self._paint_marks(lane, target, self._mark, False)
            self._paint(self.hole_led(lane, target), self._lanes[lane][_F])

    def _compose(self, board, players, mode, pend, now, dim):
        target = board.target
        winner = board.winner
        flash = mode == "confirm_new" and (now // 250) % 2 == 0
        ghost_on = (now // 300) % 2 == 0
        tally = winner >= 0 or dim  # the games-won tally: at idle, after a win, at the start
        pulse = (now // PULSE_MS) % (2 * len(PULSE) - 2)  # 0 1 2 3 2 1: up, then down
        if pulse >= len(PULSE):
            pulse = 2 * len(PULSE) - 2 - pulse
        for lane in range(players):
            tones = self._lanes[lane]
            mark = tones[_M] if board.dealer == lane else self._mark
            if lane == self.turn and winner < 0 and mode == "play" and not dim:
                mark = self._pulse[lane][pulse]
            self._paint_marks(lane, target, mark, flash)
            f, b = board.front(lane), board.back(lane)
            if tally or f == 0:
                for h in range(1, min(board.wins[lane], target - 1, self.config.holes) + 1):
                    self._paint(self.hole_led(lane, h), tones[_T])
            if lane == winner and self._win_ms is not None:
                t = self._since_win(now)
                if t < WIN_MS:
                    # The chase: every 4th of the last 16 holes, running into the game hole.
                    step = t // 60
                    for k in range(1, 17):
                        if (k + step) % 4 == 0 and target - k > 0:
                            self._paint(self.hole_led(lane, target - k), tones[_F])
            if b > 0:
                self._paint(self.hole_led(lane, b), tones[_B])
            p = self._flying(lane, now)
            if p > 0:
                self._paint(self.hole_led(lane, p), tones[_F])
            elif p < 0 and f > 0:
                self._paint(self.hole_led(lane, f), tones[_F])
            if pend[lane] and ghost_on:
                self._paint(self.hole_led(lane, min(f + pend[lane], target)), tones[_G])
            if lane == winner and self._win_ms is not None:
                t = self._since_win(now)
                period = 200 if t < WIN_MS else 1000
                if (t % period) * 2 >= period:
                    self._paint(self.hole_led(lane, target), tones[_B])
            if winner >= 0 and lane != winner and (now // 500) % 2 == 0:
                level = board.skunk(lane)
                lines = skunk_lines(target)
                for i in range(level):
                    self._paint(self.hole_led(lane, lines[i]), tones[_F])

    def _flush(self, dim):
        bri = max(1, min(100, self.brightness)) * 256 // 100
        if dim:
            bri = max(1, bri >> IDLE_SHIFT)
        want, out, on, cur, prev = self._want, self._out, self._on, self._cur, self._prev
        total = 0
        for led in cur:  # channel by channel, with no tuple made per LED
            k = 3 * led
            end = k + 3
            while k < end:
                v = want[k]
                if v:
                    # A faint mark must not vanish at low brightness: at least 1.
                    v = (v * bri) >> 8 or 1
                    want[k] = v
                    total += v
                k += 1
        model = self.config.led_ma
        scale = light.limit_scale(total, self.config.leds, model, self.budget_ma)
        if scale < light.ONE:
            total = 0
            for led in cur:
                k = 3 * led
                end = k + 3
                while k < end:
                    v = (want[k] * scale) >> 8
                    want[k] = v
                    total += v
                    k += 1
        force = self._force
        strip = self.strip
        count = 0
        for led in cur:
            k = 3 * led
            r, g, b = want[k], want[k + 1], want[k + 2]
            if force or out[k] != r or out[k + 1] != g or out[k + 2] != b:
                out[k], out[k + 1], out[k + 2] = r, g, b
                strip[led] = (r, g, b)
                count += 1
        for led in range(self._n) if force else prev:
            if not on[led]:
                k = 3 * led
                if force or out[k] or out[k + 1] or out[k + 2]:
                    out[k] = out[k + 1] = out[k + 2] = 0
                    strip[led] = (0, 0, 0)
                    count += 1
        for led in cur:
            on[led] = 0
        del prev[:]
        self._prev, self._cur = cur, prev
        self._force = False
        self.last_ma = light.sum_ma(total, self.config.leds, model)
        if count:
            strip.write()
        return count
