"""A board with Wi-Fi's name and home network (pegboard.homenet): made once, kept on flash,
the `home` verb that sets them and never shows the password back."""

import pytest
from apprig import Files, Rig
from hypothesis import given
from hypothesis import strategies as st

from pegboard import homenet
from pegboard.homenet import Home, make_name, parse, text
from pegboard.joining import TYPABLE

UID = b"\x01\x02\x03\x04\x05\x06\x07\x08"


def home_rig(files=None, uid=UID):
    rig = Rig(desk_verbs=False)
    files = files if files is not None else Files()
    home = Home(files, uid)
    home.register(rig.app)
    return rig, files, home


@given(st.binary(min_size=8, max_size=8))
def test_the_name_is_typable_and_parses_back(uid):
    name = make_name(uid)
    assert name.startswith("cribbage-") and len(name) == 13
    assert set(name[9:]) <= set(TYPABLE)
    assert parse(text(name, None).encode()) == (name, None)


def test_names_differ_board_to_board():
    names = {make_name(bytes([i, 7, 7, 7, 7, 7, 7, i * 3 % 256])) for i in range(200)}
    assert len(names) > 190


def test_the_name_is_made_once_and_kept():
    files = Files()
    first = Home(files, UID).name
    assert Home(files, b"\xff" * 8).name == first  # kept: not made again
    assert files.read(homenet.FILE) == text(first, None).encode()


def test_a_damaged_file_is_replaced_with_a_warning():
    files = Files({homenet.FILE: b"crib-home 1\nnot a name\n"})
    home = Home(files, UID)
    assert "damaged" in home.warning and home.network is None
    assert parse(files.read(homenet.FILE)) == (make_name(UID), None)


def test_home_reports_the_name_and_never_the_password():
    rig, files, home = home_rig()
    m = rig.ask("home")
    assert (m.kind, m.args["name"], m.args["set"]) == ("ok", home.name, 0)
    assert "ssid" not in m.args
    m = rig.ask('home ssid="Our house" password=secret-words')
    assert (m.args["ssid"], m.args["set"]) == ("Our house", 1)
    assert "password" not in m.args and "secret-words" not in repr(m.args)
    assert parse(files.read(homenet.FILE)) == (home.name, ("Our house", "secret-words"))
    assert Home(files, UID).network == ("Our house", "secret-words")  # the next start's
    m = rig.ask("home forget=1")
    assert m.args["set"] == 0 and Home(files, UID).network is None


@pytest.mark.parametrize("line", [
    "home ssid=Kitchen",  # no password
    "home password=secret-words",  # no ssid
    "home ssid=Kitchen password=short",
    "home ssid=" + "x" * 33 + " password=secret-words",
    "home forget=1 ssid=Kitchen",
    "home forget=2",
    "home colour=red",
])
def test_bad_home_changes_are_refused_with_a_sentence_and_change_nothing(line):
    rig, files, home = home_rig()
    rig.ask("home ssid=Kitchen password=secret-words")
    before = files.read(homenet.FILE)
    m = rig.ask(line)
    assert (m.kind, m.args["code"]) == ("err", "bad_arg") and m.args["msg"]
    assert files.read(homenet.FILE) == before
    assert home.network == ("Kitchen", "secret-words")


def test_a_flash_failure_while_setting_changes_nothing():
    rig, files, home = home_rig()
    files.fail = True
    m = rig.ask("home ssid=Kitchen password=secret-words")
    assert (m.kind, m.args["code"]) == ("err", "store_failed")
    files.fail = False
    assert rig.ask("home").args["set"] == 0


def test_the_home_verb_and_its_fields_are_in_the_protocols_doc():
    from support import FIRMWARE

    from cribcore import protocol

    homenet.extend_home()
    doc = (FIRMWARE.parent / "docs" / "protocol.md").read_text()
    assert "`home %s`" % protocol.usage("home") in doc
    for name in homenet.FIELDS.split():
        assert "`%s`" % name.split(":")[0] in doc


def test_an_open_home_network_is_set_with_an_empty_password_and_kept():
    rig, files, home = home_rig()
    m = rig.ask('home ssid=Cafe password=""')
    assert (m.kind, m.args["ssid"], m.args["set"]) == ("ok", "Cafe", 1)
    assert Home(files, UID).network == ("Cafe", "")  # read back at the next start


@given(st.text(max_size=70))
def test_a_home_password_is_empty_or_8_to_63_printable_ascii(password):
    good = password == "" or (8 <= len(password) <= 63
                              and all(" " <= c <= "~" for c in password))
    assert (homenet.check_home_password(password) is None) == good
