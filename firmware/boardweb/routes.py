"""The board's server's URLs (microdot): the HTTP rules before every route
(cribcore.web.rules), the page's stored files, the state, its stream, the joining
address and the posts (boardweb.server's act and join), the board's Wi-Fi
(boardweb.homeroute). An event stream names its seat
(?s=&t=) for the caps on streams per seat (boardweb.conn). HEAD is answered with a GET's
head and nothing opened or kept (no file, no stream); OPTIONS with the methods a path
allows, after the same rules (no key: 403); any other method 405.

    app = routes(server, hooks)          # a boardweb.conn.Guarded
"""

from microdot import Request, Response

from boardweb.conn import Guarded
from boardweb.homeroute import add as home_routes
from boardweb.push import Follow
from cribcore.table.seats import Refused, check_seat
from cribcore.web import rules

GZ_TYPES = {"index.html": "text/html; charset=utf-8",
            "app.js": "text/javascript; charset=utf-8",
            "app.css": "text/css; charset=utf-8"}
BAD_REQUEST = "bad request: its head, or its Content-Length, could not be read"
STREAM = {"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
# The captive-portal probes a phone sends when it joins a network, under their own Host
# names (Android, Apple, Windows), by path: on the board's own network (server.probing)
# each is sent to the page, so the phone opens it by itself. Any other Host or path keeps
# the rules (cribcore.web.rules: a foreign Host is 421, the game needs the key).
PROBES = {
    "/generate_204": ("connectivitycheck.gstatic.com", "clients3.google.com",
                      "connectivitycheck.android.com", "www.google.com"),
    "/gen_204": ("connectivitycheck.gstatic.com", "clients3.google.com", "www.google.com"),
    "/hotspot-detect.html": ("captive.apple.com", "www.apple.com", "www.appleiphonecell.com"),
    "/library/test/success.html": ("captive.apple.com", "www.apple.com"),
    "/connecttest.txt": ("www.msftconnecttest.com",),
    "/ncsi.txt": ("www.msftncsi.com",),
    "/redirect": ("www.msftconnecttest.com",),
}


def probe(server, req):
    """A phone's captive-portal probe on the board's own network: a redirect to the page
    (its joining address, with the key); else None (the rules go on)."""
    if not server.probing:
        return None
    hosts = PROBES.get(req.path)
    if hosts is None or req.headers.get("Host") not in hosts:
        return None
    return Response("", 302, {"Location": server.join_url, "Cache-Control": "no-store"})


def stored(server, req, name, kind, headers=None):
    """A stored file of the page as it is (404 if it is not there); a HEAD's only its
    head (the file is not opened)."""
    head = {"Content-Type": kind}
    head.update(headers or {})
    try:
        f = open(server.files + name, "rb")
    except OSError:
        return None
    if req.method == "HEAD":
        f.close()
        return Response(b"", 200, head)
    return Response(f, 200, head)


def page_file(server, req, name):
    """A gzipped file of the page (404 if it is not there)."""
    headers = {"Content-Encoding": "gzip"}
    if name == "index.html":
        headers.update(rules.PAGE_HEADERS)
    res = stored(server, req, name + ".gz", GZ_TYPES[name], headers)
    return res or Response("not found", 404)


def stream_seat(edge, req, names):
    """The seat an event stream names (?s=SEAT&t=TOKEN, as the page opens it) when its
    token is that seat's; None if it names none or the token is not the seat's (the
    stream is still sent: it only counts among the seatless, boardweb.conn's caps)."""
    seat = req.args.get("s")
    if seat is None:
        return None
    if seat.isdigit():
        seat = int(seat)
    try:
        return check_seat(edge.holders.key, seat, req.args.get("t"), len(names))
    except Refused:
        return None


def poster(server, kind):
    """A post's handler for boardweb.quick (the request plain: its length in digits,
    not chunked): the state's version it made (quick's 200 reply, edge.ok's body), or a
    refusal's (status, JSON)."""
    def post(req):
        why = server.act_on(kind, req.headers.get("content-length"), False, req.body)
        return server.room.version if why is None else why
    return post


def follower(server):
    """GET /events's handler for boardweb.quick (and microdot's route): the connection's
    event stream (gathered: its boardweb.conn.Gathered), of the seat it names."""
    def follow(req, gathered):
        return Follow(server.push, gathered,
                      stream_seat(server.edge, req, server.room.names()))
    return follow


def routes(server, hooks=False):
    """The app of a BoardServer (module docstring)."""
    app = Guarded()
    Request.max_content_length = rules.MAX_BODY
    Request.max_body_length = rules.MAX_BODY
    edge = server.edge

    def options(req):
        allow = app.default_options_handler(req)
        req.url_args = {}

        async def allowed(req):
            return Response(b"", 204, allow)
        return allowed
    app.options_handler = options  # after the rules (a callable route, not a dict)

    def refusal(method, path, header, given):
        return rules.refusal(method, path, header, given, server.key, server.hosts)
    app.check = refusal  # boardweb.quick's, as checked() below

    @app.before_request
    async def checked(req):
        redirect = probe(server, req)
        if redirect is not None:
            return redirect
        why = refusal(req.method, req.path, req.headers.get,
                      req.args.get("k") or req.headers.get("X-Crib-Key"))
        if why is not None:
            return Response(why[1], why[0])

    @app.errorhandler(400)
    async def bad(req):
        status, text = edge.refused(Refused(400, BAD_REQUEST))
        return Response(text, status, {"Content-Type": "application/json"})

    @app.errorhandler(413)
    async def large(req):
        status, text = edge.refused(Refused(413, rules.TOO_LARGE))
        return Response(text, status, {"Content-Type": "application/json"})

    @app.get("/")
    async def index(req):
        return page_file(server, req, "index.html")

    @app.get("/static/<name>")
    async def static(req, name):
        if name not in GZ_TYPES or name == "index.html":
            return Response("not found", 404)
        return page_file(server, req, name)

    @app.get("/join.json")
    async def joining(req):
        return Response(edge.joining(server.join_url), 200,
                        {"Content-Type": "application/json", "Cache-Control": "no-store"})

    @app.get("/state")
    async def state(req):
        return Response(server.room.text(), 200,
                        {"Content-Type": "application/json", "Cache-Control": "no-store"})

    @app.get("/events")
    async def events(req):
        if req.method == "HEAD":  # its head only: no stream made, nothing kept
            return Response(b"", 200, STREAM)
        return follower(server)(req, req.sock[1]), 200, STREAM

    @app.get("/board.svg")
    async def board_svg(req):
        return Response("no board picture (the board's own LEDs show it)", 404)

    @app.get("/qr.svg")
    async def qr(req):
        res = stored(server, req, "qr.svg", "image/svg+xml")
        return res or Response("no joining code stored on this board", 404)

    @app.post("/api/join")
    async def join(req):
        return server.join(req)

    @app.post("/api/answer")
    async def answer(req):
        return server.act(req, "answer")

    @app.post("/api/undo")
    async def undo(req):
        return server.act(req, "undo")

    @app.post("/api/redo")
    async def redo(req):
        return server.act(req, "redo")

    for kind in ("answer", "undo", "redo"):  # what a phone posts per answer: quick's
        app.hot["/api/" + kind] = ("POST", poster(server, kind))
    app.hot["/events"] = ("GET", follower(server), True)  # a phone's stream: quick's too

    home_routes(app, server)  # GET /api/network, POST /api/home (the board's Wi-Fi)

    async def not_probing(req):  # a probe's path, off the own network (or with the key)
        return Response("not found", 404)
    for path in PROBES:  # routes, so that the rules run first (a route not found: 404)
        app.get(path)(not_probing)

    if hooks:
        from boardweb.hooks import hooks as test_hooks
        test_hooks(server, app)
    return app
