"""Whole games on the app with fake drivers: button gestures on a driven clock, and the host."""

import random

import pytest
from apprig import Rig, config

from cribcore.pegs import Board
from cribcore.protocol import decode


def events(lines, name=None):
    out = [decode(x) for x in lines if x.startswith("evt ")]
    return [m for m in out if name is None or m.verb == name]


def enter(rig, lane, n):
    """Enter n points on a lane's button the way a player does (holds of 5, taps of 1),
    then wait for the pause to peg them; return the lines written."""
    hold = rig.config.hold_ms
    fives, ones = divmod(n, 5)
    out = []
    if fives:
        out += rig.press("lane%d" % lane, fives * hold + hold // 2)
        rig.step(30)
    for _ in range(ones):
        out += rig.press("lane%d" % lane, 60)
        rig.step(30)
    assert rig.app.buttons.pending(lane) == n
    rig.step(rig.config.pause_ms + 50)
    return out + rig.port.take()


def play_game(rig, seed, by_button):
    """Random hands until someone wins: each score pegged on its lane's button (by_button)
    or by the host; checks every event and reply against a model board."""
    rng = random.Random(seed)
    app = rig.app
    model = Board.loads(app.board.dumps())
    lane = 0
    while model.winner < 0:
        n = rng.randint(1, 29)
        if by_button(lane):
            got = events(enter(rig, lane, n))
            won = model.peg(lane, n)
            assert got[0].verb == "peg" and got[0].args["src"] == "button"
            assert (got[0].args["p"], got[0].args["n"], got[0].args["rev"]) == (
                lane, n, model.rev)
            assert got[0].args["p%d" % lane] == (model.back(lane), model.front(lane))
            if won:
                assert [m.verb for m in got] == ["peg", "win"]
                skunk = tuple(model.skunk(i) for i in range(model.players))
                assert got[1].args == {"p": lane, "skunk": skunk, "rev": model.rev}
        else:
            m = rig.ask("peg p=%d n=%d id=g%d" % (lane, n, model.rev))
            model.peg(lane, n)
            assert m.args["p%d" % lane] == (model.back(lane), model.front(lane))
            assert m.args["winner"] == model.winner
        assert app.board.dumps() == model.dumps()
        lane = (lane + 1) % model.players
    return model


@pytest.mark.parametrize("lanes,target,seed", [(2, 121, 1), (3, 121, 2), (4, 121, 3),
                                               (2, 61, 4), (3, 61, 5), (4, 61, 6)])
def test_whole_games_on_the_buttons(lanes, target, seed):
    rig = Rig(config(lanes=lanes))
    rig.send("new target=%d players=%d" % (target, lanes))
    model = play_game(rig, seed, lambda lane: True)
    winner = model.winner
    state = rig.ask("state").args
    assert state["winner"] == winner and state["wins"][winner] == 1
    # After the win, a tap on any player's button starts the next game; the tally stays.
    got = events(rig.press("lane0", 60) + rig.port.take())
    assert [m.verb for m in got] == ["new"]
    assert got[0].args["wins"] == tuple(1 if i == winner else 0 for i in range(lanes))
    assert rig.app.board.winner == -1 and rig.app.board.front(winner) == 0


@pytest.mark.parametrize("lanes,target", [(2, 121), (3, 61), (4, 121)])
def test_games_mixing_the_host_and_the_buttons(lanes, target):
    rig = Rig(config(lanes=lanes))
    rig.send("new target=%d players=%d" % (target, lanes))
    play_game(rig, lanes * target, lambda lane: lane % 2 == 0)


def test_undo_button_undoes_jumps_and_a_win():
    rig = Rig(config(lanes=2))
    rig.send("new target=61 players=2")
    rig.send("peg p=0 n=50")
    enter(rig, 0, 11)
    assert rig.app.board.winner == 0
    got = events(rig.press("undo", 60))
    assert [(m.verb, m.args["p"], m.args["p0"], m.args["winner"]) for m in got] == [
        ("undo", 0, (0, 50), -1)]
    assert rig.app.board.wins[0] == 0
    events(rig.press("undo", 60))
    assert rig.app.board.front(0) == 0
    assert events(rig.press("undo", 60)) == []  # nothing left: nothing happens
    assert rig.app.board.rev == 5


def test_undo_tap_cancels_a_pending_entry_first():
    rig = Rig(config(lanes=2))
    rig.send("peg p=1 n=4")
    rig.press("lane0", 60)
    rig.step(30)
    assert rig.app.buttons.pending(0) == 1
    assert events(rig.press("undo", 60)) == []
    rig.step(3000)
    assert rig.app.board.front(0) == 0 and rig.app.board.front(1) == 4


def test_new_game_gesture_with_confirm():
    rig = Rig(config(lanes=3))
    rig.send("peg p=2 n=9")
    rig.press("undo", rig.config.long_ms + 100)
    assert rig.app.buttons.mode == "confirm_new"
    got = events(rig.press("confirm", 60))
    assert [(m.verb, m.args["target"], m.args["players"], m.args["src"]) for m in got] == [
        ("new", 121, 3, "button")]
    assert rig.app.board.front(2) == 0 and rig.ask("state").args["mode"] == "play"


def test_settings_gesture_picks_61_and_two_players():
    rig = Rig(config(lanes=3))
    long_ms = rig.config.long_ms
    rig.press("undo", 2 * long_ms + 200)
    assert rig.app.buttons.mode == "setup"
    rig.press("lane1", 60)  # lane 2's button: the last lane to play is lane 2 -> 2 players
    rig.step(30)
    rig.press("lane0", rig.config.hold_ms + 100)  # a hold switches 121 <-> 61
    rig.step(30)
    got = events(rig.press("undo", 60))
    assert [(m.verb, m.args["target"], m.args["players"]) for m in got] == [("new", 61, 2)]
    b = rig.app.board
    assert (b.target, b.players) == (61, 2)


def test_button_pegs_are_saved_before_their_event():
    rig = Rig(config(lanes=2))
    saves = []
    store_save = rig.store.save

    def save(text):
        saves.append(len(rig.port.out))  # what had been written when this save ran
        store_save(text)

    rig.store.save = save
    rig.press("lane1", 60)
    rig.step(rig.config.pause_ms + 50)
    got = rig.port.take()
    assert saves == [0] and events(got, "peg")[0].args["p1"] == (0, 1)
