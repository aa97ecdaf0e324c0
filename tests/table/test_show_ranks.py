"""The show by ranks (crib serve's way, `crib play --ranks`): a hand laid in the play by rank
goes straight to its confirmation, which also takes its flush and nobs; a crib is four
ranks. Whole games score as the reference game with real cards; muggins and manual counts,
--resume, `crib history` and `crib stats` handle such hands; bad ranks change nothing."""

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web"))

from webtools import Players  # noqa: E402

from crib.board.memory import MemoryBoard  # noqa: E402
from crib.history.db import History  # noqa: E402
from crib.table.engine import TableEngine  # noqa: E402
from crib.table.session import Setup  # noqa: E402
from cribcore.table.answers import AnswerError  # noqa: E402

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def engine_for(db, players=2, resume=False, **options):
    setup = Setup(NAMES[:players], players == 4, 121, 0)
    engine = TableEngine(History.open(db), MemoryBoard(4),
                         dict({"confirm": True, "ranks": True}, **options), setup, resume)
    engine.start()
    return engine


def answer_until(engine, people, until):
    """Answer from the people's cards until until(question); the questions asked."""
    asked = []
    while True:
        q = engine.question()
        if q is None or until(q):
            return asked
        asked.append(q)
        engine.answer(q.id, people.answer(q))


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3)])
def test_whole_games_by_ranks_score_as_the_cards(db, players, seed):
    engine = engine_for(db, players)
    people = Players(players, 121, players == 4, seed)
    asked = answer_until(engine, people, lambda q: q.kind == "another")
    g = people.g
    assert g.over and engine.view()["scores"] == list(g.scores)
    assert engine.board.state().fronts == tuple(g.scores)
    assert not [q for q in asked if q.kind == "show"]  # every hand was known from the play
    cribs = [q for q in asked if q.kind == "crib"]
    assert cribs and all(q.legal["prefer"] == "ranks" for q in cribs)
    engine.history.close()


def test_the_record_keeps_ranks_and_flags_and_history_and_stats_read_them(db, crib):
    engine = engine_for(db)
    people = Players(2, 121, False, 5)
    answer_until(engine, people, lambda q: q.kind == "another")
    shows = engine.history.query("SELECT info FROM entries WHERE kind = 'show'")
    engine.history.close()
    infos = [json.loads(r["info"]) for r in shows]
    assert infos and all(i["cards"] is None and len(i["ranks"]) == 4 for i in infos)
    assert {i["flush"] for i in infos} <= {0, 4, 5} and any(i["actual"] for i in infos)
    rc, out, _ = crib.cmd("history", "--game", "1")
    assert rc == 0 and "shows hand " in out and "a total" not in out
    rc, out, _ = crib.cmd("stats", "--json")
    stats = json.loads(out)
    counted = sum(p["hands"] + p["cribs"] for p in stats["players"])
    assert rc == 0 and stats["games"] == 1 and counted == len(infos)
    values = [i["actual"] for i in infos]
    assert sum(p["hand_avg"] * p["hands"] + p["crib_avg"] * p["cribs"]
               for p in stats["players"]) == pytest.approx(sum(values), abs=0.1)


def test_a_flush_said_at_the_confirmation_is_pegged(db):
    engine = engine_for(db)
    engine.answer(engine.question().id, "5h")
    hands = {1: ["A", "2", "3", "4"], 0: ["6", "7", "8", "9"]}  # Ben leads
    while engine.question().kind == "play":
        q = engine.question()
        mine = hands[q.asks]
        engine.answer(q.id, mine.pop(0) if mine and mine[0] in q.legal["ranks"] else "go")
    q = engine.question()
    assert q.kind == "confirm" and q.asks is None
    labels = q.legal["labels"]
    assert labels["y"].startswith("Peg ") and "flush +4" in labels["flush"]
    before = engine.view()["scores"][1]
    base = int(labels["y"].split()[1])
    engine.answer(q.id, "flush")
    assert engine.view()["scores"][1] == before + base + 4


def test_no_at_the_confirmation_asks_the_hand_and_undo_takes_back_the_play(db):
    engine = engine_for(db)
    people = Players(2, 121, False, 4)
    answer_until(engine, people, lambda q: q.kind == "confirm")
    q = engine.question()
    engine.answer(q.id, "n")
    again = engine.question()
    assert again.kind == "show" and again.legal["prefer"] == "ranks"
    engine.undo()  # nothing was recorded for the hand: the last card or go of the play
    assert engine.question().kind == "play"


@pytest.mark.parametrize("bad", ["5 5 5 5 5", "starter", "k q", "a 2 3 4 5", "5 5 z 5"])
def test_bad_crib_ranks_are_refused_and_change_nothing(db, bad):
    engine = engine_for(db)
    people = Players(2, 121, False, 3)
    answer_until(engine, people, lambda q: q.kind == "crib")
    q = engine.question()
    if bad == "starter":  # four more of the starter's rank: only three are left
        bad = " ".join([engine.view()["hand"]["starter"][0]] * 4)
    before = engine.view()
    with pytest.raises(AnswerError):
        engine.answer(q.id, bad)
    assert engine.view() == before and engine.question().id == q.id


def test_muggins_by_ranks_claims_what_was_missed(db):
    engine = engine_for(db, muggins=True, manual=True)
    people = Players(2, 121, False, 5)
    asked = answer_until(engine, people, lambda q: q.kind == "count")
    q = engine.question()
    suits = [a for a in asked if a.kind == "suits"]
    assert all(s.asks is not None for s in suits)
    entry = people.g.show_next()
    from cribcore.counting import CRIB
    from cribcore.show import score_show
    cards = people.crib if entry == CRIB else people.hands[entry]
    worth = score_show(cards, people.g.starter, entry == CRIB)
    assert worth > 0  # this seed's first hand scores
    engine.answer(q.id, str(worth - 1))  # one short: an opponent may claim it
    assert engine.question().kind == "confirm" and "Muggins" in engine.question().prompt


def test_resume_in_the_middle_of_a_show_by_ranks(db):
    engine = engine_for(db)
    people = Players(2, 121, False, 6)
    answer_until(engine, people, lambda q: q.kind == "crib")
    scores = engine.view()["scores"]
    engine.history.close()
    engine = engine_for(db, resume=True)
    assert engine.question().kind == "crib" and engine.view()["scores"] == scores
    answer_until(engine, people, lambda q: q.kind == "starter")
    assert engine.view()["scores"] == list(people.g.scores)
    engine.history.close()
