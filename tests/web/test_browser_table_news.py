"""What every screen says besides the question, in a real browser at phone size: who
answered for whom, the result of a game that ended (before "Another game?"), and a board
that stopped answering (on the waiting screen and on the question screen alike). The app
runs in this process on a board in memory that can be unplugged."""

import os
import tempfile
from contextlib import contextmanager

import pytest
from browser import WAIT_MS, Phone, Serve
from webtools import KEY, Unplugged, make_hub

from crib.web.app import create_app
from crib.web.server import Background

pytestmark = pytest.mark.browser


@contextmanager
def served(names=("Alice", "Bob"), target=121, board=None):
    """The app on a free loopback port: (joining address, hub)."""
    with tempfile.TemporaryDirectory() as d:
        hub = make_hub(os.path.join(d, "history.sqlite3"), list(names), target, board=board)
        with Background(create_app(hub, KEY, "http://127.0.0.1/?k=" + KEY)) as base:
            yield f"{base}/?k={KEY}", hub
        hub.stop()


def tap(phone, hub, text):
    """Answer the open question on phone, as its player taps it."""
    return phone.answer(hub.state["question"], text)


def wait_text(phone, selector, text):
    phone.page.wait_for_function(
        "([s, t]) => { const e = document.querySelector(s);"
        " return e && !e.hidden && e.textContent.includes(t); }",
        arg=[selector, text], timeout=WAIT_MS)


def in_view(phone, selector):
    """Whether selector is drawn inside the phone's screen (not scrolled away)."""
    box = phone.page.query_selector(selector).bounding_box()
    return (box is not None and box["height"] > 0 and box["y"] >= 0
            and box["y"] + box["height"] <= phone.page.viewport_size["height"])


def test_every_screen_says_who_answered_for_whom(browser):  # noqa: F811
    with served() as (url, hub):
        alice, bob = Phone(browser, url, 0), Phone(browser, url, 1)
        try:
            tap(alice, hub, "5h")
            q = hub.state["question"]
            assert q["asks"] == 1  # Bob's turn: Alice answers for him, as he asked
            alice.wait_for(q["id"])
            alice.settled()
            alice.page.check("#for")
            tap(alice, hub, "7")
            for phone in (alice, bob):
                wait_text(phone, "#answered", "Alice answered for Bob: 7")
                assert in_view(phone, "#answered")
        finally:
            alice.close()
            bob.close()


def test_game_over_leads_with_the_winner_the_score_and_the_skunk(browser):  # noqa: F811
    with served(target=5) as (url, hub):
        phone = Phone(browser, url, "table")
        try:
            for card in ("5h", "5", "5", "5"):  # Bob pegs out with a pair royal
                tap(phone, hub, card)
            assert hub.state["question"]["kind"] == "another"
            wait_text(phone, "#result h2", "Bob wins")
            assert phone.page.text_content("#result .final") == "Bob 5 \u2013 Alice 2"
            result = phone.page.query_selector("#result").bounding_box()
            prompt = phone.page.query_selector("#prompt").bounding_box()
            assert result["y"] + result["height"] <= prompt["y"]  # the result, then the ask
            assert phone.page.text_content("#prompt") == "Another game?"
            assert in_view(phone, "#result")
            phone.shot("web-over.png")
        finally:
            phone.close()


def test_a_skunk_is_said_with_the_result(browser):  # noqa: F811
    with served(target=31) as (url, hub):
        phone = Phone(browser, url, "table")
        try:
            tap(phone, hub, "5h")
            hub.call(lambda: hub.engine.board.press(1, 31))  # Bob pegs out on the board
            wait_text(phone, "#result .skunk", "Skunk!")
            assert phone.page.text_content("#result .final") == "Bob 31 \u2013 Alice 0"
        finally:
            phone.close()


def test_board_offline_is_drawn_on_the_waiting_and_the_question_screen(browser):  # noqa: F811
    board = Unplugged(4)
    with served(board=board) as (url, hub):
        alice, bob = Phone(browser, url, 0), Phone(browser, url, 1)
        try:
            tap(alice, hub, "5h")
            assert not alice.page.text_content("#board-off")
            board.down = True  # unplugged
            tap(bob, hub, "7")
            tap(alice, hub, "8")  # fifteen for 2: the peg cannot be sent
            assert hub.state["view"]["offline"] and hub.state["question"]["asks"] == 1
            for phone in (alice, bob):  # Alice waits for Bob; Bob is asked to play
                wait_text(phone, "#board-off", "Board offline")
                assert in_view(phone, "#board-off")
            assert alice.page.is_visible("#panel .small")  # "Waiting for Bob."
            assert bob.page.is_visible("#panel [data-rank='5']")
            bob.shot("web-board-offline.png")
            board.down = False  # back: the peg that waited is sent, the banner goes
            for phone in (alice, bob):
                phone.page.wait_for_function(
                    "() => !document.getElementById('board-off').textContent",
                    timeout=WAIT_MS)
            assert board.state().fronts[0] == 2
        finally:
            alice.close()
            bob.close()


def test_rows_in_their_lanes_colours_and_the_board_larger_on_a_tap(browser, tmp_path):  # noqa: F811
    serve = Serve(tmp_path, ["Alice", "Bob"], 121)
    phone = None
    try:
        phone = Phone(browser, serve.url, 0)
        phone.holes()  # the picture is shown
        lanes = serve.state()["lanes"]
        assert [ln["name"] for ln in lanes[:2]] == ["Red", "Blue"]
        for side, lane in enumerate(lanes[:2]):
            row = f"#scores .side[data-side='{side}']"
            assert phone.page.text_content(f"{row} .lane-name") == lane["name"]
            colour = phone.page.evaluate(f"() => document.querySelector(\"{row}\")"
                                         ".style.getPropertyValue('--c')")
            assert colour == lane["colour"]
        small = phone.page.query_selector("#board svg").bounding_box()
        phone.page.click("#board")
        phone.page.wait_for_selector("body.board-big", timeout=WAIT_MS)
        big = phone.page.query_selector("#board svg").bounding_box()
        assert big["width"] * big["height"] > 2 * small["width"] * small["height"]
        phone.shot("web-board-big.png")
        phone.page.click("#board")
        phone.page.wait_for_selector("body:not(.board-big)", timeout=WAIT_MS)
    finally:
        if phone is not None:
            phone.close()
        serve.stop()


def test_the_board_on_a_360_px_phone_has_holes_of_6_px_and_only_the_lanes_in_play(
        browser, tmp_path):  # noqa: F811
    serve = Serve(tmp_path, ["Alice", "Bob"], 121)
    phone = None
    try:
        phone = Phone(browser, serve.url, 0, viewport={"width": 360, "height": 740})
        phone.holes()  # the picture is shown
        boxes = phone.page.evaluate("""() => [...document.querySelectorAll('#board circle.hole')]
            .map((c) => [c.dataset.lane, c.getBoundingClientRect().width])""")
        assert {lane for lane, _ in boxes} == {"0", "1"}  # two players: two lanes
        assert min(w for _, w in boxes) >= 6.0
        fronts = phone.page.query_selector_all("#board circle.peg.front")
        assert len(fronts) == 2  # each lane's front peg, in the start hole
        phone.shot("web-board-360.png")
    finally:
        if phone is not None:
            phone.close()
        serve.stop()
