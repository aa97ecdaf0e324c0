"""The phone companion in a real browser (Debian's Chromium, driven by Playwright): a whole
2-player game to 61 tapped on two phones, one per player, with the virtual board's lit
holes checked after each peg (half the taps of a game to 121, ending the same way; whole
games to 121 are played through the engine in tests/table/test_show_ranks); a 3-player
game for two hands; a phone reloaded mid-hand; the server stopped mid-hand and resumed at
the same address; the cards picked kept across a reload. `crib serve` runs as players run
it."""

import signal
import time

import pytest
from browser import Phone, Serve, spread
from webtools import Players

pytestmark = pytest.mark.browser


class _Q:
    def __init__(self, d):
        self.__dict__.update(d)



def play(serve, phones, players, until, check_board=True, lag=None):
    """Answer each question on the phone of the seat asked (the first phone when no one is
    asked) until until(state) is true; every phone must show each new question. Returns
    the taps per hand (by hand number); lag (a list) gets, for each answer, the seconds
    from its last tap to the other phones' showing the next question."""
    taps = {}
    s = serve.state()
    last_pegs = s["view"]["pegs"]
    while not until(s):
        q = s["question"]
        phone = phones[q["asks"] if q["asks"] is not None else 0]
        before = phone.taps
        new = phone.answer(q, players.answer(_Q(q)))
        hand = s["view"]["hand"]["number"]
        taps[hand] = taps.get(hand, 0) + phone.taps - before
        for other in phones:  # pushed to every screen (the phone tapped: shown)
            if other is not phone:
                other.wait_for(new)
        if lag is not None:
            lag.append(time.monotonic() - phone.sent)
        s = serve.state()
        assert s["question"] is None or s["question"]["id"] == new
        if check_board and s["view"]["pegs"] != last_pegs and not s["view"]["over"]:
            last_pegs = s["view"]["pegs"]
            phones[-1].wait_lit(last_pegs)
    return taps


def test_a_whole_two_player_game_tapped_on_two_phones(browser, tmp_path):
    serve = Serve(tmp_path, ["Alice", "Bob"], 61)
    phones = []
    try:
        phones = [Phone(browser, serve.url, 0), Phone(browser, serve.url, 1)]
        assert phones[1].holes() == 2 * 122  # the two lanes in play, start to game hole
        phones[0].shot("web-starter.png")
        players = Players(2, 61, False, seed=3)
        lag = []
        taps = play(serve, phones, players, lambda s: s["question"]["kind"] == "another",
                    lag=lag)
        s = serve.state()
        g = players.g
        assert g.over and s["view"]["over"] and s["view"]["scores"] == list(g.scores)
        assert max(s["view"]["scores"]) >= 61
        for phone in phones:
            assert "wins" in phone.page.text_content("#log")
        phones[0].shot("web-over.png")
        print("crib serve: taps per hand:", taps)
        print("crib serve: answer to the other phone: %s" % spread(lag))
        full = [taps[h] for h in sorted(taps)[:-1]]  # the last hand stops at 61
        assert len(full) >= 2 and all(12 <= t <= 24 for t in full), taps
        assert sum(full) / len(full) <= 20  # a hand with cards, its show by ranks
        phones[0].answer(s["question"], "n")
        assert serve.state()["question"] is None
    finally:
        for phone in phones:
            phone.close()
        serve.stop()


def test_three_players_for_two_hands(browser, tmp_path):
    names = ["Ann", "Ben", "Cat"]
    serve = Serve(tmp_path, names, 121)
    phones = []
    try:
        phones = [Phone(browser, serve.url, i) for i in range(3)]
        phones[2].holes()
        players = Players(3, 121, False, seed=8)
        play(serve, phones, players, lambda s: s["view"]["hand"]["number"] > 2)
        s = serve.state()
        assert s["view"]["scores"] == list(players.g.scores)
        assert s["question"]["kind"] == "starter" and s["view"]["dealer"] == 2
    finally:
        for phone in phones:
            phone.close()
        serve.stop()


def test_a_phone_reloaded_mid_hand_keeps_its_seat(browser, tmp_path):
    serve = Serve(tmp_path, ["Alice", "Bob"], 121)
    phones = []
    try:
        phones = [Phone(browser, serve.url, 0), Phone(browser, serve.url, 1)]
        phones[1].holes()
        players = Players(2, 121, False, seed=4)
        play(serve, phones, players, lambda s: len(s["view"]["hand"]["pile"]) >= 3)
        qid = serve.state()["question"]["id"]
        phones[1].page.reload()  # the page again: the seat is remembered, no sign-in
        phones[1].wait_for(qid)
        assert phones[1].page.is_hidden("#seats")
        assert "your turn" in phones[1].page.text_content("#turn") or \
            serve.state()["question"]["asks"] != 1
        assert len(phones[1].page.query_selector_all("#hand .cards span")) >= 3
        assert phones[1].holes() == 2 * 122  # the reloaded page shows the board again
        play(serve, phones, players, lambda s: s["view"]["hand"]["number"] > 1,
             check_board=False)
        assert serve.state()["view"]["scores"] == list(players.g.scores)
    finally:
        for phone in phones:
            phone.close()
        serve.stop()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_the_server_stopped_mid_hand_and_resumed(browser, tmp_path, sig):
    """Ctrl-C (or killed) and `crib serve --resume`: the same address and key, so the
    phones reconnect by themselves and keep their seats; Ctrl-C says one line."""
    serve = Serve(tmp_path, ["Alice", "Bob"], 121)
    phones = []
    try:
        phones = [Phone(browser, serve.url, 0), Phone(browser, serve.url, 1)]
        players = Players(2, 121, False, seed=6)
        play(serve, phones, players, lambda s: len(s["view"]["hand"]["pile"]) >= 4,
             check_board=False)
        before = serve.state()["view"]
        url = serve.url
        out = serve.stop(sig)
        if sig == signal.SIGINT:
            said = [line for line in out.splitlines()[1:] if "this computer only" not in line
                    and "Ctrl-C stops" not in line and line.strip()]
            assert len(said) == 1 and "game is saved" in said[0], out
            assert "Traceback" not in out
        serve = Serve(tmp_path, ["Alice", "Bob"], resume=True)
        assert serve.url == url  # the same address and key
        s = serve.state()
        assert s["view"]["scores"] == before["scores"]
        assert s["view"]["hand"]["pile"] == before["hand"]["pile"]
        for phone in phones:  # nobody scans or picks a seat again
            phone.wait_for(s["question"]["id"])
            assert phone.page.is_hidden("#seats")
        play(serve, phones, players, lambda s: s["view"]["hand"]["number"] > 1,
             check_board=False)
        assert serve.state()["view"]["scores"] == list(players.g.scores)
    finally:
        for phone in phones:
            phone.close()
        out = serve.stop()
    assert "game is saved" in out


def test_a_reload_keeps_the_cards_picked(browser, tmp_path):
    serve = Serve(tmp_path, ["Alice", "Bob"], 121)
    phones = []
    try:
        phones = [Phone(browser, serve.url, 0), Phone(browser, serve.url, 1)]
        players = Players(2, 121, False, seed=3)
        play(serve, phones, players, lambda s: s["question"]["kind"] == "crib",
             check_board=False)
        alice = phones[0]
        alice.settled()
        q = serve.state()["question"]
        ranks = [r for r, n in q["legal"]["room"].items() if n][:2]
        for r in ranks:
            alice.page.click(f"#panel [data-rank='{'T' if r == '10' else r}']")
        alice.page.wait_for_selector("#chosen .chip >> nth=1")
        alice.page.reload()
        alice.wait_for(q["id"])
        assert [c.text_content() for c in alice.page.query_selector_all("#chosen .chip")] \
            == ranks
    finally:
        for phone in phones:
            phone.close()
        serve.stop()


def test_a_totals_only_hand(browser, tmp_path):
    serve = Serve(tmp_path, ["Alice", "Bob"], 121, extra=("--totals",))
    phones = []
    try:
        phones = [Phone(browser, serve.url, 0), Phone(browser, serve.url, 1)]
        players = Players(2, 121, False, seed=7, totals=True)
        taps = play(serve, phones, players, lambda s: s["view"]["hand"]["number"] > 1)
        assert taps[1] <= 7  # the starter (2), two play totals, two hands and a crib
        assert serve.state()["view"]["scores"] == list(players.g.scores)
    finally:
        for phone in phones:
            phone.close()
        serve.stop()
