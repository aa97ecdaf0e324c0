"""bench/chip.py's 1,000-answer check (issue 39.4): the live heap at each game's first
question from game 2 on, said to grow when any later game starts more than GROWTH bytes
above game 2's, and too few games said to be too few."""

import importlib.util
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "pico"))
_spec = importlib.util.spec_from_file_location("bench_chip", ROOT / "bench" / "chip.py")
chip = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(chip)


@given(st.lists(st.integers(60_000, 200_000), min_size=3, max_size=12))
def test_growth_says_whether_a_later_game_starts_above_game_2(lives):
    firsts = [{"live": v} for v in lives]
    line = chip.growth(firsts, 1000)
    later = lives[1:]
    grows = max(later) - later[0] > chip.GROWTH
    assert ("GROWS" in line) == grows and ("no growth" in line) == (not grows)
    assert "games 2-%d" % len(lives) in line
    assert "%d to %d bytes live" % (min(later), max(later)) in line
    assert "%+d" % (later[-1] - later[0]) in line


@given(st.lists(st.integers(60_000, 200_000), max_size=2))
def test_fewer_than_two_later_games_are_too_few_to_say(lives):
    line = chip.growth([{"live": v} for v in lives], 160)
    assert "too few to say" in line and "GROWS" not in line and "no growth" not in line


@given(st.lists(st.tuples(st.integers(1, 10**7), st.integers(-1, 10**5), st.integers(1, 999),
                          st.integers(0, 10**7), st.integers(0, 10**6), st.integers(0, 10**6),
                          st.integers(0, 10**6)), max_size=5))
def test_the_undos_lines_are_read_part_by_part(undos):
    from chiprun import UNDO_PARTS, ChipRun

    text = "\n".join(["A 0 " + " ".join(["1"] * 13)] +
                     ["U %d " % i + " ".join(str(v) for v in u) for i, u in enumerate(undos)])
    run = ChipRun(text)
    assert len(run.answers) == 1
    assert [[u[k] for k in UNDO_PARTS] for u in run.undos] == [list(u) for u in undos]
