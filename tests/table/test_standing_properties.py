"""cribcore.table.standing over drawn games: what it keeps as entries are added equals a
fresh pass over the entries at every step, whatever the players, the mode, the undos and
redos and the board's buttons (tests/core_table/test_standing.py runs a few fixed ones,
on MicroPython too)."""

import os
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "core_table"))

from test_standing import run  # noqa: E402


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), mode=st.sampled_from(["cards", "ranks", "totals"]),
       seed=st.integers(1, 10 ** 6), undo_every=st.sampled_from([0, 3, 8]),
       board_every=st.sampled_from([0, 6]))
def test_what_is_kept_equals_a_fresh_pass_at_every_step(players, mode, seed, undo_every,
                                                        board_every):
    _, steps = run(players, mode, seed, undo_every, board_every)
    assert steps > 10
