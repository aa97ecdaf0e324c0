"""`serving PORT` (boardweb.unix, what `crib sim --wifi` and the tests wait for before
they connect) is printed once the port listens, never before: printed first, a client
that came at once under load was refused (tests/web/test_sim_wifi.py failed so in CI)."""

import socket
import subprocess

from crib.web.unixboard import free_port
from crib.web.wifisim import command


def test_a_port_that_cannot_be_bound_ends_the_server_without_a_serving_line(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        argv, env = command(tmp_path, port, "k" * 16, "http://127.0.0.1:%d/" % port)
        (tmp_path / "board").mkdir()
        done = subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, text=True,
                              timeout=120)
    finally:
        taken.close()
    assert done.returncode != 0
    assert "serving" not in done.stdout, done.stdout
    assert "EADDRINUSE" in done.stdout + done.stderr or "98" in done.stdout + done.stderr


def test_the_serving_line_comes_when_the_port_takes_a_connection(tmp_path):
    port = free_port()
    argv, env = command(tmp_path, port, "k" * 16, "http://127.0.0.1:%d/" % port)
    (tmp_path / "board").mkdir()
    proc = subprocess.Popen(argv, env=env, cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        said = []
        for line in proc.stdout:  # until the line (or the process ends)
            said.append(line)
            if line.startswith("serving "):
                break
        assert said and said[-1].strip() == "serving %d" % port, "".join(said)
        with socket.create_connection(("127.0.0.1", port), 10):
            pass  # accepted: it listened before it said so
    finally:
        proc.kill()
        proc.wait()
