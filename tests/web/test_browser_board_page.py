"""The board's own page (firmware/boardweb under MicroPython's unix port) as players see it
on two 360x740 phones: the board drawn from the layout and pegs the server sends (no
picture made on the chip), each row named and edged in its lane's colour, the enlarged
view's lanes in the small one's order with their names; the confirmation's show shown
once; the QR code centred; "read the show aloud" on one line; the board's Wi-Fi in the
menu (the network it is on; its home network set from the table's screen only, the
password never shown back); a server that stops
answering named as the game's server (there is no companion here)."""

import httpx2 as httpx
import pytest
from browser import PHONE, WAIT_MS, Phone
from webtools import KEY, NAMES, Players

from crib.web.unixboard import UnixBoard

pytestmark = pytest.mark.browser
TALL = {"width": 360, "height": 740}


class _Q:
    def __init__(self, d):
        self.__dict__.update(d)


SHOWN_JS = """(seq) => document.querySelectorAll('#panel .ev.show').length
    + document.querySelectorAll('#log .ev.show[data-seq="' + seq + '"]').length"""
PULSING_JS = """() => [...new Set([...document.querySelectorAll('#board circle.turn')]
    .map((c) => c.dataset.lane))]"""
ONE_LINE_JS = """(id) => { const r = document.createRange();
    r.selectNodeContents(document.getElementById(id).lastChild);  // its words
    return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; }"""


def test_the_board_page_draws_the_lanes_and_says_what_it_is(browser, tmp_path):
    board = UnixBoard(KEY, names=NAMES, target=61, dealer=0, home=str(tmp_path / "home"))
    phones = []
    with board as url, httpx.Client(base_url=url, headers={"X-Crib-Key": KEY},
                                    timeout=20) as http:
        try:
            phones = [Phone(browser, board.join_url, 0, TALL),
                      Phone(browser, board.join_url, 1, TALL)]
            page = phones[0].page
            s = http.get("/state").json()
            assert http.get("/board.svg").status_code == 404  # nothing drawn on the chip
            lanes = s["lanes"]
            assert [ln["name"] for ln in lanes[:2]] == ["Red", "Blue"] and s["holes"] == 121
            assert phones[0].holes() == 2 * 122  # the lanes in play, start to game hole
            marks = page.evaluate("""() => Object.fromEntries(['5', '30', '31', '61'].map(
                (h) => [h, document.querySelectorAll('#board circle.mark[data-hole="' + h
                                                     + '"]').length]))""")
            assert marks == {"5": 2, "30": 2, "31": 2, "61": 2}  # 5ths, skunk, game hole
            for side, lane in enumerate(lanes[:2]):
                row = f"#scores .side[data-side='{side}']"
                assert page.text_content(f"{row} .lane-name") == lane["name"]
                assert page.evaluate(f"() => document.querySelector(\"{row}\")"
                                     ".style.getPropertyValue('--c')") == lane["colour"]
            small = page.evaluate("""() => [...document.querySelectorAll('#board rect.lane')]
                .map((r) => [r.dataset.lane, r.getBoundingClientRect().top])""")
            assert [lane for lane, _ in sorted(small, key=lambda x: x[1])] == ["0", "1"]
            page.click("#board")
            page.wait_for_selector("body.board-big #board svg.tall", timeout=WAIT_MS)
            labels = page.evaluate("""() => [
                ...document.querySelectorAll('#board text.lane-label')]
                .map((t) => [t.getBoundingClientRect().left, t.textContent])""")
            assert [name for _, name in sorted(labels)] == ["Red", "Blue"]  # as small: 0, 1
            big = page.query_selector("#board svg").bounding_box()
            assert big["height"] > 600 and big["width"] <= 360
            phones[0].shot("board-big.png")
            page.click("#board")
            page.wait_for_selector("body:not(.board-big) #board svg:not(.tall)",
                                   timeout=WAIT_MS)

            page.click("#join summary")  # the joining code, centred; the options one line
            qr = page.wait_for_selector("#qr svg", timeout=WAIT_MS).bounding_box()
            assert abs(qr["x"] + qr["width"] / 2 - TALL["width"] / 2) <= 2, qr
            assert page.evaluate(ONE_LINE_JS, "speak-label") == 1
            phones[0].shot("board-join.png")
            page.click("#join summary")

            # The board's Wi-Fi in the menu: the network it is on (here: no radio, the unix
            # port); its home network set from the table's screen only, never shown back.
            page.click("#wifi summary")
            page.wait_for_selector("#home-only:not([hidden])", timeout=WAIT_MS)
            assert "unix port" in page.text_content("#network")
            assert page.is_hidden("#home-form")  # a player's seat: the note, not the form
            page.click("#wifi summary")
            shared = Phone(browser, board.join_url, "table", TALL)
            phones.append(shared)
            sp = shared.page
            sp.click("#wifi summary")
            sp.wait_for_selector("#home-form:not([hidden])", timeout=WAIT_MS)
            sp.fill("#home-ssid", "Our house")
            sp.fill("#home-password", "secret-words")
            sp.click("#home-save")
            sp.wait_for_selector("#home-said:has-text('Saved')", timeout=WAIT_MS)
            sp.wait_for_selector("#network:has-text('Our house (password set)')",
                                 timeout=WAIT_MS)
            said = sp.text_content("#home-said")
            assert "at its next start" in said and ".local/" in said, said
            assert sp.input_value("#home-password") == ""
            assert "secret-words" not in sp.content()
            if shared.shots():  # the menu whole, its top just under the sticky header (a
                # tall phone: scrolled to the answer alone, the network line sat under it)
                sp.set_viewport_size({"width": 360, "height": 900})
                sp.evaluate("""() => {
                  const top = document.getElementById('top').getBoundingClientRect().height;
                  const y = document.getElementById('wifi').getBoundingClientRect().top;
                  window.scrollBy(0, y - top - 8);
                }""")
                shared.shot("web-board-wifi.png")  # docs/boardweb.md
                sp.set_viewport_size(PHONE["viewport"])
            assert http.get("/api/network").json()["home"] == "Our house"

            players = Players(2, 61, False, seed=5)
            confirmed = 0
            while confirmed < 2:  # the pegs lit on the picture; each show shown once
                q = s["question"]
                phone = phones[q["asks"] if q["asks"] is not None else 0]
                if q["kind"] == "confirm":
                    phone.wait_for(q["id"])
                    seq = [e for e in s["log"] if e["kind"] == "show"][-1]["seq"]
                    assert phone.page.evaluate(SHOWN_JS, seq) == 1
                    confirmed += 1
                    phone.shot("board-confirm.png", once=True)
                new = phone.answer(q, players.answer(_Q(q)))
                phones[1].wait_for(new)
                s = http.get("/state").json()
                phones[1].wait_lit(s["view"]["pegs"])
                q = s["question"]  # the lane asked to play or count: its marks pulse
                pulsing = phones[1].page.evaluate(PULSING_JS)
                asked = [str(q["asks"])] if q["kind"] in ("play", "show", "crib") else []
                assert pulsing == asked, (q, pulsing)

            board.proc.terminate()  # the server stops answering: said, with no companion
            board.proc.wait(10)
            page.wait_for_selector("body.offline", timeout=WAIT_MS)
            said = page.text_content("#net")
            assert "not answering" in said and "companion" not in said, said
            phones[0].shot("board-lost.png")
        finally:
            for phone in phones:
                phone.close()
