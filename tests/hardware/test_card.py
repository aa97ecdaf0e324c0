"""`crib hardware card`: the join card of a board with Wi-Fi. Its QR codes are decoded from
what is drawn (zxing-cpp), in the PNG and in the PDF, and must read back the payloads."""

import json
import re
from io import BytesIO

import pytest
import zxingcpp
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from crib.cli import main
from crib.hardware import card
from crib.hardware.errors import HardwareError

DETAILS = card.Details("Cribbage-7KQX", "k7m2-p9qx-4hvt", "Jd2_x0Q9mX4b-Pqo3TzUa1")
PT = 72 / 25.4


def decoded(img):
    """The texts of every QR code zxing finds in img."""
    return sorted(r.text for r in zxingcpp.read_barcodes(img.convert("L")))


def pdf_drawing(data, scale=4):
    """The PDF's filled rectangles (the QR modules) drawn black on white, scale px a pt."""
    text = data.decode("latin-1")
    w, h = 595.28, 841.89  # A4 in points
    img = Image.new("L", (round(w * scale), round(h * scale)), 255)
    draw = ImageDraw.Draw(img)
    for x, y, rw, rh in re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) (-[\d.]+) re f\b", text):
        x0, y0 = float(x) * scale, (h - float(y)) * scale
        draw.rectangle([x0, y0, x0 + float(rw) * scale - 1, y0 - float(rh) * scale - 1],
                       fill=0)
    return img


def test_the_payloads_follow_the_wifi_qr_format():
    assert DETAILS.join_payload() == "WIFI:T:WPA;S:Cribbage-7KQX;P:k7m2-p9qx-4hvt;;"
    assert DETAILS.page_url() == "http://192.168.4.1/?k=Jd2_x0Q9mX4b-Pqo3TzUa1"


@pytest.mark.parametrize("value, escaped", [
    ('a;b,c:d"e\\f', 'a\\;b\\,c\\:d\\"e\\\\f'),  # every special character escaped
    ("deadbeef", '"deadbeef"'),  # all hex: quoted, not read as a hex key
    ("Kitchen board", "Kitchen board"),
])
def test_special_characters_are_escaped(value, escaped):
    assert card.escape(value) == escaped


def test_the_png_shows_both_codes_that_decode_to_the_payloads():
    img = Image.open(BytesIO(card.png(DETAILS)))
    assert img.size == (round(card.WIDTH / 25.4 * card.DPI), round(card.HEIGHT / 25.4 * card.DPI))
    assert decoded(img) == sorted([DETAILS.join_payload(), DETAILS.page_url()])


def test_the_pdf_draws_the_card_at_its_real_size_and_its_codes_decode():
    data = card.pdf(DETAILS, compress=False)
    assert decoded(pdf_drawing(data)) == sorted([DETAILS.join_payload(), DETAILS.page_url()])
    text = data.decode("latin-1")
    # The cut line: the card's own size in points, at its place on the page.
    w, h = re.search(r"[\d.]+ [\d.]+ ([\d.]+) -([\d.]+) re S", text).groups()
    assert (float(w), float(h)) == pytest.approx((card.WIDTH * PT, card.HEIGHT * PT), abs=0.01)
    for shown in ("Cribbage-7KQX", "k7m2-p9qx-4hvt", DETAILS.page_url(), "100 %"):
        assert shown in text


@settings(max_examples=15, deadline=None)
@given(st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=32),
       st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=8, max_size=63))
def test_any_name_and_password_read_back_from_the_drawn_join_code(ssid, password):
    d = card.Details(ssid, password, DETAILS.key)
    grid = card.modules(d.join_payload())
    img = Image.new("L", (len(grid) * 6, len(grid) * 6), 255)
    draw = ImageDraw.Draw(img)
    for r, row in enumerate(grid):
        for c, dark in enumerate(row):
            if dark:
                draw.rectangle([c * 6, r * 6, c * 6 + 5, r * 6 + 5], fill=0)
    assert decoded(img) == [d.join_payload()]
    assert _unescape(d.join_payload()) == (ssid, password)


def _unescape(payload):
    """(S, P) of a WIFI: payload, read as a phone does."""
    fields, i, key, value = {}, len("WIFI:"), "", None
    body = payload[i:]
    j = 0
    while j < len(body):
        c = body[j]
        if value is None:
            if c == ":":
                value = ""
            elif c == ";":
                break
            else:
                key += c
        elif c == "\\":
            j += 1
            value += body[j]
        elif c == ";":
            fields[key], key, value = value, "", None
        else:
            value += c
        j += 1
    out = []
    for k in ("S", "P"):
        v = fields[k]
        if len(v) > 1 and v[0] == v[-1] == '"' and set(v[1:-1]) <= set("0123456789abcdefABCDEF"):
            v = v[1:-1]
        out.append(v)
    return tuple(out)


@pytest.mark.parametrize("args", [
    ("", "k7m2-p9qx-4hvt", "Jd2_x0Q9mX4b-Pqo3TzUa1"),
    ("Cribbage", "short", "Jd2_x0Q9mX4b-Pqo3TzUa1"),
    ("Cribbage", "k7m2-p9qx-4hvt", "bad key!"),
])
def test_bad_details_are_refused(args):
    with pytest.raises(HardwareError):
        card.Details(*args)


def test_the_command_writes_the_pdf_and_png_where_told(tmp_path, capsys):
    out = tmp_path / "cards"
    argv = ["hardware", "card", "--ssid", DETAILS.ssid, "--password", DETAILS.password,
            "--key", DETAILS.key, "--out", str(out)]
    assert main(argv) == 0
    assert sorted(p.name for p in out.iterdir()) == ["card.pdf", "card.png"]
    assert (out / "card.pdf").read_bytes().startswith(b"%PDF")
    assert decoded(Image.open(out / "card.png")) == sorted(
        [DETAILS.join_payload(), DETAILS.page_url()])
    assert main(argv[:-2] + ["--json"]) == 0
    got = json.loads(capsys.readouterr().out.split("\n", 2)[-1])
    assert got["join_qr"] == DETAILS.join_payload() and got["page_qr"] == DETAILS.page_url()


@pytest.mark.parametrize("argv, words", [
    (["--ssid", "Cribbage-7KQX"], "together"),
    (["--ssid", "x", "--password", "short", "--key", DETAILS.key, "--out", "OUT"], "WPA2"),
    (["--ssid", "Cribbage-7KQX", "--password", "k7m2-p9qx-4hvt", "--key", DETAILS.key],
     "--out"),
])
def test_bad_card_requests_fail_cleanly_and_write_nothing(tmp_path, capsys, argv, words):
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in argv]
    assert main(["hardware", "card"] + argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("crib: error: ") and words in err
    assert not (tmp_path / "out").exists()


def test_or_type_the_address_sits_right_over_its_address():
    drawn = card.items(DETAILS)
    words = next(it for it in drawn if it.text.startswith("or type the address"))
    address = next(it for it in drawn if it.kind == "text" and it.text == DETAILS.page_url())
    assert words.x == address.x and 0 < address.y - words.y <= 1.5 * words.size
    assert address.y + address.size <= card.HEIGHT - 1  # on the card, above its edge
    others = [it for it in drawn if it is not words and it.kind == "text"]
    assert all(not (it.x == words.x and words.y <= it.y < address.y) for it in others)


def test_without_a_board_the_hints_are_options_crib_hardware_card_has(capsys, monkeypatch):
    import argparse

    import crib.connect
    from crib.board.ports import NoBoardFound
    from crib.commands import hardware

    def no_board(*args, **kw):  # as `--port auto` finds none
        raise NoBoardFound("no Pico found (USB id 2E8A); plug the board in, give --port "
                           "PATH|URL, or try the virtual board with --board sim")

    monkeypatch.setattr(crib.connect, "open_link", no_board)
    assert main(["hardware", "card", "--out", "x"]) == 1
    err = capsys.readouterr().err
    parser = argparse.ArgumentParser()
    hardware.add_arguments(parser)
    known = {o for a in parser._actions for o in a.option_strings}
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", err))
    assert named and named <= known, (named - known, err)
    assert {"--port", "--ssid", "--password", "--key"} <= named and "no Pico found" in err


NAMED = card.Details("Cribbage-7KQX", "k7m2-p9qx-4hvt", "Jd2_x0Q9mX4b-Pqo3TzUa1",
                     name="cribbage-7qx2", home="Our house")


def test_a_board_with_a_name_gives_the_page_by_name_and_its_codes_decode():
    assert NAMED.page_url() == "http://cribbage-7qx2.local/?k=Jd2_x0Q9mX4b-Pqo3TzUa1"
    assert decoded(Image.open(BytesIO(card.png(NAMED)))) == sorted(
        [NAMED.join_payload(), NAMED.page_url()])
    assert decoded(pdf_drawing(card.pdf(NAMED, compress=False))) == sorted(
        [NAMED.join_payload(), NAMED.page_url()])
    texts = [it.text for it in card.items(NAMED) if it.kind == "text"]
    assert "cribbage-7qx2.local" in texts and "at home on Our house" in texts
    for it in card.items(NAMED):
        assert it.y + it.size <= card.HEIGHT - 1


def test_without_a_home_network_the_card_says_the_boards_own():
    d = card.Details("Cribbage-7KQX", "k7m2-p9qx-4hvt", "Jd2_x0Q9mX4b-Pqo3TzUa1",
                     name="cribbage-7qx2")
    texts = [it.text for it in card.items(d) if it.kind == "text"]
    assert "on the board's Wi-Fi (1)" in texts


def test_a_bad_name_is_refused():
    with pytest.raises(HardwareError):
        card.Details("Cribbage-7KQX", "k7m2-p9qx-4hvt", "Jd2_x0Q9mX4b-Pqo3TzUa1",
                     name="evil.example")
