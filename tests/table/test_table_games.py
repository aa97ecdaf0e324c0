"""Whole games through `crib play` with scripted answers: 2, 3 and 4 players, 61 and 121,
counting out in the play, at heels and mid-show; the board, the history and the output."""

import json

import pytest
from tablescript import Script, rows

from crib.board.memory import MemoryBoard
from cribcore.cards import parse_card


def setup_lines(names, target, dealer, partnerships=None):
    """The answers to the setup questions."""
    lines = [" ".join(names)]
    if len(names) == 4:
        lines.append("y" if partnerships in (None, True) else "n")
    lines += [str(target), dealer]
    return "".join(x + "\n" for x in lines)




def check_end(crib, script, out):
    """Board, history and output agree with the reference game."""
    g = script.game
    st = crib.board.state()
    assert st.fronts == tuple(g.scores)
    assert st.winner == g.winner and st.target == g.target
    game = rows(crib.db, "SELECT * FROM games")[-1]
    assert game["winner"] == g.winner and game["finished"] is not None
    assert json.loads(game["scores"]) == list(g.scores)
    assert not rows(crib.db, "SELECT * FROM ops WHERE status = 'pending'")
    total = [0] * len(g.scores)
    for r in rows(crib.db, "SELECT side, points FROM entries WHERE undone IS NULL"
                           " AND side IS NOT NULL"):
        total[r["side"]] += r["points"]
    assert total == list(g.scores)
    assert " wins, " in out


@pytest.mark.parametrize("names, target, partnerships, seed, play, show", [
    (["Alice", "Bob"], 121, None, 3, "cards", "enter"),
    (["Alice", "Bob"], 61, None, 4, "ranks", "cards"),
    (["Ann", "Ben", "Cat"], 121, None, 5, "typed", "total"),
    (["Ann", "Ben", "Cat"], 61, None, 6, "cards", "cards"),
    (["A1", "B2", "C3", "D4"], 121, True, 7, "ranks", "total"),
    (["A1", "B2", "C3", "D4"], 61, False, 8, "cards", "enter"),
])
def test_whole_game(crib, names, target, partnerships, seed, play, show):
    s = Script(names, target, dealer=0, partnerships=partnerships is not False, seed=seed)
    s.play_out(play=play, show=show)
    rc, out, err = crib.play(setup_lines(names, target, names[0], partnerships) + s.text())
    assert rc == 0, err
    check_end(crib, s, out)
    hands = rows(crib.db, "SELECT * FROM hands ORDER BY number")
    assert len(hands) == s.hands
    assert [h["dealer"] for h in hands] == [k % len(names) for k in range(s.hands)]


def test_shows_are_itemised_and_announced(crib):
    s = Script(["Alice", "Bob"], 121, seed=3)
    s.hand(play="cards", show="cards")
    rc, out, err = crib.play(setup_lines(["Alice", "Bob"], 121, "Alice") + s.text())
    assert rc == 1 and "input ended" in err  # the script stops in hand 2: the game is saved
    shows = [p for p in s.log if p.reason in ("hand", "crib")]
    assert [p.player for p in shows] == [1, 0, 0]
    for p in shows:
        name = ["Alice", "Bob"][p.player]
        assert f"{name}: {p.reason}" + (f"  +{p.points}" if p.points else "") in out
    assert out.count("total    ") == 3 and out.count("Peg ") == 3
    assert crib.board.state().fronts == tuple(s.game.scores)


def test_counting_out_in_the_play(crib):
    # A tiny custom target, and the first deal whose play ends the game with cards in hand.
    for seed in range(100):
        s = Script(["Alice", "Bob"], 3, seed=seed)
        s.play_out(play="cards", show="cards")
        if s.hands == 1 and not s.game.play.over:
            break
    rc, out, err = crib.play(setup_lines(["Alice", "Bob"], 3, "Alice") + s.text())
    assert rc == 0, err
    check_end(crib, s, out)
    assert "(cards or total)" not in out  # nobody shows: the game ended in the play
    assert s.log[-1].reason not in ("hand", "crib", "his heels")


def test_counting_out_with_his_heels(crib):
    jack = parse_card("JH")
    s = Script(["Alice", "Bob"], 2, seed=2)
    s.hand(starter=jack)
    assert s.game.over
    rc, out, err = crib.play(setup_lines(["Alice", "Bob"], 2, "Alice") + s.text())
    assert rc == 0, err
    check_end(crib, s, out)
    assert "Alice: his heels  +2" in out
    assert "plays (count" not in out


def test_counting_out_in_the_middle_of_the_show(crib):
    # Learn the pone's score after counting their hand, then make that the target.
    probe = Script(["Alice", "Bob"], 1000, seed=21)
    probe.hand(play="cards", show="cards")
    g = probe.game
    after_pone = [p for p in probe.log if p.reason == "hand"][0]
    target = sum(p.points for p in probe.log[:probe.log.index(after_pone) + 1] if p.side == 1)
    assert target > 0 and g.scores[1] >= target
    s = Script(["Alice", "Bob"], target, seed=21)
    s.play_out(play="cards", show="cards")
    assert s.game.winner == 1 and s.hands == 1 and s.game.phase == "over"
    rc, out, err = crib.play(setup_lines(["Alice", "Bob"], target, "Alice") + s.text())
    assert rc == 0, err
    check_end(crib, s, out)
    assert "Bob's hand (cards or total)" in out
    assert "Alice's hand (cards or total)" not in out and "crib (cards or total)" not in out


def test_four_players_in_partnerships_peg_two_lanes(crib):
    names = ["Ann", "Ben", "Cat", "Dan"]
    s = Script(names, 61, seed=9)
    s.play_out(play="cards", show="cards")
    rc, out, err = crib.play(setup_lines(names, 61, "Ann", True) + s.text())
    assert rc == 0, err
    assert crib.board.state().lanes == 2
    check_end(crib, s, out)
    assert "Ann & Cat" in out and "Ben & Dan" in out


def test_setup_from_arguments_asks_nothing_of_it(crib):
    s = Script(["Alice", "Bob"], 61, dealer=1, seed=12)
    s.play_out(play="ranks", show="total")
    rc, out, err = crib.play(s.text(), "--names", "Alice,Bob", "--target", "61",
                             "--dealer", "bob")
    assert rc == 0, err
    assert "Players, in seating order" not in out and "Target" not in out
    check_end(crib, s, out)


def test_cut_for_deal_lowest_deals_and_a_tie_cuts_again(crib):
    s = Script(["Alice", "Bob"], 61, dealer=1, seed=13)
    s.play_out(play="ranks", show="total")
    text = "\n5h 5c\n9h 2c\n" + s.text()  # Enter: cut; a tie; then Bob cuts low
    rc, out, err = crib.play(text, "--names", "Alice,Bob", "--target", "61")
    assert rc == 0, err
    assert "a tie for the lowest card" in out
    assert "Bob: cuts lowest and deals" in out
    check_end(crib, s, out)


def test_another_game_continues_the_match(crib):
    a = Script(["Alice", "Bob"], 31, dealer=0, seed=14)
    a.play_out(play="ranks", show="total")
    loser = ["Alice", "Bob"][1 - a.game.winner]
    b = Script(["Alice", "Bob"], 31, dealer=1 - a.game.winner, seed=15)
    b.play_out(play="ranks", show="total")
    text = a.text() + "y\n" + "\n" + b.text() + "n\n"  # Enter: the loser deals first
    rc, out, err = crib.play(text, "--names", "Alice,Bob", "--target", "31",
                             "--dealer", "Alice")
    assert rc == 0, err
    assert f"First dealer (a name, or Enter to cut) [{loser}]" in out
    games = rows(crib.db, "SELECT * FROM games ORDER BY id")
    assert len(games) == 2 and games[0]["match_id"] == games[1]["match_id"]
    assert [g["winner"] for g in games] == [a.game.winner, b.game.winner]
    assert crib.board.state().fronts == tuple(b.game.scores)
    assert "match: Alice" in out


def test_colour_on_request(crib):
    s = Script(["Alice", "Bob"], 61, seed=16)
    s.hand(play="cards", show="cards")
    text = s.text()
    rc, out, _ = crib.play(text, "--names", "Alice,Bob", "--target", "61", "--dealer",
                           "Alice", "--colour")
    assert "\x1b[" in out
    rc, plain, _ = crib.play("n\n" + text, "--names", "Alice,Bob", "--target", "61", "--dealer",
                             "Alice")
    assert "\x1b[" not in plain


def test_four_players_on_a_three_lane_board_play_in_partnerships(crib):
    crib.board = MemoryBoard(3)
    names = ["Ann", "Ben", "Cat", "Dan"]
    s = Script(names, 61, seed=17)
    s.play_out(play="ranks", show="total")
    rc, out, err = crib.play("Ann Ben Cat Dan\n61\nAnn\n" + s.text())
    assert rc == 0, err
    assert "this board has 3 lanes: four play in partnerships" in out
    assert "Partnerships (" not in out
    check_end(crib, s, out)
    rc, out, err = crib.play("", "--names", "Ann,Ben,Cat,Dan", "--solo")
    assert rc == 1 and "crib: error:" in err
