"""The board's server never makes an answer wait on the App's LED frames
(BoardServer.frames): a frame due when a phone's request comes lets it go first, and
while a request is in hand or its new state is not yet on every screen the App draws
no frame (at most hold_ms: then one all the same). Its animations go by the clock, so
the frames not drawn are never seen; the pegs an answer leaves still reach the App, in
order, once the screens have the state.

Under MicroPython's unix port (its asyncio is the board's), the whole game's server as
tests/pico/chipgame.py plays it on the chip (4 phones, the record on disk); and under
CPython, the hold and its bound."""

import asyncio
import json
import sys
import time

from support import FIRMWARE, TESTS, run_micropython

for where in (str(FIRMWARE), str(TESTS / "core_table")):
    if where not in sys.path:
        sys.path.append(where)

import desk  # noqa: E402
from boardweb.appboard import LoopPort  # noqa: E402
from boardweb.board import build  # noqa: E402

from cribcore.table.session import Setup  # noqa: E402

PATH = ":".join([".frozen", str(FIRMWARE), str(TESTS / "core_table"), str(TESTS / "pico"),
                 str(TESTS / "firmware")])
ANSWERS = 40


def microdot_dir():
    from crib.web.unixboard import microdot_dir as found
    return found()


def test_no_frame_is_drawn_within_an_answer_and_the_app_keeps_every_peg(tmp_path):
    proc = run_micropython([TESTS / "firmware" / "framesgame.py", tmp_path / "board",
                            ANSWERS], heap="1M", cwd=tmp_path,
                           env={"MICROPYPATH": PATH + ":" + microdot_dir()})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    answers = [[int(x) for x in ln.split()[1:]] for ln in lines if ln.startswith("A ")]
    assert len(answers) == ANSWERS
    within = [a[0] for a in answers if a[-1] != 0]  # chipgame's frames: the last field
    assert within == [], "the App drew frames within answers %s" % within
    said = dict(ln.split(" ", 1) for ln in lines if ln[:5] in ("STEPS", "PEGS ", "VIEW "))
    assert int(said["STEPS"]) > ANSWERS  # the frames were drawn between the answers
    assert json.loads(said["PEGS"]) == json.loads(said["VIEW"]) != [[0, 0], [0, 0]]


def server(tmp_path):
    app = desk.build({"store": None, "config": None, "driven": False}, LoopPort())
    srv = build(app, "held-key", "http://192.168.4.1/?k=held-key", "/page", None,
                Setup(["Alice", "Bob"], False, 61, 0),
                clock=lambda: int(time.monotonic() * 1000), nonce="h1")
    ticks = []
    tick = srv.board.tick

    def ticked():
        ticks.append(time.monotonic())
        tick()

    srv.board.tick = ticked
    return srv, ticks


async def _until(cond, seconds=30):
    deadline = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < deadline, "not within %d s" % seconds
        await asyncio.sleep(0.005)


def test_a_request_in_hand_holds_the_frames_until_it_is_answered(tmp_path):
    srv, ticks = server(tmp_path)
    srv.hold_ms = 600000

    async def run():
        loop = asyncio.create_task(srv.frames())
        await _until(lambda: len(ticks) >= 2)  # the frames run
        srv.app.took()  # a request's body is in
        await asyncio.sleep(0.05)  # a frame may have been under way
        held = len(ticks)
        await asyncio.sleep(0.3)  # thirty frames' time: none drawn
        assert len(ticks) == held
        srv.app.done()  # answered: the frames go on at once
        await _until(lambda: len(ticks) > held + 2)
        loop.cancel()

    asyncio.run(run())


def test_the_hold_is_bounded(tmp_path):
    srv, ticks = server(tmp_path)
    srv.hold_ms = 40

    async def run():
        loop = asyncio.create_task(srv.frames())
        srv.app.took()  # a request in hand that is never answered
        await _until(lambda: len(ticks) >= 3)  # a frame every hold_ms all the same
        loop.cancel()

    asyncio.run(run())
    assert srv.app.serving == 1


class Heap:
    """gc as the server sees it: each collection counted."""

    def __init__(self):
        self.collections = 0

    def collect(self):
        self.collections += 1


def test_a_short_heap_is_collected_between_answers_never_within_one(tmp_path, monkeypatch):
    """The last look found the heap short (conn's note_heap: tidy): the frames' loop
    collects it once no answer is in hand, TIDY_AFTER_MS after the last answer's work, and
    only once a look; an answer in hand is never made to wait for it."""
    from boardweb import server as board_server

    heap = Heap()
    monkeypatch.setattr(board_server, "gc", heap)
    srv, ticks = server(tmp_path)
    srv.hold_ms = 600000

    async def run():
        loop = asyncio.create_task(srv.frames())
        await _until(lambda: len(ticks) >= 2)
        srv.app.took()  # a request in hand
        srv.app.tidy = True
        await asyncio.sleep(0.1)  # ten frames' time
        assert heap.collections == 0  # not while an answer is in hand
        srv.app.done()
        await _until(lambda: heap.collections == 1)  # between answers
        assert not srv.app.tidy
        held = len(ticks)
        await _until(lambda: len(ticks) > held + 3)
        assert heap.collections == 1  # once a look
        loop.cancel()

    asyncio.run(run())


def test_the_look_after_an_answer_asks_for_a_collection_when_the_heap_is_short(
        monkeypatch):
    from boardweb import conn

    class Look:
        free = conn.TIDY_FREE

        def mem_free(self):
            return self.free

    look = Look()
    monkeypatch.setattr(conn, "gc", look)
    app = conn.Guarded()
    app.note_heap()
    assert app.heap_ok and not app.tidy
    look.free = conn.TIDY_FREE - 1
    app.note_heap()
    assert app.heap_ok and app.tidy  # enough to take a connection, short for an answer
    look.free = conn.ADMIT_FREE - 1
    app.note_heap()
    assert not app.heap_ok and app.tidy
