"""A club night's report of a table's game (crib.web.clubapp's POST /api/report), built
once for both tables that send it: `crib serve --club URL` (crib.web.clubreport) and a
board with Wi-Fi (boardweb.clubreport). The address is the one `crib club serve` prints
for the tables: http://HOST[:PORT]/api/report?k=KEY (the path is the club's; a table
posts to /api/report).

    host, port, key = club_address(text)   # ClubAddressError with a sentence if not
    body = report_body(table)              # the JSON body, or None: not a club game
    text = reported(body)                  # "Ann beat Ben 121-88"
    protocol.register(ROW, FIELDS)         # the `club` verb (boardweb.clubreport)
"""

from cribcore import CoreError

SPECIAL = (24, 28, 29)  # the special hands a club's pool pays (crib.club.money)
CLUB_TARGET = 121  # a club's game: two players to 121
REPORT_PATH = "/api/report"
NOT_CLUB = "only a game of two to 121 is a club game; not reported"
OFF = "off"  # the `club` verb's url when no club is set
# The `club` verb of a board with Wi-Fi (boardweb.clubreport; crib board club), in
# cribcore.protocol's formats (COMMANDS, FIELDS): registered by both sides.
ROW = ("club", 0, "[url]", "Wi-Fi board: the club night it reports its games to")
FIELDS = "url:t waiting:i "


class ClubAddressError(CoreError):
    """The address is not the one `crib club serve` printed for the tables."""


def club_address(text):
    """(host, port, key) of the tables' address http://HOST[:PORT]/...?k=KEY; else
    ClubAddressError, saying what is expected."""
    bad = ClubAddressError("the club's address is the one `crib club serve` prints for the"
                           " tables (http://HOST:PORT/api/report?k=KEY), not %r" % (text,))
    if not isinstance(text, str) or text[:7] != "http://":
        raise bad
    rest = text[7:]
    cut = len(rest)
    for c in "/?#":
        i = rest.find(c)
        if 0 <= i < cut:
            cut = i
    netloc, tail = rest[:cut], rest[cut:]
    host, port = netloc, "80"
    if ":" in netloc:
        host, port = netloc.rsplit(":", 1)
    if not host or not port.isdigit() or not 0 < int(port) < 65536 or " " in text or \
            "@" in netloc or "[" in netloc:
        raise bad
    key = ""
    q = tail.find("?")
    if q >= 0:
        for pair in tail[q + 1:].split("#")[0].split("&"):
            if pair[:2] == "k=":
                key = pair[2:]
    if not key:
        raise bad
    return host, int(port), key


def report_body(table):
    """The report of a finished game of two to 121 (winner, loser, the loser's score and
    the special hands shown: [name, points] each, hand or crib); None if the table's game
    is not such a game."""
    g = table.game
    names = list(table.side_names)
    if len(names) != 2 or table.target != CLUB_TARGET:
        return None
    loser = 1 - g.winner
    return {"winner": names[g.winner], "loser": names[loser], "loser_score": g.scores[loser],
            "hands": [[names[e.player], e.points] for e in table.entries
                      if e.kind == "show" and e.points in SPECIAL]}


def reported(body):
    """The report in words: "Ann beat Ben 121-88"."""
    return "%s beat %s 121-%d" % (body["winner"], body["loser"], body["loser_score"])
