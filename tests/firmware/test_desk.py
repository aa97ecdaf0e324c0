"""The desk runner (firmware/desk.py) over a pipe: CPython, MicroPython from source, and the
.mpy build under a 96K heap; --store, --config, bad arguments, the real clock."""

import select
import shutil
import subprocess
import sys
import time

import pytest
from deskgame import saved_game, script
from support import FIRMWARE, micropython_path, run_micropython

from crib.deploy import build
from cribcore.protocol import decode

DESK = str(FIRMWARE / "desk.py")
HEAP = "96K"  # the .mpy build's cap (bench/heap.py measures the smallest heap)


def run_desk(args, stdin, python=sys.executable, cwd=None):
    proc = subprocess.run([python] + args, input=stdin, capture_output=True, text=True,
                          timeout=120, cwd=cwd)
    return proc


def answers(out):
    """The decoded lines, boot event left out."""
    lines = [decode(x) for x in out.splitlines()]
    assert lines[0].kind == "evt" and lines[0].verb == "boot"
    return lines[1:]


def check_game(out, lines, model):
    """Every command answered once, in order, as the model board says."""
    got = answers(out)
    replies = [m for m in got if m.kind != "evt"]
    assert len(replies) == len(lines)
    seen = {}
    for line, m in zip(lines, replies):
        if line.startswith("peg") and "id=late" in line:
            assert (m.kind, m.args["code"]) == ("err", "game_over")
            continue
        assert m.kind == "ok", (line, m)
        if "id=" not in line:
            continue
        ident = line.rsplit("id=", 1)[-1]
        if ident in seen:
            assert m == seen[ident], line  # a retried id: the first reply, applied once
        seen[ident] = m
    assert len(seen) < len([x for x in lines if "id=" in x])  # there were retries
    events = [m for m in got if m.kind == "evt"]
    assert [(m.verb, m.args["p"], m.args["n"]) for m in events] == [("peg", 1, 2)]
    final = replies[-3].args  # the state after winning again
    for lane in range(3):
        assert final["p%d" % lane] == (model.back(lane), model.front(lane))
    assert (final["winner"], final["wins"], final["rev"]) == (
        model.winner, tuple(model.wins[:3]), model.rev)
    assert final["skunk"] == tuple(model.skunk(i) for i in range(3))


@pytest.fixture(scope="module")
def game():
    lines, model = script()
    stdin = "\n".join(lines) + "\n"
    return lines, model, stdin


@pytest.fixture(scope="module")
def cpython_out(game, tmp_path_factory):
    lines, model, stdin = game
    store = tmp_path_factory.mktemp("store")
    proc = run_desk([DESK, "--driven", "--store", str(store)], stdin)
    assert proc.returncode == 0 and proc.stderr == ""
    return proc.stdout


def test_scripted_game_under_cpython(game, cpython_out):
    lines, model, _ = game
    check_game(cpython_out, lines, model)


def test_scripted_game_under_micropython_from_source(game, cpython_out, tmp_path):
    lines, model, stdin = game
    proc = run_micropython([DESK, "--driven", "--store", tmp_path], heap="256K", stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == cpython_out


@pytest.fixture(scope="module")
def mpy_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    build.build(out)
    assert (out / "desk.mpy").exists() and not (out / "desk.py").exists()
    return out


@pytest.fixture(scope="module")
def saved_store(mpy_build, tmp_path_factory):
    """A store holding a saved game under way, its undo history full (a restart's boot),
    played by the build in a roomy heap: its layout.cache is the build's, as on a board
    that has booted before."""
    store = tmp_path_factory.mktemp("saved") / "s"
    proc = run_micropython(["-m", "desk", "--driven", "--store", store], heap="512K",
                           stdin="\n".join(saved_game()) + "\n", cwd=mpy_build)
    assert proc.returncode == 0 and proc.stdout.count("\nok ") == len(saved_game())
    assert (store / "layout.cache").exists()
    return store


def test_scripted_game_from_the_mpy_build_in_the_cap(game, saved_store, mpy_build, tmp_path):
    """What deploy puts on the Pico, in a heap the Pico can spare with a wide margin,
    booting on a saved game with a full undo history (defect C: a restart needed more
    heap than a blank store, and the test booted only on a blank one).

    95K on the 64-bit unix port (bench/heap.py; 99K before issue 25's third round, which
    dropped the readers of earlier formats and, once the layout is read, pegboard.layout):
    what runs only at boot, Board.loads, the store's reading half and the layout's reader,
    is in modules the app drops once it has read them, no one-character strings are made
    (MicroPython interns each), and what only a host uses is not in the firmware (the
    pixel text's parser, the error codes' meanings: docs/protocol.md), and the build has
    no source line numbers. It measured 96K before
    the layout cache of pegboard.layout, and 107K after issue 14's renderer (a frame
    skipped until it can change, pegboard.frame's two layers: a drawn frame 42 -> 7 ms on
    the Pico), whose names took the interned-string table one pool further (7K). The Pico
    has about 190K free, and the emulated-Pico soak (tests/pico) samples the real port's
    heap."""
    lines, model, stdin = game
    out = mpy_build
    shutil.copytree(saved_store, tmp_path / "cpython")
    # The store by a short name beside the build, as on a board: its path stays in the
    # heap, and a long temporary one would count against the cap (see the test below).
    shutil.rmtree(out / "mp", ignore_errors=True)
    shutil.copytree(saved_store, out / "mp")
    want = run_desk([DESK, "--driven", "--store", str(tmp_path / "cpython")], stdin).stdout
    assert want.startswith("evt boot rev=71 ")  # on the saved game
    proc = run_micropython(["-m", "desk", "--driven", "--store", "mp"],
                           heap=HEAP, stdin=stdin, cwd=out)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    assert proc.stdout == want


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_store_keeps_the_game_across_runs(interpreter, tmp_path):
    def desk(stdin):
        args = [DESK, "--driven", "--store", str(tmp_path)]
        if interpreter == "cpython":
            return run_desk(args, stdin).stdout
        return run_micropython(args, heap="256K", stdin=stdin).stdout

    desk("peg p=1 n=9 id=a\nset brightness=70 id=b\n")
    got = answers(desk("state\npeg p=1 n=9 id=a\n"))
    assert got[0].args["p1"] == (0, 9) and got[0].args["brightness"] == 70
    assert got[1].args["rev"] == 1  # the retried id was answered, not applied again
    # a slot per save, each in a directory of its own; the directories of slots not yet
    # saved are made ahead while the board is idle
    slots = ["state.%d" % i for i in range(9)]
    names = sorted(p.name for p in tmp_path.iterdir() if p.name != "layout.cache")
    assert set(names) <= set(slots) and {"state.1", "state.2"} <= set(names)
    assert (tmp_path / "layout.cache").is_file()  # the layout validated once, as on a Pico
    assert [p.name for p in (tmp_path / "state.2").iterdir()] == ["h"]
    assert [name for name in names if (tmp_path / name / "h").exists()] == [
        "state.1", "state.2"]


def test_config_file_and_bad_config(tmp_path):
    two = tmp_path / "two.json"
    text = (FIRMWARE / "config.json").read_text()
    import json

    d = json.loads(text)
    d["lanes"] = d["lanes"][:2]
    two.write_text(json.dumps(d))
    got = answers(run_desk([DESK, "--driven", "--config", str(two)], "hello\n").stdout)
    assert got[0].args["lanes"] == 2
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "leds": -4}')
    out = run_desk([DESK, "--driven", "--config", str(bad)], "hello\n").stdout
    lines = [decode(x) for x in out.splitlines()]
    assert lines[0].args["warn"] == ("bad_config",)
    assert (lines[1].verb, lines[1].args["code"]) == ("warn", "bad_config")
    assert lines[2].args["lanes"] == 3 and lines[2].args["warn"] == ("bad_config",)
    missing = run_desk([DESK, "--driven", "--config", str(tmp_path / "none.json")], "hello\n")
    assert decode(missing.stdout.splitlines()[0]).args["warn"] == ("bad_config",)


@pytest.mark.parametrize("args", [["--bogus"], ["--store"], ["--config"], ["x"]])
def test_bad_arguments_exit_2(args):
    proc = run_desk([DESK] + args, "")
    assert proc.returncode == 2 and "usage" in proc.stderr and proc.stdout == ""


def read_until(proc, prefix, seconds):
    """Lines from the runner until one starts with prefix (or the time is up). proc's stdout
    is unbuffered (bufsize=0): a buffered reader would take two replies that came together
    off the pipe at the first readline, and select would not see the second."""
    seen = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [], 0.05)
        if ready:
            line = proc.stdout.readline().decode()
            seen.append(line.strip())
            if line.startswith(prefix):
                return seen
    raise AssertionError("no %r within %ss: %r" % (prefix, seconds, seen))


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_real_clock_buttons_and_reading_while_idle(interpreter):
    python = sys.executable if interpreter == "cpython" else micropython_path()
    proc = subprocess.Popen([python, DESK], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0)
    try:
        read_until(proc, "evt boot", 10)
        proc.stdin.write(b"btn b=lane2 on=1\n")
        proc.stdin.flush()
        read_until(proc, "ok", 5)
        time.sleep(0.2)
        proc.stdin.write(b"btn b=lane2 on=0\nhello\n")
        proc.stdin.flush()
        # The runner answers at once, then pegs on its own clock after the pause.
        assert read_until(proc, "ok", 5)[-1].startswith("ok")
        seen = read_until(proc, "ok rev=0 proto=1", 5)
        peg = read_until(proc, "evt peg", 5)[-1]
        assert decode(peg).args["p2"] == (0, 1)
        assert not [x for x in seen if x.startswith("evt peg")]  # not before the pause
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0


def test_the_deepest_undo_history_plays_a_1000_point_game_and_restarts_in_the_cap(
        mpy_build):
    """Defect B: with undo_depth 1000 every change failed for want of memory from about
    rev 477 on (each change copied the history list at its exact size). The history is now
    only its text (shared by the change's copy) and the layout refuses a depth past
    MAX_UNDO: at that depth a 1000-point game plays to its win, and a restart on it
    boots and undoes, in the .mpy build's heap cap."""
    import json

    from cribcore.pegs import MAX_UNDO

    out = mpy_build
    cfg = json.loads((FIRMWARE / "config.json").read_text())
    cfg["undo_depth"] = MAX_UNDO
    # The store and the layout by short names beside the build (its working folder), as on
    # a board: the store's path is in every file name the runner makes, and both paths stay
    # in the heap (sys.argv). A long temporary path (pytest's base folder, longer under
    # pytest-xdist, or under a TMPDIR like macOS's) counted against the cap: this game has
    # less than 200 bytes to spare, and a config path of 150 characters failed it.
    shutil.rmtree(out / "deep", ignore_errors=True)
    (out / "deep.json").write_text(json.dumps(cfg))
    args = ["-m", "desk", "--driven", "--store", "deep", "--config", "deep.json"]
    # a board that has booted before: its layout validated once, into layout.cache
    assert run_micropython(args, heap="512K", stdin="", cwd=out).returncode == 0
    pegs = ["peg p=%d n=1 id=x%d" % (i % 2, i) for i in range(1999)]
    stdin = "\n".join(["new target=1000 players=2 id=n"] + pegs + ["state"]) + "\n"
    proc = run_micropython(args, heap=HEAP, stdin=stdin, cwd=out)
    got = answers(proc.stdout)
    errs = [m for m in got if m.kind != "ok"]
    assert proc.returncode == 0 and not errs and len(got) == len(pegs) + 2, errs[:1]
    assert got[-1].args["winner"] == 0 and got[-1].args["undos"] == MAX_UNDO
    again = run_micropython(args, heap=HEAP, stdin="undo id=u\nstate\n", cwd=out)
    got = answers(again.stdout)
    assert again.returncode == 0, again.stdout[-2000:] + again.stderr
    assert got[0].args["winner"] == -1 and got[1].args["undos"] == MAX_UNDO - 1
    assert got[1].args["p0"] == (998, 999) and got[1].args["p1"] == (998, 999)


def test_a_quoted_value_of_every_character_is_refused_not_a_memory_error(
        saved_store, mpy_build, tmp_path):
    """Issue 35.10: the line scanner made a one-character string for every character of a
    quoted value, which MicroPython interns and keeps: in the cap, a value of the 92
    printable characters that need no escape ran the heap out (`err code=internal`, and
    every line after it too). It is refused as it should be, and the board goes on."""
    text = "".join(chr(c) for c in range(33, 127) if chr(c) not in '"\\')
    lines = ['hello x="%s"' % text, 'hello x="a \\" b \\\\ c"', "state",
             'help verb="peg"']
    shutil.copytree(saved_store, tmp_path / "mp")
    proc = run_micropython(["-m", "desk", "--driven", "--store", tmp_path / "mp"],
                           heap=HEAP, stdin="\n".join(lines) + "\n", cwd=mpy_build)
    got = answers(proc.stdout)
    assert proc.returncode == 0 and len(got) == len(lines), proc.stdout + proc.stderr
    assert [(m.kind, m.args.get("code")) for m in got] == [
        ("err", "bad_arg"), ("err", "bad_arg"), ("ok", None), ("ok", None)], proc.stdout
    assert got[3].args["verb"] == "peg"
