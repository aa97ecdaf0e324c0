"""Where the page keeps its key, in a real browser (Debian's Chromium, Playwright): two
companions on two ports of one host, opened in one browser (one cookie jar), each keep
their own key across reloads; the key leaves the address bar once the page has it; no
cookie carries it (cookies are not scoped by port: every server on the host gets them)."""

import pytest
from browser import CHROMIUM, CHROMIUM_ARGS, WAIT_MS
from webtools import KEY, make_hub

from crib.web.app import create_app
from crib.web.server import Background

pytestmark = pytest.mark.browser

OTHER_KEY = "b" * len(KEY)
ASKED = "#prompt[data-id]:not([data-id=''])"  # the page got the state: its key was taken


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def companion(db, key):
    return Background(create_app(make_hub(db), key, "http://127.0.0.1/?k=" + key))


def test_two_companions_on_one_host_keep_their_own_keys(browser, tmp_path):
    with companion(str(tmp_path / "a.sqlite3"), KEY) as a, \
            companion(str(tmp_path / "b.sqlite3"), OTHER_KEY) as b:
        context = browser.new_context()
        pa, pb = context.new_page(), context.new_page()
        pa.goto(a + "/?k=" + KEY)
        pa.wait_for_selector(ASKED, timeout=WAIT_MS)
        pb.goto(b + "/?k=" + OTHER_KEY)  # the second companion, after the first
        pb.wait_for_selector(ASKED, timeout=WAIT_MS)
        for page, base in ((pa, a), (pb, b)):
            assert page.url == base + "/"  # no key in the address bar
        cookies = context.cookies()
        assert not [c for c in cookies if KEY in c["value"] or OTHER_KEY in c["value"]]
        # Each page, reloaded at its bare address, still has its own key (the first is not
        # overwritten by the second) and reaches its own game.
        for page, base, key in ((pa, a, KEY), (pb, b, OTHER_KEY)):
            page.goto(base + "/")
            page.wait_for_selector(ASKED, timeout=WAIT_MS)
            assert page.evaluate("localStorage.getItem('crib.key')") == key
            assert page.text_content("#join-url") == "http://127.0.0.1/?k=" + key
            assert page.inner_html("#qr").startswith("<svg")
            assert "no longer the game's" not in page.text_content("#net")
        context.close()


def test_a_page_without_its_key_says_which_address_to_open(browser, tmp_path):
    with companion(str(tmp_path / "a.sqlite3"), KEY) as a:
        context = browser.new_context()
        page = context.new_page()
        page.goto(a + "/")
        page.wait_for_selector("body.offline", timeout=WAIT_MS)
        said = page.text_content("#net")
        assert "open the game's joining address again" in said and "crib serve" not in said
        assert "Alice" not in page.content()
        context.close()
