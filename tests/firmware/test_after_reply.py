"""The board's own server with its record on flash (boardweb.board.build with a record):
the App's pegs, the turn's light and the dealer's marker an answer makes are sent to the
App after the phone's reply (boardweb.appboard's defer; BoardServer.flush once the
screens have the state), never before the answer's record line; every other call to the
App makes them first, in the engine's order; and a cut between the reply and the flush
loses nothing: the record has the answer, and the restart makes the App's pegs the
record's (boardweb.resume.resync)."""

import sys
import time

import pytest
from support import FIRMWARE

for where in (str(FIRMWARE), str(FIRMWARE.parent / "tests" / "core_table")):
    if where not in sys.path:
        sys.path.append(where)

import desk  # noqa: E402
from boardweb.appboard import LoopPort  # noqa: E402
from boardweb.board import build  # noqa: E402
from tablegame import Lcg, choose  # noqa: E402

from cribcore.table.session import Setup  # noqa: E402

KEY = "after-key"


@pytest.fixture(autouse=True)
def tables():
    """The protocol's tables as they were after each test (a board with a record
    registers the `club` verb in them: boardweb.clubreport)."""
    from cribcore import protocol

    kept = protocol.COMMANDS, protocol.FIELDS
    yield
    protocol.COMMANDS, protocol.FIELDS = kept
    protocol._FIELD.clear()


def app():
    return desk.build({"store": None, "config": None, "driven": False}, LoopPort())


def server(the_app, folder):
    return build(the_app, KEY, "http://192.168.4.1/?k=" + KEY, "/page", folder + "/games",
                 Setup(["Alice", "Bob"], False, 61, 0),
                 clock=lambda: int(time.monotonic() * 1000), nonce="a1")


def answer(srv, rng):
    """The open question answered as chipgame's players answer it; the reply."""
    q = srv.room.question
    text = "" if q["kind"] == "dealer" else choose(q, rng, "cards")
    seat = "table" if q["asks"] is None else q["asks"]
    from cribcore.table.seats import seat_token
    body = ('{"question": "%s", "answer": "%s", "seat": %s, "token": "%s"}' % (
        q["id"], text, '"table"' if seat == "table" else seat,
        seat_token(KEY, seat))).encode()
    why = srv.act_on("answer", str(len(body)), False, body)  # None: taken
    return (200, srv.edge.ok(srv.room.version)) if why is None else why


def until_pegged(srv, rng):
    """Answer until an answer leaves a peg for after its reply; its reply."""
    for _ in range(200):
        reply = answer(srv, rng)
        assert reply[0] == 200, reply
        if any(verb == "peg" for verb, _ in srv.board.later):
            return reply
        srv.flush()
    raise AssertionError("no answer pegged")


def test_an_answers_pegs_go_to_the_app_after_its_reply_in_order(tmp_path):
    srv = server(app(), str(tmp_path))
    rng = Lcg(11)
    until_pegged(srv, rng)
    b = srv.board.app.board
    before = [[b.back(i), b.front(i)] for i in range(b.players)]
    want = srv.room.view["pegs"]
    assert before != want  # the reply went before the App's peg
    srv.flush()
    assert srv.board.later == [] and srv.board.pegs() == want
    for _ in range(40):  # and every answer's, whatever the App is asked between
        assert answer(srv, rng)[0] == 200
        if len(srv.board.later) > 1:
            assert srv.board.pegs() == srv.room.view["pegs"]  # pegs() makes them first
        srv.flush()
        assert srv.board.pegs() == srv.room.view["pegs"]


def test_a_cut_between_the_reply_and_the_flush_loses_nothing(tmp_path):
    the_app = app()
    srv = server(the_app, str(tmp_path))
    until_pegged(srv, Lcg(11))
    want, asked = srv.room.view["pegs"], srv.room.question["id"]
    b = the_app.board
    assert [[b.back(i), b.front(i)] for i in range(b.players)] != want
    # the power cut: the App as it was on flash (its peg never made), the record on disk
    again = server(the_app, str(tmp_path))
    assert again.room.question["id"] == asked  # the answer stands
    assert again.board.pegs() == want  # and the LEDs are the record's again
