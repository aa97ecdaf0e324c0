"""`crib deploy` against a fake Pico: the unix MicroPython answering mpremote on a pty.

The fake (tests/fake_pico.py) is a real MicroPython with a LittleFS flash in a file: the
deploy's files are really written, renamed and hashed there, and after the soft reset the
deployed main.py really runs the deployed app (only machine.Pin, the WS2812 driver and the
USB port are stand-ins), so `hello` is answered by the firmware that was just copied.
"""

import hashlib
import json
import os
import pty
import select
import shutil
import subprocess
import threading
import time
import tty
from pathlib import Path

import pytest
import serial
from support import EARLIER_REPLY, FIRMWARE, TESTS, earlier_game, micropython_path

from crib.board.link import _SHAPES as SHAPES
from crib.board.link import VersionMismatch
from crib.cli import main
from crib.deploy import build
from crib.deploy import device as deploy
from crib.deploy import plan as planning
from crib.web.unixboard import HEAP
from cribcore import VERSION
from cribcore.protocol import PROTO, decode
from pegboard.config import default_dict

FAKE = TESTS / "fake_pico.py"
WATCHDOG_S = 120  # a hung exchange fails the test instead of hanging the suite


class FakePico:
    """A fake Pico on a pseudo terminal: .port is its device path, .image its flash."""

    def __init__(self, image, mpy=None, version=None, machine=None):
        self.image = Path(image)
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)  # as pyserial will: no echo, no line editing
        self.port = os.ttyname(self.slave)
        # A plain Pico's heap on the unix port's 64-bit objects; a Pico 2 W's (the server
        # and the engine besides) as the board's server runs under test (unixboard.HEAP).
        heap = HEAP if machine and planning.has_wifi(machine) else "256K"
        args = [micropython_path(), "-X", "heapsize=" + heap, str(FAKE), str(self.image)]
        if mpy is not None:
            args += [str(mpy), version]
        if machine is not None:
            args.append("machine=" + machine)
        self.proc = subprocess.Popen(args, stdin=self.master, stdout=self.master)
        self.timer = threading.Timer(WATCHDOG_S, self.stop)
        self.timer.start()

    def stop(self):
        """Kill the fake and close the pty (a blocked reader then gets an error)."""
        self.timer.cancel()
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def files(self, paths):
        """{path: bytes or None} read from the device through mpremote."""
        t = deploy.connect(self.port)
        try:
            out = {}
            for p in paths:
                out[p] = bytes(t.fs_readfile(p)) if t.fs_exists(p) else None
            return out
        finally:
            t.close()

    def put(self, path, data):
        """Write a file on the device (as a user with mpremote would)."""
        t = deploy.connect(self.port)
        try:
            t.fs_writefile(path, data)
        finally:
            t.close()

    def ask(self, line):
        """Boot the board (soft reset) and return its reply to one protocol line: the one
        with its id=, else with the fields of its verb's reply (crib.board.link's shapes).
        Not the first reply after it: on a slow boot the handshake sends hello and state
        again, and their replies may come after it has closed (a `state` reply taken for
        `wifi`'s: KeyError 'address')."""
        t = deploy.connect(self.port)
        deploy.soft_reset(t)
        deploy.handshake(self.port)
        words = line.split()
        verb = words[0]
        ident = next((w[3:] for w in words if w.startswith("id=")), None)
        with serial.serial_for_url(self.port, baudrate=115200, timeout=5) as s:
            s.write(line.encode() + b"\n")
            while True:
                got = s.readline().decode().strip()
                if not got.startswith(("ok ", "err ")):
                    continue  # an event, the REPL's words
                args = decode(got).args
                if ident is not None:
                    if args.get("id") == ident:
                        return got
                elif got.startswith("err ") or (
                        "proto" not in args and all(k in args for k in SHAPES.get(verb, ()))):
                    return got


@pytest.fixture
def pico(tmp_path):
    fake = FakePico(tmp_path / "flash.img")
    yield fake
    fake.stop()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The firmware build a deploy copies: {device path: bytes}."""
    out = tmp_path_factory.mktemp("build")
    build.build(out)
    return {p.relative_to(out).as_posix(): p.read_bytes()
            for p in out.rglob("*") if p.is_file()}


def _changed_firmware(tmp_path):
    """A copy of the firmware tree with one module changed (a new version to deploy)."""
    root = tmp_path / "firmware2"
    shutil.copytree(FIRMWARE, root, ignore=shutil.ignore_patterns("__pycache__"))
    light = root / "pegboard" / "light.py"
    light.write_text(light.read_text() + "\nCHANGED = 1\n")
    return root


def _deploy(root, port, tmp_path):
    out = []
    plan = planning.plan_firmware(tmp_path / ("work%d" % len(list(tmp_path.iterdir()))), root)
    deploy.run(plan, port, out.append)
    return out


# -- the plan ------------------------------------------------------------------------------

def test_dry_run_lists_every_step_and_touches_nothing(capsys, built):
    assert main(["deploy", "--dry-run", "--port", "/dev/does-not-exist"]) == 0
    text = capsys.readouterr().out
    for path in built:
        assert path in text
    for name in planning.STATE_FILES:
        assert name in text
    assert "mpy-cross" in text and "hello" in text
    assert "earlier firmware's files" in text  # the move of an older board's game


def test_plan_compiles_every_firmware_file_main_last(tmp_path):
    plan = planning.plan_firmware(tmp_path)
    sources = build.firmware_sources(FIRMWARE)
    assert len(plan.files) == len(sources) + 2  # and two files built with them:
    assert {"layout.cache", "code.pack"} <= {it.path for it in plan.files}  # fastboot.py
    assert plan.files[-1].path == "main.py"
    assert plan.mpy == build.mpy_version(next(tmp_path.rglob("*.mpy")))
    assert plan.lanes == len(default_dict()["lanes"])


def test_a_plain_pico_is_not_given_the_table_engine(tmp_path):
    """cribcore.table and the game record (pegboard.gamelog and its modules: a game served
    by the board itself) stay off a plain Pico's build: its flash and heap are as before;
    asked for, they are compiled and packed like the core."""
    plan = planning.plan_firmware(tmp_path / "plain")
    paths = {it.path for it in plan.files}
    assert "cribcore/game.mpy" in paths
    record = ("pegboard/gamelog", "pegboard/logfiles", "pegboard/flashrecord",
              "pegboard/recordsession", "pegboard/gamesverb")
    assert not any(p.startswith(("cribcore/table",) + record) for p in paths)
    pack = next(it for it in plan.files if it.path == "code.pack").data
    assert b"/cribcore/table" not in pack and b"/cribcore/game.mpy" in pack
    assert not any(r.encode() in pack for r in record) and b"/pegboard/app.mpy" in pack
    written = build.build(tmp_path / "served", extras=build.OPTIONAL)
    assert any(p.as_posix().endswith("cribcore/table/engine.mpy") for p in written)
    assert all(any(p.as_posix().endswith(r + ".mpy") for p in written) for r in record)
    assert {"microdot/__init__.mpy", "microdot/microdot.mpy", "microdot/sse.mpy"} <= {
        p.relative_to(tmp_path / "served").as_posix() for p in written}  # the server's
    assert not any(p.startswith("microdot") for p in paths)


@pytest.mark.parametrize("machine, wifi", [
    ("Raspberry Pi Pico 2 W with RP2350", True), ("Raspberry Pi Pico W with RP2040", True),
    ("Raspberry Pi Pico with RP2040", False), ("Raspberry Pi Pico2 with RP2350", False),
    ("Pimoroni Pico LiPo with RP2040", False), ("", False),
])
def test_the_board_kind_is_told_from_micropythons_name_for_it(machine, wifi):
    assert planning.has_wifi(machine) is wifi


WIFI_ONLY = ("pegboard/wifi.mpy", "pegboard/joining.mpy", "cribcore/table/engine.mpy",
             "boardweb/board.mpy", "microdot/microdot.mpy", "page/index.html.gz")


def test_a_board_with_wifi_is_planned_the_server_side_and_a_plain_pico_is_not(tmp_path):
    plan = planning.plan_firmware(tmp_path)
    plain = {it.path: it for it in plan.files_for(False)}
    wifi = {it.path: it for it in plan.files_for(True)}
    assert not set(WIFI_ONLY) & set(plain) and set(WIFI_ONLY) <= set(wifi)
    assert set(plain) <= set(wifi) and wifi["main.py"].data == plain["main.py"].data
    assert b"/pegboard/wifi.mpy" in wifi["code.pack"].data
    assert b"/pegboard/wifi.mpy" not in plain["code.pack"].data
    assert plan.files_for(True)[-1].path == "main.py"  # last, as for a plain Pico
    text = "\n".join(planning.describe(plan, "auto"))
    assert "os.uname().machine" in text
    assert "board with Wi-Fi only: write pegboard/wifi.mpy" in text
    assert "never touch" in text and " wifi " in text  # the board's own Wi-Fi details


def test_a_bad_layout_is_refused_before_any_device(tmp_path, capsys):
    bad = default_dict()
    bad["lanes"] = bad["lanes"][:1]
    path = tmp_path / "one-lane.json"
    path.write_text(json.dumps(bad))
    assert main(["deploy", "--config", str(path), "--port", "/dev/does-not-exist"]) == 1
    assert "crib: error:" in capsys.readouterr().err


def test_a_build_file_named_like_the_state_file_is_refused():
    with pytest.raises(deploy.DeployError):
        planning._check_paths([planning.Item("main.py", b""), planning.Item("state", b"x")])


@pytest.mark.parametrize("mpy, version", [
    (6, (1, 23, 0)), (0x0A06, (1, 24, 1)), (0x0B06 | (4 << 10), (1, 29, 0)),
])
def test_same_mpy_format_is_accepted(mpy, version):
    deploy.check_versions((version, mpy, "rp2"), 6)


@pytest.mark.parametrize("version", [(1, 19, 1), (1, 22, 2)])
def test_a_micropython_older_than_the_firmware_needs_is_refused_and_told_what_to_flash(
        version):
    # Same .mpy format (v6 since 1.19), but the WS2812 driver needs rp2.DMA writing to a
    # StateMachine, which came with 1.23.
    with pytest.raises(deploy.DeployError) as e:
        deploy.check_versions((version, 6, "rp2"), 6)
    text = str(e.value)
    assert "1.23" in text and "micropython.org/download/RPI_PICO" in text
    assert ".".join(str(v) for v in version) in text


def test_an_old_micropython_is_refused_before_anything_is_written(tmp_path, capsys):
    fake = FakePico(tmp_path / "old.img", mpy=6, version="1.22.2")
    try:
        assert main(["deploy", "--port", fake.port]) == 1
        err = capsys.readouterr().err
        assert "crib: error:" in err and "1.23" in err
        assert fake.files(["main.py", "pegboard/app.mpy", "config.json"]) == {
            "main.py": None, "pegboard/app.mpy": None, "config.json": None}
    finally:
        fake.stop()


@pytest.mark.parametrize("mpy, version", [
    (None, (1, 18, 0)), (5, (1, 18, 0)), (7, (2, 0, 0)),
])
def test_other_mpy_format_is_refused(mpy, version):
    with pytest.raises(deploy.DeployError):
        deploy.check_versions((version, mpy, "rp2"), 6)


class _Port:
    def __init__(self, device, vid, pid):
        self.device, self.vid, self.pid = device, vid, pid
        self.description, self.serial_number = "", None


@pytest.mark.parametrize("ports, want", [
    ([], None),
    ([("/dev/ttyACM0", 0x2E8A, 0x0005), ("/dev/ttyUSB0", 0x10C4, 0xEA60)], "/dev/ttyACM0"),
    ([("/dev/ttyACM0", 0x2E8A, 0x0005), ("/dev/ttyACM1", 0x2E8A, 0x0005)], None),
])
def test_port_auto_finds_the_one_pico(monkeypatch, ports, want):
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", lambda: [_Port(*p) for p in ports])
    assert deploy.find_port("/dev/ttyS7") == "/dev/ttyS7"
    if want is None:
        with pytest.raises(deploy.DeployError):
            deploy.find_port("auto")
    else:
        assert deploy.find_port("auto") == want


# -- the hello after the reset (crib.board.link's handshake) -------------------------------

class PtyPeer:
    """A device on a pseudo terminal: each line it gets is answered with reply(line)."""

    def __init__(self, reply):
        self.reply = reply
        self.lines = []
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.closed = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        buf = b""
        while not self.closed.is_set():
            # Never a read blocked past close(): its fd number, closed, may be the next
            # peer's at once, and this peer's replies then answered that one's hello (a
            # board of the right protocol where the test wanted another: seen in a hunt).
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return  # the other side closed
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                self.lines.append(line.decode())
                os.write(self.master, self.reply(line.decode()))

    def close(self):
        self.closed.set()
        self.thread.join()
        for fd in (self.master, self.slave):
            os.close(fd)


def booting_board(proto=PROTO, lanes=3, fw=VERSION, starting=0):
    """reply() of a board whose main.py misses the first `starting` hellos (the REPL says
    something else), then answers hello and state."""
    hellos = []

    def reply(line):
        if line == "hello":
            hellos.append(line)
            if len(hellos) <= starting:
                return b"MPY: soft reboot\r\n"
            return ("ok rev=0 proto=%d fw=%s lanes=%d holes=121 target=121 players=2\n"
                    % (proto, fw, lanes)).encode()
        if line == "state":
            return b"ok rev=0 target=121 players=2 mode=play\n"
        return b""
    return reply


@pytest.fixture
def peer_for():
    """PtyPeer(reply), closed after the test."""
    made = []

    def make(reply):
        made.append(PtyPeer(reply))
        return made[-1]
    yield make
    for peer in made:
        peer.close()


@pytest.fixture
def quick(monkeypatch):
    """Hellos every 0.2 s instead of every second (the tests wait less)."""
    monkeypatch.setattr(deploy, "HELLO_EVERY", 0.2)


def test_hello_is_sent_again_until_main_py_answers(peer_for, quick):
    peer = peer_for(booting_board(starting=2))
    start = time.monotonic()
    fields = deploy.handshake(peer.port, lanes=3, fw=VERSION, timeout=5)
    assert (fields["proto"], fields["lanes"], fields["fw"]) == (PROTO, 3, VERSION)
    assert peer.lines[:3] == ["hello"] * 3
    assert time.monotonic() - start >= 2 * 0.2 * 0.9  # sent again after each wait


@pytest.mark.parametrize("board, error", [
    ({"proto": PROTO + 1}, VersionMismatch),
    ({"lanes": 2}, deploy.DeployError),
    ({"fw": "0.0.1-old"}, deploy.DeployError),
])
def test_a_board_reporting_other_versions_or_lanes_is_refused(peer_for, quick, board, error):
    peer = peer_for(booting_board(**board))
    with pytest.raises(error):
        deploy.handshake(peer.port, lanes=3, fw=VERSION, timeout=3)


def test_silence_after_the_reset_is_an_error_after_the_timeout(peer_for, quick):
    peer = peer_for(lambda line: b"")
    start = time.monotonic()
    with pytest.raises(deploy.DeployError):
        deploy.handshake(peer.port, timeout=1.0)
    assert time.monotonic() - start >= 1.0 * 0.9
    # Sent again each 0.2 s, never more often (a loaded machine may send fewer than 5, and
    # the peer read them a little later): wait until it has read two.
    deadline = time.monotonic() + 30
    while len(peer.lines) < 2:
        assert time.monotonic() < deadline, peer.lines
        time.sleep(0.01)
    assert set(peer.lines) == {"hello"} and len(peer.lines) <= 1.0 / 0.2 + 1


# -- against the fake Pico -----------------------------------------------------------------

def test_deploy_copies_verifies_resets_and_gets_hello(pico, built, capsys):
    assert main(["deploy", "--port", pico.port]) == 0
    out = capsys.readouterr().out
    assert "hello     ok proto=1" in out and "lanes=3" in out
    got = pico.files(list(built))
    for path, data in built.items():
        if path.endswith((".py", ".mpy", ".json")):
            assert got[path] == data, path
    # Nothing left half-way.
    assert not [p for p in pico.files([p + deploy.PART for p in built]).values() if p]


def test_a_plain_pico_gets_no_server_side_and_says_it_has_no_wifi(pico, tmp_path):
    out = _deploy(FIRMWARE, pico.port, tmp_path)
    assert any("a plain Pico" in line for line in out)
    assert set(pico.files(list(WIFI_ONLY) + ["wifi"]).values()) == {None}
    assert pico.ask("wifi").startswith("err code=unknown_verb ")


def test_a_board_with_wifi_gets_the_server_side_and_keeps_its_details(tmp_path):
    fake = FakePico(tmp_path / "w.img", machine="Raspberry Pi Pico 2 W with RP2350")
    try:
        out = _deploy(FIRMWARE, fake.port, tmp_path)
        assert any("Pico 2 W with RP2350" in line and "a board with Wi-Fi" in line
                   for line in out)
        assert None not in fake.files(WIFI_ONLY).values()
        first = decode(fake.ask("wifi"))  # the boot opened the (fake) access point
        assert first.kind == "ok" and first.args["address"] == "192.168.4.1"
        assert first.args["ssid"].startswith("Cribbage-")
        _deploy(_changed_firmware(tmp_path), fake.port, tmp_path)  # a redeploy
        again = decode(fake.ask("wifi"))  # and another boot: the details are the board's
        assert again.args == first.args
    finally:
        fake.stop()


def test_redeploy_writes_only_what_changed(pico, tmp_path):
    first = _deploy(FIRMWARE, pico.port, tmp_path)
    assert len([line for line in first if line.startswith("wrote")]) > 10
    again = _deploy(_changed_firmware(tmp_path), pico.port, tmp_path)
    wrote = [line.split()[1] for line in again if line.startswith("wrote")]
    assert wrote == ["code.pack", "pegboard/light.mpy"]  # the pack holds every module


def test_redeploy_keeps_the_game_in_progress(pico, tmp_path):
    _deploy(FIRMWARE, pico.port, tmp_path)
    assert pico.ask("peg p=0 n=5 id=1").startswith("ok")
    assert pico.ask("peg p=1 n=7 id=2").startswith("ok")
    before = pico.files(list(planning.STATE_FILES))
    assert before["state.1/h"] and before["state.2/h"]
    _deploy(_changed_firmware(tmp_path), pico.port, tmp_path)
    assert pico.files(list(planning.STATE_FILES)) == before
    state = pico.ask("state")
    assert "p0=0,5" in state and "p1=0,7" in state


@pytest.mark.parametrize("kind", ["records", "one file"])
def test_deploy_onto_a_board_holding_an_earlier_format_keeps_the_game(pico, tmp_path, kind):
    old = earlier_game(kind)
    for name, data in old.items():
        pico.put(name, data)
    out = _deploy(FIRMWARE, pico.port, tmp_path)
    assert [line for line in out if line.startswith("moving")] == [
        "moving    the saved game in %s (save 7) into state.7/h, today's format"
        % ("state.a" if kind == "records" else "state")]
    assert not [line for line in out if line.startswith("warning")]
    state = pico.ask("state")
    assert "p0=0,5" in state and "p2=0,9" in state and "brightness=55" in state
    assert pico.ask("peg p=0 n=5 id=old2") == EARLIER_REPLY  # remembered: not applied again
    assert pico.files(list(old)) == old  # the earlier files are left as they were
    again = _deploy(_changed_firmware(tmp_path), pico.port, tmp_path)
    assert not [line for line in again if line.startswith("moving")]  # the slot holds it now


def test_a_stray_ctrl_c_leaves_the_app_running_and_deploy_still_gets_in(pico, tmp_path):
    _deploy(FIRMWARE, pico.port, tmp_path)
    t = deploy.connect(pico.port)
    deploy.soft_reset(t)
    deploy.handshake(pico.port)
    with serial.serial_for_url(pico.port, baudrate=115200, timeout=5) as s:
        for stray in (b"\x03", b"hel\x03lo\n", b"\x03\x03\n"):
            s.write(stray)
            time.sleep(0.2)
        s.write(b"peg p=0 n=4 id=9\n")
        got = b""
        while b"id=9" not in got:
            line = s.readline()
            assert line, got  # the app still answers
            got += line
    assert b"ok rev=1 p0=0,4" in got
    _deploy(_changed_firmware(tmp_path), pico.port, tmp_path)  # mpremote gets the REPL
    assert "p0=0,4" in pico.ask("state")


def test_version_mismatch_is_refused_and_nothing_written(tmp_path, capsys):
    fake = FakePico(tmp_path / "old.img", mpy=5, version="1.18.0")
    try:
        assert main(["deploy", "--port", fake.port]) == 1
        assert "crib: error:" in capsys.readouterr().err
        assert fake.files(["main.py", "pegboard/app.mpy", "config.json"]) == {
            "main.py": None, "pegboard/app.mpy": None, "config.json": None}
    finally:
        fake.stop()


def test_a_corrupted_copy_is_caught_and_replaces_nothing(pico, tmp_path, monkeypatch):
    _deploy(FIRMWARE, pico.port, tmp_path)
    good = pico.files(["pegboard/light.mpy"])
    real = deploy.write_file

    def flaky(transport, path, data):
        if path.startswith("pegboard/light.mpy"):
            data = data[:-1] + bytes([data[-1] ^ 0x20])  # one flipped bit on the wire
        real(transport, path, data)

    monkeypatch.setattr(deploy, "write_file", flaky)
    with pytest.raises(deploy.DeployError):
        _deploy(_changed_firmware(tmp_path), pico.port, tmp_path)
    assert pico.files(["pegboard/light.mpy", "pegboard/light.mpy.part"]) == {
        "pegboard/light.mpy": good["pegboard/light.mpy"], "pegboard/light.mpy.part": None}


def test_config_push_changes_the_layout_only(pico, tmp_path, capsys, built):
    _deploy(FIRMWARE, pico.port, tmp_path)
    d = default_dict()
    d["lanes"] = d["lanes"][:2]
    d["leds"] = 242
    path = tmp_path / "two.json"
    path.write_text(json.dumps(d))
    assert main(["deploy", "--config", str(path), "--port", pico.port]) == 0
    assert "lanes=2" in capsys.readouterr().out
    got = pico.files(["config.json", "pegboard/app.mpy"])
    assert got["config.json"] == path.read_bytes()
    assert got["pegboard/app.mpy"] == built["pegboard/app.mpy"]
    # A later firmware deploy keeps the device's own layout.
    out = _deploy(_changed_firmware(tmp_path), pico.port, tmp_path)
    assert any(line.startswith("kept      config.json") for line in out)
    assert any("lanes=2" in line for line in out)
    assert pico.files(["config.json"])["config.json"] == path.read_bytes()


def test_an_old_source_module_that_would_shadow_the_mpy_is_removed(pico, tmp_path):
    pico.put("main.py", b"print('old')\n")
    pico.put("cribcore_old.txt", b"mine\n")
    t = deploy.connect(pico.port)
    t.fs_mkdir("pegboard")
    t.fs_writefile("pegboard/light.py", b"BROKEN = 1\n")
    t.close()
    out = _deploy(FIRMWARE, pico.port, tmp_path)
    assert any(line.startswith("removed   pegboard/light.py") for line in out)
    got = pico.files(["pegboard/light.py", "cribcore_old.txt"])
    assert got == {"pegboard/light.py": None, "cribcore_old.txt": b"mine\n"}


def test_device_hashes_are_computed_on_the_device(pico):
    pico.put("a.bin", bytes(range(256)) * 9)
    t = deploy.connect(pico.port)
    try:
        got = deploy.device_hashes(t, ["a.bin", "missing.bin"])
    finally:
        t.close()
    assert got == {"a.bin": hashlib.sha256(bytes(range(256)) * 9).digest(),
                   "missing.bin": None}
