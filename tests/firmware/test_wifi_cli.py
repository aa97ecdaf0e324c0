"""`crib board wifi` against the firmware's own app with the `wifi` verb (a board with Wi-Fi)
and without it (a plain Pico), reached over a socket like any board."""

import json
import threading

import pytest
from apprig import Files, Rig
from link.rig import FakePeer

from crib.cli import main
from crib.hardware.card import Details
from pegboard import joining, wifi
from pegboard.homenet import Home
from pegboard.joining import Joining, load


class Board:
    """The firmware app answering on a socket; with_wifi: pegboard.joining's verb too."""

    def __init__(self, with_wifi=True):
        self.rig = Rig(desk_verbs=False)
        self.files = Files()
        self.lock = threading.Lock()
        if with_wifi:
            details, _ = load(self.files, _urandom)
            Joining(self.files, _urandom, details, wifi.ADDRESS).register(self.rig.app)
            Home(self.files, b"\x05\x06\x07\x08").register(self.rig.app)
        self.peer = FakePeer(self.reply)
        self.url = self.peer.url

    def reply(self, line):
        with self.lock:
            return "".join(x + "\n" for x in self.rig.send(line)).encode()

    def kept(self):
        return joining.parse(self.files.read(joining.FILE))


def _urandom(n, state=[0]):  # noqa: B006 - a counter: different bytes each call
    state[0] += 1
    return bytes((state[0] * 131 + i * 29) % 256 for i in range(n))


@pytest.fixture
def board():
    b = Board()
    yield b
    b.peer.close()


def run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_wifi_prints_the_details_and_both_qr_payloads(capsys, board):
    code, out, err = run(capsys, ["board", "--port", board.url, "wifi"])
    assert code == 0 and err == ""
    kept = board.kept()
    d = Details(kept["ssid"], kept["password"], kept["key"])
    assert "network   %s" % d.ssid in out and "password  %s" % d.password in out
    assert "join QR   " + d.join_payload() in out
    assert "page QR   http://192.168.4.1/?k=" + d.key in out


def test_wifi_changes_name_password_and_key(capsys, board):
    before = board.kept()
    code, out, _ = run(capsys, ["board", "--port", board.url, "--json", "wifi", "--name",
                                "Kitchen board", "--password", 'a "quoted" pass', "--new-key"])
    assert code == 0
    got = json.loads(out)
    assert (got["ssid"], got["password"], got["changed"]) == ("Kitchen board",
                                                             'a "quoted" pass', True)
    assert got["key"] != before["key"]
    assert board.kept() == {k: got[k] for k in ("ssid", "password", "key")}
    assert got["join_qr"] == 'WIFI:T:WPA;S:Kitchen board;P:a \\"quoted\\" pass;;'


@pytest.mark.parametrize("argv, words", [
    (["--password", "short"], "WPA2"),
    (["--name", "x" * 33], "1 to 32"),
    (["--name", "ok", "--password", "caf\u00e9-caf\u00e9"], "WPA2"),  # one bad: none sent
    (["--password", '"' * 63], "cannot send"),  # 126 escaped: past the protocol's line
])
def test_bad_changes_are_refused_and_change_nothing(capsys, board, argv, words):
    before = board.kept()
    code, _, err = run(capsys, ["board", "--port", board.url, "wifi"] + argv)
    assert code == 1 and err.startswith("crib: error: ") and words in err
    assert board.kept() == before


def test_a_plain_pico_says_it_has_no_wifi(capsys):
    plain = Board(with_wifi=False)
    try:
        code, out, err = run(capsys, ["board", "--port", plain.url, "wifi"])
    finally:
        plain.peer.close()
    assert code == 1 and "no Wi-Fi" in err


def test_the_card_reads_its_details_from_the_board(capsys, board, tmp_path):
    code, out, _ = run(capsys, ["hardware", "card", "--port", board.url, "--json"])
    assert code == 0
    got = json.loads(out)
    assert got["ssid"] == board.kept()["ssid"] and got["address"] == "192.168.4.1"
    code, out, _ = run(capsys, ["hardware", "card", "--port", board.url, "--out",
                                str(tmp_path)])
    assert code == 0 and (tmp_path / "card.png").exists() and (tmp_path / "card.pdf").exists()


# -- the home network ------------------------------------------------------------------------

def test_wifi_prints_the_name_and_the_home_network(capsys, board):
    code, out, _ = run(capsys, ["board", "--port", board.url, "wifi"])
    name = board.rig.app.home.name
    assert code == 0 and "name      %s.local" % name in out
    assert "home      none set" in out


def test_join_sets_the_home_network_and_never_prints_its_password(capsys, board):
    code, out, err = run(capsys, ["board", "--port", board.url, "wifi", "--join", "Our house",
                                  "--password", "secret-words"])
    assert code == 0, err
    assert "home      Our house (password set)" in out and "secret-words" not in out
    assert board.rig.app.home.network == ("Our house", "secret-words")
    assert Home(board.files, b"").network == ("Our house", "secret-words")  # on flash
    code, out, _ = run(capsys, ["board", "--port", board.url, "--json", "wifi"])
    got = json.loads(out)["home"]
    assert (got["ssid"], got["set"], got["name"]) == ("Our house", 1, board.rig.app.home.name)
    code, out, _ = run(capsys, ["board", "--port", board.url, "wifi", "--forget"])
    assert code == 0 and "none set" in out and board.rig.app.home.network is None


@pytest.mark.parametrize("argv, words", [
    (["--join", "Our house", "--password", "short"], "WPA2"),
    (["--join", "x" * 33, "--password", "secret-words"], "1 to 32"),
    (["--join", "Our house"], "--password"),  # no terminal to ask it at
    (["--join", "Our house", "--forget"], "one or the other"),
    (["--join", "Our house", "--password", "secret-words", "--new-key"], "--new-key"),
])
def test_bad_joins_are_refused_with_a_sentence_and_change_nothing(capsys, board, argv, words):
    code, _, err = run(capsys, ["board", "--port", board.url, "wifi"] + argv)
    assert code != 0 and words in err
    assert board.rig.app.home.network is None
    assert Home(board.files, b"").network is None


def test_join_asks_the_password_at_a_terminal(capsys, board, monkeypatch):
    import getpass

    from crib.env import Env

    monkeypatch.setattr(Env, "interactive", lambda self: True)
    monkeypatch.setattr(getpass, "getpass", lambda prompt: "asked-password")
    code, out, _ = run(capsys, ["board", "--port", board.url, "wifi", "--join", "Our house"])
    assert code == 0
    assert board.rig.app.home.network == ("Our house", "asked-password")


class _Radio:
    """The board's radio as the verbs read it: its state and the address it has."""

    def __init__(self, state, address):
        self.state, self.address = state, address

    def use(self, home):  # pegboard.radio.Radio's: a new home network to try
        self.home = home


def _on(board, state, address):
    app = board.rig.app
    app.joining.radio = app.home.radio = _Radio(state, address)
    app.joining.name = app.home.name


def test_on_the_home_network_wifi_prints_the_address_the_board_got_and_its_name(capsys, board):
    _on(board, "home", "192.168.1.57")
    code, out, err = run(capsys, ["board", "--port", board.url, "wifi"])
    assert code == 0, err
    key, name = board.kept()["key"], board.rig.app.home.name
    assert "page      http://%s.local/?k=%s" % (name, key) in out
    assert "address   http://192.168.1.57/?k=%s" % key in out
    assert "now       on the home network, at 192.168.1.57" in out
    assert "192.168.4.1" not in out
    code, out, _ = run(capsys, ["board", "--port", board.url, "--json", "wifi"])
    got = json.loads(out)
    assert (got["address"], got["name"]) == ("192.168.1.57", name)
    # The card stays the own network's (its fallback), whatever network the board is on.
    code, out, _ = run(capsys, ["hardware", "card", "--port", board.url, "--json"])
    assert code == 0 and json.loads(out)["address"] == "192.168.4.1"


def test_while_joining_wifi_prints_the_page_by_name_and_no_address(capsys, board):
    _on(board, "joining", None)
    code, out, err = run(capsys, ["board", "--port", board.url, "wifi"])
    assert code == 0, err
    assert "page      http://%s.local/" % board.rig.app.home.name in out
    assert "address   " not in out and "now       joining the home network" in out


@pytest.mark.parametrize("net, words", [
    ("own", "the board is trying it now"),
    ("home", "joins it from its next start"),
    ("joining", "joins it from its next start"),
])
def test_join_says_when_the_board_tries_the_network(capsys, board, net, words):
    # It said "from its next start" even when the board, on its own network, tries at once.
    _on(board, net, "192.168.1.57" if net == "home" else None)
    code, out, err = run(capsys, ["board", "--port", board.url, "wifi", "--join", "Our house",
                                  "--password", "secret-words"])
    assert code == 0, err
    assert words in out


def test_forget_says_it_forgot_the_network(capsys, board):
    # It said "the board joins it from its next start" for a network it had just forgotten.
    run(capsys, ["board", "--port", board.url, "wifi", "--join", "Our house", "--password",
                 "secret-words"])
    code, out, err = run(capsys, ["board", "--port", board.url, "wifi", "--forget"])
    assert code == 0, err
    assert "the home network is forgotten" in out and "joins it" not in out

