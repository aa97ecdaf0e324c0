"""A board with Wi-Fi's join details over the link: the protocol's `wifi` verb (network
name, WPA2 password, page key, address), reported or changed; and its `home` verb (the
board's name, its home network, never its password back, the network it is on and its
address there). `crib board wifi` and `crib hardware card` read them here."""

from __future__ import annotations

from crib.board.link import BoardRefused, Link
from crib.errors import CribError
from cribcore.protocol import MAX_LINE, ProtocolError, encode
from pegboard.homenet import extend_home
from pegboard.joining import check_password, check_ssid, extend_protocol

FIELDS = ("ssid", "password", "key", "address")


class NoWifi(CribError):
    """The board has no Wi-Fi (a plain Pico, or the virtual board)."""


class BadDetails(CribError):
    """A name or password the board (or the protocol's line) cannot take."""


def details(link: Link, ssid: str | None = None, password: str | None = None,
            new_key: bool = False) -> dict:
    """{ssid, password, key, address, name} as the board has them (address: where its page
    is now, None while it joins its home network; name: its name, None on firmware before
    the home network), after the changes given (each
    sent as a command of its own: a password of many quotes needs the whole line). Raises
    NoWifi on a board without Wi-Fi, BadDetails for a refused change (nothing changed)."""
    why = ((ssid is not None and check_ssid(ssid))
           or (password is not None and check_password(password)))
    if why:  # the board's own rules, before anything is sent
        raise BadDetails(why)
    extend_protocol()  # the `wifi` verb, which only a board with Wi-Fi has: registered here
    changes: list[dict] = [{}]
    if ssid is not None:
        changes.append({"ssid": ssid})
    if password is not None:
        changes.append({"password": password})
    if new_key:
        changes.append({"newkey": 1})
    for args in changes:  # all checked before the first is sent
        try:
            encode("wifi", **args)
        except ProtocolError as e:
            raise BadDetails("cannot send %s: %s (a protocol line is at most %d characters, "
                             "and each \" or \\ is sent as two: choose one with fewer)"
                             % (", ".join(args), e, MAX_LINE)) from None
    reply = None
    for args in changes[1:] if len(changes) > 1 else changes:
        try:
            reply = link.request("wifi", **args)
        except BoardRefused as e:
            # A plain Pico's tables have no `wifi` (unknown_verb); a board whose tables
            # have it but whose app does not answers it as a verb not its own (desk_only).
            if e.code in ("unknown_verb", "desk_only"):
                raise NoWifi("this board has no Wi-Fi (a plain Pico, or firmware without "
                             "it): `crib deploy` to a Pico 2 W gives a board its own network "
                             "and page") from None
            raise BadDetails(str(e)) from None
    assert reply is not None
    out = {k: reply.args[k] for k in FIELDS}
    if out["address"] == "-":  # joining its home network: no address yet
        out["address"] = None
    out["name"] = reply.args.get("name")  # firmware before the home network has none
    return out


HOME_FIELDS = ("name", "ssid", "set", "net", "address")


def home(link: Link, ssid: str | None = None, password: str | None = None,
         forget: bool = False) -> dict:
    """{name, ssid (None when no home network is set), set, net, address} as the board has
    them, after the change given: join ssid with password, or forget the home network.
    NoWifi on a board without them (older firmware, a plain Pico), BadDetails for a
    refused change (nothing changed)."""
    if ssid is not None:
        why = check_ssid(ssid) or check_password(password)
        if why:
            raise BadDetails(why)
    extend_home()
    args: dict = {}
    if ssid is not None:
        args = {"ssid": ssid, "password": password}
    elif forget:
        args = {"forget": 1}
    try:
        encode("home", **args)
    except ProtocolError as e:
        raise BadDetails("cannot send the home network: %s (a protocol line is at most %d "
                         "characters)" % (e, MAX_LINE)) from None
    try:
        reply = link.request("home", **args)
    except BoardRefused as e:
        if e.code in ("unknown_verb", "desk_only"):
            raise NoWifi("this board cannot join a home network (a plain Pico, or firmware "
                         "before it: `crib deploy` brings it)") from None
        raise BadDetails(str(e)) from None
    out = {k: reply.args.get(k) for k in HOME_FIELDS}
    if out["address"] == "-":
        out["address"] = None
    return out
