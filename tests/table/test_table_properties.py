"""Properties of `crib play` over random games: any table, any way of entering the cards,
the board and the record end where the core's own game ends; undo and redo change nothing."""

import io
import os
import sys
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tablescript import FAST_DIR, Script

from crib.board.memory import MemoryBoard
from crib.cli import main

NAMES = ["Ann", "Ben", "Cat", "Dan"]
FAST = settings(max_examples=12, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def _run(monkeypatch, text, argv):
    """crib play on a fresh history (on tmpfs where there is one: fast syncs) and board."""
    board = MemoryBoard(4)
    monkeypatch.setattr("crib.commands.play.open_table_board", lambda *a, **k: board)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    with tempfile.TemporaryDirectory(dir=FAST_DIR) as d:
        rc = main(["play", "--db", os.path.join(d, "h.sqlite3"), *argv])
    return rc, board


@FAST
@given(players=st.sampled_from([2, 3, 4]), solo=st.booleans(), target=st.integers(31, 121),
       seed=st.integers(0, 10 ** 6), play=st.sampled_from(["cards", "ranks", "typed"]),
       show=st.sampled_from(["cards", "enter", "total"]))
def test_random_games_end_where_the_core_ends(monkeypatch, players, solo,
                                              target, seed, play, show):
    names = NAMES[:players]
    partnerships = not (players == 4 and solo)
    s = Script(names, target, dealer=0, partnerships=partnerships, seed=seed)
    s.play_out(play=play, show=show)
    argv = ["--names", ",".join(names), "--target", str(target), "--dealer", names[0],
            "--partnerships" if partnerships else "--solo"]
    rc, board = _run(monkeypatch, s.text(), argv)
    assert rc == 0
    assert board.state().fronts == tuple(s.game.scores)
    assert board.state().winner == s.game.winner


@FAST
@given(seed=st.integers(0, 10 ** 6), pick=st.integers(0, 10 ** 6))
def test_undo_and_redo_of_any_card_changes_nothing(monkeypatch, seed, pick):
    s = Script(["Ann", "Ben"], 61, dealer=0, seed=seed)
    s.play_out(play="cards", show="cards")
    lines = s.text().splitlines()
    at = s.lay_at[pick % len(s.lay_at)][0]
    lines[at + 1:at + 1] = ["undo", lines[at]]
    rc, board = _run(monkeypatch, "\n".join(lines) + "\n",
                     ["--names", "Ann,Ben", "--target", "61", "--dealer", "Ann"])
    assert rc == 0
    assert board.state().fronts == tuple(s.game.scores)
    jumps = len([p for p in s.log if p.points])
    assert board.board.undo_count == min(jumps, board.board.undo_depth)
