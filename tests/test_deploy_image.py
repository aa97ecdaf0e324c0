"""`crib deploy --image`, the host's side (crib.deploy.uf2 and device.our_image) with fakes:
which kind of board, our image checked before anything is copied (refusals: a UF2 not
ours, of another family, writing into the filesystem), the boot ROM's drive found (or
not), the copy, and the decisions on a stock board and on ours. The emulated Pico plays
the whole install with a game in progress (tests/pico/test_pico_image.py)."""

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crib.deploy import device, uf2
from crib.deploy.plan import DeployError

BUILD = uf2.builder()
KEY = "ab" * 32
RP2040_INFO = "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
RP2350_INFO = "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n"


def tagged(size=4096, key=KEY):
    """An image's bytes carrying our tag (its frozen module's name and key), size long."""
    body = b"\x00" * 64 + BUILD.TAG.encode() + b"\x00" + key.encode()
    return body + bytes(range(256)) * ((size - len(body)) // 256 + 1)


def image_folder(path, kind="RPI_PICO", data=None, family=None, key=KEY, info=None):
    """A folder as build.image() leaves one (firmware.uf2, image.json)."""
    path.mkdir(parents=True, exist_ok=True)
    data = tagged() if data is None else data
    image = BUILD.uf2(data, BUILD.BOARDS[kind] if family is None else family)
    (path / "firmware.uf2").write_bytes(image)
    meta = {"board": kind, "key": key, "uf2_sha256": hashlib.sha256(image).hexdigest()}
    meta.update(info or {})
    (path / "image.json").write_text(json.dumps(meta))
    return path


def drive(path, info=RP2040_INFO):
    path.mkdir(parents=True, exist_ok=True)
    (path / uf2.INFO).write_text(info)
    return path


# -- the board's kind ----------------------------------------------------------------------

@pytest.mark.parametrize("machine, kind", [
    ("Raspberry Pi Pico with RP2040", "RPI_PICO"),
    ("Raspberry Pi Pico W with RP2040", "RPI_PICO_W"),
    ("Raspberry Pi Pico 2 W with RP2350", "RPI_PICO2_W"),
    ("Raspberry Pi Pico2 with RP2350", "RPI_PICO2")])
def test_the_board_name_gives_the_image_to_build(machine, kind):
    assert uf2.board_kind(machine) == kind
    assert kind in BUILD.BOARDS


def test_a_board_we_make_no_image_for_is_refused():
    with pytest.raises(DeployError, match="Pico"):
        uf2.board_kind("Arduino Nano RP2040 Connect with RP2040")


# -- our image, checked before anything is copied -----------------------------------------

def test_our_image_is_accepted_as_built(tmp_path):
    folder = image_folder(tmp_path / "img")
    data = (folder / "firmware.uf2").read_bytes()
    assert uf2.check_image(folder, "RPI_PICO", KEY, BUILD) == data


@settings(max_examples=40)
@given(at=st.integers(0, 600))
def test_our_tag_is_found_wherever_it_falls_across_the_uf2s_blocks(tmp_path_factory, at):
    # A UF2 carries 256 bytes a 512-byte block: the tag and its 64-character key straddle
    # two blocks for about one image in four (CI's image of 2488610 did).
    data = b"\xff" * at + tagged()
    folder = image_folder(tmp_path_factory.mktemp("img"), data=data)
    uf2_bytes = (folder / "firmware.uf2").read_bytes()
    assert uf2.check_image(folder, "RPI_PICO", KEY, BUILD) == uf2_bytes


def test_a_uf2_that_is_not_the_one_built_is_refused(tmp_path):
    folder = image_folder(tmp_path / "img")
    data = bytearray((folder / "firmware.uf2").read_bytes())
    data[600] ^= 1  # one bit of the image changed after the build
    (folder / "firmware.uf2").write_bytes(bytes(data))
    with pytest.raises(DeployError, match="sha256"):
        uf2.check_image(folder, "RPI_PICO", KEY, BUILD)


def test_a_uf2_without_our_tag_is_refused(tmp_path):
    folder = image_folder(tmp_path / "img", data=b"\x01" * 8192)  # a stock MicroPython, say
    with pytest.raises(DeployError, match="tag"):
        uf2.check_image(folder, "RPI_PICO", KEY, BUILD)


def test_an_image_of_other_code_or_another_board_is_refused(tmp_path):
    other = image_folder(tmp_path / "other", key="cd" * 32, data=tagged(key="cd" * 32))
    with pytest.raises(DeployError, match="not ours"):
        uf2.check_image(other, "RPI_PICO", KEY, BUILD)
    w = image_folder(tmp_path / "w", kind="RPI_PICO_W")
    with pytest.raises(DeployError, match="not ours"):
        uf2.check_image(w, "RPI_PICO", KEY, BUILD)


def test_a_uf2_of_the_other_chips_family_is_refused(tmp_path):
    folder = image_folder(tmp_path / "img", family=BUILD.BOARDS["RPI_PICO2_W"])
    with pytest.raises(DeployError, match="family"):
        uf2.check_image(folder, "RPI_PICO", KEY, BUILD)


def test_no_uf2_at_all_is_refused(tmp_path):
    folder = image_folder(tmp_path / "img")
    junk = b"not a uf2" * 100
    (folder / "firmware.uf2").write_bytes(junk)
    meta = json.loads((folder / "image.json").read_text())
    meta["uf2_sha256"] = hashlib.sha256(junk).hexdigest()
    (folder / "image.json").write_text(json.dumps(meta))
    with pytest.raises(DeployError, match="UF2"):
        uf2.check_image(folder, "RPI_PICO", KEY, BUILD)


@settings(max_examples=12, deadline=None)
@given(kind=st.sampled_from(sorted(BUILD.BOARDS)), past=st.integers(-3, 3))
def test_an_image_is_copied_only_if_it_ends_before_the_filesystem(tmp_path_factory, kind,
                                                                  past):
    """An image of CODE_BYTES + past*256 bytes: accepted if it ends before the board's
    filesystem (the game in progress), refused if any block reaches into it."""
    size = BUILD.CODE_BYTES[kind] + past * 256
    data = tagged(size)[:size]
    folder = image_folder(tmp_path_factory.mktemp("img"), kind=kind, data=data)
    if past <= 0:
        assert uf2.check_image(folder, kind, KEY, BUILD)
    else:
        with pytest.raises(DeployError, match="overwrite the board's files"):
            uf2.check_image(folder, kind, KEY, BUILD)


# -- the boot ROM's drive ------------------------------------------------------------------

class Clock:
    """A fake clock: sleep() moves it on, and calls then() at each sleep."""

    def __init__(self, then=None):
        self.t = 0.0
        self.sleeps = 0
        self.then = then

    def __call__(self):
        return self.t

    def sleep(self, s):
        self.t += s
        self.sleeps += 1
        if self.then is not None:
            self.then(self.sleeps)


def test_the_named_drive_is_waited_for_until_the_boot_rom_shows_it(tmp_path):
    where = tmp_path / "RPI-RP2"
    where.mkdir()  # mounted, but the boot ROM is not there yet

    def appear(n):
        if n == 5:
            drive(where)

    clock = Clock(appear)
    assert uf2.find_drive(str(where), 10, (), clock.sleep, clock) == where
    assert clock.sleeps == 5


def test_a_drive_is_found_where_desktops_mount_it(tmp_path):
    drive(tmp_path / "media" / "someone" / "RPI-RP2")
    (tmp_path / "media" / "someone" / "USBSTICK").mkdir()
    clock = Clock()
    roots = (str(tmp_path / "media" / "*" / "%s"),)
    assert uf2.find_drive(None, 10, roots, clock.sleep, clock) == (
        tmp_path / "media" / "someone" / "RPI-RP2")


def test_no_drive_is_a_clear_error_after_the_wait(tmp_path):
    clock = Clock()
    with pytest.raises(DeployError, match="no boot ROM drive") as e:
        uf2.find_drive(None, 5, (str(tmp_path / "%s"),), clock.sleep, clock)
    assert "--drive" in str(e.value) and clock() >= 5


def test_two_drives_are_not_guessed_between(tmp_path):
    drive(tmp_path / "a" / "RPI-RP2")
    drive(tmp_path / "b" / "RPI-RP2")
    clock = Clock()
    with pytest.raises(DeployError, match="several"):
        uf2.find_drive(None, 5, (str(tmp_path / "*" / "%s"),), clock.sleep, clock)


def test_the_uf2_is_copied_whole_onto_a_drive_of_its_chip(tmp_path):
    data = (image_folder(tmp_path / "img") / "firmware.uf2").read_bytes()
    where = drive(tmp_path / "RPI-RP2")
    path = uf2.copy_image(data, "RPI_PICO", where, BUILD)
    assert path.parent == where and path.read_bytes() == data


def test_a_drive_of_the_other_chip_gets_nothing(tmp_path):
    data = (image_folder(tmp_path / "img") / "firmware.uf2").read_bytes()
    where = drive(tmp_path / "RP2350", RP2350_INFO)
    with pytest.raises(DeployError, match="RP2350"):
        uf2.copy_image(data, "RPI_PICO", where, BUILD)
    assert sorted(p.name for p in where.iterdir()) == [uf2.INFO]


# -- the decisions (a fake board in the raw REPL) ------------------------------------------

class FakeTransport:
    """What device.our_image asks of mpremote: the image tag, machine.bootloader()."""

    def __init__(self, tag, on_bootloader=None):
        self.tag = tag
        self.on_bootloader = on_bootloader
        self.booted = False
        self.closed = False

    def exec(self, code):
        assert "cribimage" in code
        return repr(self.tag).encode()

    def exec_raw_no_follow(self, code):
        assert "machine.bootloader()" in code
        self.booted = True
        if self.on_bootloader is not None:
            self.on_bootloader()

    def close(self):
        self.closed = True


PICO = "Raspberry Pi Pico with RP2040"


@pytest.fixture
def tree(monkeypatch, tmp_path):
    """Our image for today's tree: KEY, its folder (no build)."""
    folder = image_folder(tmp_path / "cache" / "RPI_PICO")
    monkeypatch.setattr(uf2, "tree_key", lambda build, kind: KEY)
    monkeypatch.setattr(uf2, "make_image", lambda build, kind, out: folder)
    return folder


def test_a_stock_board_is_offered_our_image_and_deployed_as_before(tree):
    t, lines = FakeTransport(None), []
    assert device.our_image(t, "/dev/x", PICO, device.image_tag(t), False, None,
                            lines.append)[2] is False
    assert not t.booted and any(line.startswith("offer") and "--image" in line
                                for line in lines)


def test_our_image_of_this_code_needs_no_install(tree):
    t, lines = FakeTransport(("RPI_PICO", KEY)), []
    assert device.our_image(t, "/dev/x", PICO, device.image_tag(t), True, None,
                            lines.append)[2] is True
    assert not t.booted


def test_our_image_of_other_code_is_refused_without_image(tree):
    t = FakeTransport(("RPI_PICO", "ef" * 32))
    with pytest.raises(DeployError, match="--image"):
        device.our_image(t, "/dev/x", PICO, device.image_tag(t), False, None, print)
    assert not t.booted


def test_image_restarts_the_board_into_its_drive_copies_and_waits_for_ours(tree, tmp_path,
                                                                           monkeypatch):
    where = tmp_path / "RPI-RP2"
    t = FakeTransport(None, on_bootloader=lambda: drive(where))
    back = FakeTransport(("RPI_PICO", KEY))
    monkeypatch.setattr(device, "connect", lambda port: back)
    lines = []
    got = device.our_image(t, "/dev/x", PICO, None, True, str(where), lines.append)
    assert got == (back, "/dev/x", True) and t.booted and t.closed
    assert (where / (uf2.NAME % "RPI_PICO")).read_bytes() == (tree / "firmware.uf2").read_bytes()
    assert any(line.startswith("image     the board runs our image") for line in lines)


def test_a_board_that_comes_back_without_our_image_is_an_error(tree, tmp_path, monkeypatch):
    where = tmp_path / "RPI-RP2"
    t = FakeTransport(None, on_bootloader=lambda: drive(where))
    back = FakeTransport(None)  # the copy did not take
    monkeypatch.setattr(device, "connect", lambda port: back)
    with pytest.raises(DeployError, match="does not run our image"):
        device.our_image(t, "/dev/x", PICO, None, True, str(where), print)
    assert back.closed


def test_a_refused_image_never_restarts_the_board(tree, tmp_path):
    (tree / "firmware.uf2").write_bytes(b"\x00" * 512)  # not the UF2 built
    t = FakeTransport(None)
    with pytest.raises(DeployError):
        device.our_image(t, "/dev/x", PICO, None, True, str(tmp_path), print)
    assert not t.booted
