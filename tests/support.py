"""Helpers shared by the tests: the MicroPython interpreter, the .mpy build, paths."""

import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
TESTS = ROOT / "tests"
CORE_TESTS = TESTS / "core"
MP_RUN = TESTS / "mp_run.py"
# The module path of every capped run: the working folder (always first) and the frozen
# modules, as on a board; nothing from HOME (run_micropython).
MICROPYPATH = ".frozen"


def micropython_path():
    """The unix MicroPython from the test extras (next to this Python), or on PATH."""
    here = Path(sys.executable).parent / "micropython"
    found = str(here) if here.exists() else shutil.which("micropython")
    assert found, "micropython is missing: install the test extras (pip install -e '.[test]')"
    return found


def run_micropython(args, heap="96K", timeout=300, cwd=ROOT, stdin=None, env=None):
    """Run `micropython -X heapsize=HEAP ARGS`; return the CompletedProcess (text).

    Its module path is fixed (MICROPYPATH, unless env gives one): by default the unix port
    puts HOME in it (~/.micropython/lib), and that string is in the capped heap; each test
    has a HOME of its own, of a length that varies with pytest's temporary folders, which
    moved a game near the cap from passing to failing (test_desk's deepest undo history)."""
    cmd = [micropython_path()]
    if heap:
        cmd += ["-X", "heapsize=" + heap]
    e = dict(os.environ)
    e["MICROPYPATH"] = MICROPYPATH
    e.update(env or {})
    return subprocess.run(cmd + [str(a) for a in args], capture_output=True, text=True,
                          timeout=timeout, cwd=str(cwd), input=stdin, env=e)


def core_test_modules():
    """Names of the plain test modules that run under both interpreters."""
    return sorted(p.stem for p in CORE_TESTS.glob("test_*.py"))


def read_until(fd, want, seconds=20):
    """Output of a pseudo terminal (its master fd) until want appears, or the time is up."""
    seen = b""
    deadline = time.monotonic() + seconds
    while want not in seen and time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def close_pty(proc, master, seconds=20):
    """Wait for a process run on a pseudo terminal to end (kill it if it has not within
    seconds), then close the terminal's master fd; its exit code."""
    try:
        proc.wait(seconds)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return proc.returncode


def earlier_state_file(seq, lines, magic="crib-rec"):
    """A state file as the firmware before the store's slots wrote it: `crib-rec` (CRC-32;
    board copies `state.a`/`.b` and records `state.rN`) or `crib-state` (Adler-32; `state`,
    `.new`, `.old`)."""
    from cribcore.pegs import checksum, crc

    sums = checksum if magic == "crib-state" else crc
    body = "\n".join(lines)
    head = f"{magic} {seq} {len(body)} {sums(body)}"
    return (head + " " + sums(head) + "\n" + body).encode()


def v1_board(board):
    """A board's text in the earlier firmware's v1 (the history as numbers, Adler-32)."""
    from cribcore.boardread import _decode_hist
    from cribcore.pegs import checksum

    hist = _decode_hist(board, board._htext.encode())  # each jump: lane + 4 * its back peg before
    body = board._body("v1", ",".join([str(h) for h in hist]))
    return body + "*" + checksum(body)


def earlier_game(kind):
    """An earlier firmware's saved game (3 lanes: p2 at 9, p0 at 5, brightness 55, the id
    old2 remembered) as its state files, {name: bytes}: `kind` "records" (board copies
    naming records of the other lines) or "one file" (the one before: `state`, `.old`)."""
    from cribcore.pegs import Board, checksum
    from cribcore.protocol import encode

    board = Board(3, 121)
    board.peg(2, 9)
    board.peg(0, 5)
    lines = ["board " + v1_board(board),
             "set brightness=55 budget_ma=450 pause_ms=1500 idle_ms=600000",
             "id old2 %s %s" % (checksum(encode("peg", p=0, n=5)), EARLIER_REPLY)]
    if kind == "records":
        return {"state.a": earlier_state_file(7, lines[:1] + ["recs 0,1"]),
                "state.r0": earlier_state_file(5, lines[1:2]),
                "state.r1": earlier_state_file(6, lines[2:])}
    one = earlier_state_file(7, lines, "crib-state")
    return {"state": one, "state.old": one}


EARLIER_REPLY = "ok rev=2 p0=0,5 winner=-1 id=old2"  # what earlier_game's id remembers


def packed_at(pack, name):
    """(start, length) of module `name` ("/pegboard/ticks.mpy") in a code pack's bytes."""
    import json

    from crib.deploy.build import fastboot

    fb = fastboot(FIRMWARE)
    size = int(pack[len(fb.MAGIC):fb.HEAD - 1])
    at, length, _ = json.loads(pack[fb.HEAD:fb.HEAD + size])["files"][name]
    return fb.HEAD + size + at, length
