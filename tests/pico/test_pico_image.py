"""Our image on the emulated Pico (firmware/image/build.py, RPI_PICO, from its cache:
.ci/run builds it before this tier): `crib deploy --image` installs it onto a board on
the stock image with a game in progress, through the boot ROM's USB drive (picorig's
BOOTSEL drive), and the game stays."""

import subprocess
import sys

import pytest
from picorig import FS_OFFSET, Pico, fs_image, game_state, read_fs

from crib.deploy.plan import STATE_FILES
from crib.deploy.uf2 import builder
from cribcore.protocol import decode

pytestmark = pytest.mark.pico

CRIB = [sys.executable, "-m", "crib"]


def test_crib_deploy_image_installs_ours_and_keeps_the_game_in_progress(build):
    folder = builder().image("RPI_PICO", out=lambda line: None)  # cached, or built here
    firmware = (folder / "firmware.bin").read_bytes()
    with Pico(fs=fs_image(build)) as p:  # stock MicroPython, crib deploy's .mpy files
        p.booted()
        assert p.ask("peg p=2 n=9 id=game1").startswith("ok")
        stock = decode(p.ask("state")).args
        before = game_state(stock)
        saved = read_fs(p.dump(), STATE_FILES)
        assert any(saved.values())
        port = p.open_pty()
        proc = subprocess.run(CRIB + ["deploy", "--image", "--port", port, "--drive",
                                      str(p.drive)], capture_output=True, text=True,
                              timeout=900)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 0, out
        for said in ("bootsel ", "copied ", "image     the board runs our image",
                     "removed ", "hello     ok"):
            assert said in out, out
        # the boot ROM took the UF2: ours below the filesystem, the filesystem untouched
        [boot] = [r for r in p.reboots if r["kind"] == "bootsel"]
        assert boot["after"][:len(firmware)] == firmware
        assert boot["after"][FS_OFFSET:] == boot["before"][FS_OFFSET:]
        assert len(firmware) <= FS_OFFSET
        ours = decode(p.ask("state")).args
        assert game_state(ours) == before  # the game goes on
        # the code is out of the heap: more of it free (bytes after a collection)
        assert ours["free"] > stock["free"], (stock["free"], ours["free"])
        print("heap free with the app running: stock %d, ours %d" % (stock["free"],
                                                                     ours["free"]))
        flash = p.dump()
    files = read_fs(flash, list(build))
    assert read_fs(flash, STATE_FILES) == saved
    assert files["main.py"] == build["main.py"] and files["config.json"] == build["config.json"]
    # the stock deploy's code is gone: the frozen modules run, not .mpy files in the heap
    assert [p for p, data in files.items() if data is not None and p.endswith(
        (".mpy", ".pack"))] == []
    with Pico(flash=flash) as p:  # a power cycle: our image boots on the same game
        assert "warn" not in decode(p.booted().text).args
        assert game_state(decode(p.ask("state")).args) == before
