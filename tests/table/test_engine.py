"""The table engine through its API alone: whole games of 2, 3 and 4 players answered from
the questions' legal answers, a totals-only game, stale and replayed question ids, bad
answers that change nothing, undo, board presses while a question is open, and view()."""

import random

import pytest

from crib.board.memory import MemoryBoard
from crib.board.state import BoardEvent
from crib.table.engine import StaleQuestion, TableEngine
from crib.table.session import Setup
from cribcore.cards import card_name
from cribcore.counting import CRIB
from cribcore.deal import DISCARDS
from cribcore.game import DEAL, Game
from cribcore.play import Play
from cribcore.show import score_show
from cribcore.table.answers import AnswerError


class Table:
    """The people at the table: a reference game with real cards (the core dealing them),
    answering each question the engine asks from what they hold."""

    def __init__(self, players, target, partnerships, seed, totals=False):
        self.g = Game(players, target, partnerships, 0)
        self.rng = random.Random(seed)
        self.totals = totals
        self.hands = self.crib = None
        self.answers = 0

    def _deal(self):
        g = self.g
        deck = list(range(52))
        self.rng.shuffle(deck)
        g.deal(deck=deck)
        for p in range(g.players):
            g.discard(p, g.hands[p][:DISCARDS[g.players]])
        self.hands = [list(h) for h in g.hands]
        self.crib = list(g.crib)

    def answer(self, q):
        """The text a player gives to question q (checked against its legal answers)."""
        g = self.g
        self.answers += 1
        if q.kind == "starter":
            assert g.phase == DEAL
            self._deal()
            g.turn_starter()
            assert card_name(g.starter) in q.legal["cards"]
            return card_name(g.starter)
        if q.kind == "play":
            assert q.asks == g.play.turn and q.legal["count"] == g.play.count
            ok = g.play.playable()
            if not ok:
                assert q.legal["go"]
                g.go()
                return "go"
            assert card_name(ok[0]) in q.legal["cards"]
            g.lay(ok[0])
            return card_name(ok[0])
        if q.kind == "play_points":
            if q.asks == (g.dealer + 1) % g.players:  # the first asked: play the hand out
                ref = Play(g.players, g.dealer, self.hands, g.starter)
                while not ref.over:
                    ok = ref.playable()
                    ref.lay(ok[0]) if ok else ref.go()
                self.points = list(ref.points)
            n = self.points[q.asks]
            g.peg(g.side_of(q.asks), n, "play")
            if q.asks == g.dealer and not g.over:
                g.end_play()
            return str(n)
        if q.kind in ("show", "crib"):
            entry = g.show_next()
            cards = self.crib if entry == CRIB else self.hands[entry]
            assert q.asks == (g.dealer if entry == CRIB else entry)
            worth = score_show(cards, g.starter, entry == CRIB)
            g.show(cards)
            if self.totals:
                return str(worth)
            return " ".join(card_name(c) for c in cards)
        if q.kind == "confirm":
            return "y"
        if q.kind == "another":
            return "n"
        raise AssertionError(f"unexpected question {q!r}")


def play_through(engine, table):
    """Answer every question until the session is over; the events seen."""
    events = engine.start()
    while True:
        q = engine.question()
        if q is None:
            return events
        events += engine.answer(q.id, table.answer(q))


@pytest.mark.parametrize("players, partnerships, target, seed", [
    (2, False, 121, 1), (3, False, 61, 2), (4, True, 121, 3), (4, False, 61, 4)])
def test_whole_games_through_the_engine_api(history, players, partnerships, target, seed):
    names = ["Ann", "Ben", "Cat", "Dan"][:players]
    board = MemoryBoard(4)
    engine = TableEngine(history, board, {"confirm": True},
                         Setup(names, partnerships, target, 0))
    table = Table(players, target, partnerships, seed)
    events = play_through(engine, table)
    g = table.g
    assert g.over and engine.over
    assert board.state().fronts == tuple(g.scores)
    over = [e for e in events if e.kind == "over"]
    assert len(over) == 1 and over[0].data["winner"] == g.winner
    assert over[0].data["scores"] == list(g.scores)
    game = history.query("SELECT * FROM games")[-1]
    assert game["winner"] == g.winner and game["finished"]


def test_a_totals_only_game_takes_six_answers_a_hand_for_two(history):
    board = MemoryBoard(4)
    engine = TableEngine(history, board, {"totals": True, "confirm": True},
                         Setup(["Ann", "Ben"], False, 121, 0))
    table = Table(2, 121, False, 9, totals=True)
    engine.start()
    counts = []
    while True:
        q = engine.question()
        if q is None or q.kind == "another":
            break
        if q.kind == "starter":
            counts.append(0)
        counts[-1] += 1
        assert q.kind in ("starter", "play_points", "show", "crib")
        engine.answer(q.id, table.answer(q))
    assert table.g.over and board.state().fronts == tuple(table.g.scores)
    assert max(counts) <= 6 and counts[0] == 6


def new_engine(history, board=None, **options):
    board = board or MemoryBoard(4)
    engine = TableEngine(history, board, dict(confirm=True, **options),
                         Setup(["Ann", "Ben"], False, 121, 0))
    engine.start()
    return engine, board


def entries(history):
    return history.query("SELECT id, kind, undone FROM entries ORDER BY id")


def test_an_answer_to_a_question_no_longer_open_is_refused_and_changes_nothing(history):
    engine, _ = new_engine(history)
    q = engine.question()
    assert q.kind == "starter" and q.asks == 0
    engine.answer(q.id, "5h")
    before = entries(history)
    with pytest.raises(StaleQuestion):
        engine.answer(q.id, "5h")  # a double tap, or the request replayed
    assert entries(history) == before
    q2 = engine.question()
    assert q2.id != q.id and q2.kind == "play"
    engine.answer(q2.id, "7c")
    engine.undo()
    q3 = engine.question()
    assert q3.prompt == q2.prompt and q3.id != q2.id  # the same question, asked anew
    with pytest.raises(StaleQuestion):
        engine.answer(q2.id, "7c")  # replayed after the undo: refused, not applied again
    assert len([e for e in entries(history) if e["kind"] == "lay" and not e["undone"]]) == 0


@pytest.mark.parametrize("bad", ["zz", "5h", "5h 6h", "go", "", "10x", "31"])
def test_a_bad_answer_raises_and_changes_nothing(history, bad):
    engine, board = new_engine(history)
    q = engine.question()
    engine.answer(q.id, "5h")
    q = engine.question()
    before = (entries(history), board.state(), engine.view())
    with pytest.raises(AnswerError):
        engine.answer(q.id, bad)
    assert (entries(history), board.state(), engine.view()) == before
    assert engine.question().id == q.id


def test_a_non_text_answer_is_refused(history):
    engine, _ = new_engine(history)
    q = engine.question()
    with pytest.raises(AnswerError):
        engine.answer(q.id, 5)


def test_a_board_press_keeps_the_open_question_and_is_recorded_at_once(history):
    engine, board = new_engine(history)
    q = engine.question()
    engine.answer(q.id, "5h")
    q = engine.question()
    board.press(1, 3)
    events = engine.poll()
    assert [e.kind for e in events if e.kind == "say"] == ["say"]
    assert engine.view()["scores"] == [0, 3]
    assert engine.question().id == q.id  # the play's question is as it was
    engine.answer(q.id, "7c")  # the answer typed meanwhile still applies
    assert engine.view()["hand"]["laid"][1] == ["7C"]


def test_an_undo_on_the_board_asks_the_question_again(history):
    engine, board = new_engine(history)
    engine.answer(engine.question().id, "5h")
    q = engine.question()
    engine.answer(q.id, "7c")  # Ben lays 7: nothing pegged
    engine.answer(engine.question().id, "8d")  # Ann makes 15: pegged 2
    assert engine.view()["scores"] == [2, 0]
    q = engine.question()
    engine.board_event(BoardEvent("undo", 0, 0, board.state().rev))
    assert engine.view()["scores"] == [0, 0]
    assert engine.question().id != q.id


def test_view_has_scores_pegs_dealer_and_the_hand_so_far(history):
    engine, _ = new_engine(history)
    assert engine.view()["hand"]["starter"] is None
    engine.answer(engine.question().id, "5h")
    engine.answer(engine.question().id, "7c")
    engine.answer(engine.question().id, "8d")
    v = engine.view()
    assert v["names"] == ["Ann", "Ben"] and v["dealer"] == 0 and v["target"] == 121
    assert v["scores"] == [2, 0] and v["pegs"] == [[0, 2], [0, 0]]
    assert v["hand"]["starter"] == "5H" and v["hand"]["count"] == 15
    assert v["hand"]["pile"] == ["7C", "8D"] and v["hand"]["turn"] == 1


def test_view_names_a_card_laid_by_rank_by_its_rank_alone(history):
    engine, _ = new_engine(history)
    engine.answer(engine.question().id, "5h")
    engine.answer(engine.question().id, "7")  # the companion lends it a suit
    engine.answer(engine.question().id, "10d")
    v = engine.view()
    assert v["hand"]["pile"] == ["7", "TD"] and v["hand"]["laid"] == [["TD"], ["7"]]


def test_questions_are_plain_data(history):
    import json

    engine, _ = new_engine(history)
    q = engine.question()
    data = json.loads(json.dumps(q.to_dict()))
    assert data["kind"] == "starter" and data["id"] == q.id and len(data["legal"]["cards"]) == 52


def test_board_news_that_leaves_the_question_as_it_was_keeps_its_id(history):
    """A board that drifted, or went offline and came back, re-runs the flow; when the same
    question comes out, its id stays, so an answer tapped meanwhile still applies (on a
    loaded machine the phones' taps were refused or ignored as the id changed under them)."""
    engine, board = new_engine(history)
    engine.answer(engine.question().id, "5h")
    q = engine.question()
    engine.board_event(BoardEvent("drift", 0, 0, board.state().rev))  # board and record agree
    assert engine.question().id == q.id
    engine.answer(q.id, "7c")
    assert engine.view()["hand"]["laid"][1] == ["7C"]
