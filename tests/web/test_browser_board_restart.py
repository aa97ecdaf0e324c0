"""A power cut while the dealer is half-way through tapping the crib (issue 36.5): the
board's own server (firmware/boardweb under MicroPython's unix port, its record on a store
folder) is killed after Alice's phone has picked the crib's first rank, and started again
on the same store. Her phone comes back by itself to the same question (its id comes of
the record) with that rank still picked, and her next taps send the crib once."""

import os
import sys

import httpx2 as httpx
import pytest
from browser import WAIT_MS, Phone
from taps import taps
from webtools import KEY, NAMES

from crib.web.unixboard import UnixBoard

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "webboth"))
from both import Players, Q, polled, seat, state  # noqa: E402

pytestmark = pytest.mark.browser
TALL = {"width": 360, "height": 740}
CHIP = "#chosen .chip[data-card='%s']"


def asked(http):
    """The state once a question is open (none while the board is still taking a change)."""
    return polled(lambda: state(http), lambda s: s["question"] is not None, "a question")


def test_a_crib_rank_picked_before_a_power_cut_is_still_picked_after_it(browser, tmp_path):
    board = UnixBoard(KEY, names=NAMES, target=61, dealer=0, store=str(tmp_path / "store"))
    phone = None
    with board as url, httpx.Client(base_url=url, headers={"X-Crib-Key": KEY},
                                    timeout=20) as http:
        try:
            phone = Phone(browser, board.join_url, 0, TALL)  # Alice's phone: she deals
            shared = seat(http, "table")  # the rest of the table answers from a shared screen
            players = Players(2, 61, False, seed=11)
            s = asked(http)
            while s["question"]["kind"] != "crib":
                q = s["question"]
                r = http.post("/api/answer", json={"question": q["id"], **shared,
                                                   "answer": players.answer(Q(q))})
                assert r.status_code == 200, r.text
                s = asked(http)
            q = s["question"]
            assert q["asks"] == 0 and q["legal"]["prefer"] == "ranks", q
            tapped = taps(q, players.answer(Q(q)))  # a rank a tap
            first = phone.page.locator("#panel " + tapped[0]).get_attribute("data-rank")
            phone.wait_for(q["id"])
            phone.settled()
            phone.page.click("#panel " + tapped[0])
            phone.page.wait_for_selector(CHIP % first, timeout=WAIT_MS)

            board.proc.kill()  # kill -9: the power is cut
            board.proc.wait(10)
            phone.page.wait_for_function(  # the phone sees the board gone
                "() => document.getElementById('net').textContent.includes('not answering')",
                timeout=WAIT_MS)
            board.start()  # and the power comes back: the same store, port and key
            assert asked(http)["question"]["id"] == q["id"]  # the same question, kept
            # the phone finds the board again by itself, its pick still there
            phone.page.wait_for_function(
                "() => !document.getElementById('net').textContent.trim()", timeout=WAIT_MS)
            phone.wait_for(q["id"])
            assert phone.page.locator("#chosen .chip").count() == 1
            phone.page.wait_for_selector(CHIP % first, timeout=WAIT_MS)
            for sel in tapped[1:]:
                phone.settled()
                phone.page.click("#panel " + sel)
            phone.page.wait_for_function(
                "(old) => document.getElementById('prompt').dataset.id !== old", arg=q["id"],
                timeout=WAIT_MS)
            assert asked(http)["question"]["id"] != q["id"]  # the crib taken, once
            assert not phone.errors, phone.errors
        finally:
            if phone is not None:
                phone.context.close()
        said = board.output()
    assert "Traceback" not in said, said
