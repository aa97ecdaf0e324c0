"""The virtual board's runner (firmware/desk.py) as a child process: its command line, its
start with three non-blocking pipes, its stop, what it said on stderr. The hub
(crib.sim.virtual) supervises it: starts it again when it dies, as a Pico's reset would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import IO

from crib.sim.store import SimError, desk_path


def pipes(proc: subprocess.Popen[bytes]) -> tuple[IO[bytes], IO[bytes], IO[bytes]]:
    """A runner's stdin, stdout and stderr (spawn pipes all three)."""
    stdin, stdout, stderr = proc.stdin, proc.stdout, proc.stderr
    assert stdin is not None and stdout is not None and stderr is not None
    return stdin, stdout, stderr


def command(python: str, runner: str | None, store: str | None, layout: str | None,
            driven: bool) -> list[str]:
    """The runner's command line (desk.py's options)."""
    cmd = [python, str(runner or desk_path())]
    if python == sys.executable:
        # ended with this process even if its stdin lives on elsewhere (crib.sim.watch)
        cmd[1:1] = ["-m", "crib.sim.watch", str(os.getpid())]
    if store is not None:
        cmd += ["--store", str(store)]
    if layout is not None:
        cmd += ["--config", str(layout)]
    if driven:
        cmd.append("--driven")
    return cmd


def spawn(cmd: list[str]) -> subprocess.Popen[bytes]:
    """Start the runner, its stdout and stderr non-blocking; SimError if it cannot start."""
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, bufsize=0)
    except OSError as e:
        raise SimError("cannot start the runner %r: %s" % (cmd, e)) from None
    _, stdout, stderr = pipes(proc)
    os.set_blocking(stdout.fileno(), False)
    os.set_blocking(stderr.fileno(), False)
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Close its stdin so that it finishes and exits (killed if it has not within 3 s)."""
    stdin, stdout, stderr = pipes(proc)
    try:
        stdin.close()
    except OSError:
        pass
    try:
        proc.wait(3)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    for f in (stdout, stderr):
        f.close()


def reap(proc: subprocess.Popen[bytes]) -> str:
    """A runner whose stdout ended: what is left on its stderr, once it has exited and its
    pipes are closed."""
    stdin, stdout, stderr = pipes(proc)
    try:
        rest = stderr.read() or b""
    except (OSError, ValueError):
        rest = b""
    proc.wait()
    for f in (stdout, stderr):
        f.close()
    try:
        stdin.close()
    except OSError:
        pass
    return rest.decode(errors="replace")
