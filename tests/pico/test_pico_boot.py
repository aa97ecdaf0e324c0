"""The fast boot on the emulated Pico (firmware/fastboot.py): the modules come from
code.pack when it holds them whole, from their own files when a module in it is damaged."""

import shutil

import pytest
from picorig import Pico, deploy_files, fs_image
from support import packed_at

from crib.layout.source import firmware_dir
from cribcore import VERSION
from cribcore.protocol import decode

pytestmark = pytest.mark.pico

PACKED = "9.9.9-pack"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A build whose pack says fw=PACKED while the module files say VERSION."""
    root = tmp_path_factory.mktemp("fw") / "firmware"
    shutil.copytree(firmware_dir(), root, ignore=shutil.ignore_patterns("__pycache__"))
    init = root / "cribcore" / "__init__.py"
    init.write_text(init.read_text().replace('VERSION = "%s"' % VERSION,
                                             'VERSION = "%s"' % PACKED))
    packed = deploy_files(root)
    plain = deploy_files()
    assert packed["cribcore/__init__.mpy"] != plain["cribcore/__init__.mpy"]
    packed["cribcore/__init__.mpy"] = plain["cribcore/__init__.mpy"]
    return packed


def fw(files):
    with Pico(fs=fs_image(files)) as p:
        p.booted()
        return decode(p.ask("hello")).args["fw"]


def test_the_modules_come_from_the_pack(files):
    assert fw(files) == PACKED


def test_a_module_damaged_in_the_pack_comes_from_its_own_file(files):
    data = bytearray(files["code.pack"])
    start, length = packed_at(data, "/cribcore/__init__.mpy")
    data[start + length - 3] ^= 0x01
    assert fw(dict(files, **{"code.pack": bytes(data)})) == VERSION


def test_no_pack_boots_from_the_files(files):
    assert fw(dict((k, v) for k, v in files.items() if k != "code.pack")) == VERSION
