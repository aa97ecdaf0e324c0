"""pegboard.logfiles' Files on a real filesystem (the board's LittleFS calls, here on
the host's): a game played, the board restarted mid-game resumes it, a torn line at the
end of a game's file is dropped and the next lines stay whole, the verb reads it back
(once the game is sealed into its file)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "record"))

import pytest  # noqa: E402
from memfiles import MemFiles  # noqa: E402
from recordgame import answer_for, boot, reference, state  # noqa: E402
from tablegame import Lcg  # noqa: E402

from cribcore.protocol import ProtocolError  # noqa: E402
from pegboard.gamelog import GameLog, Segment  # noqa: E402
from pegboard.gamesverb import answer  # noqa: E402
from pegboard.logfiles import Files  # noqa: E402


class RealFiles(Files):
    """The real Files under a folder, counting writes like the fake (reference() reads
    `ops` and keeps `history`)."""

    def __init__(self, root):
        self.root = str(root)
        self.ops = 0
        self.history = None

    def _p(self, name):
        return self.root + "/" + name

    def lines(self, name):
        return Files.lines(self, self._p(name))

    def line_at(self, name, offset):
        return Files.line_at(self, self._p(name), offset)

    def read(self, name):
        return Files.read(self, self._p(name))

    def write(self, name, data):
        self.ops += 1
        Files.write(self, self._p(name), data)

    def append(self, name, data):
        self.ops += 1
        Files.append(self, self._p(name), data)

    def dump(self, name, items):
        self.ops += 1
        Files.dump(self, self._p(name), items)

    def last(self, name):
        return Files.last(self, self._p(name))

    def size(self, name):
        return Files.size(self, self._p(name))

    def names(self, folder):
        return Files.names(self, self._p(folder))

    def remove(self, name):
        self.ops += 1
        Files.remove(self, self._p(name))

    def rename(self, name, new):
        self.ops += 1
        Files.rename(self, self._p(name), self._p(new))

    def mkdir(self, name):
        self.ops += 1
        Files.mkdir(self, self._p(name))

    def rmdir(self, name):
        self.ops += 1
        Files.rmdir(self, self._p(name))


def test_a_game_on_real_files_resumes_and_reads_back(tmp_path):
    files = RealFiles(tmp_path)
    answers, states, _, _ = reference(target=61, files=files)
    assert (tmp_path / "rec" / "g1").stat().st_size > 2000
    log = GameLog("rec", files).open()
    assert answer(log, {}) == {"games": None}  # its close line in a segment: not sealed yet
    log.settle()  # as the board's boot and its server after each reply
    assert answer(log, {})["games"] == (1,)
    r = log.replay(1)
    assert r.result is not None and r.damage is None
    # A second game, the board restarted in the middle of it: it goes on where it was.
    engine = boot(files, target=61)
    for text in answers[:40]:
        engine.answer(engine.question().id, text)
    before = engine.view()
    again = boot(files, target=61)
    assert again.view() == before and state(again) is not None
    # A torn line at the end of game 1's file (an append the power cut short, where
    # LittleFS would have kept none of it): the tail still has the line, so the next
    # append writes it again, after a newline; the torn piece costs nothing.
    g1 = tmp_path / "rec" / "g1"
    lines = g1.read_bytes().splitlines(keepends=True)
    g1.write_bytes(b"".join(lines[:-1]) + lines[-1][:17])
    torn = GameLog("rec", files).open()
    seg = Segment(torn.path + "/s1/t", torn.path + "/s1", False)  # a segment holding it
    seg.lines, seg.seqs = [lines[-1]], [len(lines)]
    torn.game, torn.segs, torn.sealed = 1, [seg], len(lines) - 1
    torn._seal(torn.segs)
    now = g1.read_bytes().splitlines(keepends=True)
    assert now[-2] == lines[-1][:17] + b"\n" and now[-1] == lines[-1]
    r = GameLog("rec", files).open().replay(1)
    assert r.damage is None and r.result is not None and r.seq == len(lines)


def play_settling(engine, each=None):
    """Play engine's game to its end with seeded answers, calling each() after every answer,
    and settle() the record after each reply as the board's server does (the game's last
    answer is left unsettled)."""
    rng = Lcg(3)
    while engine.question().kind != "another":
        engine.answer(engine.question().id, answer_for(engine, rng, 1))
        if each:
            each()
        if engine.question().kind != "another":
            engine.session.log.settle()


def test_a_game_just_won_is_listed_once_settle_sealed_it_whole(tmp_path):
    """The winning answer's close line goes to a segment before its reply; the `games`
    verb reads a game's file by byte offset, so the game is listed (and read) only once
    settle() after the reply sealed it there, its close line last."""
    files = RealFiles(tmp_path)
    engine = boot(files, target=61)
    log = engine.session.log
    play_settling(engine)
    assert log.segs and not log.playing()  # closed, its last lines in a segment
    assert answer(log, {}) == {"games": None}
    with pytest.raises(ProtocolError, match="no finished game 1"):
        answer(log, {"g": 1})
    log.settle()
    assert answer(log, {})["games"] == (1,)
    at, last = 0, None
    while True:
        got = answer(log, {"g": 1, "at": at})
        if "line" not in got:
            break
        last, at = got["line"], at + len(got["line"]) + 1
    assert last.split(" ")[3] == "c" and log.replay(1).result is not None


class Counted(MemFiles):
    """The fake flash, counting the reads of a file's last byte and the removals of files
    that are not there."""

    def __init__(self):
        MemFiles.__init__(self)
        self.lasts = 0
        self.absent = 0

    def last(self, name):
        self.lasts += 1
        return MemFiles.last(self, name)

    def remove(self, name):
        if name not in self.files:
            self.absent += 1
        return MemFiles.remove(self, name)


@pytest.mark.parametrize("kept", [False, True])
def test_a_run_reads_a_games_last_byte_once_and_removes_no_file_that_is_not_there(kept):
    """settle() after each reply, a game to 61 and the next one begun: the game's file is
    read for a torn last line once a run (before its first seal), not at every seal; a
    sealed segment's folder is emptied of the files it holds, and no removal is tried of
    a kept-answers file keep() never wrote there (each a failing call, an OSError made)."""
    files = Counted()
    answers, states, _, _ = reference(target=61, files=files, settled=True, kept=kept, games=2,
                                      stop=90)
    log = GameLog("rec", files).open()
    assert len(log.games()) == 1 and log.playing() == 2
    assert files.lasts == 2 and files.absent == 0, (files.lasts, files.absent)
    assert not [n for n in files.files if n.endswith("/a")] or kept
    assert log.replay(1).result is not None and log.replay(2).damage is None


class Spy(MemFiles):
    """The fake flash, keeping what each append to a game's file was given."""

    def __init__(self):
        MemFiles.__init__(self)
        self.given = []

    def append(self, name, data):
        if "/g" in name:
            self.given.append(data)
        return MemFiles.append(self, name, data)


def test_a_seal_writes_the_lines_as_they_were_written_never_joined():
    """settle() appends a full segment's lines to the game's file one after the other:
    the very texts written to the segment, not a copy of them joined (about 450 bytes a
    seal, and the texts are encoded: no bytes copy of a line either)."""
    files = Spy()
    log = GameLog("rec", files, token="0badf00d").open()
    rec = log.new_game({"names": ["Ann", "Bob"], "target": 61})
    log.settle()
    written = list(log.segs[0].lines)  # the header's
    for seq in range(2, 40):
        log.add(rec.game, seq, "u", ["x" * 90, seq])
        written.append(log.segs[-1].lines[-1])
        log.settle()
    assert len(files.given) > 3
    for data in files.given:
        assert type(data) is list and all(any(c is w for w in written) for c in data)
    r = GameLog("rec", files).open().replay(1)
    assert r.damage is None and r.seq == 39


def test_the_records_appends_keep_the_segments_file_open_and_each_line_is_in_it_when_taken(
        tmp_path, append_opens):
    """Files.append keeps the newest segment's file open from one answer's line to the
    next (on the Pico a LittleFS open makes its file object and about 1 KB of cache:
    once a segment of several lines, not once an answer; the game's file beside it,
    appended at a seal) and flushes each append: a line taken is in the file when the
    answer returns (read by another reader, as a restart reads it), a segment's removal
    closes it first, and the game reads back whole."""
    opened = append_opens
    appended = []

    class Appends(RealFiles):
        def append(self, name, data):
            appended.append(name)
            RealFiles.append(self, name, data)

    files = Appends(tmp_path)
    engine = boot(files, target=61)
    log = engine.session.log

    def whole():
        taken = sum(len(s.lines) for s in log.segs)
        on_files = sum(len((tmp_path / s.path).read_bytes().splitlines()) for s in log.segs)
        assert on_files == taken, (on_files, taken)  # whole, before the reply

    play_settling(engine, whole)
    lines = [n for n in appended if not n.endswith("/g1")]  # an answer's lines
    segments = set(lines)
    assert len(lines) > 60 and len(lines) > 2 * len(segments)  # several lines a segment
    assert len([n for n in opened if not n.endswith("/g1")]) == len(segments)  # once each
    assert len([n for n in opened if n.endswith("/g1")]) <= len(appended) - len(lines)
    r = GameLog("rec", files).open().replay(1)  # read back as a restart reads it
    assert r.damage is None and r.seq == log.segs[-1].seqs[-1]
