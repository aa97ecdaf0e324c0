"""Seats on the page, in a real browser (Debian's Chromium): a seat another phone holds
is offered as taken; tapping it asks "Take Alice's seat from the other phone?" and takes
it only when agreed; the earlier phone, at its next answer, is told its seat moved and
asked to choose a seat again."""

import pytest
from browser import PHONE, WAIT_MS, Phone, Serve
from test_browser import _Q
from webtools import Players

pytestmark = pytest.mark.browser


def test_a_held_seat_is_taken_on_a_second_tap_and_the_first_phone_is_told(browser, tmp_path):
    serve = Serve(tmp_path, ["Alice", "Bob"], 121)
    alice = None
    context = browser.new_context(**PHONE)
    try:
        alice = Phone(browser, serve.url, 0)
        page = context.new_page()
        asked = []

        def dialog(d):
            asked.append(d.message)
            (d.dismiss if len(asked) == 1 else d.accept)()  # no the first time, then yes
        page.on("dialog", dialog)
        page.goto(serve.url)
        page.wait_for_selector("#seat-list [data-seat='0']", timeout=WAIT_MS)
        page.wait_for_function("() => document.querySelector(\"#seat-list [data-seat='0']\")"
                               ".textContent.includes('(taken)')", timeout=WAIT_MS)
        # the question comes once the join is refused (409): wait for it, not for the tap
        with page.expect_event("dialog", timeout=WAIT_MS):
            page.click("#seat-list [data-seat='0']")
        assert asked == ["Take Alice's seat from the other phone?"]
        assert page.is_visible("#seats")  # not taken: the seat is still Alice's phone's
        page.click("#seat-list [data-seat='0']")
        page.wait_for_selector("#seats", state="hidden", timeout=WAIT_MS)
        assert len(asked) == 2
        q = serve.state()["question"]
        players = Players(2, 121, False, seed=3)
        with pytest.raises(AssertionError, match="your seat moved to another phone"):
            alice.answer(q, players.answer(_Q(q)))
        alice.page.wait_for_selector("#seats", state="visible", timeout=WAIT_MS)
        assert serve.state()["question"]["id"] == q["id"]  # nothing was answered
    finally:
        context.close()
        if alice is not None:
            alice.close()
        serve.stop()
