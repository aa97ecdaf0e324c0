"""firmware/main.py itself, under the unix MicroPython with only the hardware faked
(tests/firmware/mainrig/run_main.py): it restarts the app after a fault rather than
dropping to the REPL, and leaves for the REPL on the hand-over."""

import shutil

from support import FIRMWARE, TESTS, run_micropython

from cribcore.protocol import decode

RIG = TESTS / "firmware" / "mainrig" / "run_main.py"


def run_main(tmp_path, chunks):
    script = tmp_path / "script"
    script.write_bytes(b"|".join(chunks))
    # The board's files in a folder of their own: the boot writes its layout cache there.
    shutil.copy(FIRMWARE / "config.json", tmp_path / "config.json")
    proc = run_micropython([RIG, FIRMWARE, script], heap="256K", timeout=120, cwd=tmp_path)
    assert proc.stderr == "", proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "main.py returned", proc.stdout
    # Ctrl-C is a plain byte while the app runs, an interrupt again once main.py is done.
    assert lines[-2] == "kbd_intr [-1, 3]", proc.stdout
    return [decode(x) for x in lines[:-2]]


def test_a_fault_that_stops_the_app_restarts_it_and_is_reported(tmp_path):
    got = run_main(tmp_path, [b"", b"hello\n", b"peg p=0 n=3 id=1\n", b""])
    boots = [m for m in got if m.kind == "evt" and m.verb == "boot"]
    assert len(boots) == 1 and boots[0].args["warn"] == ("internal",)
    warn = [m for m in got if m.verb == "warn"]
    assert warn and "MemoryError" in warn[0].args["msg"]
    replies = [m for m in got if m.kind == "ok"]
    assert [m.args.get("proto") for m in replies] == [1, None]
    assert replies[1].args["p0"] == (0, 3)
