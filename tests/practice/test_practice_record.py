"""Practice games written to the history and pegged on a board (the in-memory board of
crib.board.memory) through crib.table, as `crib practice` does: board, history and game agree,
and the history alone replays the game."""

import io
import json
import random

import pytest
from practicekit import Referee

from crib.board.memory import MemoryBoard
from crib.history.db import History
from crib.practice.game import Practice, open_table_record, rngs
from crib.practice.levels import make
from crib.table.record import Table
from crib.ui.view import View


def practice_game(db, levels, seed, target):
    """A game between two levels recorded in a history at db; returns (game, rec, board)."""
    h = History.open(db)
    board = MemoryBoard(4)
    view = View(io.StringIO(), False)
    rec = open_table_record(h, board, view, [f"A-{levels[0]}", f"B-{levels[1]}"], target,
                            {"practice": levels[1], "seed": seed}, "none")
    deal_rng, rng = rngs(seed)
    seats = [make(levels[0], rng), make(levels[1], random.Random(seed))]
    game = Practice(seats, target, deal_rng, rec, Referee()).run()
    return game, rec, board


@pytest.mark.parametrize("levels, seed, target", [
    (("pro", "easy"), 1, 121),
    (("standard", "pro"), 2, 61),
    (("easy", "standard"), 3, 61),
])
def test_board_history_and_game_agree(db, levels, seed, target):
    game, rec, board = practice_game(db, levels, seed, target)
    h = rec.table.h
    gid = rec.table.game_id
    st = board.state()
    assert st.fronts == tuple(game.scores) and st.winner == game.winner
    assert st.lanes == 2 and st.target == target
    row = h.game(gid)
    assert row["finished"] and row["winner"] == game.winner
    assert row["scores"] == list(game.scores) and row["options"]["seed"] == seed
    assert not h.pending_ops(gid)
    by_side = [0, 0]
    for e in h.entries(gid):
        if e.side is not None:
            by_side[e.side] += e.points
    assert by_side == list(game.scores)
    pegs = [0, 0]
    for op in h.query("SELECT lane, n FROM ops WHERE game_id = ? AND verb = 'peg'"
                      " AND status = 'done'", (gid,)):
        pegs[op["lane"]] += op["n"]
    assert pegs == list(game.scores)
    # The hand summaries (what crib stats reads) add up to the scores too.
    totals = [0, 0]
    for r in h.query("SELECT dealer, summary FROM hands WHERE game_id = ?", (gid,)):
        s = json.loads(r["summary"])
        totals[r["dealer"]] += s["heels"] + (s["crib"] or 0)
        for p in (0, 1):
            totals[p] += s["play"][p] + (s["hand"][p] or 0)
    assert totals == list(game.scores)
    h.close()


def test_the_history_alone_replays_the_game(db):
    game, rec, _ = practice_game(db, ("pro", "standard"), 4, 121)
    h = rec.table.h
    again = Table(h, MemoryBoard(4), View(io.StringIO(), False), rec.table.game_id)
    assert again.game.state() == game.state()
    kinds = {e.kind for e in h.entries(rec.table.game_id)}
    assert {"cut", "deal", "discard", "starter", "lay", "go", "show"} <= kinds
    h.close()


def _started(h, options):
    """A game one hand in, as a killed companion leaves it: (its record, its Practice)."""
    rec = open_table_record(h, MemoryBoard(4), View(io.StringIO(), False), ["Me", "Pro"], 61,
                            options, "none")
    p = Practice([make("easy", random.Random(1)), make("pro")], 61, random.Random(2), rec)
    p.step()  # the cut for deal
    p.step()  # one hand
    return rec, p


def test_a_practice_game_is_never_offered_for_resume(db):
    h = History.open(db)
    table, _ = _started(h, {"muggins": False})
    assert h.unfinished()["id"] == table.table.game_id
    practice, _ = _started(h, {"practice": "pro", "seed": 2})  # the latest, yet not offered
    assert h.unfinished()["id"] == table.table.game_id
    practice.abandon()
    assert h.game(practice.table.game_id)["abandoned"] == 1
    assert h.unfinished()["id"] == table.table.game_id
    h.close()


def test_practice_games_left_unfinished_are_abandoned_on_request(db):
    h = History.open(db)
    killed = [_started(h, {"practice": level})[0] for level in ("easy", "pro")]
    table, _ = _started(h, {"muggins": True})
    done, game = _started(h, {"practice": "standard"})
    game.run()
    quit_, _ = _started(h, {"practice": "easy"})
    quit_.abandon()
    assert h.abandon_practice() == 2
    rows = {r["id"]: r for r in h.query("SELECT id, abandoned, finished FROM games")}
    assert [rows[r.table.game_id]["abandoned"] for r in killed] == [1, 1]
    assert rows[table.table.game_id]["abandoned"] == 0  # a table game waits for resume
    assert rows[done.table.game_id]["abandoned"] == 0 and rows[done.table.game_id]["finished"]
    assert rows[quit_.table.game_id]["abandoned"] == 1
    assert h.abandon_practice() == 0
    h.close()


def test_a_game_played_to_its_end_is_not_abandoned(db):
    # Another session may take a game still being played for dead (two practice games at
    # once on one history): its end says otherwise.
    h = History.open(db)
    rec, practice = _started(h, {"practice": "pro"})
    assert h.abandon_practice() == 1
    game = practice.run()
    row = h.game(rec.table.game_id)
    assert row["abandoned"] == 0 and row["finished"] and row["winner"] == game.winner
    h.close()
