"""The long mixed run of issue 35 (tests/webboth/mixedrun.py): the board's own server
under MicroPython's unix port (heap capped as crib.web.unixboard.HEAP, its record in a
store folder) played to a game's end by the seat asked, beside 4 screens following the
state (each naming its seat) and strangers probing it all along: HEAD /events in a loop,
trickled heads, endless bodies, silent connections, unread streams, keyless OPTIONS, a
phone undoing and putting back (redo) again and again; the server killed (SIGKILL) and
started again on its store every --restart answers. Prints the answers taken and failed,
posted again, the live heap's peak and the high-water mark, the most connections and
streams seen, the connections refused, the screens' streams opened again, and what each
probe did.

    python bench/board_probes.py [--answers 300] [--restart 60] [--heap 640K]
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "web"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "webboth"))

from mixedrun import run  # noqa: E402

from crib.web.unixboard import HEAP  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--answers", type=int, default=300)
    ap.add_argument("--restart", type=int, default=60, help="answers between restarts"
                    " (0: none)")
    ap.add_argument("--heap", default=HEAP)
    args = ap.parse_args()
    f = run(args.answers, args.heap, args.restart)
    print("answers taken %d, failed %d, posted again %d, in %.0f s; restarts %d"
          % (f["taken"], f["failed"], f["resent"], f["seconds"], f["restarts"]))
    print("heap: live peak %d, high-water mark %d (of %s)"
          % (f["live"], f["peak"], args.heap))
    print("most connections %d, streams %d; connections refused %d; screens' streams"
          " opened again %d" % (f["conns"], f["streams"], f["refused"], f["reopened"]))
    print("probes:", ", ".join("%s %d" % kv for kv in sorted(f["probes"].items())))
    print("server alive at the end: %s; tracebacks: %d" % (f["alive"], f["tracebacks"]))
    for said in f["said"]:
        print("failed:", said)


if __name__ == "__main__":
    main()
