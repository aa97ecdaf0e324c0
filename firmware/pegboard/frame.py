"""The renderer's frame: what it composes, what the strip was sent, and only the pixels
that changed sent again.

A frame is two layers. Each lane's hole marks are painted into it only when that lane's
marks change (a key says what they are). The pieces on them (pegs, tally, ghost, chase,
blinks) are painted over the marks with a log of what each covered, and taken off again,
newest first, before the next frame is composed: so only the LEDs of those pieces (this
frame's and the last's) and of the marks repainted need comparing with what the strip
shows. Every tone comes with the brightness already applied; the current limiter
(pegboard.light) scales the frame as it is sent, so a change of its scale compares
every lit LED.
"""

from pegboard import light

_DARK = (0, 0, 0)


class Frame:
    """n LEDs of (r, g, b) for lanes of marks; send() sets the changed ones on a strip."""

    def __init__(self, n, lanes):
        self.n = n
        self._want = bytearray(3 * n)  # composed: tones with the brightness applied
        self._out = bytearray(3 * n)  # sent: _want through the current limiter
        self._total = 0  # sum(_want), kept up to date by every write to it
        self._scale = light.ONE  # the limiter's scale of the frame sent
        self.sent = False
        self._keys: list = [None] * lanes  # per lane: what its marks drawn are
        self._lit: list = [()] * lanes  # per lane: the groups of LEDs of its marks drawn
        self._log: list = []  # pieces painted over the marks: led, the rgb it covered, ...
        self._old: list = []  # the last frame's log, while the next frame is composed
        self._check: list = []  # marks (groups of LEDs) that changed in this frame
        self._force = True  # the first send writes the strip even if no LED is lit

    def pixel(self, i):
        """The (r, g, b) last sent to LED i."""
        k = 3 * i
        return (self._out[k], self._out[k + 1], self._out[k + 2])

    def channel_sum(self):
        """r + g + b over the frame last sent."""
        return sum(self._out)

    def _fill(self, leds, tone):
        # The LEDs (those on the strip) in one tone: a call a group, not a call an LED.
        w, n, total = self._want, self.n, self._total
        r, g, b = tone
        for led in leds:
            if 0 <= led < n:
                k = 3 * led
                total += r + g + b - w[k] - w[k + 1] - w[k + 2]
                w[k] = r
                w[k + 1] = g
                w[k + 2] = b
        self._total = total

    def marks(self, lane, key, leds):
        """Show a lane's marks: key is None (none) or (anything, then a tone per group),
        leds the groups of LEDs painted in order in those tones. Painted only when the
        key changes."""
        if key == self._keys[lane]:
            return
        old = self._lit[lane]
        for group in old:
            self._fill(group, _DARK)
        if key is None:
            leds = ()
        for g in range(len(leds)):
            self._fill(leds[g], key[g + 1])
        self._check.append(old)
        self._check.append(leds)
        self._keys[lane] = key
        self._lit[lane] = leds

    def paint(self, led, tone):
        """Paint a piece over the marks (an LED outside the strip, or -1, shows nothing)."""
        if led < 0 or led >= self.n:
            return
        k = 3 * led
        w = self._want
        r, g, b = w[k], w[k + 1], w[k + 2]
        log = self._log
        log.append(led)
        log.append((r << 16) | (g << 8) | b)
        self._total += tone[0] + tone[1] + tone[2] - r - g - b
        w[k] = tone[0]
        w[k + 1] = tone[1]
        w[k + 2] = tone[2]

    def clear(self):
        """Take the last frame's pieces off (newest first): the marks alone again. Their
        LEDs are kept for send() to compare."""
        log, w = self._log, self._want
        total = self._total
        i = len(log) - 2
        while i >= 0:
            k = 3 * log[i]
            rgb = log[i + 1]
            r, g, b = rgb >> 16, (rgb >> 8) & 255, rgb & 255
            total += r + g + b - w[k] - w[k + 1] - w[k + 2]
            w[k] = r
            w[k + 1] = g
            w[k + 2] = b
            i -= 2
        self._total = total
        self._log, self._old = self._old, log

    def send(self, strip, leds, model, budget_ma):
        """Limit the frame to budget_ma (leds LEDs of the model) and set on the strip the
        pixels that changed, writing it if any did (and the first time); return how many
        were set.

        The strip's buffer must start dark, as a new driver's does (pegboard.pico darkens
        a kept one before a restart's first frame): the first send then sets only the lit
        LEDs, and writing the strip sets every LED. (Setting all 363 LEDs of the default
        layout one by one took the emulated Pico 50 ms of its boot.)"""
        scale = light.limit_scale(self._total, leds, model, budget_ma)
        count = 0
        if scale != self._scale:
            self._check.extend(self._lit)  # every lit LED may change
        for groups in self._check:
            for group in groups:
                count += self._send(strip, group, 1, scale)
        count += self._send(strip, self._old, 2, scale)
        count += self._send(strip, self._log, 2, scale)
        self._scale = scale
        self.sent = True
        del self._check[:]
        del self._old[:]
        if count or self._force:
            strip.write()
        self._force = False
        return count

    def _send(self, strip, leds, step, scale):
        # Compare leds[::step] with what the strip shows; set the ones that differ.
        want, out = self._want, self._out
        limit = scale < light.ONE
        count = 0
        n = self.n
        for i in range(0, len(leds), step):
            led = leds[i]
            if led < 0 or led >= n:
                continue
            k = 3 * led
            r, g, b = want[k], want[k + 1], want[k + 2]
            if limit:
                r, g, b = (r * scale) >> 8, (g * scale) >> 8, (b * scale) >> 8
            if out[k] != r or out[k + 1] != g or out[k + 2] != b:
                out[k] = r
                out[k + 1] = g
                out[k + 2] = b
                strip[led] = (r, g, b)
                count += 1
        return count
