"""The board's Wi-Fi on its page (boardweb.homeroute), under MicroPython's unix port: the
network it is on (GET /api/network), and its home network set or forgotten by the table's
screen (POST /api/home): the key, the seat, the SSID and password checked, nothing changed
on a refusal, the password never sent back. With pegboard.wifi's radio on its fake driver
(wifiboard.py: on its own network; a home network never answers), and without a radio
(boardweb.unix: a board under the unix port says so)."""

import httpx2 as httpx
import pytest
from both import seat
from test_wifi_board import WifiBoard, set_up

from crib.web import assets
from crib.web.unixboard import UnixBoard
from cribcore.table.seats import seat_token
from pegboard import homenet
from pegboard.homenet import extend_home

PASSWORD = "secret-words"


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    """The Wi-Fi board's process, its key, its root (flash) and a client with the key."""
    root = tmp_path_factory.mktemp("wifiboard")
    assets.write(str(root / "page"), "http://192.168.4.1/")
    extend_home()  # the `wifi` and `home` verbs' fields, as crib.board.wifi reads them
    b = WifiBoard(root)
    try:
        b.key = b.usb("wifi").args["key"]
        b.c = b.client(b.key)
        yield b
        b.c.close()
    finally:
        if b.proc.poll() is None:
            b.cut()


def kept(board):
    """The home network file on the board's flash, as bytes (None: not there)."""
    path = board.root / homenet.FILE.lstrip("/")
    return path.read_bytes() if path.exists() else None


def post(board, body, **kw):
    return board.c.post("/api/home", json=body, **kw)


def table(board):
    return seat(board.c, "table")


def test_the_page_is_told_which_network_the_board_is_on(board):
    n = board.c.get("/api/network").json()
    own = board.usb("wifi").args["ssid"]
    name = board.usb("home").args["name"]
    assert (n["wifi"], n["form"], n["net"], n["address"]) == (True, True, "own", "192.168.4.1")
    assert (n["name"], n["page"]) == (name, "http://%s.local/" % name)
    assert own in n["line"] and "192.168.4.1" in n["line"]
    assert board.c.get("/api/network", headers={"X-Crib-Key": "x" * 22}).status_code == 403


def test_the_table_sets_the_home_network_and_its_password_is_never_sent_back(board):
    r = post(board, dict(table(board), ssid="Our house", password=PASSWORD))
    assert r.status_code == 200, r.text
    got = r.json()
    assert (got["ok"], got["home"], got["set"], got["when"]) == (True, "Our house", True, "now")
    name = board.usb("home").args["name"]
    assert "http://%s.local/" % name in got["say"] and "Our house" in got["say"]
    assert "192.168.4.1" in got["say"]  # the way back if it cannot join
    assert homenet.parse(kept(board)) == (name, ("Our house", PASSWORD))  # on its flash
    n = board.c.get("/api/network")
    assert n.json()["home"] == "Our house" and "(" not in n.json()["home"]
    assert PASSWORD not in r.text and PASSWORD not in n.text
    home = board.usb("home")  # the USB verb sees the same; the board stays on its own
    assert (home.args["ssid"], home.args["set"], home.args["net"]) == ("Our house", 1, "own")
    r = post(board, dict(table(board), ssid="Cafe", password=""))  # an open network
    assert r.status_code == 200 and r.json()["home"] == "Cafe", r.text
    assert homenet.parse(kept(board))[1] == ("Cafe", "")


BAD = [
    ({"ssid": "x" * 33, "password": PASSWORD}, 400),  # 33 bytes
    ({"ssid": "", "password": PASSWORD}, 400),
    ({"ssid": "Our\nhouse", "password": PASSWORD}, 400),  # a control character
    ({"ssid": "Our\u00a0house", "password": PASSWORD}, 400),  # not ASCII
    ({"ssid": "Our house", "password": "short12"}, 400),  # 7
    ({"ssid": "Our house", "password": "p" * 64}, 400),
    ({"ssid": "Our house", "password": "secret\twords"}, 400),
    ({"ssid": "Our house"}, 400),  # no password (empty is an open network's)
    ({"password": PASSWORD}, 400),
    ({"forget": True, "ssid": "Our house"}, 400),
    ({"ssid": "Our house", "password": PASSWORD, "colour": "red"}, 400),
    ({"ssid": 7, "password": PASSWORD}, 400),
]


@pytest.mark.parametrize("body, status", BAD)
def test_a_bad_network_is_refused_with_a_sentence_and_changes_nothing(board, body, status):
    before, network = kept(board), board.c.get("/api/network").text
    r = post(board, dict(table(board), **body))
    assert r.status_code == status and r.json()["ok"] is False and r.json()["error"]
    assert kept(board) == before and board.c.get("/api/network").text == network
    assert PASSWORD not in r.text


def test_only_the_table_with_its_token_may_change_it(board):
    c = board.c
    set_up(c)  # the players named: their seats exist
    before = kept(board)
    change = {"ssid": "Elsewhere", "password": PASSWORD}
    alice = seat(c, 0)
    refusals = [
        post(board, dict(alice, **change)),  # a player's own seat
        post(board, dict(seat="table", token=seat_token(board.key, 0), **change)),  # forged
        post(board, dict(seat="table", token="0" * 24, **change)),
        post(board, dict(seat=None, token=None, **change)),
        post(board, dict(seat=0, token=seat_token(board.key, "table"), **change)),
        post(board, dict(table(board), **change), headers={"X-Crib-Key": "x" * 22}),
        post(board, dict(table(board), **change), headers={"Origin": "http://evil.example"}),
        c.post("/api/home", content=b"ssid=Elsewhere", headers={"Content-Type": "text/plain"}),
    ]
    for r in refusals:
        assert r.status_code in (403, 415), (r.status_code, r.text)
    assert "table" in refusals[0].json()["error"]  # said plainly who may
    assert kept(board) == before


def test_the_table_forgets_the_home_network(board):
    post(board, dict(table(board), ssid="Our house", password=PASSWORD))
    r = post(board, dict(table(board), forget=True))
    assert r.status_code == 200 and (r.json()["home"], r.json()["set"]) == (None, False)
    assert "192.168.4.1" in r.json()["say"]
    assert homenet.parse(kept(board))[1] is None
    assert board.c.get("/api/network").json()["home"] is None
    assert board.usb("home").args["set"] == 0


def test_under_the_unix_port_without_a_radio_the_page_is_told_so():
    key = "k" * 22
    with UnixBoard(key, names=["Alice", "Bob"]) as url, httpx.Client(
            base_url=url, headers={"X-Crib-Key": key}, timeout=20) as c:
        n = c.get("/api/network").json()
        assert (n["wifi"], n["form"], n["net"], n["home"]) == (False, False, "none", None)
        assert "unix port" in n["line"] and url in n["line"]
        r = c.post("/api/home", json=dict(seat(c, "table"), ssid="Our house",
                                          password=PASSWORD))
        assert r.status_code == 404 and "no home network" in r.json()["error"]


class _Radio:
    def __init__(self, state, address, why=None):
        self.state, self.address, self.why = state, address, why


class _Server:
    """What boardweb.homeroute reads of a BoardServer: its App's home and join details,
    its radio, its joining address."""

    def __init__(self, radio, network=None):
        class App:
            pass

        app = App()
        app.home = type("Home", (), {"name": "cribbage-7qx2", "network": network})()
        app.joining = type("Joining", (), {"details": {"ssid": "Cribbage-ABCD"}})()
        self.board = type("Board", (), {"app": app})()
        self.radio = radio
        self.join_url = "http://192.168.4.1/?k=KEY"


@pytest.mark.parametrize("radio, words", [
    (_Radio("home", "192.168.1.57"), ["home network Kitchen", "http://cribbage-7qx2.local/",
                                      "192.168.1.57"]),
    (_Radio("own", "192.168.4.1"), ["own network Cribbage-ABCD", "http://192.168.4.1/",
                                    "Kitchen is tried again"]),
    (_Radio("joining", None), ["Joining the home network Kitchen"]),
    (_Radio("none", None, "the radio did not start: OSError()"), ["No Wi-Fi", "OSError"]),
])
def test_the_network_line_says_each_state_of_the_radio(radio, words, monkeypatch):
    import json

    from crib.layout.source import firmware_dir

    monkeypatch.syspath_prepend(str(firmware_dir()))  # boardweb: the board's, not crib's
    from boardweb.homeroute import network

    got = json.loads(network(_Server(radio, ("Kitchen", PASSWORD))))
    assert (got["net"], got["home"], got["address"]) == (radio.state, "Kitchen", radio.address)
    for w in words:
        assert w in got["line"], got["line"]
    assert PASSWORD not in json.dumps(got)
