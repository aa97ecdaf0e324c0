"""`crib deploy` through a pseudo terminal joined to the emulated Pico's USB port: onto
blank flash (MicroPython formats it), and onto a board with a game in progress (the game
stays, the changed files arrive)."""

import subprocess
import sys
from pathlib import Path

import pytest
from picorig import Pico, fs_image, game_state, read_fs
from support import EARLIER_REPLY, earlier_game

from cribcore.protocol import decode

pytestmark = pytest.mark.pico

CRIB = [sys.executable, "-m", "crib"]
STATE = ["state", "state.new", "state.old"]


def deploy(pico):
    port = pico.open_pty()
    proc = subprocess.run(CRIB + ["deploy", "--port", port], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_deploy_onto_blank_flash(build):
    with Pico() as p:
        p.wait(lambda: p.usb is not None, what="USB on blank flash")
        out = deploy(p)
        assert "hello     ok proto=1" in out
        on_flash = read_fs(p.dump(), list(build))
    assert on_flash == build  # every file, byte for byte


def test_deploy_onto_a_game_in_progress(build):
    old = dict(build)
    old["main.py"] = build["main.py"] + b"\n# an older build\n"
    with Pico(fs=fs_image(old)) as p:
        p.booted()
        assert p.ask("peg p=2 n=9 id=game1").startswith("ok")
        before = decode(p.ask("state")).args
        saved = read_fs(p.dump(), STATE)
        out = deploy(p)
        assert "wrote     main.py" in out and "hello     ok" in out
        flash = p.dump()
    assert read_fs(flash, list(build)) == build
    assert read_fs(flash, STATE) == saved  # the deploy never touched the game
    with Pico(flash=flash) as p:
        boot = decode(p.booted().text).args
        assert "warn" not in boot
        after = decode(p.ask("state")).args
    assert game_state(after) == game_state(before)


@pytest.mark.parametrize("kind", ["records", "one file"])
def test_deploy_onto_a_board_holding_an_earlier_format_keeps_the_game(build, kind):
    """The files of the firmware before the slots (board copies and records, or one file;
    a v1 board line): the firmware reads only its slots, so the deploy moves the game into
    one; the new firmware boots on it, answers its ids, and the earlier files stay."""
    old = dict(build)
    old["main.py"] = build["main.py"] + b"\n# an older build\n"
    old.update(earlier_game(kind))
    with Pico(fs=fs_image(old)) as p:
        p.booted()
        out = deploy(p)
        assert "moving    the saved game in " in out and "warning" not in out
        flash = p.dump()
    assert read_fs(flash, list(earlier_game(kind))) == earlier_game(kind)
    with Pico(flash=flash) as p:
        assert "warn" not in decode(p.booted().text).args
        state = decode(p.ask("state")).args
        assert (state["p0"], state["p2"], state["brightness"], state["rev"]) == (
            (0, 5), (0, 9), 55, 2)
        assert p.ask("peg p=0 n=5 id=old2") == EARLIER_REPLY  # remembered: not applied again
        assert p.ask("peg p=1 n=4 id=new1").startswith("ok rev=3 p1=0,4")
        flash = p.dump()
    with Pico(flash=flash) as p:
        assert "warn" not in decode(p.booted().text).args
        state = decode(p.ask("state")).args
        assert (state["p0"], state["p1"], state["p2"], state["rev"]) == ((0, 5), (0, 4),
                                                                         (0, 9), 3)


def test_the_build_is_what_crib_deploy_copies(build):
    assert "main.py" in build and "config.json" in build
    assert all(Path(p).suffix in (".mpy", ".py", ".json") or p in ("layout.cache", "code.pack")
               for p in build)
    assert "layout.cache" in build  # the first boot after a deploy needs no validation
    assert "code.pack" in build  # nor the module lookups (firmware/fastboot.py)
    assert sum(1 for p in build if p.endswith(".mpy")) >= 10
