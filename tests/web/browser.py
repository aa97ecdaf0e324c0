"""Helpers of the browser tier: `crib serve` run as a player would run it (a process of its
own, on the virtual board), Debian's Chromium driven by Playwright, and phones: browser
contexts of 360x640 that join a seat and tap answers."""

import os
import re
import signal
import subprocess
import sys
import time

import httpx2 as httpx
from taps import taps

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
PHONE = {"viewport": {"width": 360, "height": 640}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
WAIT_MS = 20_000  # a shared machine can be slow

# The pegs the board picture on a page shows: per lane, the holes (1..) lit brighter than
# any hole mark (marks, skunk lines and the game hole show at level 80 of 255, the marks
# of the lane whose turn it is pulse up to 95, a back peg shows at 120 and a front peg at
# 255: pegboard.render), so 0x68 on the brightest channel.
LIT_JS = """() => {
  const out = {};
  for (const c of document.querySelectorAll('#board circle.hole')) {
    const f = c.getAttribute('fill'), hole = +c.dataset.hole;
    const top = Math.max(...[1, 3, 5].map((i) => parseInt(f.slice(i, i + 2), 16)));
    if (hole > 0 && top > 0x68) (out[c.dataset.lane] = out[c.dataset.lane] || []).push(hole);
  }
  return out;
}"""


class Serve:
    """`crib serve` in a process of its own; .url is the joining address it printed."""

    def __init__(self, tmp, names, target=121, resume=False, extra=(), stdin=None):
        self.tmp = tmp
        cmd = [sys.executable, "-m", "crib", "serve", "--db", str(tmp / "history.sqlite3"),
               "--board", "sim", "--store", str(tmp / "sim"), "--web-port", "0", "--no-qr",
               "--no-colour", *extra]
        if resume:
            cmd.append("--resume")
        else:
            cmd += ["--names", ",".join(names), "--target", str(target), "--dealer", names[0]]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     stdin=stdin, text=True, env=dict(os.environ, NO_COLOR="1"))
        self.output = []
        deadline = time.monotonic() + 60
        self.url = None
        while self.url is None:
            line = self.proc.stdout.readline()
            if not line or time.monotonic() > deadline:
                raise AssertionError("crib serve did not start:\n" + "".join(self.output))
            self.output.append(line)
            m = re.search(r"open (http://\S+)", line)
            if m:
                self.url = m.group(1)
        self.base, self.key = self.url.split("/?k=")
        self.http = httpx.Client(base_url=self.base, headers={"X-Crib-Key": self.key})

    def state(self):
        """The state every screen is shown, asked directly."""
        return self.http.get("/state").json()

    def stop(self, sig=signal.SIGINT):
        """Stop it (SIGINT: as Ctrl-C; SIGKILL: killed); the rest of its output."""
        self.http.close()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            rest, _ = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rest, _ = self.proc.communicate()
        self.output.append(rest or "")
        return "".join(self.output)


class Phone:
    """A phone-sized browser context on the page, joined as a seat ("table": shared)."""

    def __init__(self, browser, url, seat, viewport=None):
        self.context = browser.new_context(**dict(PHONE, viewport=viewport or PHONE["viewport"]))
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if "Content Security Policy" in m.text else None)
        self.seat = seat
        self.taps = 0
        self.sent = 0.0
        self.open(url)

    def open(self, url):
        """Load the page (a joining address) and take the seat if it asks."""
        self.page.goto(url)
        self.page.wait_for_selector("#prompt[data-id]:not([data-id=''])", timeout=WAIT_MS)
        if self.page.is_visible("#seats"):
            self.page.wait_for_selector("#seat-list button", timeout=WAIT_MS)
            self.shot("web-seats.png", once=True)
            self.page.click(f"#seat-list [data-seat='{self.seat}']")
        self.page.wait_for_selector("#seats", state="hidden", timeout=WAIT_MS)

    def qid(self):
        return self.page.get_attribute("#prompt", "data-id")

    def wait_for(self, qid):
        """Until the page shows question qid."""
        self.page.wait_for_selector(f"#prompt[data-id='{qid}']", timeout=WAIT_MS)

    def settled(self):
        """Until the page takes taps again: a tap just after a new question is ignored, and
        so is one while the page still waits for the reply to its last answer."""
        self.page.wait_for_selector("body:not(.settling):not(.busy)", timeout=WAIT_MS)

    def double_tap(self, selector, gap_ms):
        """Two taps gap_ms apart on the spot where selector is now (whatever is there by
        the second)."""
        box = None
        while box is None:  # a redraw (the board's picture arriving) replaces the button
            box = self.page.wait_for_selector(selector, state="visible",
                                              timeout=WAIT_MS).bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        self.page.mouse.click(x, y)
        self.page.wait_for_timeout(gap_ms)
        self.page.mouse.click(x, y)

    def answer(self, q, text):
        """Tap the answer text to question q (a state's question) once the page shows it
        and takes taps; wait until the page moves on, and return the new question id
        (AssertionError with the page's message if it refused). One page round trip
        before the taps and one after (a loaded machine makes each one slow)."""
        self.page.wait_for_selector(  # q shown, and taken taps again (settled)
            f"body:not(.settling):not(.busy) #prompt[data-id='{q['id']}']", timeout=WAIT_MS)
        self.shot(f"web-{q['kind']}.png", once=True)
        if q["kind"] == "confirm" and self.shots():  # the same turned sideways
            self.page.set_viewport_size({"width": 640, "height": 360})
            self.shot("web-landscape.png", once=True)
            self.page.set_viewport_size(PHONE["viewport"])
        for sel in taps(q, text):
            self.sent = time.monotonic()  # the last tap's: the answer leaves with it
            self.page.click("#panel " + sel, timeout=WAIT_MS)
            self.taps += 1
            if self.shots() and self.page.is_visible("#panel .suits"):
                self.shot(f"web-{q['kind']}-suits.png", once=True)
        new, err = self.page.wait_for_function(
            """(old) => {
              const id = document.getElementById('prompt').dataset.id,
                err = document.getElementById('error').textContent;
              return (id !== old || err) && [id, err];
            }""", arg=q["id"], timeout=WAIT_MS).json_value()
        assert not err, f"refused {text!r} at {q['prompt']!r}: {err}"
        return new

    def holes(self):
        """The holes of the board picture on the page (once it is shown)."""
        self.page.wait_for_selector("#board circle.hole", timeout=WAIT_MS)
        return len(self.page.query_selector_all("#board circle.hole"))

    def wait_lit(self, pegs):
        """Until the board picture lights exactly the pegs ([back, front] per lane)."""
        want = {str(lane): sorted({h for h in pair if h > 0}) for lane, pair in
                enumerate(pegs) if any(pair)}
        deadline = time.monotonic() + WAIT_MS / 1000
        while True:
            lit = {k: sorted(v) for k, v in self.page.evaluate(LIT_JS).items()}
            if lit == want:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"board lights {lit}, pegs are {want}")
            time.sleep(0.05)

    @staticmethod
    def shots():
        """Whether screenshots are wanted ($CRIB_SHOTS set)."""
        return bool(os.environ.get("CRIB_SHOTS"))

    def shot(self, name, once=False):
        """A screenshot into $CRIB_SHOTS (docs/ pictures), when it is set (once: only the
        first of that name)."""
        where = os.environ.get("CRIB_SHOTS")
        path = os.path.join(where or "", name)
        if where and not (once and os.path.exists(path)):
            self.page.screenshot(path=path)

    def close(self):
        assert not self.errors, self.errors
        self.context.close()


def spread(seconds):
    """p50 and p99 of seconds, in ms, and how many."""
    ms = sorted(1000 * x for x in seconds)
    return "p50 %.0f ms, p99 %.0f ms (%d answers)" % (
        ms[len(ms) // 2], ms[min(len(ms) - 1, len(ms) * 99 // 100)], len(ms))
