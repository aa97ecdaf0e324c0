"""Crash and resume: the companion stops at any step (before or after the board applied a
peg, or while writing the history); `crib play --resume` goes on where it was, reconciled
with the board: nothing lost, nothing pegged twice. Also board button events mid-game."""

import json
import re

import pytest
from tablescript import Script, rows

from crib.board.guard import BoardOffline
from crib.board.memory import MemoryBoard
from crib.history.db import History

ARGS = ("--names", "Alice,Bob", "--target", "61", "--dealer", "Alice")


class Crash(BaseException):
    """The companion dies here (not an Exception: nothing on the way may catch it)."""


class CrashingBoard(MemoryBoard):
    """A board kept in a file (it outlives the companion) that crashes the companion at its
    `at`-th peg, before or after applying it."""

    def __init__(self, path, at, when):
        super().__init__(4, path)
        self.at, self.when, self.pegs = at, when, 0

    def peg(self, lane, n, op_id):
        self.pegs += 1
        if self.pegs == self.at and self.when == "before":
            raise Crash()
        st = super().peg(lane, n, op_id)
        if self.pegs == self.at and self.when == "after":
            raise Crash()
        return st




def check_same_as_reference(crib, s):
    """Board and record both hold the reference scores, each jump once."""
    st = crib.board.state()
    assert st.fronts == tuple(s.game.scores)
    assert not rows(crib.db, "SELECT * FROM ops WHERE status = 'pending'")
    jumps = rows(crib.db, "SELECT COUNT(*) AS n FROM entries WHERE undone IS NULL"
                          " AND points > 0")[0]["n"]
    assert crib.board.board.undo_count == jumps  # one jump per scoring entry, no more
    game = rows(crib.db, "SELECT * FROM games")[0]
    assert game["finished"] and json.loads(game["scores"]) == list(s.game.scores)


@pytest.mark.parametrize("at", [1, 4, 9])
@pytest.mark.parametrize("when", ["before", "after"])
def test_crash_around_a_peg_then_resume(crib, tmp_path, at, when):
    s = Script(["Alice", "Bob"], 61, seed=41)
    s.play_out(play="cards", show="cards")
    path = str(tmp_path / "board.json")
    crib.board = CrashingBoard(path, at, when)
    with pytest.raises(Crash):
        crib.play(s.text(), *ARGS)
    lines = s.text().splitlines()
    rest = lines[crib.stdin.read_count:]  # the crashed answer's entry was written
    pending = rows(crib.db, "SELECT * FROM ops WHERE status = 'pending'")
    assert len(pending) == 1 and pending[0]["verb"] == "peg"
    crib.board = MemoryBoard(4, path)  # the board as it was when the companion died
    rc, out, err = crib.play("\n".join(rest) + "\n", "--resume")
    assert rc == 0, err
    said = "was applied before the stop" if when == "after" else "was not applied: sending"
    assert said in out
    check_same_as_reference(crib, s)


class HiccupBoard(MemoryBoard):
    """A board that misses its first peg (no answer in time) and the question after it (a
    guarded link's board is offline at once then), then answers again."""

    def __init__(self, path):
        super().__init__(4, path)
        self.missed = 0

    def _miss(self, first):
        if self.missed < 2 and (self.missed or first):
            self.missed += 1
            raise BoardOffline("the board is offline (no answer within 150 ms)")

    def peg(self, lane, n, op_id):
        self._miss(True)
        return super().peg(lane, n, op_id)

    def state(self):
        self._miss(False)
        return super().state()


def test_a_board_that_misses_a_peg_while_the_resume_settles_does_not_stop_the_game(crib,
                                                                                   tmp_path):
    # It stopped `crib play --resume` with "crib: error: the board is offline".
    s = Script(["Alice", "Bob"], 61, seed=41)
    s.play_out(play="cards", show="cards")
    path = str(tmp_path / "board.json")
    crib.board = CrashingBoard(path, 4, "before")
    with pytest.raises(Crash):
        crib.play(s.text(), *ARGS)
    rest = s.text().splitlines()[crib.stdin.read_count:]
    crib.board = HiccupBoard(path)  # the pending peg's resend is missed
    rc, out, err = crib.play("\n".join(rest) + "\n", "--resume")
    assert rc == 0, err
    assert crib.board.missed == 2 and "board offline" in out
    check_same_as_reference(crib, s)  # sent when the board was back: nothing lost


class LastPegMissedBoard(MemoryBoard):
    """A board that misses the game's last peg (no answer in time: a loaded machine's
    virtual board, a USB hiccup) and the question after it (the companion's try while
    the game ends), then answers again."""

    def __init__(self, path, target=61):
        super().__init__(4, path)
        self.target, self.missed = target, 0

    def peg(self, lane, n, op_id):
        if not self.missed and super().state().fronts[lane] + n >= self.target:
            self.missed += 1
            raise BoardOffline("the board is offline (no answer within 150 ms)")
        return super().peg(lane, n, op_id)

    def state(self):
        if self.missed == 1:
            self.missed += 1
            raise BoardOffline("the board is offline (no answer within 150 ms)")
        return super().state()


def test_a_game_ended_while_the_board_is_offline_waits_for_it_before_leaving(crib, tmp_path):
    # The companion left the board a peg behind the game (a hunt beside two busy processes
    # saw 60 for 61 on the virtual board): it now waits for the board before it leaves.
    s = Script(["Alice", "Bob"], 61, seed=53)
    s.play_out(play="cards", show="cards")
    crib.board = LastPegMissedBoard(str(tmp_path / "board.json"))
    rc, out, err = crib.play(s.text(), *ARGS)
    assert rc == 0, err
    assert crib.board.missed == 2 and "board offline" in out
    assert "waiting up to" in out and "the board is back" in out
    check_same_as_reference(crib, s)


@pytest.mark.parametrize("at", [1, 6, 20])
def test_crash_while_writing_the_history_then_resume(crib, tmp_path, monkeypatch, at):
    s = Script(["Alice", "Bob"], 61, seed=42)
    s.play_out(play="ranks", show="cards")
    path = str(tmp_path / "board.json")
    crib.board = MemoryBoard(4, path)
    calls = []
    real = History.add_entry

    def add_entry(self, *a, **k):
        calls.append(1)
        if len(calls) == at:
            raise Crash()
        return real(self, *a, **k)
    monkeypatch.setattr(History, "add_entry", add_entry)
    with pytest.raises(Crash):
        crib.play(s.text(), *ARGS)
    monkeypatch.setattr(History, "add_entry", real)
    lines = s.text().splitlines()
    rest = lines[crib.stdin.read_count - 1:]  # nothing was written: answer it again
    crib.board = MemoryBoard(4, path)
    rc, out, err = crib.play("\n".join(rest) + "\n", "--resume")
    assert rc == 0, err
    check_same_as_reference(crib, s)


def test_resume_without_an_unfinished_game_is_an_error(crib):
    rc, out, err = crib.play("", "--resume")
    assert rc == 1 and "crib: error:" in err


def test_plain_play_offers_the_unfinished_game(crib):
    s = Script(["Alice", "Bob"], 61, seed=43)
    s.play_out(play="ranks", show="total")
    lines = s.text().splitlines()
    crib.play("\n".join(lines[:5]) + "\n", *ARGS)
    rc, out, err = crib.play("y\n" + "\n".join(lines[5:]) + "\n")
    assert rc == 0, err
    assert "Unfinished: Alice v Bob to 61" in out
    assert crib.board.state().fronts == tuple(s.game.scores)


def test_an_unfinished_game_is_one_question_in_plain_words(crib):
    crib.play("5h\n", *ARGS)
    rc, out, err = crib.play("n\n", "--names", "Carol,Dan", "--target", "61", "--dealer",
                             "Dan")
    assert "input ended at 'Starter'" in err  # the new game's first question
    asked = [line for line in out.splitlines() if "Unfinished" in line]
    assert len(asked) == 1 and "for good" not in out and "Resume" not in out
    assert re.search(r"started (today|yesterday) \d\d:\d\d\. Go on with it", asked[0])
    assert re.search(r"T\d\d:\d\d", out) is None  # no ISO stamp
    assert "Game 1: Carol v Dan to 61" in out  # the no started the new game at once
    games = rows(crib.db, "SELECT * FROM games ORDER BY id")
    assert [g["abandoned"] for g in games] == [1, 0]


def test_later_keeps_the_game_for_later(crib):
    crib.play("5h\n", *ARGS)
    rc, out, err = crib.play("later\n", *ARGS)
    assert rc == 0, err
    games = rows(crib.db, "SELECT * FROM games ORDER BY id")
    assert [(g["abandoned"], g["finished"]) for g in games] == [(0, None)]
    rc, out, err = crib.play("quit\n", "--resume")
    assert rc == 0 and "Resuming: Alice v Bob" in out and "starter: 5\u2665" in out


def _stop_after(crib, path, text, n):
    """Play n answers of text on a file board, then stop (end of input)."""
    crib.board = MemoryBoard(4, path)
    lines = text.splitlines()
    crib.play("\n".join(lines[:n]) + "\n", *ARGS)
    return lines[n:]


def test_board_pegged_while_the_companion_was_away(crib, tmp_path):
    path = str(tmp_path / "board.json")
    s = Script(["Alice", "Bob"], 61, seed=44)
    s.play_out(play="cards", show="cards")
    _stop_after(crib, path, s.text(), 4)
    away = MemoryBoard(4, path)
    away.board.peg(1, 3)  # Bob's button while the laptop was closed
    away._save()
    crib.board = MemoryBoard(4, path)
    rc, out, err = crib.play("y\n", "--resume")
    assert "the board shows Bob" in out and "Record the 3 as pegged on board (Y/n)" in out
    got = rows(crib.db, "SELECT * FROM entries WHERE source = 'reconcile'")
    assert [(g["side"], g["points"]) for g in got] == [(1, 3)]
    record = [0, 0]
    for r in rows(crib.db, "SELECT side, points FROM entries WHERE undone IS NULL"
                           " AND side IS NOT NULL"):
        record[r["side"]] += r["points"]
    assert tuple(record) == crib.board.state().fronts


def test_board_behind_the_record_is_pegged_up_when_asked(crib, tmp_path):
    path = str(tmp_path / "board.json")
    s = Script(["Alice", "Bob"], 61, seed=45)
    s.play_out(play="cards", show="cards")
    n = next(i for i, p in s.lay_at if p) + 1
    _stop_after(crib, path, s.text(), n)
    before = crib.board.state().fronts
    away = MemoryBoard(4, path)
    away.board.undo()  # someone pressed undo on the board
    away._save()
    assert away.state().fronts != before
    crib.board = MemoryBoard(4, path)
    rc, out, err = crib.play("y\n", "--resume")
    assert "on the board (Y/n)" in out
    assert crib.board.state().fronts == before


def test_board_with_another_game_is_set_up_again(crib, tmp_path):
    path = str(tmp_path / "board.json")
    s = Script(["Alice", "Bob"], 61, seed=46)
    s.play_out(play="cards", show="cards")
    n = next(i for i, p in s.lay_at if p) + 1
    _stop_after(crib, path, s.text(), n)
    before = crib.board.state()
    away = MemoryBoard(4, path)
    away.board.new_game(121, 3)
    away._save()
    crib.board = MemoryBoard(4, path)
    rc, out, err = crib.play("y\n", "--resume")
    assert "the board holds another game" in out
    st = crib.board.state()
    assert (st.lanes, st.target, st.fronts) == (2, 61, before.fronts)


def test_button_pegs_during_the_game_are_recorded(crib):
    s = Script(["Alice", "Bob"], 121, seed=47)
    s.hand(play="cards", show="cards")
    hooks = {3: lambda: crib.board.press(1, 2)}  # Bob pegs 2 on the board mid-play
    rc, out, err = crib.play(s.text(), "--names", "Alice,Bob", "--target", "121",
                             "--dealer", "Alice", hooks=hooks)
    assert "Bob: pegged on board  +2" in out
    got = rows(crib.db, "SELECT * FROM entries WHERE source = 'board'")
    assert [(g["side"], g["points"], g["reason"]) for g in got] == [(1, 2, "pegged on board")]
    assert crib.board.state().fronts == (s.game.scores[0], s.game.scores[1] + 2)
    assert not rows(crib.db, "SELECT * FROM ops WHERE status = 'pending'")


def test_board_undo_button_takes_back_the_last_scoring_entry(crib):
    s = Script(["Alice", "Bob"], 121, seed=48)
    s.hand(play="cards", show="cards")
    lines = s.text().splitlines()
    at = next(i for i, p in s.lay_at if p)
    # The undo button is pressed while the next question is open: the answer typed then is
    # dropped, the scoring card is asked again, then that answer again, and so on.
    lines[at + 2:at + 2] = [lines[at], lines[at + 1]]
    hooks = {at + 1: crib.board.press_undo}
    rc, out, err = crib.play("\n".join(lines) + "\n", "--names", "Alice,Bob", "--target",
                             "121", "--dealer", "Alice", hooks=hooks)
    assert "undone on the board" in out
    assert crib.board.state().fronts == tuple(s.game.scores)
    undone = rows(crib.db, "SELECT * FROM entries WHERE undone IS NOT NULL")
    assert [u["kind"] for u in undone] == ["lay"] and undone[0]["points"] > 0
    assert not rows(crib.db, "SELECT * FROM ops WHERE verb = 'undo'")  # the board did it


def test_board_peg_that_counts_out_ends_the_game(crib):
    s = Script(["Alice", "Bob"], 121, seed=49)
    s.hand(play="cards", show="cards")
    hooks = {2: lambda: crib.board.press(0, 120)}
    rc, out, err = crib.play(s.text(), "--names", "Alice,Bob", "--target", "121",
                             "--dealer", "Alice", hooks=hooks)
    assert rc == 0, err
    assert "Alice wins" in out
    game = rows(crib.db, "SELECT * FROM games")[0]
    assert game["winner"] == 0 and game["finished"]
    assert crib.board.state().winner == 0


class CrashingUndoBoard(MemoryBoard):
    """A file board that crashes the companion at its first undo, before or after it."""

    def __init__(self, path, when):
        super().__init__(4, path)
        self.when = when

    def undo(self, op_id):
        if self.when == "before":
            raise Crash()
        super().undo(op_id)
        raise Crash()


@pytest.mark.parametrize("when", ["before", "after"])
def test_crash_around_an_undo_then_resume(crib, tmp_path, when):
    s = Script(["Alice", "Bob"], 61, seed=71)
    s.play_out(play="cards", show="cards")
    lines = s.text().splitlines()
    at = next(i for i, points in s.lay_at if points)
    lines[at + 1:at + 1] = ["undo", lines[at]]  # take the scoring card back, lay it again
    path = str(tmp_path / "board.json")
    crib.board = CrashingUndoBoard(path, when)
    with pytest.raises(Crash):
        crib.play("\n".join(lines) + "\n", *ARGS)
    assert crib.stdin.read_count == at + 2  # the crash came with the undo
    undo = rows(crib.db, "SELECT * FROM ops WHERE verb = 'undo'")
    assert [u["status"] for u in undo] == ["pending"]
    crib.board = MemoryBoard(4, path)
    rc, out, err = crib.play("\n".join(lines[at + 2:]) + "\n", "--resume")
    assert rc == 0, err
    said = "was applied before the stop" if when == "after" else "was not applied: sending"
    assert f"board: undo {undo[0]['op_id']} {said}" in out
    check_same_as_reference(crib, s)


class CrashingNewBoard(MemoryBoard):
    """A file board that crashes the companion when the game is set up on it."""

    def __init__(self, path, when):
        super().__init__(4, path)
        self.when = when

    def new_game(self, *a, **k):
        if self.when == "before":
            raise Crash()
        super().new_game(*a, **k)
        raise Crash()


@pytest.mark.parametrize("when", ["before", "after"])
def test_crash_while_setting_up_the_board_then_resume(crib, tmp_path, when):
    s = Script(["Alice", "Bob"], 61, seed=72)
    s.play_out(play="ranks", show="total")
    path = str(tmp_path / "board.json")
    crib.board = CrashingNewBoard(path, when)
    crib.board.board.new_game(121, 3)
    crib.board.board.peg(2, 40)  # an old game on the board
    with pytest.raises(Crash):
        crib.play(s.text(), *ARGS)
    crib.board = MemoryBoard(4, path)
    rc, out, err = crib.play(s.text(), "--resume")
    assert rc == 0, err
    check_same_as_reference(crib, s)


def test_resume_without_a_board_rebuilds_the_pegs_quietly(crib):
    s = Script(["Alice", "Bob"], 61, seed=73)
    s.play_out(play="ranks", show="total")
    lines = s.text().splitlines()
    half = len(lines) // 2
    crib.play("\n".join(lines[:half]) + "\n", *ARGS)
    crib.board = MemoryBoard(4)  # --board none: nothing survives the companion
    rc, out, err = crib.play("\n".join(lines[half:]) + "\n", "--resume")
    assert rc == 0, err
    assert "(Y/n)" not in out  # no question about the board: there is none
    assert crib.board.state().fronts == tuple(s.game.scores)


def test_a_button_peg_before_the_first_deal_is_taken_back(crib):
    s = Script(["Alice", "Bob"], 61, dealer=0, seed=74)
    s.play_out(play="ranks", show="total")
    hooks = {1: lambda: crib.board.press(1, 5)}  # while the cut is asked
    rc, out, err = crib.play("\nah 9c\n" + s.text(), "--names", "Alice,Bob", "--target", "61",
                             hooks=hooks)
    assert rc == 0, err
    assert "board: 5 pegged before the first deal; taken back" in out
    assert crib.board.state().fronts == tuple(s.game.scores)
    assert not rows(crib.db, "SELECT * FROM entries WHERE source = 'board'")
