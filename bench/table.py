"""Prompts and keystrokes for one typical 2-player hand of `crib play`, as cards and as
totals only: the answers a table types (Enter counts as a keystroke), checked by playing
them through the real command, which must then ask for the next hand's starter.

    python bench/table.py [--crib PATH]   # another crib command (an older install, say)
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "table"))

from tablescript import Script  # noqa: E402

SEEDS = range(20, 30)  # ten deals: the figures are their average


def answers(seed, mode, totals_flag):
    """The answers of the first hand of a game on seed, in one way of entering it."""
    s = Script(["Alice", "Bob"], 121, dealer=0, seed=seed)
    if mode == "cards":
        s.hand(play="cards", show="enter")
        return s.answers
    s.hand(play="typed", show="total")
    return [a for a in s.answers if a != "points"] if totals_flag else s.answers


def run(crib, text, extra):
    """Play the answers through `crib play`; its output."""
    with tempfile.TemporaryDirectory() as d:
        done = subprocess.run(
            [crib, "play", "--db", os.path.join(d, "h.sqlite3"), "--board", "none",
             "--no-colour", "--names", "Alice,Bob", "--target", "121", "--dealer", "Alice",
             *extra], input=text + "quit\n", capture_output=True, text=True, timeout=60)
    return done.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crib", default=os.path.join(os.path.dirname(sys.executable),
                                                       "crib"))
    args = parser.parse_args()
    has_totals = "--totals" in subprocess.run([args.crib, "play", "--help"],
                                              capture_output=True, text=True).stdout
    print(f"one 2-player hand of crib play ({args.crib}), average of {len(SEEDS)} deals")
    for mode in ("cards", "totals"):
        prompts = keys = 0
        for seed in SEEDS:
            got = answers(seed, mode, has_totals)
            extra = ["--totals"] if mode == "totals" and has_totals else []
            out = run(args.crib, "".join(a + "\n" for a in got), extra)
            hand2 = out.split("Hand 2:")[-1] if "Hand 2:" in out else ""
            if "Starter" not in hand2:
                raise SystemExit(f"seed {seed} {mode}: the hand did not end where expected")
            prompts += len(got)
            keys += sum(len(a) + 1 for a in got)
        n = len(SEEDS)
        print(f"  {mode:<7} {prompts / n:5.1f} prompts  {keys / n:5.1f} keystrokes")


if __name__ == "__main__":
    main()
