"""A long mixed session (tests/firmware/desksession.py) on the .mpy build of the desk
runner: in the 96K cap every line gets its one reply, and the heap does not grow with the
session's length (issue 35.11). bench/session.py prints the figures."""

import pytest
from desksession import session
from support import TESTS, run_micropython

from crib.deploy import build
from cribcore.protocol import decode

HEAP = "96K"  # the cap of tests/firmware/test_desk.py: the Pico's heap under pressure
COMMANDS = 20000


@pytest.fixture(scope="module")
def mpy_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    build.build(out)
    # The store by a short name beside the build, as on a board (see test_desk.py's
    # deepest-undo test): a board that has booted before, its layout in layout.cache.
    proc = run_micropython(["-m", "desk", "--driven", "--store", "s"], heap="512K",
                           stdin="", cwd=out)
    assert proc.returncode == 0 and (out / "s" / "layout.cache").exists(), proc.stderr
    return out


def replies(out):
    return [decode(x) for x in out.splitlines() if not x.startswith("evt ")]


def test_every_line_of_a_long_mixed_session_is_answered_in_the_cap(mpy_build):
    lines = session(COMMANDS) + ["state"]
    proc = run_micropython(["-m", "desk", "--driven", "--store", "s"], heap=HEAP,
                           stdin="\n".join(lines) + "\n", cwd=mpy_build, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = replies(proc.stdout)
    assert len(got) == len(lines)  # none dropped, none twice
    short = [i for i, m in enumerate(got) if m.kind == "err" and m.args["code"] == "internal"]
    # Short of memory now and then (a change's copy of its undo history wants a few hundred
    # bytes in one piece): said, and the board goes on. 35.11 saw every change refused
    # from command 16,990 on, and internal errors from 5,611.
    assert len(short) < COMMANDS // 1000, [lines[i] for i in short]
    assert got[-1].kind == "ok" and got[-1].args["players"] in (2, 3, 4)
    applied = [i for i, m in enumerate(got) if m.kind == "ok" and lines[i].startswith("peg")]
    assert applied and applied[-1] > len(lines) - 100  # changes are still made at the end


def test_the_live_heap_does_not_grow_with_a_sessions_length(mpy_build):
    """The live heap (after a collection) at the start of a session and every 500
    commands: no trend. (Before 35.10's fix a quoted value interned each of its characters:
    in the 96K cap, a few more names took the names' table one pool (7K) further.)"""
    lines = ["state"]
    samples = [0]
    for i, line in enumerate(session(5000, seed=2)):
        lines.append(line)
        if i % 500 == 499:
            samples.append(len(lines))
            lines.append("state")
    proc = run_micropython([TESTS / "firmware" / "deskheap.py", ".", "--driven", "--store",
                            "s"], heap="256K", stdin="\n".join(lines) + "\n",
                           cwd=mpy_build, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = replies(proc.stdout)
    assert len(got) == len(lines)
    live = [got[i].args["free"] for i in samples]
    # At the start less: the tables a first use makes (the fields', the recent ids'),
    # bounded. Then it moves with the game (its undo history) but has no trend.
    assert len(live) == 11 and live[0] < min(live[1:]), live
    assert max(live[1:]) - min(live[1:]) < 2048, live
    assert max(live[6:]) <= max(live[1:6]) + 512, live
