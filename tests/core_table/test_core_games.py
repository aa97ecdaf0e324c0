"""cribcore.table: whole games through the core's engine with no board and a record in
memory, 2, 3 and 4 players, cards, ranks-only and totals (plain asserts: these run on
CPython and under MicroPython with a capped heap, tests/test_micropython.py)."""

import json

from tablegame import NAMES, engine_for, play

from cribcore.table.answers import AnswerError
from cribcore.table.questions import Events
from cribcore.table.record import MemoryRecord, NoBoard
from cribcore.table.table import Table

MODES = ("cards", "ranks", "totals")


def _finished(engine, players, target=61):
    view = engine.view()
    assert engine.over, "the session did not end"
    assert view["over"] and view["winner"] >= 0
    assert view["scores"][view["winner"]] == target
    assert len(view["names"]) == players
    return view


def _whole_games(players):
    for i, mode in enumerate(MODES):
        _whole_game(players, mode, 11 + i)  # one engine at a time: its heap is freed after


def _whole_game(players, mode, seed):
    seen = {}

    def out(q, events):
        if q is not None:
            seen[q["kind"]] = seen.get(q["kind"], 0) + 1
        for ev in events:
            seen["event " + ev["kind"]] = 1
        json.loads(json.dumps(events))  # plain data, all the way down
    engine, _ = play(players, mode, seed, games=2, out=out)
    view = _finished(engine, players)
    assert json.loads(json.dumps(view)) == view
    assert seen.get("another") == 2 and seen.get("event over") == 1, (mode, seen)
    if mode == "totals":
        assert seen.get("play_points", 0) > 0 and "play" not in seen, seen
    else:
        assert seen.get("play", 0) > 0 and seen.get("starter", 0) > 0, seen
    if mode == "ranks":
        assert seen.get("confirm", 0) > 0, seen  # the flush and nobs said at the confirmation


def test_two_players_play_whole_games_in_every_mode():
    _whole_games(2)


def test_three_players_play_whole_games_in_every_mode():
    _whole_games(3)


def test_four_players_in_partnerships_play_whole_games_in_every_mode():
    _whole_games(4)


def test_undo_and_redo_along_a_whole_game():
    undone = []

    def out(q, events):
        undone.extend(ev["text"] for ev in events
                      if ev["kind"] == "note" and ev["text"].startswith("undone: "))
    engine, _ = play(2, "cards", 5, undo_every=6, out=out)
    _finished(engine, 2)
    assert len(undone) > 5


def test_muggins_and_manual_counts_are_asked_and_checked():
    for opt in ("muggins", "manual"):
        _stated_counts(opt)


def _stated_counts(opt):
    prompts = []
    engine, _ = play(2, "cards", 3, options={opt: True},
                     out=lambda q, events: q and prompts.append(q["prompt"]))
    _finished(engine, 2)
    assert any(p.endswith("'s count") for p in prompts), opt
    if opt == "muggins":
        assert any(p.startswith("Muggins: ") for p in prompts)


def test_a_bad_answer_is_refused_and_changes_nothing():
    engine = engine_for(2, "cards")
    engine.start()
    q = engine.question()
    before = json.dumps(engine.view())
    for bad in ("zz", "5h 5h", "ah", "as 2c 3d"):
        try:
            engine.answer(q.id, bad)
            assert False, "accepted %r" % bad
        except AnswerError:
            pass
    assert engine.question().id == q.id and json.dumps(engine.view()) == before
    engine.answer(q.id, "ah kd")
    try:
        engine.answer(q.id, "5h")  # that question is gone
        assert False, "a stale answer was taken"
    except AnswerError:
        pass


class Pegs:
    """A Board that keeps what it was told (the core's Board interface)."""

    kind = "test"
    capacity = 4

    def __init__(self):
        self.lanes = {}
        self.turns = []

    def peg(self, lane, n, op_id):
        self.lanes[lane] = self.lanes.get(lane, 0) + n

    def undo(self, op_id):
        pass

    def new_game(self, target, lanes, op_id, match=False):
        self.lanes = {}

    def set_dealer(self, lane):
        pass

    def set_turn(self, lane):
        self.turns.append(lane)
        return True

    def state(self):
        return None

    def events(self):
        return []


def test_the_record_replays_the_game_and_the_board_is_pegged():
    from tablegame import Lcg, choose

    from cribcore.table.engine import TableEngine
    from cribcore.table.session import Session, Setup

    board = Pegs()
    engine = TableEngine(Session(board, Events(), {}, games=1),
                         Setup(list(NAMES[:3]), False, 61, 0))
    engine.start()
    rng = Lcg(9)
    while engine.question() is not None:
        q = engine.question()
        engine.answer(q.id, choose(q.to_dict(), rng, "cards"))
    table = engine.session.table
    assert board.lanes == {s: p for s, p in enumerate(table.game.scores) if p}
    assert -1 in board.turns and 0 in board.turns and 2 in board.turns
    again = Table(table.rec, NoBoard(), Events(), table.names, 61, first_dealer=0)
    assert again.game.scores == table.game.scores and again.game.over
    assert len(again.entries) == len(table.rec.entries()) > 20


def test_a_memory_record_keeps_undone_entries_out():
    from cribcore.table.record import Entry

    rec = MemoryRecord()
    a = rec.append(Entry(0, "note"))
    b = rec.append(Entry(0, "note"))
    rec.undo(a)
    assert [e.id for e in rec.entries()] == [b.id]
