"""A long mixed session on the desk runner's .mpy build in the 96K cap (issue 35.11).

python bench/session.py [N]   builds the firmware, boots a store once in a roomy heap, then
plays N (default 20,000) seeded commands (tests/firmware/desksession.py: pegs, retries,
undos, new games, states, settings, garbage) in the cap, and prints the commands, the
replies, the `err code=internal` replies (how many, the first), the changes applied; then
the same session in a 256K heap with the live heap (gc.mem_alloc after a collection)
sampled every 2,000 commands.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "firmware")]

from desksession import session  # noqa: E402
from support import micropython_path  # noqa: E402

from crib.deploy import build  # noqa: E402


def play(out, args, heap, lines):
    proc = subprocess.run([micropython_path(), "-X", "heapsize=" + heap] + args
                          + ["--driven", "--store", "s"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, cwd=out, timeout=1200)
    return [x for x in proc.stdout.splitlines() if not x.startswith("evt ")]


def main(n):
    lines = session(n)
    with tempfile.TemporaryDirectory() as out:
        build.build(out)
        play(out, ["-m", "desk"], "512K", [])
        got = play(out, ["-m", "desk"], "96K", lines)
        short = [i for i, x in enumerate(got) if x.startswith("err code=internal")]
        applied = sum(1 for i, x in enumerate(got) if x.startswith("ok ") and " id=" in x)
        print("96K cap: %d commands, %d replies, %d internal errors (first at %s), "
              "%d changes applied" % (len(lines), len(got), len(short),
                                     short[0] if short else "-", applied))
        sampled = []
        for i, line in enumerate(lines):
            sampled.append(line)
            if i % 2000 == 0:
                sampled.append("state")
        got = play(out, [str(ROOT / "tests" / "firmware" / "deskheap.py"), "."], "256K",
                   sampled)
        live = [x.split(" free=")[1].split()[0] for x in got if " free=" in x]
        print("live heap every 2,000 commands (and at the session's own states): "
              "min %d, max %d, first %s, last %s" % (
                  min(map(int, live)), max(map(int, live)), live[0], live[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000))
