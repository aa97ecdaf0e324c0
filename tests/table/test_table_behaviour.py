"""How the table behaves for the people at it: a typed total the known cards disagree
with, typed play points bounded, the score kept in view, presses that reach the game while
a question waits, a board that goes offline and comes back, practice that asks before it
takes over a board and has undo, and the messages of crib score, peg and history."""

import os
import threading
import time

import pytest
from tablescript import Script, rows
from test_engine import new_engine

from crib.board.memory import MemoryBoard
from crib.errors import CribError
from cribcore.cards import parse_cards
from cribcore.show import score_show
from cribcore.table.answers import AnswerError

ARGS = ("--names", "Alice,Bob", "--target", "121", "--dealer", "Alice")


def lay_all(engine, cards):
    for c in cards:
        q = engine.question()
        assert q.kind == "play", q
        engine.answer(q.id, c)


def test_a_typed_total_the_known_cards_disagree_with_is_confirmed(history):
    # Three players; the starter 3H; Ben (the pone) lays 4C 6C 8D JH in the play.
    from crib.table.engine import TableEngine
    from crib.table.session import Setup

    board = MemoryBoard(4)
    engine = TableEngine(history, board, {"confirm": True},
                         Setup(["Ann", "Ben", "Cat"], False, 121, 0))
    engine.start()
    engine.answer(engine.question().id, "3h")
    # Ben, Cat, Ann in turn; each series ends in three goes (Cat takes the last card).
    lay_all(engine, ["4c", "5s", "2d", "6c", "9s", "go", "go", "go",
                     "ks", "8d", "qs", "go", "go", "go", "ac", "jh", "7d", "3s"])
    q = engine.question()
    assert q.kind == "show" and q.asks == 1
    worth = score_show(parse_cards("4c 6c 8d jh"), parse_cards("3h")[0])
    assert worth == 3
    before = engine.view()["scores"]
    engine.answer(q.id, "5")
    c = engine.question()
    assert c.kind == "confirm" and "is worth 3, not 5" in c.prompt
    assert engine.view()["scores"] == before  # nothing pegged yet
    engine.answer(c.id, "n")
    q = engine.question()
    assert q.kind == "show" and q.asks == 1  # asked again
    engine.answer(q.id, "5")
    engine.answer(engine.question().id, "y")
    assert engine.view()["scores"][1] == before[1] + 5  # the player's word stands


def test_typed_play_points_are_bounded_and_the_line_is_what_is_recorded(history, db):
    engine, board = new_engine(history, totals=True)
    engine.answer(engine.question().id, "5h")
    q = engine.question()
    assert q.kind == "play_points" and q.asks == 1
    with pytest.raises(AnswerError):
        engine.answer(q.id, "150")  # past what a play can score: refused
    assert engine.view()["scores"] == [0, 0]
    engine.answer(q.id, "20")
    c = engine.question()
    assert c.kind == "confirm" and "20 play points" in c.prompt
    engine.answer(c.id, "y")
    assert engine.view()["scores"] == [0, 20]


def test_typed_points_past_the_target_print_what_is_recorded(crib):
    rc, out, _ = crib.play("5h\n12\n0\nquit\n", "--names", "Alice,Bob", "--target", "10",
                           "--dealer", "Alice", "--totals")
    assert rc == 0
    assert "Bob: the play  +10" in out and "+12" not in out
    pegged = rows(crib.db, "SELECT points FROM entries WHERE kind = 'peg'")
    assert [r["points"] for r in pegged] == [10]


def test_totals_only_at_the_terminal_is_six_answers_a_hand(crib):
    s = Script(["Alice", "Bob"], 121, dealer=0, seed=11)
    s.hand(play="typed", show="total")
    answers = [a for a in s.answers if a != "points"]
    rc, out, err = crib.play("".join(a + "\n" for a in answers) + "quit\n", *ARGS,
                             "--totals")
    assert rc == 0, err
    assert len(answers) == 6
    assert crib.board.state().fronts == tuple(s.game.scores)


class TtyOut:
    """An output that says it is a terminal (no colour asked for)."""

    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)

    def flush(self):
        pass

    def isatty(self):
        return True

    def text(self):
        return "".join(self.parts)


def test_the_score_line_stays_with_every_question_at_a_terminal(crib, monkeypatch):
    import io

    from crib.cli import main

    out = TtyOut()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stdin", io.StringIO("5h\n7c\n8d\n2c\nquit\n"))
    assert main(["play", "--db", crib.db, "--no-colour", *ARGS]) == 0
    text = out.text()
    prompts = text.count("plays (count") + text.count("Starter")
    assert text.count("[Alice ") >= prompts
    assert "[Alice 2  Bob 0 | hand 1, Alice deals | starter 5\u2665 | count 15]" in text


def test_after_resume_the_starter_and_the_cards_laid_are_shown_again(crib):
    crib.play("5h\n7c\n8d\nquit\n", *ARGS)
    rc, out, _ = crib.play("quit\n", "--resume")
    assert rc == 0
    assert "starter: 5\u2665" in out and "Bob: 7\u2663" in out and "Alice: 8\u2666" in out


def starter_taken(db):
    """Whether the record has the starter (read-only: a history not made yet stays so)."""
    import sqlite3
    from pathlib import Path

    try:
        con = sqlite3.connect(Path(db).resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.OperationalError:
        return False
    try:
        return bool(con.execute("SELECT 1 FROM entries WHERE kind = 'starter'").fetchall())
    except sqlite3.OperationalError:  # its tables not written yet
        return False
    finally:
        con.close()


def test_a_press_reaches_the_game_while_a_question_waits(db, monkeypatch):
    from crib.cli import main

    board = MemoryBoard(4)
    monkeypatch.setattr("crib.commands.play.open_table_board", lambda *a, **k: board)
    r, w = os.pipe()
    stdin = os.fdopen(r, "r")
    monkeypatch.setattr("sys.stdin", stdin)
    done = {}
    t = threading.Thread(target=lambda: done.setdefault(
        "rc", main(["play", "--db", db, "--no-colour", *ARGS])))
    t.start()
    try:
        os.write(w, b"5h\n")
        deadline = time.monotonic() + 30
        while not starter_taken(db):  # then Bob is asked
            assert time.monotonic() < deadline, "the starter never reached the record"
            time.sleep(0.05)
        board.press(1, 3)  # Bob pegs 3 on the board while "Bob plays" waits
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not rows(
                db, "SELECT * FROM entries WHERE source = 'board'"):
            time.sleep(0.05)
        assert rows(db, "SELECT points FROM entries WHERE source = 'board'") == [{"points": 3}]
        os.write(w, b"7c\nquit\n")  # the answer typed meanwhile is not swallowed
        t.join(10)
    finally:
        os.close(w)
    assert done.get("rc") == 0
    assert [r["kind"] for r in rows(db, "SELECT kind FROM entries")] == ["starter", "peg", "lay"]


class FlakyBoard(MemoryBoard):
    """A board that stops answering while down (as a link times out)."""

    def __init__(self):
        super().__init__(4)
        self.down = False

    def _gate(self):
        if self.down:
            raise CribError("no answer from the board")

    def state(self):
        self._gate()
        return super().state()

    def peg(self, lane, n, op_id):
        self._gate()
        return super().peg(lane, n, op_id)

    def undo(self, op_id):
        self._gate()
        return super().undo(op_id)

    def set_dealer(self, lane):
        self._gate()
        return super().set_dealer(lane)


def test_a_board_that_stops_answering_does_not_end_the_game(history):
    from crib.table.engine import TableEngine
    from crib.table.session import Setup

    clock = [0.0]
    board = FlakyBoard()
    engine = TableEngine(history, board, {"confirm": True}, Setup(["Ann", "Ben"], False, 121,
                                                                  0), clock=lambda: clock[0])
    engine.start()
    engine.answer(engine.question().id, "5h")
    board.down = True
    engine.answer(engine.question().id, "7c")
    events = engine.answer(engine.question().id, "8d")  # fifteen for 2: the peg waits
    assert any(e.kind == "problem" and "board offline" in e.text for e in events)
    assert engine.view()["offline"] and engine.view()["scores"] == [2, 0]
    assert history.query("SELECT status FROM ops WHERE verb = 'peg'") == [{"status": "pending"}]
    engine.answer(engine.question().id, "8h")  # the game goes on: a pair for Ben
    assert engine.view()["scores"] == [2, 2]
    clock[0] += 10
    engine.poll()  # still down: nothing lost
    board.down = False
    clock[0] += 10
    engine.poll()
    assert not engine.view()["offline"]
    assert board.state().fronts == (2, 2)
    assert not history.query("SELECT * FROM ops WHERE status = 'pending'")


def test_practice_asks_before_taking_over_a_board_with_a_table_game(crib, tmp_path,
                                                                      monkeypatch):
    from crib.cli import main

    path = str(tmp_path / "board.json")
    crib.board = MemoryBoard(4, path)
    crib.play("5h\n7c\n8d\nquit\n", *ARGS)  # Alice 2 on the board, the game unfinished
    held = MemoryBoard(4, path).state()
    board = MemoryBoard(4, path)
    monkeypatch.setattr("crib.commands.practice.open_table_board", lambda *a, **k: board)
    crib.stdin = None
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    assert main(["practice", "--db", crib.db, "--no-colour", "--seed", "3"]) == 0
    out = crib.capsys.readouterr().out
    assert "The board holds Alice v Bob" in out
    assert MemoryBoard(4, path).state() == held  # the table game is still on the board
    rc, out, _ = crib.play("quit\n", "--resume")
    assert rc == 0 and "Resuming: Alice v Bob" in out


def test_a_card_given_twice_is_named(capsys):
    from crib.cli import main

    assert main(["score", "3d", "3d", "4h", "5s", "6c"]) == 1
    assert "3D given twice" in capsys.readouterr().err


def test_crib_peg_names_players_as_its_table_does(capsys):
    from crib.cli import main

    assert main(["peg", "10", "go"]) == 1
    err = capsys.readouterr().err
    assert "P2 can still play" in err and "player 1" not in err


def test_history_lists_the_winners_score_first_and_limit_zero_is_all(crib):
    for seed in (31, 32):
        s = Script(["Alice", "Bob"], 31, dealer=0, seed=seed)
        s.play_out(play="ranks", show="total")
        crib.board = MemoryBoard(4)
        crib.play(s.text(), "--names", "Alice,Bob", "--target", "31", "--dealer", "Alice")
        w = s.game.winner
        line = crib.cmd("history", "--limit", "1")[1].strip()
        assert f"{['Alice', 'Bob'][w]} won 31-{s.game.scores[1 - w]}" in line
    rc, out, _ = crib.cmd("history", "--limit", "0")
    assert rc == 0 and len(out.strip().splitlines()) == 2
    with pytest.raises(SystemExit):
        crib.cmd("history", "--limit", "-1")


def test_the_player_docs_name_no_source_files_or_classes():
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    for name in ("table.md", "practice.md", "sim.md", "advisor.md", "shuffle.md", "board.md"):
        text = (root / "docs" / name).read_text()
        assert "RULES.md" not in text and "seed 0" not in text, name
        assert not re.search(r"\.py\b|`crib\.[a-z_.]+`|`cribcore|`pegboard", text), name
        assert not re.search(r"`[A-Z][a-z]+[A-Z]\w*", text), name  # no class names


@pytest.mark.parametrize("answer, kept", [("n", True), ("y", False)])
def test_the_solitaire_asks_before_taking_over_a_board_with_a_table_game(
        crib, tmp_path, monkeypatch, answer, kept):
    import io

    from crib.cli import main

    path = str(tmp_path / "board.json")
    crib.board = MemoryBoard(4, path)
    crib.play("5h\n7c\n8d\nquit\n", *ARGS)
    held = MemoryBoard(4, path).state()
    monkeypatch.setattr("crib.commands.shuffle.open_table_board",
                        lambda *a, **k: MemoryBoard(4, path))
    monkeypatch.setattr("sys.stdin", io.StringIO(answer + "\nquit\n"))
    assert main(["shuffle", "--seed", "1", "--board", "sim", "--db", crib.db]) == 0
    out = crib.capsys.readouterr().out
    assert "The board holds Alice v Bob" in out
    assert (MemoryBoard(4, path).state() == held) == kept


def test_crib_sim_shows_a_virtual_board_another_command_started(tmp_path):
    import io

    from crib.commands.sim import RemoteBoard
    from crib.layout.source import load_layout
    from crib.sim.screen import SimScreen
    from crib.sim.store import running_sim
    from crib.sim.virtual import VirtualBoard

    store = str(tmp_path / "sim")
    with VirtualBoard(store, None, pty=False, address=("127.0.0.1", 0)) as board:
        url = running_sim(store)
        assert url is not None and url.startswith("socket://")
        with RemoteBoard(url) as remote:
            out = io.StringIO()
            screen = SimScreen(remote, load_layout(None), out, colour=False)
            keys = iter(["1"] + [None] * 10 + ["q"])

            def key(timeout):
                time.sleep(timeout)
                return next(keys, "q")
            screen.run(key)
        assert "tapped lane0" in out.getvalue() and "Red " in out.getvalue()
        deadline = time.monotonic() + 10
        while " p0=0,1 " not in board.ask("state") and time.monotonic() < deadline:
            time.sleep(0.1)  # the board pegs the tap after its pause
        assert " p0=0,1 " in board.ask("state")
