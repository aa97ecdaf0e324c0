"""A board with Wi-Fi: its join details (made once, kept on flash, the `wifi` verb) and its
access point over a fake network module (no radio here)."""

import os
import random

import pytest
from apprig import Files, PowerCut, Rig
from board.fakenet import FakeNetwork
from hypothesis import given
from hypothesis import strategies as st
from support import FIRMWARE

from cribcore import protocol
from cribcore.protocol import decode
from pegboard import joining, radio, wifi
from pegboard.joining import TYPABLE, Joining, load, make, parse, problem, text


def _rand(seed=1):
    rng = random.Random(seed)
    return lambda n: bytes(rng.randrange(256) for _ in range(n))


# -- the details -----------------------------------------------------------------------------

@given(st.binary(min_size=64, max_size=64))
def test_made_details_are_valid_typable_and_long_enough_for_wpa2(pool):
    feed = [pool]

    def urandom(n):  # the pool, then an endless repeat of its bytes
        data = (feed[0] * (n // len(feed[0]) + 2))[:n]
        feed[0] = feed[0][1:] + feed[0][:1]
        return data

    d = make(urandom)
    assert problem(d) is None
    word = d["password"].replace("-", "")
    assert len(word) == 12 and set(word) <= set(TYPABLE)
    assert d["password"][4] == d["password"][9] == "-"
    assert d["ssid"].startswith("Cribbage-") and len(d["ssid"]) == 13
    assert set(d["ssid"][9:]) <= set(TYPABLE.upper())
    assert len(d["key"]) == 22


def test_typable_characters_leave_out_the_ambiguous_ones():
    for c in "0o1liI":
        assert c not in TYPABLE


def test_made_details_differ_board_to_board():
    made = [make(os.urandom) for _ in range(50)]
    for field in ("password", "key"):
        assert len({d[field] for d in made}) == 50


def test_every_character_is_drawn_evenly():
    """A random byte past the alphabet's last whole multiple is drawn again: no bias."""
    counts = dict.fromkeys(TYPABLE, 0)
    urandom = _rand(7)
    for _ in range(3000):
        for c in make(urandom)["password"].replace("-", ""):
            counts[c] += 1
    expected = 3000 * 12 / len(TYPABLE)
    assert all(abs(n - expected) < expected * 0.1 for n in counts.values()), counts


@pytest.mark.parametrize("field, value", [
    ("ssid", ""), ("ssid", "x" * 33), ("ssid", "caf\u00e9"), ("ssid", "a\tb"),
    ("password", "short12"), ("password", "x" * 64), ("password", "tab\there!"),
    ("key", "short"), ("key", "has space in it here!"), ("key", "x" * 33),
])
def test_bad_details_are_named(field, value):
    d = make(_rand())
    d[field] = value
    assert problem(d)


@pytest.mark.parametrize("field, value", [
    ("ssid", "x"), ("ssid", "y" * 32), ("ssid", 'A "quoted" name'),
    ("password", "8 chars!"), ("password", "~" * 63),
])
def test_the_edges_of_the_rules_are_allowed(field, value):
    d = make(_rand())
    d[field] = value
    assert problem(d) is None
    assert parse(text(d).encode()) == d


def test_first_boot_makes_and_keeps_them_and_later_boots_read_them_back():
    files = Files()
    first, warning = load(files, _rand(1))
    assert warning is None and files.read(joining.FILE) == text(first).encode()
    again, warning = load(files, _rand(2))  # other randomness: the kept ones win
    assert (again, warning) == (first, None)


@pytest.mark.parametrize("data", [b"junk", b"crib-wifi 1\nname\nshort\nkeykeykeykeykeykey\n",
                                  b"\xff\xfe"])
def test_a_damaged_file_is_replaced_with_a_warning(data):
    files = Files({joining.FILE: data})
    details, warning = load(files, _rand())
    assert "damaged" in warning and problem(details) is None
    assert parse(files.read(joining.FILE)) == details


def test_a_cut_during_the_first_write_is_no_damage():
    """LittleFS records a new file's name first: a cut leaves it empty."""
    files = Files({joining.FILE: b""})
    details, warning = load(files, _rand())
    assert warning is None and parse(files.read(joining.FILE)) == details


def test_a_flash_that_fails_still_gives_details_for_this_boot():
    files = Files()
    files.fail = True
    details, warning = load(files, _rand())
    assert problem(details) is None and "could not keep" in warning


# -- the verb ------------------------------------------------------------------------------

def wifi_rig(files=None):
    rig = Rig(desk_verbs=False)
    files = files or Files()
    details, _ = load(files, _rand(3))
    Joining(files, _rand(4), details, wifi.ADDRESS).register(rig.app)
    return rig, files, details


def test_wifi_reports_the_join_details_and_the_address():
    rig, _, details = wifi_rig()
    m = rig.ask("wifi")
    assert m.kind == "ok"
    assert {k: m.args[k] for k in ("ssid", "password", "key")} == details
    assert m.args["address"] == "192.168.4.1"


def test_wifi_changes_are_checked_kept_on_flash_and_reported():
    rig, files, details = wifi_rig()
    m = rig.ask('wifi ssid="Kitchen board" password=correct-horse')
    assert (m.args["ssid"], m.args["password"], m.args["key"]) == (
        "Kitchen board", "correct-horse", details["key"])
    assert parse(files.read(joining.FILE))["ssid"] == "Kitchen board"
    m = rig.ask("wifi newkey=1")
    assert m.args["key"] != details["key"] and m.args["password"] == "correct-horse"
    assert parse(files.read(joining.FILE))["key"] == m.args["key"]
    assert load(files, _rand(9))[0]["key"] == m.args["key"]  # the next boot's


@pytest.mark.parametrize("line, code", [
    ("wifi password=short", "bad_arg"),
    ("wifi ssid=" + "x" * 33, "bad_arg"),
    ("wifi ssid=ok password=" + "p" * 64, "bad_arg"),  # one bad: neither is taken
    ("wifi newkey=2", "bad_arg"),
    ("wifi colour=red", "bad_arg"),
])
def test_bad_wifi_changes_are_refused_and_change_nothing(line, code):
    rig, files, details = wifi_rig()
    before = files.read(joining.FILE)
    m = rig.ask(line)
    assert (m.kind, m.args["code"]) == ("err", code)
    assert m.args["msg"]
    assert files.read(joining.FILE) == before
    assert {k: rig.ask("wifi").args[k] for k in details} == details


def test_a_flash_failure_while_changing_is_reported_and_changes_nothing():
    rig, files, details = wifi_rig()
    files.fail = True
    m = rig.ask("wifi password=another-one")
    assert (m.kind, m.args["code"]) == ("err", "store_failed")
    files.fail = False
    assert rig.ask("wifi").args["password"] == details["password"]


def test_a_power_cut_while_changing_leaves_the_old_details():
    """LittleFS makes a file's new content visible only when it is closed: a cut during
    the write of a change leaves the old file (the rig's flash models that here)."""
    class LittleFS(Files):
        def write(self, name, chunks):
            old = self.files.get(name)
            try:
                super().write(name, chunks)
            except PowerCut:
                if old:  # a replaced file: its old content stays
                    self.files[name] = old
                raise

    files = LittleFS()
    rig, files, details = wifi_rig(files)
    files.ops, files.cut_at = 0, 1
    with pytest.raises(PowerCut):
        rig.app.joining.change({"password": "after-the-cut"})
    assert load(files, _rand(8)) == (details, None)


def test_the_plain_board_answers_unknown_verb_and_its_tables_have_no_wifi():
    """A plain Pico's protocol tables are the core's own (its heap is as before): the verb
    and its fields come with pegboard.joining, which only a board with Wi-Fi carries."""
    import subprocess
    import sys

    code = ("import sys; sys.path.insert(0, %r)\n"
            "from cribcore import protocol\nfrom pegboard import app\n"
            "print('wifi' in protocol.verbs(), 'ssid:' in protocol.FIELDS)" % str(FIRMWARE))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.split() == ["False", "False"], out.stderr
    rig = Rig(desk_verbs=False)  # (in this process the tables may have been extended)
    m = rig.ask("wifi")
    assert (m.kind, m.args["code"]) in (("err", "unknown_verb"), ("err", "desk_only"))


def test_extending_the_protocol_is_done_once():
    joining.extend_protocol()
    tables = (protocol.FIELDS, protocol.COMMANDS)
    joining.extend_protocol()
    assert (protocol.FIELDS, protocol.COMMANDS) == tables
    assert protocol.verbs().count("wifi") == 1
    line = protocol.encode("wifi", ssid="a b", newkey=1)
    assert protocol.decode(line).args == {"ssid": "a b", "newkey": 1}
    with pytest.raises(protocol.ProtocolError):
        protocol.encode("wifi", newkey=2)
    doc = (FIRMWARE.parent / "docs" / "protocol.md").read_text()
    assert "`wifi %s`" % protocol.usage("wifi") in doc
    for name in joining.FIELDS.split():
        assert "`%s`" % name.split(":")[0] in doc


# -- the radio and the server (pegboard.radio's own tests: tests/board/test_radio.py) ----

UID = b"\xe6\x61\x41\x04\x03\x2b\x5c\x2d"


def serve(rig, net, files, web, uid=UID):
    return wifi.serve(rig.app, net, files, _rand(), lambda: net.now, web, lambda: uid)


def test_serve_opens_the_access_point_and_hands_the_server_the_app_key_and_address():
    rig = Rig(desk_verbs=False)
    net, files, served = FakeNetwork(), Files(), []
    assert serve(rig, net, files, lambda app, key, address: served.append((app, key, address)))
    details = parse(files.read(joining.FILE))
    assert served == [(rig.app, details["key"], "192.168.4.1")]
    assert ("ap", "config", {"ssid": details["ssid"], "key": details["password"]}) in net.calls
    assert rig.ask("wifi").args["ssid"] == details["ssid"]
    assert rig.app.radio.state == radio.OWN
    assert rig.app.renderer._alert == radio.LIGHTS[radio.OWN]


def test_with_a_home_network_set_the_board_joins_it_and_its_lights_follow():
    rig = Rig(desk_verbs=False)
    net, files, served = FakeNetwork(join_ms=1000), Files(), []
    assert serve(rig, net, files, lambda *a: None)
    name = rig.ask("home").args["name"]
    assert rig.ask("home ssid=Kitchen password=home-password").args["set"] == 1
    rig2 = Rig(desk_verbs=False)  # the next start: the home network from flash
    assert serve(rig2, net, files, lambda app, key, address: served.append(address))
    on = rig2.app.radio
    assert served == [None] and on.state == radio.JOINING and on.name == name
    assert rig2.app.renderer._alert == radio.LIGHTS[radio.JOINING]
    net.now += 1500
    on.step(net.now)
    assert (on.state, on.address) == (radio.HOME, net.home_address)
    assert rig2.app.renderer._alert == radio.LIGHTS[radio.HOME]
    m = rig2.ask("home")
    assert (m.args["net"], m.args["address"], m.args["ssid"]) == ("home", net.home_address,
                                                                    "Kitchen")
    assert "home-password" not in "".join(x.decode() if isinstance(x, bytes) else x
                                          for x in rig2.port.take())


def test_wifi_reports_the_address_the_board_got_and_its_name():
    rig = Rig(desk_verbs=False)
    net, files = FakeNetwork(join_ms=1000), Files()
    assert serve(rig, net, files, lambda *a: None)
    name = rig.ask("home").args["name"]
    m = rig.ask("wifi")
    assert (m.args["address"], m.args["name"]) == (wifi.ADDRESS, name)  # its own network
    rig.ask("home ssid=Kitchen password=home-password")
    rig2 = Rig(desk_verbs=False)  # the next start: it joins the home network
    assert serve(rig2, net, files, lambda *a: None)
    assert rig2.ask("wifi").args["address"] == "-"  # joining: no address yet
    net.now += 1500
    rig2.app.radio.step(net.now)
    m = rig2.ask("wifi")
    assert (m.args["address"], m.args["name"]) == (net.home_address, name)
    net.home_up = False  # lost: joining again; then its own network, at its own address
    for _ in range(2):
        net.now += radio.JOIN_MS
        rig2.app.radio.step(net.now)
    assert rig2.app.radio.state == radio.OWN
    assert rig2.ask("wifi").args["address"] == wifi.ADDRESS


def _fails(error):
    def web(app, key, address):
        raise error
    return web


@pytest.mark.parametrize("web, net", [
    (None, FakeNetwork()), ("web", FakeNetwork(address="10.0.0.1", settable=False)),
    (OSError(99, "cannot bind"), FakeNetwork()), (MemoryError(), FakeNetwork()),
    (ImportError("no module named 'asyncio'"), FakeNetwork())])
def test_with_no_access_point_or_no_server_the_board_plays_on_usb_and_says_why(web, net):
    """No server on the flash, an access point that will not open, or a server that fails
    (as it starts, or later): never a restart loop, where USB would never answer again."""
    rig = Rig(desk_verbs=False)
    served = []
    run = _fails(web) if isinstance(web, BaseException) else \
        (lambda *a: served.append(a)) if web else None
    assert serve(rig, net, Files(), run) is False
    assert served == []
    rig.step()
    warn = [decode(x) for x in rig.port.take() if x.startswith("evt warn")]
    assert [m.args["code"] for m in warn] == ["wifi"]
    assert rig.ask("wifi").kind == "ok"  # the details are still there over USB
    assert rig.ask("peg p=0 n=3").args["p0"] == (0, 3)


def test_a_server_that_cannot_listen_gives_the_app_its_usb_port_back(monkeypatch, tmp_path):
    """boardweb.serve shares the App's port while it serves (boardweb.appboard.Tap); when
    it cannot listen, the plain loop that runs next has the App as it was (a Tap left in
    place would keep every button event for an engine no longer there)."""
    import socket
    import time

    from boardweb import board

    monkeypatch.setattr(time, "ticks_ms", lambda: 0, raising=False)  # MicroPython's clock
    rig = Rig(desk_verbs=False)
    usb = rig.app.port
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(OSError):
            board.serve(rig.app, "k" * 22, "127.0.0.1", taken.getsockname()[1],
                        str(tmp_path), None)
    assert rig.app.port is usb
    assert rig.ask("peg p=0 n=2").args["p0"] == (0, 2)


def _radio():
    net = FakeNetwork()
    net.broken = True
    return net


@pytest.mark.parametrize("why", ["no server", "no radio", "server fails"])
def test_a_board_whose_wifi_does_not_come_up_says_so_on_usb_and_in_its_lights(why):
    rig = Rig(desk_verbs=False)

    def failing(app, key, address):
        raise OSError("cannot listen")

    def idle(app, key, address):
        raise AssertionError("not served without an access point")

    assert rig.app.renderer._alert is False
    net = _radio() if why == "no radio" else FakeNetwork()
    web = {"no server": None, "no radio": idle, "server fails": failing}[why]
    assert serve(rig, net, Files(), web) is False
    assert [w[0] for w in rig.app.warnings] == ["wifi"]
    # the alert's red blink on holes 1-3 (tests/board/test_render.py) is on: the same as a
    # refused config's (a pattern of its own cost the firmware's 96K heap test its margin)
    assert rig.app.renderer._alert is True
