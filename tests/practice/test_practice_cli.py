"""`crib practice` through crib.cli.main with a script on stdin: the game the script plays
is the game the engine plays on the same seed, pegged on the board and kept in the history;
bad answers are asked again; quit and the end of input leave the game abandoned, and so
does a kill, once the next practice starts; `crib play` never offers to resume one."""

import io
import os
import signal
import subprocess
import sys
import time

import pytest
from practicekit import Scribe

from crib.analysis.playsearch import best_card
from crib.board.memory import MemoryBoard
from crib.cli import main
from crib.history.db import History
from crib.practice.computer import memory_engine, play_game
from crib.practice.game import rngs
from crib.practice.levels import make, play_values
from cribcore.cards import card_name, card_symbol, parse_card


class Lines(io.StringIO):
    """Answers for the prompts (not a terminal)."""

    def isatty(self):
        return False


@pytest.fixture
def practice(db, monkeypatch, capsys):
    """Run `crib practice` with answers on stdin; returns (exit code, out, err, board)."""
    def run(text, *argv):
        board = MemoryBoard(4)
        monkeypatch.setattr("crib.commands.practice.open_table_board", lambda *a, **k: board)
        monkeypatch.setattr(sys, "stdin", Lines(text))
        rc = main(["practice", "--db", db, "--no-colour", *argv])
        out = capsys.readouterr()
        return rc, out.out, out.err, board
    return run


class SeenScribe(Scribe):
    """A Scribe that also keeps what the seat saw at each answer."""

    def __init__(self, inner):
        super().__init__(inner)
        self.seen = []

    def discard(self, seen):
        self.seen.append(seen)
        return super().discard(seen)

    def play(self, seen):
        self.seen.append(seen)
        return super().play(seen)


def reference(seed, level, target, human="standard"):
    """The engine's game on seed (kept in memory) with the human's seat played by a level;
    its answers."""
    scribe = SeenScribe(make(human))
    engine = memory_engine(["You", "Computer"], level, target, seed, human=0)
    game = play_game(engine, [scribe, make(level, rngs(seed)[1])])
    return game, scribe


def history_game(db):
    h = History.open(db)
    try:
        return h.query("SELECT * FROM games ORDER BY id DESC LIMIT 1")[0]
    finally:
        h.close()


@pytest.mark.parametrize("seed, level, target", [(7, "pro", 61), (8, "easy", 121)])
def test_a_scripted_game_is_the_engines_game(practice, db, seed, level, target):
    game, scribe = reference(seed, level, target)
    text = "".join(a + "\n" for _, a in scribe.answers)
    rc, out, err, board = practice(text, "--level", level, "--target", str(target),
                                   "--seed", str(seed))
    assert rc == 0, err
    st = board.state()
    assert st.fronts == tuple(game.scores) and st.winner == game.winner
    row = history_game(db)
    assert row["finished"] and row["winner"] == game.winner
    assert row["abandoned"] == 0
    discards = sum(1 for kind, _ in scribe.answers if kind == "discard")
    reviews = out.count("optimal discard: ")  # "optimal ..." or "not the optimal ..."
    assert reviews == discards
    assert " wins, " in out and f"--seed {seed}" in out
    assert "The show" in out and "total    " in out  # the show itemised


def test_bad_answers_are_asked_again(practice, db):
    game, scribe = reference(21, "standard", 121)
    lines = []
    bad_pass = False
    for (kind, answer), seen in zip(scribe.answers, scribe.seen):
        if kind == "discard" and not lines:
            lines += ["zz", card_name(seen.hand[0]), "5h 5h 5h"]
        if kind == "play":
            out_of_reach = [c for c in seen.hand if c not in seen.playable]
            if out_of_reach and not bad_pass:
                lines.append(card_name(out_of_reach[0]))
                bad_pass = True
            elif len(lines) < 8:
                lines += ["go", "KX"]
        lines.append(answer)
    assert bad_pass
    rc, out, err, board = practice("".join(x + "\n" for x in lines), "--seed", "21")
    assert rc == 0, err
    assert board.state().fronts == tuple(game.scores)
    assert out.count("  ! ") >= 6
    assert "would pass 31" in out  # the message names why, and the card is asked again


def test_quit_stops_and_abandons(practice, db):
    rc, out, err, board = practice("quit\n", "--seed", "3", "--level", "pro")
    assert rc == 0
    row = history_game(db)
    assert row["abandoned"] == 1 and row["finished"] is None
    assert "--seed 3" in out


def test_end_of_input_is_an_error_and_abandons(practice, db):
    rc, out, err, board = practice("", "--seed", "3")
    assert rc == 1 and err.startswith("crib: error:")
    assert history_game(db)["abandoned"] == 1


def test_without_a_seed_one_is_chosen_and_shown(practice, db):
    rc, out, err, _ = practice("quit\n")
    assert rc == 0
    seed = history_game(db)["options"]
    assert '"seed": ' in seed and "(seed " in out


def test_a_bad_name_or_level_is_refused(practice, db, capsys):
    rc, out, err, _ = practice("", "--name", " ")
    assert rc == 1 and err.startswith("crib: error:")
    with pytest.raises(SystemExit):
        main(["practice", "--level", "grandmaster", "--db", db])
    capsys.readouterr()


def _kill_at_the_first_prompt(db, seed):
    """Run `crib practice` in a process and SIGKILL it when it asks for the discard."""
    proc = subprocess.Popen([sys.executable, "-m", "crib", "practice", "--db", db, "--board",
                             "none", "--seed", str(seed), "--no-colour"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    seen = b""
    deadline = time.monotonic() + 30
    try:
        while b"Lay away" not in seen and time.monotonic() < deadline:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
    assert b"Lay away" in seen, seen


def test_a_killed_practice_game_is_not_resumed_by_play_and_abandoned_by_practice(
        practice, db, monkeypatch, capsys):
    _kill_at_the_first_prompt(db, 5)
    killed = history_game(db)
    assert killed["finished"] is None and killed["abandoned"] == 0  # as the kill left it
    monkeypatch.setattr(sys, "stdin", Lines("quit\n"))
    rc = main(["play", "--db", db, "--board", "none", "--no-colour", "--names", "Ann,Ben",
               "--target", "61", "--dealer", "Ann"])
    out = capsys.readouterr().out
    assert rc == 0 and "Resume" not in out
    assert history_game(db)["id"] != killed["id"]  # crib play started a game of its own
    rc, out, _, _ = practice("quit\n", "--seed", "6")
    assert rc == 0 and "marked abandoned" in out.split("Practice:")[0]
    h = History.open(db)
    try:
        assert h.game(killed["id"])["abandoned"] == 1
        assert h.unfinished()["options"] == {"muggins": False, "manual": False,
                                             "review": False, "confirm": True,
                                             "totals": False, "ranks": False}
    finally:
        h.close()


def test_practice_has_undo(practice, db):
    game, scribe = reference(9, "standard", 61)
    answers = [a for _, a in scribe.answers]
    # After the first card laid: undo it (and the computer's answer), then lay it again.
    first_play = [i for i, (kind, _) in enumerate(scribe.answers) if kind == "play"][0]
    answers[first_play + 1:first_play + 1] = ["undo", answers[first_play]]
    rc, out, err, board = practice("".join(a + "\n" for a in answers), "--seed", "9",
                                   "--target", "61")
    assert rc == 0, err
    assert "undone: " in out
    assert board.state().fronts == tuple(game.scores)
    undone = history_rows(db, "SELECT kind, player FROM entries WHERE undone IS NOT NULL")
    assert ("lay", 0) in [(r["kind"], r["player"]) for r in undone]


def history_rows(db, sql):
    h = History.open(db)
    try:
        return h.query(sql)
    finally:
        h.close()


def test_best_names_the_searchs_card_and_the_review_prices_each_choice(practice, db):
    """`best` before each card: the answer names the card the pro search would lay (and
    changes nothing); at each show the play is reviewed with what each choice cost."""
    game, scribe = reference(5, "pro", 61)
    lines = []
    wants = []
    costs = []
    for (kind, answer), seen in zip(scribe.answers, scribe.seen):
        if kind == "play":
            lines.append("best")
            values = play_values(seen)
            if len(values) > 1:
                best = best_card(values)
                wants.append(f"best card now: {card_symbol(best << 2)[:-1]} ")
                lost = values[best] - values[parse_card(answer) >> 2]
                if lost:
                    costs.append(f"cost {float(lost):.2f}: the best was")
            else:
                wants.append("only one rank fits")
        lines.append(answer)
    rc, out, err, board = practice("".join(x + "\n" for x in lines), "--seed", "5",
                                   "--level", "pro", "--target", "61")
    assert rc == 0, err
    assert board.state().fronts == tuple(game.scores)  # asking changed nothing
    at = 0
    for want in wants:  # each answer, in order
        at = out.index(want, at) + 1
    assert costs, "standard's cards should differ from the search's somewhere"
    at = 0
    for want in costs:
        at = out.index(want, at) + 1
    assert out.count("play review: your choices cost") + out.count(
        "play review: every card you chose was the best") >= 1
