"""A club night in a real browser (Debian's Chromium, Playwright): six players on six
phones and the director's page, three rounds. Each round the winner's phone enters the
result in two taps (who won, the loser's score), the opponent's phone confirms it, and the
standings on the director's page and on every phone follow by themselves (no reload);
the director pairs the next round when the last result is in, and corrects one. The
browser is the module-scoped one of tests/web/conftest.py."""

import os

import pytest
from browser import PHONE, WAIT_MS

from crib.club.night import Club
from crib.history.db import History
from crib.web.clubapp import create_club_app
from crib.web.server import Background

pytestmark = pytest.mark.browser

KEY, DIRECTOR = "club-browser-key", "club-director-key"
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
# The loser's score at each table of each round (the first-named player wins): 80 and
# 60 are skunks (3 game points), the rest 2.
SCORES = [[80, 100, 120], [60, 91, 110], [95, 45, 105]]


def tally(games):
    """What the standings must say, worked out here: player -> (points, wins, spread)."""
    out = {p: [0, 0, 0] for p in PLAYERS}
    for winner, loser, score in games:
        out[winner][0] += 3 if score < 91 else 2
        out[winner][1] += 1
        out[winner][2] += 121 - score
        out[loser][2] -= 121 - score
    return {p: tuple(v) for p, v in out.items()}


def shown(page):
    """The standings a page shows: player -> (points, wins, spread), and the order."""
    rows = page.eval_on_selector_all("#standings tr", "rs => rs.slice(1).map("
                                     "r => [...r.cells].map(c => c.textContent))")
    return {r[1]: (int(r[2]), int(r[3]), int(r[4])) for r in rows}, [r[1] for r in rows]


def wait_standings(page, want):
    """Wait until the page shows the standings want (by itself: no reload)."""
    page.wait_for_function(
        "want => { const rows = [...document.querySelectorAll('#standings tr')].slice(1);"
        " return rows.length === Object.keys(want).length && rows.every(r => {"
        " const c = [...r.cells].map(x => x.textContent); const w = want[c[1]];"
        " return w && +c[2] === w[0] && +c[3] === w[1] && +c[4] === w[2]; }); }",
        arg={p: list(v) for p, v in want.items()}, timeout=WAIT_MS)


def shot(page, name):
    """A screenshot into $CRIB_SHOTS (the docs' pictures), when it is set."""
    where = os.environ.get("CRIB_SHOTS")
    if where:
        page.screenshot(path=os.path.join(where, name), full_page=True)


def test_a_six_player_night_from_the_phones_and_the_directors_page(browser, db):
    h = History.open(db)
    try:
        Club(h).new("Friday club", PLAYERS, 3, seed=5, fees={"entry": 500})
    finally:
        h.close()
    errors = []
    size = dict(PHONE, viewport={"width": 360, "height": 740})
    with Background(create_club_app(db, KEY, DIRECTOR)) as url:
        director = browser.new_context(**size).new_page()
        director.on("pageerror", lambda e: errors.append(str(e)))
        director.goto(f"{url}/director?k={KEY}&d={DIRECTOR}")
        phones = {}
        for name in PLAYERS:
            page = browser.new_context(**size).new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{url}/?k={KEY}")
            page.click(f"#me button:text-is('{name}')", timeout=WAIT_MS)
            page.wait_for_selector("#seat", timeout=WAIT_MS)
            phones[name] = page
        games = []
        for number, scores in enumerate(SCORES, 1):
            # each phone shows its table of this round, by itself
            for page in phones.values():
                page.wait_for_selector(f"#seat:has-text('Round {number},')", timeout=WAIT_MS)
            tables = director.eval_on_selector_all(
                "#rounds table:first-of-type tr", "rs => rs.map(r => r.cells[1].textContent)")
            assert len(tables) == 3
            for pair, score in zip(tables, scores):
                winner, loser = pair.split(" v ")
                phone = phones[winner]
                phone.click("button[data-winner='%s']" % winner)  # tap 1: who won
                phone.fill("#score", str(score))
                phone.click("#send")  # tap 2: the loser's score, sent
                phone.wait_for_selector("#result:has-text('waiting for %s')" % loser,
                                        timeout=WAIT_MS)
                phones[loser].click("#confirm", timeout=WAIT_MS)  # the opponent agrees
                games.append((winner, loser, score))
                wait_standings(director, tally(games))  # live, on the director's page
            for page in phones.values():
                wait_standings(page, tally(games))  # and on every phone
            if number == 2:
                shot(phones[PLAYERS[0]], "club-phone.png")
            if number < len(SCORES):
                director.click("#next:not([disabled])", timeout=WAIT_MS)
        want = tally(games)
        got, order = shown(director)
        assert got == want
        assert order == sorted(want, key=lambda p: (-want[p][0], -want[p][1], -want[p][2]))
        # the director corrects the last game: the standings follow, the old one is kept
        winner, loser, _ = games[-1]
        director.select_option("#fix-table", "3")
        director.select_option("#fix-winner", loser)
        director.fill("#fix-score", "118")
        director.fill("#fix-note", "pegged short")
        director.click("#fix")
        games[-1] = (loser, winner, 118)
        wait_standings(director, tally(games))
        wait_standings(phones[winner], tally(games))
        shot(director, "club-standings.png")
    assert not errors, errors
