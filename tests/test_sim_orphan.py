"""The virtual board's runner (firmware/desk.py) ends when the process that started it is
killed (SIGKILL: no chance to close anything), even when its stdin lives on in another
process that inherited it, so a `crib serve` or `crib play` killed with kill -9 leaves no
board running as an orphan (issue 35 item 9)."""

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

# The parent: a virtual board, and a process that inherits the write end of its runner's
# stdin (as a program crib started with that fd open would); it says both pids once the
# runner has answered, and waits to be killed.
PARENT = """
import subprocess, sys, time
from crib.sim.virtual import VirtualBoard
vb = VirtualBoard(None, pty=False, address=("127.0.0.1", 0), driven="--driven" in sys.argv)
vb.start()
holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                          pass_fds=(vb._proc.stdin.fileno(),))
reply = vb.ask("hello", 60) or "none"
print(vb.runner_pid, holder.pid, reply.split(" ")[0], flush=True)
time.sleep(600)
"""


def running(pid):
    """Whether pid is a process that has not ended (a zombie has ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True,
                          text=True).stdout.strip()
    return bool(stat) and not stat.startswith("Z")


def wait_gone(pid, seconds=60):
    """True once pid has ended; False if it still runs after seconds (a loaded machine)."""
    deadline = time.monotonic() + seconds
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


@pytest.mark.parametrize("args", [[], ["--driven"]], ids=["real-clock", "driven"])
def test_the_runner_ends_when_its_parent_is_killed_though_its_stdin_stays_open(args):
    parent = subprocess.Popen([sys.executable, "-c", PARENT, *args], stdout=subprocess.PIPE,
                              text=True)
    runner = holder = None
    try:
        runner, holder, reply = parent.stdout.readline().split()
        runner, holder = int(runner), int(holder)
        assert reply == "ok" and running(runner)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert running(holder)  # the runner's stdin is still open
        assert wait_gone(runner), "the runner outlived its parent"
    finally:
        for pid in (runner, holder):
            if pid is not None and running(pid):
                os.kill(pid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
        parent.wait()
        parent.stdout.close()


def runner_pids(pid):
    """The processes pid started (pgrep -P, on Linux and macOS)."""
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


@pytest.mark.parametrize("verb", ["play", "serve"])
def test_kill_9_of_crib_play_or_serve_leaves_no_runner(verb, tmp_path):
    cmd = [sys.executable, "-m", "crib", verb, "--board", "sim", "--store",
           str(tmp_path / "sim"), "--db", str(tmp_path / "h.sqlite3"), "--names", "A,B",
           "--target", "61", "--dealer", "A", "--no-colour"]
    if verb == "serve":
        cmd += ["--web-port", "0", "--no-qr"]
    want = "open http" if verb == "serve" else "Starter"
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, NO_COLOR="1", HOME=str(tmp_path)))
    kids = []
    try:
        seen = ""
        while want not in seen:
            chunk = proc.stdout.read(1)
            assert chunk, "crib %s ended: %s" % (verb, seen)
            seen += chunk
        kids = runner_pids(proc.pid)
        assert len(kids) == 1 and running(kids[0])
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert wait_gone(kids[0]), "the runner outlived crib %s" % verb
    finally:
        for pid in kids:
            if running(pid):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stdin.close()
