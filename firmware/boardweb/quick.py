"""The board's hot routes (what a phone sends per answer: its POST; and its event stream,
GET /events, held open as long as the page is) served without
microdot's request parsing, which costs as much as the engine's move on a Pico (a read
and a str per header line, a case-blind dict, the routes' patterns tried one by one,
a Response's head written line by line): the request's head is looked at in the one
chunk its connection's first read gave (boardweb.conn.Timed), only the headers the rules
use are decoded, the body is sliced from it, and the reply goes out in one write.

Only a plain request takes this path: its head whole in that chunk (a phone's comes in
one packet), a hot path with its method, its head UTF-8, every line a `name: value`, its
Content-Length in digits and at most rules.MAX_BODY, not chunked. Anything else is left
unread for microdot (Guarded.handle_request), so every refusal of a malformed request
stays microdot's own; a hot request passes the same rules (app.check, the routes'
before_request's) and the same edge (the route's fn) as through microdot, and is answered
with the same status, Content-Type and body.

    app.hot = {path: (method, fn)}     # fn(req) -> (status, bytes): a JSON reply; or
                                       # an int: a post taken, the state's version (200,
                                       # cribcore.web.edge.ok's body)
    app.hot[path] = (method, fn, True)  # fn(req, gathered) -> boardweb.push.Follow: an
                                        # event stream (its head, then held: held())
    app.check = fn(method, path, header, given_key)  # (status, text) or None (rules)
    done = answer(app, timed, gathered)  # a request whole at once, with no coroutine
    done = await serve(app, timed, gathered)   # False: microdot's to read; True: served;
                                               # a Follow: held(done, gathered) holds it
"""

from microdot.microdot import print_exception, urldecode

from cribcore.web.rules import MAX_BODY

# the request headers the rules and the edge read (lower case), and how each is looked
# for in the head made lower case: at a line's start, its name, its colon
WANTED = ("host", "x-crib-key", "origin", "content-type", "content-length",
          "transfer-encoding")
LINES = tuple(["\r\n%s:" % name for name in WANTED])
# the same names as a page sends them, and each WANTED index by its first letter (lower
# case) and its length: plain() looks at a header line's name by these, in place
USUAL = ("Host", "X-Crib-Key", "Origin", "Content-Type", "Content-Length",
         "Transfer-Encoding")
NAMED = {}
for _i in range(len(WANTED)):
    NAMED[ord(WANTED[_i][0]) * 32 + len(WANTED[_i])] = _i
NO_ARGS = {}  # type: dict[str, str]  # a plain request's query: none (read only)
JSON = "application/json"
TYPE = WANTED.index("content-type")
TYPES = (JSON,)
HOST = WANTED.index("host")
TEXT = "text/plain; charset=UTF-8"  # microdot's type for a text reply (a rule's refusal)
DIGITS = "0123456789"
# an answer taken (200, JSON): its head as the general one below makes it, and its body,
# made in one formatting (one bytes object for the one write)
OK_JSON = (b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d"
           b"\r\n\r\n%s")
# a post taken: its reply made of the state's version in one formatting (its body is
# edge.ok's, its length OK_LENGTH and the version's digits)
OK_VERSION = (b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d"
              b'\r\n\r\n{"ok":true,"version":%d}')
OK_LENGTH = len(b'{"ok":true,"version":}')
# an event stream's head, as microdot writes boardweb.routes' (STREAM's headers)
STREAM_HEAD = (b"HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n"
               b"Cache-Control: no-store\r\n\r\n")


class Quick:
    """A hot request: method, path, args (the query's, first value of each name),
    headers (the WANTED ones, by lower-case name: the last of each, as microdot keeps
    them), body (bytes)."""

    args = NO_ARGS  # (on the class until a query's are set: each attribute an instance
    body = b""  # holds is heap)

    def __init__(self, method, path, args, headers):
        self.method = method
        self.path = path
        if args:
            self.args = args
        self.headers = headers


def parse(buf, at, hot, hosts=()):
    """(a Quick without its body, where the body starts in buf, its length, its route:
    hot's entry) for the hot request whose whole head is in buf[at:]; None for anything
    else (module docstring). A phone's plain request is read in place (plain()): no copy
    of its head, no line or name of its own; any other head by general()."""
    end = buf.find(b"\r\n\r\n", at)
    if end < 0:
        return None
    got = plain(buf, at, end, hot, hosts)
    return general(buf, at, end, hot) if got is None else got


def plain(buf, at, end, hot, hosts=()):
    """parse() of a plain head (what a phone's page sends), or None for general() to
    read: the chunk is ASCII up to the head's end (its text then shares buf's bytes: str
    and byte offsets agree), the request line is exactly `METHOD PATH HTTP/1.x` with a
    hot path (no query), every header line is `name: value`, and each header whose
    first letter and length are a WANTED one's is that name in its usual case or in lower
    case. Only the WANTED values are made into str (one each); what it gives is what
    general() gives for the same head (tests/firmware/test_quick_requests.py)."""
    if at:
        return None
    try:
        head = buf.decode()  # MicroPython's str shares the bytes: nothing copied
    except UnicodeError:
        return None
    if head.find("\r\n\r\n") != end:
        return None  # a character beyond ASCII before the head's end
    eol = head.find("\r\n")
    sp1 = head.find(" ", 0, eol)
    sp2 = head.find(" ", sp1 + 1, eol)
    if sp1 <= 0 or sp2 < 0 or eol - sp2 != 9 or not (head.startswith(
            "HTTP/1.1", sp2 + 1) or head.startswith("HTTP/1.0", sp2 + 1)):
        return None
    path = None
    for p in hot:  # the path looked for in place: no str of it made
        if len(p) == sp2 - sp1 - 1 and head.startswith(p, sp1 + 1):
            path = p
            break
    if path is None:
        return None
    route = hot[path]
    method = route[0]
    if len(method) != sp1 or not head.startswith(method):
        return None
    if "\r\n " in head or "\r\n\t" in head:
        return None  # a folded header line
    headers = {}
    while eol < end:
        start = eol + 2
        eol = head.find("\r\n", start)
        colon = head.find(":", start, eol)
        if colon < 0:
            return None  # not `name: value`
        i = NAMED.get((ord(head[start]) | 32) * 32 + colon - start)
        if i is None:
            continue  # not a name the rules read
        if not (head.startswith(USUAL[i], start) or head.startswith(WANTED[i], start)):
            return None  # a wanted name in another case (or another name): general()'s
        start = colon + 1
        if head.startswith(" ", start):
            start += 1
        value = None
        if i == TYPE:  # a page's own Content-Type, a Host the board answers to: the
            known = TYPES  # constant, no str made
        else:
            known = hosts if i == HOST else ()
        for text in known:
            if eol - start == len(text) and head.startswith(text, start):
                value = text
        if value is None:
            value = head[start:eol]
            if value and (value[0] <= " " or value[-1] <= " "):
                value = value.strip()
        headers[WANTED[i]] = value  # the last of the name, as microdot keeps it
    return checked(Quick(method, path, NO_ARGS, headers), end, route)


def checked(req, end, route):
    """parse()'s answer for req, or None if its body's length is microdot's to refuse."""
    headers = req.headers
    size = headers.get("content-length", "0")
    if "transfer-encoding" in headers or not size or size.strip(DIGITS) or \
            int(size) > MAX_BODY:
        return None  # refused by microdot's path (411, 400, 413), in its order
    return req, end + 4, int(size), route


def general(buf, at, end, hot):
    """parse() of any head (plain()'s or not): the head is split and searched by str
    methods (in C), not walked line by line in Python: a header line not WANTED costs one
    test, and no str of its own."""
    try:
        head = buf[at:end].decode()
    except UnicodeError:
        return None  # microdot refuses it (400)
    eol = head.find("\r\n")
    first = (head if eol < 0 else head[:eol]).split()
    if len(first) != 3 or not first[2].startswith("HTTP/"):
        return None
    url = first[1]
    q = url.find("?")
    path = url if q < 0 else url[:q]
    route = hot.get(path)
    if route is None or route[0] != first[0]:
        return None
    if "\r\n " in head or "\r\n\t" in head:
        return None  # a folded header line: microdot's to refuse
    while eol >= 0:  # each header line looked at in place: no str of its own
        start = eol + 2
        eol = head.find("\r\n", start)
        if (head.find(":", start, eol) if eol >= 0 else head.find(":", start)) < 0:
            return None  # not `name: value`: microdot's to refuse
    low = head.lower()
    if len(low) != len(head):
        return None  # a character whose lower case is longer (CPython's): microdot's
    headers = {}
    for i in range(len(WANTED)):
        found = low.rfind(LINES[i])  # the last of the name, as microdot keeps it
        if found >= 0:
            found += len(LINES[i])
            eol = low.find("\r\n", found)
            headers[WANTED[i]] = head[found:eol if eol >= 0 else len(head)].strip()
    return checked(Quick(first[0], path, {} if q < 0 else args(url[q + 1:]), headers),
                   end, route)


def args(query):
    """The query's arguments, url-decoded as microdot decodes them (its first value of a
    name)."""
    out = {}
    for pair in query.split("&"):
        if pair:
            kv = pair.split("=", 1)
            name = urldecode(kv[0])
            if name not in out:
                out[name] = urldecode(kv[1]) if len(kv) > 1 else ""
    return out


def answer(app, timed, gathered):
    """serve() with no coroutine of its own, for a hot request whole in the connection's
    first read (a phone's: its task first runs with it there): True once its reply is
    written and the connection closed; an event stream's Follow, for the caller to hold
    (held()); the reply's bytes if the writer did not take them at once (the caller
    awaits gathered.send(them), then finish()); False if it is not hot (nothing of it
    consumed: microdot reads it); None if it is not whole yet (nothing consumed:
    serve() reads it)."""
    if not timed.ready():  # the socket's bytes taken, if there
        return None
    got = parse(timed.buf, timed.at, app.hot, app.hosts)
    if got is None:
        return False
    req, start, length, route = got
    if len(timed.buf) - start < length:
        return None  # the body still to come: serve() awaits it (the head read again)
    timed.head_read(start)
    req.body = timed.taken(length)
    return respond(app, timed, req, route, gathered)


async def serve(app, timed, gathered):
    """Serve the connection's request here if it is a hot one (module docstring): True;
    an event stream's Follow, for the caller to hold (held()); False if it is not hot
    (nothing of it consumed: microdot reads it). answer()'s, for a request whose bytes
    are not all there at once."""
    if not timed.ready():  # the socket's bytes taken without a coroutine, if there
        try:
            await timed.fill()
        except OSError:
            return False  # microdot's read fails alike (its 400)
    got = parse(timed.buf, timed.at, app.hot, app.hosts)
    if got is None:
        return False
    req, start, length, route = got
    timed.head_read(start)
    try:
        req.body = timed.taken(length)  # in the first read (a phone's), or awaited
        if req.body is None:
            req.body = await timed.readexactly(length)
    except OSError:  # the body did not come in time, or its phone left: microdot's 400
        res = await app.error_response(None, 400)
        await res.write(gathered)
        await gathered.aclose()
        return True
    done = respond(app, timed, req, route, gathered)
    if isinstance(done, bytes):
        await gathered.send(done)
        return finish(app)
    return done


def respond(app, timed, req, route, gathered):
    """The request's reply (the rules', its route's), written at once if the writer takes
    it (Gathered.sent): True once sent and closed (finish() done); the route's Follow for
    an event stream; else the reply's bytes, for the caller to await gathered.send(),
    then finish()."""
    timed.reading = False  # the request is in: answered, never dropped
    app.took()  # the App's frames wait until it is sent (BoardServer.frames)
    kind = JSON
    try:
        try:
            given = req.args.get("k") or req.headers.get("x-crib-key")
            why = app.check(req.method, req.path, req.headers.get, given)
            if why is not None:
                status, body, kind = why[0], why[1].encode(), TEXT
            elif len(route) > 2:  # an event stream
                follow = route[1](req, gathered)
                app.done()
                return follow  # held by the connection's task (held())
            else:
                got = route[1](req)
                if type(got) is int:  # a post taken: the state's version it made
                    status, body, kind = 200, got, None
                else:
                    status, body = got
        except Exception as e:  # noqa: BLE001 - as microdot answers a route's bug
            print_exception(e)
            status, body, kind = 500, b"Internal server error", TEXT
        if kind is None:  # a phone's answer taken: its head and body (edge.ok's) from
            length, n = OK_LENGTH + 1, body  # a constant, in one formatting (the
            while n >= 10:  # version's digits counted: no str made)
                n //= 10
                length += 1
            reply = OK_VERSION % (length, body)
        elif status == 200 and kind is JSON:
            reply = OK_JSON % (len(body), body)
        else:
            reply = b"".join((("HTTP/1.0 %d %s\r\nContent-Type: %s\r\nContent-Length: "
                               "%d\r\n\r\n" % (status, "OK" if status == 200 else "N/A",
                                                 kind, len(body))).encode(), body))
        if not gathered.sent(reply):
            return reply
    except BaseException:
        app.done()
        raise
    return finish(app)


def finish(app):
    """A hot request's reply sent: counted done, the server's hooks told: True."""
    app.done()
    if app.answered is not None:
        app.answered()
    if app.noted is not None:
        app.noted()
    return True


async def held(follow, gathered):
    """An event stream (boardweb.push.Follow, serve()'s) served: its head with the state
    now in one write (as microdot's response with Gathered sends them), then the
    connection held until the stream ends, then closed. A stream whose first event could
    not be made is sent its head alone and closed, as microdot does: the page's
    EventSource opens it again. (The first write is opened()'s: a coroutine's frame keeps
    what its expressions last held, and this one lasts as long as the stream.)"""
    if await opened(follow, gathered):
        await follow.hold()
    try:
        await gathered.writer.aclose()
    except OSError:
        pass


async def opened(follow, gathered):
    """The stream's head and first event written: whether it goes on."""
    frame = follow.start()
    gathered.head = None
    try:
        await gathered.writer.awrite(STREAM_HEAD if frame is None else STREAM_HEAD + frame)
    except (OSError, MemoryError):
        return False  # the phone gone, or no heap to write it: its page opens it again
    return frame is not None
