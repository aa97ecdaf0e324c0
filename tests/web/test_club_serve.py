"""`crib club serve` as the director runs it (a process of its own): it prints the three
addresses, it is the night's one writer (a second `crib club` that writes is refused while
it runs), every result it acknowledged is in the history after it is killed (SIGKILL,
as a power cut), and the next `crib club serve` goes on from there."""

import io
import json
import os
import re
import signal
import subprocess
import sys
import time

import httpx2 as httpx

from crib.cli import main
from crib.env import Env


def club(db, *argv):
    out, err = io.StringIO(), io.StringIO()
    rc = main(["club", *argv, "--db", db], Env(io.StringIO(), out, err, {}))
    return rc, out.getvalue(), err.getvalue()


def start(db):
    """`crib club serve` on a free port: (process, {phones, director, report} addresses)."""
    proc = subprocess.Popen([sys.executable, "-m", "crib", "club", "serve", "--db", db,
                             "--web-port", "0", "--no-qr"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, NO_COLOR="1"))
    said, found = [], {}
    deadline = time.monotonic() + 60
    while len(found) < 3:
        line = proc.stdout.readline()
        if not line or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("crib club serve did not start:\n" + "".join(said))
        said.append(line)
        m = re.search(r"(phones|director|report to): (http://\S+)", line)
        if m:
            found[m.group(1)] = m.group(2)
    return proc, found


def test_what_the_server_acknowledged_survives_a_kill(tmp_path):
    db = str(tmp_path / "history.sqlite3")
    assert club(db, "new", "Friday", "--players", "Ann,Bob,Cy,Di", "--games", "3")[0] == 0
    rc, out, _ = club(db, "pairings", "--json")
    tables = json.loads(out)["tables"]
    proc, where = start(db)
    try:
        base, key = where["phones"].split("/?k=")
        assert where["report to"] == f"{base}/api/report?k={key}"
        assert where["director"].startswith(f"{base}/director?k={key}&d=")
        rc, _, err = club(db, "result", "--round", "1", "--table", "1", "--winner",
                          tables[0][0], "--loser-score", "100")
        assert rc == 1 and "in use by" in err and "crib club" in err  # one writer: the server
        with httpx.Client(base_url=base, headers={"X-Crib-Key": key}) as http:
            a, b = tables[1]
            r = http.post("/api/report", json={"winner": b, "loser": a, "loser_score": 77})
            assert r.json()["ok"]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
    rc, out, err = club(db, "results", "--json")
    assert rc == 0, err
    (r,) = json.loads(out)
    assert (r["table_no"], r["winner"], r["loser_score"], r["status"]) == (2, b, 77, "final")
    proc, where = start(db)  # the killed server's lock is stale: the next one starts
    try:
        base, key = where["phones"].split("/?k=")
        state = httpx.get(f"{base}/api/state", headers={"X-Crib-Key": key}).json()
        assert state["waiting"] == [1] and state["rounds"][0]["tables"][1]["result"]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
