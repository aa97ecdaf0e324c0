"""No entry lost on a phone, in a real browser: a fast second tap lands on nothing that
acts (not Undo, not the next screen's buttons), an undo is announced on every screen and
can be put back, and a tap during a network drop is kept, said, and sent when the phone is
back (the page never stays busy)."""

import time
from contextlib import contextmanager

import pytest
from browser import Phone, Serve
from test_browser import play
from webtools import Players

pytestmark = pytest.mark.browser

BIG_PHONE = {"width": 412, "height": 839}  # where the trial found Undo under the ranks


@contextmanager
def table(browser, tmp_path, until, viewport=None):  # noqa: F811
    """Alice and Bob on two phones, played (seed 3) until until(state); (serve, phones,
    players). Every phone is closed and the companion stopped after."""
    serve = Serve(tmp_path, ["Alice", "Bob"], 121)
    phones = []
    try:
        phones = [Phone(browser, serve.url, s, viewport) for s in (0, 1)]
        players = Players(2, 121, False, seed=3)
        play(serve, phones, players, until, check_board=False)
        yield serve, phones, players
    finally:
        for phone in phones:
            phone.close()
        serve.stop()


def tap_offline(serve, bob, players):
    """Bob's phone goes offline and Bob taps his card (by rank) to the open question: the
    question and the rank, once the page says it is kept."""
    q = serve.state()["question"]
    bob.settled()
    bob.context.set_offline(True)
    rank = players.answer(type("Q", (), q))
    bob.page.click(f"#panel [data-rank='{'T' if rank == '10' else rank}']")
    # "Offline" shows as soon as the phone is, before the tap's request has failed: wait for
    # the page to say the answer is kept, with no request under way (a retry makes the page
    # busy for a moment every RETRY_MS; a page left busy never gets here).
    bob.page.wait_for_function(
        "() => document.getElementById('net').textContent.includes('your answer is sent"
        " when the connection is back') && !document.body.classList.contains('busy')",
        timeout=10000)
    return q, rank


def when(serve, test, what, seconds=20):
    """The server's state once test(state) holds."""
    end = time.monotonic() + seconds
    while not test(s := serve.state()):
        assert time.monotonic() < end, what + " never came"
        time.sleep(0.05)
    return s


def undone_in_log(serve):
    return [e["text"] for e in serve.state()["log"] if "undone" in e["text"]]


@pytest.mark.parametrize("gap_ms", [80, 250])
def test_a_double_tap_on_a_card_lays_it_once(browser, tmp_path, gap_ms):  # noqa: F811
    with table(browser, tmp_path, lambda s: s["question"]["kind"] == "play",
               BIG_PHONE) as (serve, phones, _):
        q = serve.state()["question"]
        assert q["asks"] == 1 and "10" in q["legal"]["ranks"]
        bob = phones[1]
        bob.settled()
        bob.double_tap("#panel [data-rank='T']", gap_ms)
        bob.settled()  # every tap the page sent has had its answer: the server's state is final
        s = when(serve, lambda s: s["view"]["hand"]["pile"], "the card laid")
        assert undone_in_log(serve) == []
        assert [c[0] for c in s["view"]["hand"]["pile"]] == ["T"]
        assert s["question"]["asks"] == 0 and s["question"]["kind"] == "play"
        assert bob.page.is_hidden("#undone")


def test_a_double_tap_on_yes_pegs_the_show_once(browser, tmp_path):  # noqa: F811
    with table(browser, tmp_path, lambda s: s["question"]["kind"] == "confirm"
               and len(s["view"]["hand"]["shown"]) == 1, BIG_PHONE) as (serve, phones, _):
        dealer = phones[0]
        dealer.settled()
        # The count above Yes: each item's points as "+2", apart from the running total.
        items = serve.state()["log"][-1]["data"]["items"]
        adds = dealer.page.locator("#panel td.add").all_text_contents()
        assert adds == [f"+{it['points']}" for it in items] and adds
        dealer.double_tap("#panel [data-choice='y']", 150)
        dealer.settled()  # every tap the page sent has had its answer
        s = when(serve, lambda s: len(s["view"]["hand"]["shown"]) > 1, "the show pegged")
        assert undone_in_log(serve) == []
        assert len(s["view"]["hand"]["shown"]) == 2 and s["question"]["kind"] == "crib"
        assert dealer.page.text_content("#chosen") == ""  # the crib's picker untouched


def test_an_undo_is_said_on_every_screen_and_put_back(browser, tmp_path):  # noqa: F811
    with table(browser, tmp_path, lambda s: len(s["view"]["hand"]["pile"]) == 2) \
            as (serve, phones, _):
        before = serve.state()
        phones[0].settled()
        phones[0].page.click("#undo")
        for phone in phones:
            phone.page.wait_for_selector("#undone:not([hidden])")
            assert phone.page.text_content("#undone-text").startswith("Undone: Alice laid")
        assert len(serve.state()["view"]["hand"]["pile"]) == 1
        phones[1].settled()
        phones[1].page.click("#redo")  # put back from the other phone
        for phone in phones:
            phone.page.wait_for_selector("#undone", state="hidden")
        assert serve.state()["view"] == before["view"]


def test_a_tap_while_offline_is_said_kept_and_sent_when_back(browser, tmp_path):  # noqa: F811
    with table(browser, tmp_path, lambda s: s["question"]["kind"] == "play") \
            as (serve, phones, players):
        bob = phones[1]
        q, rank = tap_offline(serve, bob, players)
        assert serve.state()["question"]["id"] == q["id"]  # nothing arrived
        bob.context.set_offline(False)
        bob.page.wait_for_function("(old) => document.getElementById('prompt').dataset.id"
                                   " !== old", arg=q["id"], timeout=10000)
        s = serve.state()
        assert len(s["view"]["hand"]["pile"]) == 1 and s["question"]["asks"] == 0
        bob.page.wait_for_function("() => document.getElementById('net').textContent"
                                   " === ''", timeout=10000)
        # and the game goes on from both phones
        play(serve, phones, players, lambda s: len(s["view"]["hand"]["pile"]) >= 3,
             check_board=False)


def test_an_answer_kept_offline_and_overtaken_is_said_not_dropped(browser, tmp_path):  # noqa: F811
    with table(browser, tmp_path, lambda s: s["question"]["kind"] == "play"
               and s["question"]["asks"] == 1) as (serve, phones, players):
        bob = phones[1]
        q, rank = tap_offline(serve, bob, players)
        # Meanwhile Alice answers for Bob from her phone (the same card), with the seat's
        # token her phone holds (another join of her seat would be refused: it is held).
        alice = phones[0].page.evaluate(
            "() => JSON.parse(localStorage.getItem(Object.keys(localStorage)"
            ".find((k) => k.startsWith('crib.seat.'))))")
        assert alice["seat"] == 0, alice
        r = serve.http.post("/api/answer", json={"question": q["id"], "answer": rank,
                                                 "for": True, "seat": 0,
                                                 "token": alice["token"]})
        assert r.status_code == 200, r.text
        after = serve.state()
        bob.context.set_offline(False)
        bob.page.wait_for_function("() => document.getElementById('error').textContent"
                                   ".includes('meanwhile')", timeout=10000)
        said = bob.page.text_content("#error")
        assert said == f"Alice answered for you meanwhile; your {rank} was not sent.", said
        assert serve.state()["view"] == after["view"]  # Bob's answer never arrived


def test_a_new_version_of_the_same_question_keeps_the_buttons(browser, tmp_path):  # noqa: F811
    # After each answer the server sends the same question again with the board's new
    # picture (and news from the board): the page built its buttons again each time, so a
    # tap whose press and release straddled it was lost (the hunt's 3-player game waited
    # 20 s for an answer never sent), and a number being typed was cleared.
    with table(browser, tmp_path, lambda s: s["question"]["kind"] == "play") as (serve, phones,
                                                                                _):
        q = serve.state()["question"]
        bob = phones[q["asks"]]
        bob.settled()
        seven = bob.page.query_selector("#panel [data-rank='7']")
        picked = bob.page.query_selector("#panel button:not([disabled])")

        def newer(route):  # the same question, a version later, with news that shows (far
            # later: the stream's next versions, the board's picture, may come first)
            s = route.fetch().json()
            s["version"] += 1000
            s["answered"] = {"text": "Board news", "by": "the board"}
            route.fulfill(json=s)

        bob.page.route("**/state", newer)
        bob.page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
        bob.page.wait_for_selector("#answered:has-text('Board news')", timeout=10000)
        assert seven.evaluate("b => b.isConnected") and picked.evaluate("b => b.isConnected")
        bob.page.unroute("**/state")
        picked.click()  # the button kept still answers (the server moves on; this page
        # holds a version the server has not made, so it is not checked here)
        when(serve, lambda s: s["question"]["id"] != q["id"], "the answer")
