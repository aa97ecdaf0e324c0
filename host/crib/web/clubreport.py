"""`crib serve --club URL`: the table reports its game to the club's night by itself when
the game ends (the address `crib club serve` prints for the tables; POST /api/report of
crib.web.clubapp, the same endpoint any table, a board with Wi-Fi too, may call).

The report is the two players' names (the club's names), the winner and the loser's
score, and the special hands (24, 28, 29: hand or crib) the table scored; the club finds
the round and table where the two meet. A report the club refuses
(or cannot be reached) is said at the table's terminal: the director enters that result.
"""

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from crib.errors import CribError
from cribcore.table import club

TIMEOUT_S = 10.0


class ClubAddressError(CribError):
    """--club is not the address `crib club serve` printed for the tables."""


def report_url(address: str) -> tuple[str, str]:
    """(the report endpoint, the club's key) of the address `crib club serve` printed."""
    try:
        host, port, key = club.club_address(address)
    except club.ClubAddressError:
        raise ClubAddressError("--club takes the address `crib club serve` prints for the"
                               " tables (http://HOST:PORT/api/report?k=KEY), not %r"
                               % address) from None
    return "http://%s:%d%s" % (host, port, club.REPORT_PATH), key


def post(url: str, key: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST body as JSON with the club's key; the club's answer (ok, or its error)."""
    req = urllib.request.Request(url, json.dumps(body).encode(), method="POST", headers={
        "Content-Type": "application/json", "X-Crib-Key": key})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT_S) as r:
            return dict(json.load(r))
    except urllib.error.HTTPError as e:
        try:
            return dict(json.load(e))
        except ValueError:
            return {"ok": False, "error": "HTTP %d" % e.code}
    except (OSError, ValueError) as e:
        return {"ok": False, "error": "the club did not answer (%s)" % e}


class ClubReporter:
    """The Hub's on_change: once a game of two to 121 is over, its result to the club
    (once a game); note(text) says what happened at the table's terminal."""

    def __init__(self, address: str, note: Callable[[str], None]) -> None:
        self.url, self.key = report_url(address)
        self.note = note
        self.sent: set[Any] = set()

    def __call__(self, engine: Any) -> None:
        table = engine.session.table
        if table is None or not table.game.over or table.game_id in self.sent:
            return
        self.sent.add(table.game_id)
        body = club.report_body(table)
        if body is None:
            self.note("club: " + club.NOT_CLUB)
            return
        out = post(self.url, self.key, body)
        if out.get("ok"):
            self.note("club: reported " + club.reported(body))
        else:
            self.note("club: the result was not taken (%s); the director enters it"
                      % out.get("error"))
