"""A board with Wi-Fi's club night over the link: the protocol's `club` verb (the address
`crib club serve` prints for the tables, and how many reports wait), reported or set.
`crib board club` reads it here; the board's side is boardweb.clubreport."""

from crib.board.link import BoardRefused, Link
from crib.errors import CribError
from cribcore import protocol
from cribcore.protocol import ProtocolError, encode
from cribcore.table.club import FIELDS, OFF, ROW, ClubAddressError, club_address


class NoClub(CribError):
    """The board does not serve its own page (a plain Pico, the virtual board)."""


class BadClub(CribError):
    """An address the board (or the protocol's line) cannot take."""


def club(link: Link, url: str | None = None) -> dict:
    """{url, waiting} as the board has them, after setting url (the tables' address, or
    "off") if given. NoClub on a board without its own server, BadClub for an address it
    refuses (nothing changed)."""
    args = {}
    if url is not None:
        if url != OFF:
            try:
                club_address(url)
            except ClubAddressError as e:  # the board's own rule, before anything is sent
                raise BadClub(str(e)) from None
        args["url"] = url
    protocol.register(ROW, FIELDS)  # the verb only a board with Wi-Fi has: registered here
    try:
        encode("club", **args)
    except ProtocolError as e:
        raise BadClub("cannot send the address: %s" % e) from None
    try:
        reply = link.request("club", **args)
    except BoardRefused as e:
        if e.code in ("unknown_verb", "desk_only"):
            raise NoClub("this board does not serve its own page (a plain Pico, or firmware "
                         "without it): a Pico 2 W's board reports to a club night, or play "
                         "with crib serve --club") from None
        raise BadClub(str(e)) from None
    return {"url": reply.args["url"], "waiting": reply.args["waiting"]}
