"""`crib club serve`: the night's pages (Starlette). The director's page shows the rounds,
the results as they come, the standings, and pairs the next round and corrects a result;
each player's phone shows their table and opponent, takes the result in two taps (the
winner, the loser's score) and the opponent's confirmation, and the standings, live.

The app is the night's one writer: it opens the history (with its writer's lock) when it
starts and closes it when it stops; every change is committed before it is answered.
Every request but the page's shell and its script and style carries the club's key (as
`crib serve`: cribcore.web.rules); the director's actions carry the director's key too
(X-Club-Director), which only the director's address holds.

    GET  /                 a player's page     GET /director?d=KEY  the director's page
    GET  /api/state?v=N    the night (JSON); with v, answered when it differs from version N
    GET  /night.csv        the night as CSV    GET /scorecards.pdf  the scorecards
    POST /api/result       {round, table, winner, loser_score, player}  a phone's result
    POST /api/confirm      {round, table, player, agree}   its opponent's yes (or no)
    POST /api/report       {winner, loser, loser_score, hands}   a table's own report: it
                           stands; hands (optional): [[player, 24|28|29], ...] it scored
    POST /api/hand         {round, player, points}         a special hand (24, 28, 29)
    POST /api/next         {}                              (director) pair the next round
    POST /api/correct      {round, table, winner, loser_score, note}   (director)
"""

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from crib.club.money import money
from crib.club.night import Club, ClubError, Night, describe
from crib.history.db import History
from crib.web.app import KeyCheck, read_body, refusal
from cribcore.table.seats import Refused, same
from cribcore.web import rules as webrules
from cribcore.web.edge import parse

HERE = Path(__file__).resolve().parent / "clubpage"
WAIT_S = 20.0  # a long poll is answered after this even if nothing changed
FIELDS = {
    "result": ({"round": int, "table": int, "winner": str, "loser_score": int,
                "player": str}, ("round", "table", "winner", "loser_score", "player")),
    "confirm": ({"round": int, "table": int, "player": str, "agree": bool},
                ("round", "table", "player", "agree")),
    "report": ({"winner": str, "loser": str, "loser_score": int, "hands": list},
               ("winner", "loser", "loser_score")),
    "hand": ({"round": int, "player": str, "points": int}, ("round", "player", "points")),
    "next": ({}, ()),
    "correct": ({"round": int, "table": int, "winner": str, "loser_score": int,
                 "note": str}, ("round", "table", "winner", "loser_score")),
}


def state(night: Night, version: int) -> dict[str, Any]:
    """Everything the pages show: the rounds paired with each table's result, the
    standings, the money, every result (corrections too)."""
    live = {(r["round"], r["table_no"]): r for r in night.results()}
    rounds = []
    for n in range(1, night.paired() + 1):
        p = night.pairings(n)
        tables = []
        for i, (a, b) in enumerate(p["tables"]):
            r = live.get((n, i + 1))
            tables.append({"table": i + 1, "players": [a, b], "result": r and {
                "winner": r["winner"], "loser": r["loser"], "loser_score": r["loser_score"],
                "status": r["status"], "entered_by": r["entered_by"], "source": r["source"],
                "text": describe(r)}})
        rounds.append({"round": n, "tables": tables, "bye": p["bye"]})
    m = night.money()
    return {"version": version, "night": night.name, "season": night.season,
            "games": night.games, "players": sorted(night.players), "paired": night.paired(),
            "waiting": night.waiting(night.paired()), "rounds": rounds,
            "standings": night.standings(),
            "money": {"prizes": [dict(p, amount=money(p["cents"])) for p in m["prizes"]],
                      "skunk_pot": [dict(s, amount=money(s["cents"]))
                                    for s in m["skunk_pot"]],
                      "hands": [dict(h, amount=money(h["cents"])) for h in m["hands"]]},
            "history": [dict(r, text=describe(r)) for r in night.results(every=True)]}


class Room:
    """The night served: the history (opened on the server's own thread), a version that
    goes up with each change, and the long polls waiting for it."""

    def __init__(self, db: str, night: str | None, history: History | None = None) -> None:
        self.db, self.name = db, night
        self.history = history  # given: opened by the caller on the server's thread
        self.version = 0
        self.changed = asyncio.Event()

    def open(self) -> None:
        if self.history is None:
            self.history = History.open(self.db)
        try:
            self.night()  # refused now if there is no such night
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self.history is not None:
            self.history.close()
            self.history = None

    def night(self) -> Night:
        return Club(self.history).night(self.name)

    def bump(self) -> None:
        self.version += 1
        self.changed.set()
        self.changed = asyncio.Event()

    async def wait(self, since: int) -> None:
        if since == self.version:
            try:
                await asyncio.wait_for(self.changed.wait(), WAIT_S)
            except asyncio.TimeoutError:
                pass


def create_club_app(db: str, key: str, director: str, night: str | None = None,
                    hosts: set[str] | None = None, history: History | None = None) -> Starlette:
    """The night's app over the history file db (or history, already open on the thread
    that will serve); key: the club's, director: the director's (both secrets made by the
    caller). The app closes the history when it stops."""
    room = Room(db, night, history)

    async def page(request: Request) -> Response:
        return FileResponse(HERE / "club.html", headers=webrules.PAGE_HEADERS)

    async def get_state(request: Request) -> Response:
        since = request.query_params.get("v")
        if since is not None and since.isdigit():
            await room.wait(int(since))
        return JSONResponse(state(room.night(), room.version),
                            headers={"Cache-Control": "no-store"})

    async def night_csv(request: Request) -> Response:
        n = room.night()
        return Response(n.csv(), media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": 'attachment; filename="club-night.csv"'})

    async def scorecards_pdf(request: Request) -> Response:
        from crib.club.scorecard import scorecards

        try:
            data = scorecards(room.night())
        except ClubError as e:
            return refusal(501, str(e))
        return Response(data, media_type="application/pdf")

    def post(kind: str, do: Callable[[Night, dict[str, Any]], Any],
             director_only: bool = False) -> Callable[[Request], Awaitable[Response]]:
        fields, required = FIELDS[kind]

        async def handle(request: Request) -> Response:
            try:
                if director_only and not same(
                        (request.headers.get("x-club-director") or "").encode(),
                        director.encode()):
                    raise Refused(403, "only the director's page may do that")
                body = parse(await read_body(request), fields, required)
                out = do(room.night(), body)
            except Refused as e:
                return refusal(e.status, e.message)
            except ClubError as e:
                return refusal(400, str(e))
            room.bump()
            return JSONResponse({"ok": True, "version": room.version, "done": out})
        return handle

    routes = [
        Route("/", page), Route("/director", page), Route("/api/state", get_state),
        Route("/night.csv", night_csv), Route("/scorecards.pdf", scorecards_pdf),
        Route("/api/result", post("result", lambda n, b: n.result(
            b["round"], b["table"], b["winner"], b["loser_score"], "phone", b["player"])),
            methods=["POST"]),
        Route("/api/confirm", post("confirm", lambda n, b: n.confirm(
            b["round"], b["table"], b["player"], b["agree"])), methods=["POST"]),
        Route("/api/report", post("report", lambda n, b: n.report(
            b["winner"], b["loser"], b["loser_score"], b.get("hands", ()))),
            methods=["POST"]),
        Route("/api/hand", post("hand", lambda n, b: n.hand(
            b["round"], b["player"], b["points"], "phone")), methods=["POST"]),
        Route("/api/next", post("next", lambda n, b: n.next_round(), True), methods=["POST"]),
        Route("/api/correct", post("correct", lambda n, b: n.correct(
            b["round"], b["table"], b["winner"], b["loser_score"], b.get("note")), True),
            methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE), name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        room.open()
        try:
            yield
        finally:
            room.bump()  # the long polls answer now
            room.close()

    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(KeyCheck, key=key, hosts=hosts)])


def serve(db: str, night: str | None, lan: bool, port: int, qr: bool, out: Any) -> int:
    """Serve the night until Ctrl-C: print the players' and the director's addresses."""
    from crib.web.seats import new_key
    from crib.web.server import lan_address, listen, server

    # Opened (and locked: the one writer) before the addresses are printed, on the thread
    # that serves; refused here, before anything listens, with no night or another writer.
    history = History.open(db)
    try:
        name = Club(history).night(night).name
        sock = listen(lan, port)
    except BaseException:
        history.close()
        raise
    try:
        web_port = sock.getsockname()[1]
        key, director = new_key(), new_key()
        host = lan_address() if lan else "127.0.0.1"
        url = f"http://{host}:{web_port}/?k={key}"
        app = create_club_app(db, key, director, name,
                              hosts={f"{n}:{web_port}" for n in (host, "127.0.0.1",
                                                                  "localhost")},
                              history=history)
        if qr:
            import segno

            segno.make(url, error="m").terminal(out=out, compact=True)
        out.write(f"crib club serve: the night {name!r}\n  players' phones: {url}\n"
                  f"  director: http://{host}:{web_port}/director?k={key}&d={director}\n"
                  f"  tables report to: http://{host}:{web_port}/api/report?k={key}\n"
                  "  Ctrl-C stops; every result is saved\n")
        out.flush()
        try:
            server(app).run(sockets=[sock])
        except KeyboardInterrupt:
            pass
        return 0
    finally:
        sock.close()
        history.close()  # the app closed it when it stopped, unless it never started
