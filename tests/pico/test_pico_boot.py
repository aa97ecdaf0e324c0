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


LATE_IMPORTS = """import sys, os
left = [p + '.' + f[:-4] for p in ('cribcore', 'pegboard') for f in os.listdir('/' + p)
        if f.endswith('.mpy') and f != '__init__.mpy' and p + '.' + f[:-4] not in sys.modules]
bad = []
for name in left:
    try:
        __import__(name)
    except ImportError as e:
        bad.append(name)
print('LATE', len(left), 'BAD', ','.join(bad), 'END')
"""


def test_a_module_first_imported_after_the_boot_comes_from_its_own_file():
    """After fastboot.done() unmounts the pack, a package's submodule not yet imported still
    imports (from its own file): the pack's packages must not keep pointing into it (a
    board with Wi-Fi imports its server's modules after the boot)."""
    with Pico(fs=fs_image(deploy_files())) as pico:
        pico.booted()
        start = len(pico.raw)
        pico.send(b"\r\x03\r")  # the app hands the port to the REPL (mpremote's way in)
        pico.wait(lambda: pico.raw.endswith(b">>> "), what="the REPL")
        pico.send(b"\x05")  # paste mode: the lines as they are
        pico.wait(lambda: pico.raw.endswith(b"=== "), what="paste mode")
        pico.send(LATE_IMPORTS.replace("\n", "\r").encode() + b"\x04")
        pico.wait(lambda: b" END" in pico.raw[start:] or b"Traceback" in pico.raw[start:],
                  what="the imports")
        text = bytes(pico.raw[start:]).decode("ascii", "replace")
    assert "Traceback" not in text, text[-2000:]
    line = text[text.index("LATE "):].split(" END")[0].split()
    assert int(line[1]) > 0  # some modules were left for later: the check means something
    assert line[2:] == ["BAD"], "not importable after the boot: " + " ".join(line[3:])
