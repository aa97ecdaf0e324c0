"""The joining address a `crib serve` run keeps (crib.web.keep): the run's key, whatever
game the run is in when it is killed, so that `--resume` after a kill -9 in the run's
second game keeps the phones' address (issue 35.9)."""

import os
import stat

from crib.web import keep


def test_the_key_kept_is_the_runs_not_its_first_games(tmp_path):
    db = tmp_path / "history.sqlite3"
    keep.save(db, 1, "the-runs-key", 8121)  # written when the run began, in game 1
    # killed in game 2: the resume of game 2 finds the run's key and port
    kept = keep.load(db)
    assert kept is not None and kept["key"] == "the-runs-key" and kept["port"] == 8121
    assert stat.S_IMODE(os.stat(keep.keep_path(db)).st_mode) == 0o600
    keep.forget(db)
    assert keep.load(db) is None


def test_a_run_that_began_before_any_game_keeps_its_key_too(tmp_path):
    db = tmp_path / "history.sqlite3"
    keep.save(db, None, "k", 9000)
    assert keep.load(db)["key"] == "k"
    keep_path = keep.keep_path(db)
    keep_path.write_text("not json")
    assert keep.load(db) is None
