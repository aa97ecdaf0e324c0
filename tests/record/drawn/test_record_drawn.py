"""The game kept as its entries come equals the game rebuilt from the whole record, on
the board's game record (pegboard.flashrecord: no entry kept in the heap, each read back
from flash when an undo or a restart needs them all). Over drawn games (hypothesis:
players, seeds, and where the undos, the board's pegs and undos and the restarts fall:
undos across a hand's end among them), after every step the running table's game and
folds (cribcore.table.standing) are those of a Table rebuilt from every standing entry
read back from a copy of the flash, and a board restarted on that copy asks the same
question and shows the same view. (CPython only: tests/record's plain modules run under
MicroPython too, this one needs hypothesis.)"""

import os
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

_up = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in (_up, os.path.join(os.path.dirname(_up), "core_table")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from memfiles import MemFiles  # noqa: E402
from recordgame import PATH, boot, sorted_repr  # noqa: E402
from tablegame import Lcg, choose  # noqa: E402

from cribcore.table.answers import AnswerError  # noqa: E402
from cribcore.table.gamelines import entry_data  # noqa: E402
from cribcore.table.record import BoardEvent  # noqa: E402
from cribcore.table.table import Table  # noqa: E402
from pegboard.gamelog import GameLog  # noqa: E402


def game_state(table):
    """The game and what the answers read of the entries, as comparable data."""
    g = table.game
    s = table.standing()
    hand = g.hand_no
    play = sorted_repr(vars(g.play)) if g.play is not None else None
    last = s.last_show
    return (g.scores, g.winner, hand, g.dealer, g.phase, g.starter, g.hands, g.crib,
            repr(g.shown), play, s.backs, [entry_data(e) for e in s.hand_entries(hand)],
            sorted_repr(s.context(hand)), s.typed_play(hand),
            None if last is None else entry_data(last), s.show_done)


def rebuilt(table, files):
    """A Table rebuilt from every standing entry of the game, read from a copy of the
    flash by a log of its own."""
    log = GameLog(PATH, files.copy(), token="0badf00d").open()
    entries = log.replay(table.game_id).entries

    class Listed:  # a Record of the entries read (all this Table reads of it)
        def entries(self):
            return entries

        def position(self):
            return 0

    return Table(Listed(), table.board, table.view, table.names, table.target,
                 table.partnerships, table.first_dealer, table.options, table.game_id)


def check(engine, files):
    table = engine.session.table
    if table is None or table.game is None:
        return
    assert table.rec.held() == 0 or table.rec.held() == len(table.entries)
    assert game_state(table) == game_state(rebuilt(table, files))
    # a restart on the same flash: the same game, as it was (a restart at a game's end
    # begins the next one, pegboard.gamelog; a question of several steps in flight is
    # asked again from its first, as on main: its state is not compared here)
    again = boot(files.copy(), players=table.players, target=table.target, kept=True)
    resumed = again.session.table
    if table.game.over:
        assert resumed.game_id == table.game_id + 1
    elif resumed.game_id == table.game_id:
        assert game_state(resumed) == game_state(table)


@settings(max_examples=10, deadline=None)
@given(players=st.sampled_from([2, 3]), seed=st.integers(1, 10 ** 6),
       plan=st.lists(st.sampled_from(["a"] * 6 + ["undo", "peg", "board_undo", "restart"]),
                     min_size=40, max_size=90))
def test_the_table_kept_equals_one_rebuilt_from_the_flash_after_every_step(players, seed,
                                                                          plan):
    files = MemFiles()
    engine = boot(files, players=players, target=31, kept=True)
    rng = Lcg(seed)
    hands = set()
    for step in plan:
        q = engine.question()
        if q is None:
            break
        table = engine.session.table
        live = table is not None and table.game is not None and not table.game.over
        if step == "undo" and q.undo:
            engine.undo(q.id)
            undone = engine.undone()
            if undone is not None and undone["redo"] and rng.below(2):
                try:
                    engine.redo(engine.question().id)
                except AnswerError:
                    pass  # an answer put back that no longer fits
        elif step in ("peg", "board_undo") and live and table.game.phase != "cut":
            lane = rng.below(len(table.game.sides))
            engine.board_event(BoardEvent("peg", lane, 1 + rng.below(3), None)
                               if step == "peg" else BoardEvent("undo", lane, 0, None))
        elif step == "restart":
            engine = boot(files, players=players, target=31, kept=True)
        else:
            d = q.to_dict()
            if d["kind"] == "another":
                engine.answer(q.id, "y")
            else:
                engine.answer(q.id, choose(d, rng, "cards"))
        engine.session.log.settle()  # as the board's server after each reply
        if engine.session.table is not None and engine.session.table.game is not None:
            hands.add(engine.session.table.game.hand_no)
        check(engine, files)
    assert hands


def test_an_undo_across_a_hands_end_reads_the_hand_before_back_from_flash():
    """The first answer of a hand taken back: the hand before is read back from flash
    (the table kept only the new hand's entries), as it was."""
    files = MemFiles()
    engine = boot(files, target=61, kept=True)
    rng = Lcg(3)
    crossed = 0
    while crossed < 3:
        q = engine.question()
        hand = engine.session.table.game.hand_no
        engine.answer(q.id, choose(q.to_dict(), rng, "cards"))
        engine.session.log.settle()
        table = engine.session.table
        if table.game.hand_no != hand and not table.game.over:
            before = game_state(table)
            assert table.rec.held() == 0
            q = engine.question()
            engine.undo(q.id)  # back into the hand before
            table = engine.session.table
            assert table.game.hand_no == hand
            check(engine, files)
            engine.redo(engine.question().id)
            engine.session.log.settle()
            assert game_state(engine.session.table) == before
            check(engine, files)
            crossed += 1
