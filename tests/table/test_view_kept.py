"""The engine's view keeps the parts that did not change (s7-core): its scores and pegs,
a player's cards laid, the pile and the hands shown are the view before's own lists when
unchanged (cribcore.table.viewparts), and its hand, or the whole view, the view before's
own dict when nothing in it changed (s9-push), so a view allocates only what changed.
Whatever the game does (cards, ranks, typed totals, undo and redo), each view reads
exactly as one built afresh."""

import os
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "core_table"))

from tablegame import Lcg, choose, engine_for  # noqa: E402


def _fresh_view(engine):
    """The view as one made with nothing kept from the view before."""
    kept = engine._parts
    engine._parts = None
    try:
        return engine.view()
    finally:
        engine._parts = kept


def _play(engine, rng, mode, answers, undo_every, each):
    engine.start()
    for _ in range(answers):
        q = engine.question(known=False)
        if q is None:
            return
        each(engine)
        d = q.to_dict()
        if d["kind"] == "another":
            return
        if undo_every and q.undo and rng.below(undo_every) == 0:
            engine.undo(q.id)
            undone = engine.undone()
            if undone is not None and undone["redo"]:
                engine.redo(engine.question_id())
            continue
        engine.answer(q.id, choose(d, rng, mode))


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["cards", "ranks", "totals"]), st.integers(2, 4),
       st.integers(0, 10_000), st.sampled_from([0, 5]))
def test_each_view_reads_as_one_built_afresh(mode, players, seed, undo_every):
    engine = engine_for(players, mode, target=61)
    seen = []

    def each(e):
        view = e.view()
        assert view == _fresh_view(e)
        seen.append(view)
    _play(engine, Lcg(seed), mode, 400, undo_every, each)
    # a game's views were checked (one of typed totals can end in under 20 questions)
    assert any(v["game"] is not None for v in seen)


def test_the_parts_that_read_the_same_are_the_view_befores():
    engine = engine_for(2, "cards", target=61)
    rng = Lcg(11)
    views = []
    _play(engine, rng, "cards", 60, 0, lambda e: views.append(e.view()))
    kept_scores = kept_laid = kept_pile = kept_hand = kept_view = 0
    for before, after in zip(views, views[1:]):
        # a view that reads as the one before is that one (no dict made); else a new one
        assert (after is before) == (after == before)
        kept_view += after is before
        if after["hand"] == before["hand"]:
            assert after["hand"] is before["hand"]
            kept_hand += 1
        if after["scores"] == before["scores"] and after["pegs"] == before["pegs"]:
            assert after["scores"] is before["scores"] and after["pegs"] is before["pegs"]
            kept_scores += 1
        hb, ha = before["hand"], after["hand"]
        # a list of cards is kept while the game's own list is (a new hand, a new pile
        # after a go or 31 start new ones, empty): every one that reads the same and
        # holds a card is the view before's
        for mine, old in zip(ha["laid"], hb["laid"]):
            if mine == old and mine:
                assert mine is old
                kept_laid += 1
        if ha["pile"] == hb["pile"] and ha["pile"]:
            assert ha["pile"] is hb["pile"]
            kept_pile += 1
        if ha["shown"] == hb["shown"] and ha["shown"]:
            assert ha["shown"] is hb["shown"]
    assert kept_scores > 10 and kept_laid > 10 and kept_pile > 5
    assert kept_view > 3 and kept_hand > kept_view, (kept_view, kept_hand)


def test_a_view_kept_is_never_changed_by_the_next():
    engine = engine_for(2, "cards", target=61)
    rng = Lcg(3)
    copies = []

    def each(e):
        view = e.view()
        copies.append((view, repr(view)))
    _play(engine, rng, "cards", 80, 0, each)
    for view, text in copies:
        assert repr(view) == text
