"""Practice games written to the history and pegged on a board (the in-memory board of
crib.board.memory) through the table engine, as `crib practice` does: board, history and
game agree, the history alone replays the game, and a practice game is never resumed."""

import io
import json
import random

import pytest
from practicekit import Referee

from crib.board.memory import MemoryBoard
from crib.history.db import History
from crib.practice.computer import play_game, practice_engine
from crib.practice.game import rngs
from crib.practice.levels import make
from crib.table.engine import TableEngine
from crib.table.record import Table
from crib.table.session import Setup
from crib.ui.view import View


def practice_game(db, levels, seed, target):
    """A game between two levels recorded in a history at db; returns (game, table, board)."""
    h = History.open(db)
    board = MemoryBoard(4)
    engine = practice_engine(h, board, [f"A-{levels[0]}", f"B-{levels[1]}"], levels[1],
                             target, seed)
    seats = [make(levels[0], rngs(seed)[1]), make(levels[1], random.Random(seed))]
    game = play_game(engine, seats)
    table = engine.session.table
    Referee(target).check(table.entries, game)
    return game, table, board


@pytest.mark.parametrize("levels, seed, target", [
    (("pro", "easy"), 1, 121),
    (("standard", "pro"), 2, 61),
    (("easy", "standard"), 3, 61),
])
def test_board_history_and_game_agree(db, levels, seed, target):
    game, table, board = practice_game(db, levels, seed, target)
    h = table.h
    gid = table.game_id
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
    game, table, _ = practice_game(db, ("pro", "standard"), 4, 121)
    h = table.h
    again = Table(h, MemoryBoard(4), View(io.StringIO(), False), table.game_id)
    assert again.game.state() == game.state()
    kinds = {e.kind for e in h.entries(table.game_id)}
    assert {"cut", "deal", "discard", "starter", "lay", "go", "show"} <= kinds
    h.close()


class Started:
    """A practice game one hand in, as a killed companion leaves it: its engine, its id."""

    def __init__(self, h, level):
        self.h = h
        self.engine = practice_engine(h, MemoryBoard(4), ["Me", "Pro"], level, 61, 2)
        self.seats = [make("easy", random.Random(1)), make("pro")]
        play_game(self.engine, self.seats, stop=lambda: self.table.game.hand_no == 1)
        assert not self.table.game.over

    @property
    def table(self):
        return self.engine.session.table

    @property
    def game_id(self):
        return self.table.game_id

    def run(self):
        """Play it to its end."""
        return play_game(self.engine, self.seats)

    def abandon(self):
        """Quit, as `crib practice` does: the game stays in the history, abandoned."""
        self.h.abandon(self.game_id)


def table_game(h, muggins):
    """A game at the table (`crib play`) set up and left unfinished; its id."""
    engine = TableEngine(h, MemoryBoard(4), {"muggins": muggins},
                         Setup(["Ann", "Ben"], False, 61, 0))
    engine.start()
    assert engine.question() is not None  # its first question waits
    return engine.session.table.game_id


def test_a_practice_game_is_never_offered_for_resume(db):
    h = History.open(db)
    table = table_game(h, False)
    assert h.unfinished()["id"] == table
    practice = Started(h, "pro")  # the latest, yet not offered
    assert h.unfinished()["id"] == table
    practice.abandon()
    assert h.game(practice.game_id)["abandoned"] == 1
    assert h.unfinished()["id"] == table
    h.close()


def test_practice_games_left_unfinished_are_abandoned_on_request(db):
    h = History.open(db)
    killed = [Started(h, level) for level in ("easy", "pro")]
    table = table_game(h, True)
    done = Started(h, "standard")
    done.run()
    quit_ = Started(h, "easy")
    quit_.abandon()
    assert h.abandon_practice() == 2
    rows = {r["id"]: r for r in h.query("SELECT id, abandoned, finished FROM games")}
    assert [rows[r.game_id]["abandoned"] for r in killed] == [1, 1]
    assert rows[table]["abandoned"] == 0  # a table game waits for resume
    assert rows[done.game_id]["abandoned"] == 0 and rows[done.game_id]["finished"]
    assert rows[quit_.game_id]["abandoned"] == 1
    assert h.abandon_practice() == 0
    h.close()


def test_a_game_played_to_its_end_is_not_abandoned(db):
    # Another session may take a game still being played for dead (two practice games at
    # once on one history): its end says otherwise.
    h = History.open(db)
    practice = Started(h, "pro")
    assert h.abandon_practice() == 1
    game = practice.run()
    row = h.game(practice.game_id)
    assert row["abandoned"] == 0 and row["finished"] and row["winner"] == game.winner
    h.close()
