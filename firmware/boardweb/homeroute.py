"""The board's Wi-Fi on its page: which network it is on, and its home network set or
forgotten from the page by the table's screen.

    GET  /api/network   {wifi, form, net, name, address, home, page, line}
    POST /api/home      {seat: "table", token, ssid, password} or {seat, token, forget: true}
                        -> {ok, home, set, when, page, say}; a refusal {ok: false, error}

Both pass cribcore.web.rules first (the key, the Host, cross-site and not-JSON writes, the
body's size). /api/network gives the radio's state (pegboard.radio: joining, home, own,
none), the board's name and address and the home network's name (never its password:
`home` is its SSID, or null); `line` says it in a sentence the page shows in its menu,
and under the unix port (no radio) says so. `form`: whether the board keeps a home
network (pegboard.homenet, on the app as app.home): the page offers its form only then
(`crib serve` has no such route, so no form).

Only the table's seat (seats.TABLE, with its token) may post: before the players are
named it is the only seat there is, so the screen that set the game up did it as the
table (the page's setupSeat); a player's seat, a forged token or none is refused 403 and
nothing changes. The network is checked as the `home` verb checks it (pegboard.homenet:
the SSID 1 to 32 printable ASCII characters, the password empty for an open network or 8
to 63 printable ASCII) and kept the same way (written before the answer, given to the
radio: Radio.use). The answer says when the board joins it and where the page will be,
and how the board comes back if it cannot.
"""

from microdot import Response

from boardweb.conn import length
from cribcore.table.seats import TABLE, Refused, check_seat
from cribcore.web.edge import obj, parse

_SEAT = (int, str, type(None))
_TOKEN = (str, type(None))
FIELDS = {"seat": _SEAT, "token": _TOKEN, "ssid": str, "password": str, "forget": bool}
ONLY_TABLE = ("only the table's screen (the one that set the game up) changes the board's"
              " home network: choose the table's seat on this phone first")
NO_HOME = "this board keeps no home network (it has no Wi-Fi)"
NO_FLASH = "the board could not keep it on its flash: nothing changed (%r)"
OWN_ADDRESS = "192.168.4.1"  # pegboard.radio.ADDRESS (not imported: the unix port has no radio)


def _parts(server):
    """(home, radio, own network's name) of the server's board (each None if absent)."""
    app = server.board.app
    joining = getattr(app, "joining", None)
    return (getattr(app, "home", None), server.radio,
            joining.details["ssid"] if joining is not None else None)


def network(server):
    """GET /api/network's JSON bytes (module docstring)."""
    home, radio, own = _parts(server)
    net = radio.state if radio is not None else "none"
    name = home.name if home is not None else None
    ssid = home.network[0] if home is not None and home.network is not None else None
    address = radio.address if radio is not None else None
    page = "http://%s.local/" % name if name else None
    if radio is None:
        line = "No radio here: this board runs under MicroPython's unix port, at %s" % (
            server.join_url.split("?")[0],)
    elif net == "home":
        line = "On the home network %s: the page is at %s (%s)" % (ssid, page, address)
    elif net == "own":
        line = "On its own network %s: the page is at http://%s/" % (own, address)
        if ssid:
            line += "; the home network %s is tried again every minute" % ssid
    elif net == "joining":
        line = "Joining the home network %s\u2026" % ssid
    else:
        line = "No Wi-Fi: %s" % (radio.why or "the radio did not start")
    return obj(("wifi", radio is not None), ("form", home is not None), ("net", net),
               ("name", name), ("address", address), ("home", ssid), ("page", page),
               ("line", line))


def said(home, own):
    """What happens next, after a change (the answer's `say`)."""
    from pegboard.radio import JOIN_MS

    page = "http://%s.local/" % home.name
    back = "its own network%s (the page at http://%s/)" % (" " + own if own else "",
                                                          OWN_ADDRESS)
    if home.network is None:
        return "The home network is forgotten: from its next start the board opens %s." % back
    ssid = home.network[0]
    if home.when() == "now":
        return ("The board joins %s now; its own network stays up until it is on it. Then"
                " join %s on this phone too and open %s there. If it cannot join, it stays"
                " on %s and tries again every minute." % (ssid, ssid, page, back))
    return ("The board joins %s at its next start (unplug it and plug it in again); the page"
            " will then be at %s on that network. If it cannot join within %d s, it opens"
            " %s again." % (ssid, page, JOIN_MS // 1000, back))


def change(server, req):
    """POST /api/home: (status, JSON bytes) (module docstring); nothing changes on a
    refusal."""
    from cribcore.protocol import ProtocolError

    edge = server.edge
    home, _, own = _parts(server)
    try:
        edge.head(length(req), "Transfer-Encoding" in req.headers)
        body = parse(req.body, FIELDS, ("seat",))
        if body.get("seat") != TABLE:
            check_seat(edge.key, body.get("seat"), body.get("token"),
                       len(server.room.names()))  # a forged one is refused as forged
            raise Refused(403, ONLY_TABLE)
        check_seat(edge.key, TABLE, body.get("token"), None)
        if home is None:
            raise Refused(404, NO_HOME)
        if body.get("forget"):
            if "ssid" in body or "password" in body:
                raise Refused(400, "forget takes no ssid or password")
            args = {"forget": 1}
        elif "ssid" not in body:
            raise Refused(400, "missing field: ssid (or forget)")
        else:
            # A missing password is refused by homenet's check: empty for an open network.
            args = {"ssid": body["ssid"], "password": body.get("password")}
        try:
            home.change(args)
        except ProtocolError as e:
            raise Refused(400, e.args[0]) from None
        except OSError as e:
            raise Refused(507, NO_FLASH % (e,)) from None
    except Refused as e:
        return edge.refused(e)
    ssid = home.network[0] if home.network is not None else None
    return 200, obj(("ok", True), ("home", ssid), ("set", home.network is not None),
                    ("when", home.when()), ("page", "http://%s.local/" % home.name),
                    ("say", said(home, own)))


def add(app, server):
    """The two routes on app (boardweb.routes)."""
    head = {"Content-Type": "application/json", "Cache-Control": "no-store"}

    @app.get("/api/network")
    async def where(req):
        return Response(network(server), 200, head)

    @app.post("/api/home")
    async def home(req):
        status, text = change(server, req)
        return Response(text, status, head)
