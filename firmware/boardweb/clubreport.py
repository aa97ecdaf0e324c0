"""A board with Wi-Fi reports its game to a club night by itself when it ends (as `crib
serve --club URL` does: crib.web.clubreport), to the address `crib club serve` prints
for the tables: a POST of the report (cribcore.table.club.report_body: the same body as
crib serve's) to the club's /api/report, over asyncio streams.

    club = ClubReport(path, name)      # path: its file on flash (None: memory only)
    club.set_address(text)             # ClubAddressError (a sentence), nothing changed
    club.seen(engine)                  # after every change: a game just over is queued
    await club.run()                   # the task that saves and sends, beside the server
    club.status()                      # what the page shows (state's "club")

A game's report is queued in memory when the game is seen over (cheap, before the reply)
and written to flash by the task (after the reply: an answer never waits for the flash
or the club); a finished game is seen again at the next start, so a power cut between
the two loses nothing. The report stays on flash until the club answers: taken (it
goes), or refused with a sentence (a table not in this round, a name the night does not
know: kept, shown on the page with that sentence, never sent again). A club that does
not answer (down, its laptop asleep) is tried again after RETRY_MS, doubling up to
64 times that, MAX_TRIES times; then the report waits on flash for the board's next
start, the next game's end or a new address.

The `club` verb (USB) reports the address and what is waiting, or sets the address
(`club url=http://...`, `club url=off`): register(app, club).
"""

import asyncio
import json

from cribcore import protocol
from cribcore.protocol import ProtocolError
from cribcore.table.club import (
    FIELDS,
    OFF,
    REPORT_PATH,
    ROW,
    ClubAddressError,
    club_address,
    report_body,
    reported,
)

FILE = "/club"  # on the board's flash, beside /wifi and /games
RETRY_MS = 2000  # the first wait before a report is sent again
MAX_TRIES = 12  # tries before a report waits for the next start (about 15 minutes)
TIMEOUT_S = 10  # to connect, and for the club's whole answer
KEEP = 8  # reports kept done (their games' names) and refused (shown)
MAX_ANSWER = 4096  # bytes of the club's answer read
NOT_KEPT = ("the board's storage is full: the report is not kept on flash (a power cut"
            " loses it); it is sent all the same")


class ClubReport:
    """The reports of a board's games to a club night (module docstring). path: the file
    keeping them (None: memory); name: the game record's name (a game is name-game_id);
    on_change: called when what the page shows changes."""

    def __init__(self, path=None, name="", retry_ms=RETRY_MS):
        self.path = path
        self.name = name
        self.retry_ms = retry_ms
        self.address = None  # the text given (None: no club)
        self.queue = []  # [game, body] to send, oldest first
        self.done = []  # the games sent, refused or not club games (the last KEEP)
        self.refused = []  # [report in words, the club's sentence] (the last KEEP)
        self.trying = None  # why the report at the head is not sent yet, or None
        self.tries = 0
        self.unsaved = False
        self.wake = asyncio.Event()
        self.on_change = None
        self._load()

    # -- the address and the file ---------------------------------------------------------

    def set_address(self, text):
        """The club's address (the tables' address `crib club serve` printed), or None or
        "off": no club. ClubAddressError, and nothing changed, if it is not one."""
        if text is not None and text != OFF:
            club_address(text)
        old, self.address = self.address, None if text == OFF else text
        try:
            self._save(True)
        except OSError:
            self.address = old
            raise
        self.tries, self.trying = 0, None
        self._changed()
        self.wake.set()

    def _load(self):
        if self.path is None:
            return
        try:
            with open(self.path) as f:
                kept = json.load(f)
            self.address = kept.get("address")
            self.queue = kept.get("queue") or []
            self.done = kept.get("done") or []
            self.refused = kept.get("refused") or []
        except (OSError, ValueError, AttributeError):
            pass  # none yet, or damaged: a game over now is seen again (seen())

    def _save(self, strict=False):
        """The reports to flash: a new file renamed over the old (LittleFS keeps a rename
        whole across a power cut). A flash that fails (full) is said on the page and
        tried again at the next change, the reports still sent from memory; strict: the
        OSError raised instead (the `club` verb's address: nothing changed)."""
        if self.path is None:
            self.unsaved = False
            return
        import os

        kept = {"address": self.address, "queue": self.queue, "done": self.done[-KEEP:],
                "refused": self.refused[-KEEP:]}
        try:
            with open(self.path + ".new", "w") as f:
                f.write(json.dumps(kept))
            os.rename(self.path + ".new", self.path)
        except OSError:
            if strict:
                raise
            self.unsaved = True
            self.trying = NOT_KEPT
            return
        self.unsaved = False

    def _changed(self):
        if self.on_change is not None:
            self.on_change()

    # -- a game's end ---------------------------------------------------------------------

    def seen(self, engine):
        """After a change: a game of the table just over is queued (in memory; the task
        writes it to flash and sends it)."""
        session = getattr(engine, "session", None)
        table = getattr(session, "table", None)
        if table is None or not table.game.over or self.address is None:
            return
        game = "%s-%d" % (self.name, table.game_id)
        if game in self.done or [1 for g, _ in self.queue if g == game]:
            return
        body = report_body(table)
        if body is None:
            self.done.append(game)  # not a club game: nothing to send (status says so)
        else:
            self.queue.append([game, body])
        self.unsaved = True
        self.wake.set()

    def status(self):
        """What the page shows: the club (host:port, None: none), the reports waiting
        (in words), why the first waits, the refused ones [report, the club's sentence]."""
        where = None
        if self.address is not None:
            host, port, _ = club_address(self.address)
            where = "%s:%d" % (host, port)
        return {"address": where, "waiting": [reported(b) for _, b in self.queue],
                "trying": self.trying, "refused": self.refused[-KEEP:],
                "sent": len(self.done)}

    # -- sending --------------------------------------------------------------------------

    async def run(self, engine=None):
        """Save and send for ever (a task beside the server); engine: a game found over
        at the start is queued (a power cut after its end, before its report was kept)."""
        if engine is not None:
            self.seen(engine)
        while True:
            if self.unsaved:
                self._save()
                self._changed()
            if not self.queue or self.address is None or self.tries >= MAX_TRIES:
                self.wake.clear()
                await self.wake.wait()
                if self.tries >= MAX_TRIES and self.unsaved:
                    self.tries = 0  # a new game's end: try them all again
                continue
            await self._send_first()

    async def _send_first(self):
        game, body = self.queue[0]
        answer = await post(club_address(self.address), body)
        if answer is None or answer[0] >= 500 or "ok" not in answer[1]:
            self.tries += 1
            self.trying = ("the club did not answer (%d of %d tries)" % (self.tries, MAX_TRIES)
                           if answer is None else "the club answered %d (%d of %d tries)"
                           % (answer[0], self.tries, MAX_TRIES))
            if self.tries >= MAX_TRIES:
                self.trying = ("the club did not answer %d times: kept, sent again at the"
                               " board's next start or game's end" % MAX_TRIES)
            self._changed()
            wait = self.retry_ms * (1 << min(self.tries - 1, 6))
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), wait / 1000)
            except asyncio.TimeoutError:
                pass
            return
        self.queue.pop(0)
        self.done.append(game)
        if not answer[1]["ok"]:
            self.refused.append([reported(body), str(answer[1].get("error"))])
        self.tries, self.trying = 0, None
        self._save()
        self._changed()


async def post(where, body):
    """POST body (JSON) to the club (host, port, key); (status, the answer's JSON object)
    or None if the club could not be reached or its answer read."""
    host, port, key = where
    data = json.dumps(body).encode()
    head = ("POST %s HTTP/1.0\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
            "X-Crib-Key: %s\r\nContent-Length: %d\r\n\r\n"
            % (REPORT_PATH, host, port, key, len(data))).encode()
    writer = None
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port),
                                                TIMEOUT_S)
        writer.write(head + data)
        await writer.drain()
        raw = await asyncio.wait_for(_whole(reader), TIMEOUT_S)
    except (OSError, asyncio.TimeoutError):
        return None
    finally:
        if writer is not None:
            try:
                writer.close()
                await writer.wait_closed()
            except OSError:
                pass
    return answer_of(raw)


async def _whole(reader):
    raw = b""
    while len(raw) < MAX_ANSWER:
        got = await reader.read(MAX_ANSWER - len(raw))
        if not got:
            break
        raw += got
    return raw


def answer_of(raw):
    """(status, JSON object) of an HTTP answer's bytes; None if it is not one."""
    cut = raw.find(b"\r\n\r\n")
    words = raw[:cut].split(b" ", 2)
    if cut < 0 or len(words) < 2 or not words[1].isdigit():
        return None
    try:
        obj = json.loads(raw[cut + 4:])
    except ValueError:
        obj = None
    return int(words[1]), obj if isinstance(obj, dict) else {}


# -- the `club` verb ------------------------------------------------------------------------

def register(app, club):
    """Give app the `club` verb over a ClubReport (a board with Wi-Fi)."""
    protocol.register(ROW, FIELDS)
    app.VERBS = dict(app.VERBS)
    app.VERBS["club"] = lambda app_, args: verb(club, args)


def verb(club, args):
    """`club`: the address (url) and how many reports wait; `club url=...` sets it first
    (ProtocolError bad_arg with the sentence, nothing changed, if it is not an address)."""
    if "url" in args:
        try:
            club.set_address(args["url"])
        except ClubAddressError as e:
            raise ProtocolError(str(e), "bad_arg") from None
    return {"url": club.address or OFF, "waiting": len(club.queue)}
