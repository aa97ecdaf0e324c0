"""The phone page against the board's own server (firmware/boardweb: microdot under
MicroPython's unix port, heap capped), in a real browser: a whole 2-player game tapped on
two phones (360x740), one per player, the board's LEDs (the firmware App's pegs, which it
lights, and the lane asked to play, which pulses) checked after each peg. Screenshots into
$CRIB_SHOTS as board-*.png."""

import os
import time

import httpx2 as httpx
import pytest
from browser import Phone, spread
from webtools import KEY, NAMES, Players

from crib.web.unixboard import UnixBoard

pytestmark = pytest.mark.browser
TALL = {"width": 360, "height": 740}


class _Q:
    def __init__(self, d):
        self.__dict__.update(d)



def test_a_whole_game_on_two_phones_against_the_board(browser):
    board = UnixBoard(KEY, names=NAMES, target=61, dealer=0)
    phones = []
    with board as url, httpx.Client(base_url=url, headers={"X-Crib-Key": KEY},
                                    timeout=20) as http:
        try:
            phones = [Phone(browser, board.join_url, 0, TALL),
                      Phone(browser, board.join_url, 1, TALL)]
            players = Players(2, 61, False, seed=5)
            s = http.get("/state").json()
            pegged = shots = 0
            taps, lag = {}, []
            while s["question"]["kind"] != "another":
                q = s["question"]
                phone = phones[q["asks"] if q["asks"] is not None else 0]
                before = phone.taps
                new = phone.answer(q, players.answer(_Q(q)))
                hand = s["view"]["hand"]["number"]
                taps[hand] = taps.get(hand, 0) + phone.taps - before
                for other in phones:  # pushed to every screen (the phone tapped: shown)
                    if other is not phone:
                        other.wait_for(new)
                lag.append(time.monotonic() - phone.sent)
                before, s = s, http.get("/state").json()
                lit = http.get("/test/board").json()
                assert lit["pegs"] == s["view"]["pegs"], (q, lit, s["view"]["pegs"])
                if s["view"]["pegs"] != before["view"]["pegs"]:
                    pegged += 1
                asked = s["question"]
                if asked["kind"] == "play" and not s["view"]["over"]:
                    assert lit["turn"] == asked["asks"], (asked, lit)
                if os.environ.get("CRIB_SHOTS") and shots < 3 and q["kind"] == "play":
                    shots += 1
                    phone.page.screenshot(path=os.path.join(os.environ["CRIB_SHOTS"],
                                                            "board-play-%d.png" % shots))
            g = players.g
            assert g.over and s["view"]["over"] and s["view"]["scores"] == list(g.scores)
            assert pegged > 10
            print("the board: taps per hand:", taps)
            print("the board: answer to the other phone: %s" % spread(lag))
            full = [taps[h] for h in sorted(taps)[:-1]]  # the last hand stops at 61
            assert len(full) >= 2 and all(12 <= t <= 24 for t in full), taps
            assert sum(full) / len(full) <= 20, taps  # its show by ranks, as crib serve
            for phone in phones:
                assert "wins" in phone.page.text_content("#log")
            phones[0].shot("board-over.png")
            phones[0].answer(s["question"], "n")
            assert http.get("/state").json()["question"] is None
            assert board.alive() and "Traceback" not in board.output(), board.output()
        finally:
            for phone in phones:
                phone.close()
