"""`crib history import`: a board's own finished games (pegboard.gamelog) copied into
the history over the protocol's `games` verb, through the real board app (tests/firmware's
Rig) and a link that speaks its lines: idempotent, every entry and result as played, a
plain board refused with a sentence, a damaged game reported and left out."""

import io
import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "record"), str(HERE.parent / "firmware")]

from apprig import Rig  # noqa: E402
from memfiles import MemFiles  # noqa: E402
from recordgame import PATH, boot, reference  # noqa: E402

from crib.board.link import BoardRefused  # noqa: E402
from crib.cli import main  # noqa: E402
from crib.env import Env  # noqa: E402
from crib.history.boardgames import NoRecordError, import_games  # noqa: E402
from crib.history.db import History  # noqa: E402
from crib.history.reports import game_entries, games  # noqa: E402
from cribcore.protocol import decode, encode  # noqa: E402
from cribcore.table.gamelines import entry_data  # noqa: E402
from pegboard.gamelog import GameLog  # noqa: E402
from pegboard.gamesverb import register  # noqa: E402

# The virtual board (firmware/desk.py) as a board that serves the table: its app given the
# game record in the store's rec/ and the `games` verb, as such a board's main does. (Not
# an option of desk.py: the plain runner stands for the Pico in the heap-cap tests.)
RECORD_DESK = """import sys
sys.path.insert(0, %r)
import desk
from pegboard import gamelog, gamesverb

plain = desk.build


def build(opts, port):
    app = plain(opts, port)
    gamesverb.register(app, gamelog.GameLog(opts["store"] + "/rec").open())
    return app


desk.build = build
sys.exit(desk.main(sys.argv[1:]))
"""


class AppLink:
    """The Link's request() over a board app in this process: each command encoded as a
    line, sent to the app, its reply decoded (BoardRefused for `err`)."""

    def __init__(self, files=None):
        self.rig = Rig(desk_verbs=False)
        if files is not None:
            register(self.rig.app, GameLog(PATH, files).open())
        self.asked = 0

    def request(self, verb, **args):
        self.asked += 1
        line = encode(verb, **args)
        reply = [x for x in self.rig.send(line) if not x.startswith("evt")][-1]
        msg = decode(reply)
        if msg.kind == "err":
            raise BoardRefused(msg.args["msg"], msg.args["code"], msg.args.get("rev"))
        return msg

    def close(self):
        pass


@pytest.fixture(scope="module")
def board_files():
    """A board's flash: a match of two finished games of 31 points (names that need
    escaping in JSON), then a third game in play."""
    files = MemFiles()
    reference(target=31, games=2, files=files)
    files.history = None
    engine = boot(files, target=31)
    q = engine.question()
    engine.answer(q.id, " ".join(q.to_dict()["legal"]["cards"][i * 4] for i in range(2)))
    return files


def _history(tmp_path):
    return History.open(tmp_path / "h.sqlite3")


def test_import_copies_each_finished_game_once(board_files, tmp_path):
    h = _history(tmp_path)
    report = import_games(AppLink(board_files), h)
    assert [n for n, _ in report.imported] == [1, 2] and not report.damaged
    rows = sorted(games(h, 10), key=lambda g: g["id"])
    assert [g["status"] for g in rows] == ["finished", "finished"]
    assert rows[0]["match"] == rows[1]["match"] and [g["number"] for g in rows] == [1, 2]
    assert rows[0]["board"] == "board 0badf00d"  # the second game went on the match
    log = GameLog(PATH, board_files).open()
    for (n, gid), row in zip(report.imported, rows):
        played = log.replay(n)
        assert row["winner"] == played.result["winner"]
        kept = [e for e in h.entries(gid)]
        assert [[e.hand, e.kind, e.player, e.side, e.points, e.reason, e.source, e.args,
                 e.info, e.answered_by] for e in kept] == [
                    json.loads(json.dumps(entry_data(e))) for e in played.entries]  # as on flash
        assert game_entries(h, gid, False)
    again = import_games(AppLink(board_files), h)  # idempotent: nothing added
    assert not again.imported and again.skipped == report.imported
    assert len(games(h, 10)) == 2
    h.close()


def test_a_plain_board_is_refused_with_a_sentence(tmp_path):
    h = _history(tmp_path)
    with pytest.raises(NoRecordError, match="keeps no game record"):
        import_games(AppLink(), h)
    assert games(h, 10) == []
    h.close()


def test_a_damaged_game_is_reported_and_left_out(board_files, tmp_path):
    files = MemFiles(board_files.files)
    lines = list(files.lines(PATH + "/g1"))
    raw = bytearray(lines[5])
    raw[20] ^= 0x04
    files.files[PATH + "/g1"] = tuple(lines[:5] + [bytes(raw)] + lines[6:])
    h = _history(tmp_path)
    report = import_games(AppLink(files), h)
    assert [n for n, _ in report.imported] == [2]
    assert report.damaged == [(1, "damaged on the board's flash (game 1: line 6 missing or"
                                  " damaged)")]
    h.close()


def test_the_command_imports_and_says_so(board_files, tmp_path, monkeypatch):
    import crib.commands.history as command

    monkeypatch.setattr(command, "open_board", lambda args: AppLink(board_files))
    db = str(tmp_path / "h.sqlite3")
    out = io.StringIO()
    assert main(["history", "import", "--db", db], Env(stdout=out, stderr=io.StringIO())) == 0
    assert "2 imported, 0 already in the history, 0 damaged" in out.getvalue()
    out = io.StringIO()
    assert main(["history", "import", "--db", db, "--json"],
                Env(stdout=out, stderr=io.StringIO())) == 0
    got = json.loads(out.getvalue())
    assert got["imported"] == [] and len(got["skipped"]) == 2
    out = io.StringIO()
    assert main(["history", "--db", db], Env(stdout=out, stderr=io.StringIO())) == 0
    assert out.getvalue().count(" won ") == 2
    monkeypatch.setattr(command, "open_board", lambda args: AppLink())
    err = io.StringIO()
    assert main(["history", "import", "--db", db], Env(stdout=io.StringIO(), stderr=err)) == 1
    assert "keeps no game record" in err.getvalue()


def test_import_from_the_virtual_board_over_the_link(board_files, tmp_path):
    """The desktop runner given the game record (a board that serves the table: RECORD_DESK)
    behind a pty, the real link, the command: its finished games imported; the plain
    runner refused."""
    from support import FIRMWARE

    from crib.sim.virtual import VirtualBoard
    from pegboard.logfiles import Files

    store = tmp_path / "sim"
    (store / "rec").mkdir(parents=True)
    for name in board_files.dirs:  # the record's folders (its segments') too
        (store / name).mkdir(parents=True, exist_ok=True)
    real = Files()
    for name, chunks in board_files.files.items():  # the fake flash's files, for real
        real.write(str(store / name), b"".join(chunks))
    wrapper = tmp_path / "desk_record.py"
    wrapper.write_text(RECORD_DESK % str(FIRMWARE))
    db = str(tmp_path / "h.sqlite3")
    with VirtualBoard(str(store), runner=str(wrapper)).start() as vb:
        out, err = io.StringIO(), io.StringIO()
        assert main(["history", "import", "--port", vb.url, "--db", db],
                    Env(stdout=out, stderr=err)) == 0, err.getvalue()
    assert "2 imported, 0 already in the history, 0 damaged (board record 0badf00d)" \
        in out.getvalue()
    with VirtualBoard(str(tmp_path / "plain")).start() as vb:
        err = io.StringIO()
        assert main(["history", "import", "--port", vb.url, "--db", db],
                    Env(stdout=io.StringIO(), stderr=err)) == 1
    assert "keeps no game record" in err.getvalue()
