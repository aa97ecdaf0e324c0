"""The web companion's routes (Starlette): the page, its assets, the state pushed to every
screen (server-sent events), and the answers, undos and seats posted back.

Every request but the page's shell and its assets must carry the session key (an
X-Crib-Key header, or `k` in the query): without it, 403 and nothing else (the HTTP rules,
cribcore.web.rules, the board's own server applies too). The key is never
in a cookie (cookies are not scoped by port: every server on the host would get it): the
page takes it from the joining address (`/?k=KEY`), keeps it in its origin's own storage,
drops it from the address bar and sends it with each request (static/app.js).

Posted bodies are JSON objects of known fields, at most webrules.MAX_BODY bytes; what does not
fit is refused with a clear message and changes nothing. The body, the seat and every
answer's bytes are the request edge's (cribcore.web.edge), the same as the board's own
server's; every answer goes through the engine's own validation.

    GET  /            the page (no key) GET /state       the state now (JSON)
    GET  /join.json   the joining address and the session's name (for the seat kept)
    GET  /events      the state, pushed GET /board.svg   the board's picture
    GET  /qr.svg      the joining code  GET /static/...  script and style
    POST /api/join    {seat, take, token}           -> {seat, name, token} (409: held)
    POST /api/answer  {question, answer, seat, token, for}
    POST /api/undo    {question, seat, token}
    POST /api/redo    {question, seat, token}       put back what the last undo took back
"""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from crib.web.assets import page_html, qr_svg
from crib.web.hub import Hub
from cribcore.table.seats import Refused
from cribcore.web import rules as webrules
from cribcore.web.edge import BODY_S, HEARTBEAT_S, SLOW_BODY, Edge

HERE = Path(__file__).resolve().parent


class KeyCheck:
    """ASGI middleware: the HTTP rules of every request (cribcore.web.rules: the key, a
    write from another site or not JSON, with hosts an unknown Host header) before any
    route runs."""

    def __init__(self, app: Any, key: str, hosts: set[str] | None = None):
        self.app = app
        self.key = key
        self.hosts = hosts

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            req = Request(scope)
            given = req.query_params.get("k") or req.headers.get("x-crib-key")
            why = webrules.refusal(req.method, req.url.path, req.headers.get, given,
                                   self.key, self.hosts)
            if why is not None:
                await PlainTextResponse(why[1], why[0])(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def read_body(request: Request) -> bytes:
    """The posted bytes, size-limited: the length first, the body read whole within BODY_S
    (cribcore.web.edge); Refused if not."""
    Edge.head(request.headers.get("content-length"), "transfer-encoding" in request.headers)
    raw = b""

    async def read() -> bytes:
        nonlocal raw
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > webrules.MAX_BODY:
                raise Refused(413, webrules.TOO_LARGE)
        return raw

    try:
        await asyncio.wait_for(read(), BODY_S)
    except asyncio.TimeoutError:
        raise Refused(408, SLOW_BODY) from None
    return raw


async def _body(request: Request, kind: str) -> dict:
    """The posted JSON object of a request kind, checked field by field (Refused if not)."""
    return Edge.body(kind, await read_body(request))


def refusal(status: int, message: str) -> Response:
    """A refusal as the page reads it ({"ok": false, "error"}), escaped as the edge does."""
    return _json(Edge.refused(Refused(status, message)))


def _json(pair: tuple[int, bytes]) -> Response:
    """An answer the edge made (its status and bytes) as the response."""
    return Response(pair[1], pair[0], media_type="application/json")


def create_app(hub: Hub, key: str, join_url: str, poll: bool = True,
               hosts: set[str] | None = None) -> Starlette:
    """The web app around a Hub (started and stopped with the app); join_url: the address
    (with its key) the QR code carries; hosts: the Host headers answered (None: any)."""
    qr = qr_svg(join_url)
    edge = Edge(key)

    def players() -> list[str]:
        view = hub.state.get("view") or {}
        names = view.get("names")
        return names or []

    html = page_html()  # the same shell for everyone: what is secret is fetched with the key

    async def index(request: Request) -> Response:
        return HTMLResponse(html, headers=webrules.PAGE_HEADERS)

    async def joining(request: Request) -> Response:
        return Response(edge.joining(join_url), media_type="application/json",
                        headers={"Cache-Control": "no-store"})

    async def state(request: Request) -> Response:
        return Response(hub.text, media_type="application/json",
                        headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        if request.method == "HEAD":  # its head only: a stream would be held open
            return Response(b"", media_type="text/event-stream",
                            headers={"Cache-Control": "no-store"})

        async def stream() -> AsyncIterator[str]:
            async for text in hub.states(HEARTBEAT_S):
                yield ": still here\n\n" if text is None else f"data: {text}\n\n"
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    async def board_svg(request: Request) -> Response:
        if hub.svg is None:
            return PlainTextResponse("no board picture (no board with LEDs)", 404)
        return Response(hub.svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    async def qr_code(request: Request) -> Response:
        return Response(qr, media_type="image/svg+xml")

    async def join(request: Request) -> Response:
        try:
            return _json(edge.join(await _body(request, "join"), players()))
        except Refused as e:
            return _json(edge.refused(e))

    async def _act(request: Request, kind: str) -> Response:
        """An answer, an undo or a redo: the body and the seat checked by the edge, the
        rest in one call to the room (hub.act); every refusal becomes its status and
        message."""
        try:
            body = await _body(request, kind)
            seat = edge.seat(body, players())
            await hub.act(kind, body, seat)
        except Refused as e:
            return _json(edge.refused(e))
        return _json((200, edge.ok(hub.version)))

    async def answer(request: Request) -> Response:
        return await _act(request, "answer")

    async def undo(request: Request) -> Response:
        return await _act(request, "undo")

    async def redo(request: Request) -> Response:
        return await _act(request, "redo")

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.open(poll=poll)
        try:
            yield
        finally:
            await hub.close()

    routes = [
        Route("/", index), Route("/join.json", joining), Route("/state", state),
        Route("/events", events),
        Route("/board.svg", board_svg), Route("/qr.svg", qr_code),
        Route("/api/join", join, methods=["POST"]),
        Route("/api/answer", answer, methods=["POST"]),
        Route("/api/undo", undo, methods=["POST"]),
        Route("/api/redo", redo, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(KeyCheck, key=key, hosts=hosts),
                                 Middleware(GZipMiddleware, minimum_size=800)])
