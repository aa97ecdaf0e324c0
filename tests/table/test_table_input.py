"""Input at the table: a bad answer at any prompt gets a message and the same prompt again;
`undo` takes back the last entry (on the board too); `quit` stops with the game saved."""


from tablescript import Script, rows

from cribcore.cards import parse_card, parse_cards
from cribcore.show import score_show

BAD = "zz!"


def with_bad_answers(text):
    """Every answer preceded by one that no prompt accepts."""
    return "".join(f"{BAD}\n{line}\n" for line in text.splitlines())


def check_reasked(out, answers):
    """Each bad answer is followed by a message and the very same prompt."""
    lines = out.splitlines()
    bad = [i for i, line in enumerate(lines) if line.endswith(": " + BAD)]
    assert len(bad) == answers
    for i in bad:
        prompt = lines[i][:-len(BAD)]
        assert lines[i + 1].startswith("  ! "), lines[i:i + 3]
        assert lines[i + 2].startswith(prompt), lines[i:i + 3]


def test_bad_input_at_every_prompt_of_a_four_handed_game(crib):
    names = ["Ann", "Ben", "Cat", "Dan"]
    s = Script(names, 61, dealer=0, seed=31)
    s.play_out(play="cards", show="enter")
    good = "\n".join(["Ann Ben Cat Dan", "y", "61", "", "ah 5c 6d 7s"]) + "\n" + s.text()
    good += "n\n"  # another game? no
    rc, out, err = crib.play(with_bad_answers(good))
    assert rc == 0, err
    check_reasked(out, len(good.splitlines()))
    assert crib.board.state().fronts == tuple(s.game.scores)


def test_bad_input_at_every_option_prompt(crib):
    text = "\n".join([
        "Alice Bob", "121", "alice",
        "4c 4d 6s 6h kd qs", "kd qs", "2c 3d 9s kc ac 7d", "ac 7d",   # the deals (review)
        "5h", "points", "3", "1",                                      # typed play points
        "", "20", "y",                                                 # Bob: count, muggins
        "", "4", "ac 7d kd qs", "10"]) + "\n"                          # Alice, her crib
    rc, out, err = crib.play(with_bad_answers(text), "--muggins", "--review")
    assert rc == 1 and "input ended" in err  # stopped at hand 2's first question
    check_reasked(out, len(text.splitlines()))
    five = parse_card("5h")
    alice = score_show(parse_cards("2c 3d 9s kc"), five)
    crib_pts = score_show(parse_cards("ac 7d kd qs"), five, True)  # stated 10: over
    assert crib_pts < 10
    # Bob: 3 pegging + 20 stated; Alice: 1 pegging + muggins 4 + her hand + the crib.
    assert crib.board.state().fronts == (1 + 4 + alice + crib_pts, 23)


ARGS = ("--names", "Alice,Bob", "--target", "61", "--dealer", "Alice")




def test_undo_a_scoring_card_takes_the_peg_off_the_board(crib):
    s = Script(["Alice", "Bob"], 61, seed=4)
    s.play_out(play="cards", show="cards")
    lines = s.text().splitlines()
    at = next(i for i, points in s.lay_at if points)
    lines[at + 1:at + 1] = ["undo", lines[at]]  # undo the card, lay it again
    rc, out, err = crib.play("\n".join(lines) + "\n", *ARGS)
    assert rc == 0, err
    assert "undone: " in out
    assert crib.board.state().fronts == tuple(s.game.scores)
    verbs = [sig.split()[0] for sig, _ in crib.board.sent]
    assert verbs.count("undo") == 1
    undone = rows(crib.db, "SELECT * FROM entries WHERE undone IS NOT NULL")
    assert len(undone) == 1 and undone[0]["points"] > 0 and undone[0]["kind"] == "lay"
    assert rows(crib.db, "SELECT status FROM ops WHERE verb = 'undo'") == [{"status": "done"}]


def test_undo_a_card_that_scored_nothing_sends_nothing_to_the_board(crib):
    s = Script(["Alice", "Bob"], 61, seed=4)
    s.play_out(play="cards", show="cards")
    lines = s.text().splitlines()
    at = next(i for i, points in s.lay_at if not points)
    lines[at + 1:at + 1] = ["undo", lines[at]]
    rc, out, err = crib.play("\n".join(lines) + "\n", *ARGS)
    assert rc == 0, err
    assert [sig for sig, _ in crib.board.sent if sig == "undo"] == []
    assert crib.board.state().fronts == tuple(s.game.scores)


def test_undo_at_the_next_hand_takes_back_the_crib(crib):
    s = Script(["Alice", "Bob"], 61, seed=5)
    s.play_out(play="ranks", show="cards")
    assert s.hands >= 2
    lines = s.text().splitlines()
    at = s.starter_at[1]  # hand 2's starter: undo there, then the crib again
    lines[at:at] = ["undo", lines[s.crib_at[0]], ""]
    rc, out, err = crib.play("\n".join(lines) + "\n", *ARGS)
    assert rc == 0, err
    assert "undone: Alice's crib" in out
    # Alice deals hands 1, 3, 5 ...: each of her cribs once, and the first one twice.
    assert out.count("Alice's crib (cards or total)") == len(s.crib_at[0::2]) + 1
    assert crib.board.state().fronts == tuple(s.game.scores)


def test_undo_at_setup_asks_the_question_before(crib):
    s = Script(["Alice", "Bob"], 61, seed=6)
    s.play_out(play="ranks", show="total")
    text = "Al Bo\nundo\nAlice Bob\n61\nalice\n" + s.text()
    rc, out, err = crib.play(text)
    assert rc == 0, err
    assert out.count("Players, in seating order") == 2
    assert crib.board.state().fronts == tuple(s.game.scores)
    assert "Alice wins" in out or "Bob wins" in out


def test_nothing_to_undo_at_the_first_question(crib):
    rc, out, err = crib.play("undo\n", *ARGS)
    assert "! nothing to undo" in out
    assert out.count("Starter: ") == 2


def test_undo_typed_play_points_asks_the_last_player_again(crib):
    text = "5h\npoints\n3\n4\nundo\n5\n"
    rc, out, err = crib.play(text, *ARGS)
    assert out.count("Alice's play points [0]") == 2
    assert crib.board.state().fronts == (5, 3)


def test_undo_at_another_game_goes_back_into_the_game(crib):
    s = Script(["Alice", "Bob"], 61, seed=7)
    s.play_out(play="ranks", show="total")
    last = s.answers[-1]
    text = s.text() + "undo\n" + last + "\n" + "n\n"
    rc, out, err = crib.play(text, *ARGS)
    assert rc == 0, err
    assert out.count(" wins, ") == 2
    assert crib.board.state().fronts == tuple(s.game.scores)
    games = rows(crib.db, "SELECT * FROM games")
    assert len(games) == 1 and games[0]["finished"] and games[0]["winner"] == s.game.winner


def test_quit_stops_and_resume_goes_on(crib):
    s = Script(["Alice", "Bob"], 61, seed=8)
    s.play_out(play="ranks", show="total")
    lines = s.text().splitlines()
    half = len(lines) // 2
    rc, out, _ = crib.play("\n".join(lines[:half] + ["quit"]) + "\n", *ARGS)
    assert rc == 0 and "crib play --resume" in out
    rc, out, err = crib.play("\n".join(lines[half:]) + "\n", "--resume")
    assert rc == 0, err
    assert crib.board.state().fronts == tuple(s.game.scores)


def test_bad_input_at_the_other_prompts(crib, tmp_path):
    from crib.board.memory import MemoryBoard

    # Who claims (three players), then a stop.
    three = ["5h", "points", "0", "0", "0", "4c 4d 6s 6h", "20", "cat"]
    rc, out, _ = crib.play(with_bad_answers("\n".join(three)), "--names", "Al,Bob,Cat",
                           "--target", "121", "--dealer", "Al", "--muggins")
    check_reasked(out, len(three))
    # The unfinished game offered, and a question about the board after a resume.
    path = str(tmp_path / "board.json")
    crib.board = MemoryBoard(4, path)
    rc, out, _ = crib.play("y\ny\n")  # resume; set the (new) board up with the record
    assert "Set the board up with the record's scores (Y/n): y" in out
    away = MemoryBoard(4, path)
    away.board.peg(0, 2)
    away._save()
    crib.board = MemoryBoard(4, path)
    rc, out, _ = crib.play(with_bad_answers("y\ny"))
    check_reasked(out, 2)
    assert "Record the 2 as pegged on board (Y/n)" in out
    # Another game's first dealer.
    s = Script(["Alice", "Bob"], 31, seed=33)
    s.play_out(play="ranks", show="total")
    t = Script(["Alice", "Bob"], 31, seed=34, dealer=0)
    t.play_out(play="ranks", show="total")
    crib.board = MemoryBoard(4)
    rc, out, _ = crib.play("n\ny\n" + s.text() + "y\n" + with_bad_answers("Alice")
                           + t.text() + "n\n", *ARGS[:4], "--dealer", "Alice")
    assert rc == 0
    check_reasked(out, 1)


def test_a_question_mark_explains_the_prompt(crib):
    rc, out, _ = crib.play("?\n5h\n?\n", *ARGS)
    assert "  the card turned up, e.g. 5h" in out
    assert "  a card (5h) or a rank (5), go, points" in out
    assert out.count("Starter: ") == 2 and out.count("Bob plays (count 0): ") == 2
