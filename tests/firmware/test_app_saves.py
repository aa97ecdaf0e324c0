"""A change is applied only once it is saved: a save failing with anything (a MemoryError,
not only an OSError) leaves the board, the flash and the host in step."""

from apprig import Files, Rig, config

from cribcore.pegs import Board
from cribcore.protocol import decode
from pegboard.store import Store


class NoMemory(Files):
    """Flash whose writes run out of memory (a MemoryError, not an OSError) while `short`."""

    short = False

    def write(self, name, chunks):
        if self.short:
            raise MemoryError("memory allocation failed")
        Files.write(self, name, chunks)


def rig_on(files):
    return Rig(config(lanes=2), files=files)


def on_flash(files):
    return Store("state", Files(files.files)).load()


def test_a_button_peg_whose_save_runs_out_of_memory_is_not_applied_and_is_reported():
    files = NoMemory()
    rig = rig_on(files)
    rig.send("peg p=0 n=5 id=1")
    before = on_flash(files)
    files.short = True
    rig.press("lane0", 60)
    rig.step(rig.config.pause_ms + 50)
    got = [decode(x) for x in rig.port.take()]
    assert [(m.kind, m.verb) for m in got] == [("evt", "warn")]
    assert got[0].args["code"] == "store_failed"
    assert rig.app.board.front(0) == 5 and on_flash(files) == before  # in step
    files.short = False
    assert rig.ask("state").args["p0"] == (0, 5)


def test_a_command_whose_save_fails_changes_nothing_even_when_memory_is_short(monkeypatch):
    files = NoMemory()
    rig = rig_on(files)
    rig.send("peg p=0 n=5 id=1")
    before = on_flash(files)

    def no_memory(text):
        raise MemoryError("memory allocation failed")

    files.short = True
    monkeypatch.setattr(Board, "loads", staticmethod(no_memory))  # nothing to spare
    m = rig.ask("peg p=0 n=7 id=2")
    monkeypatch.undo()
    files.short = False
    assert m.kind == "err" and m.args["id"] == "2"
    assert rig.app.board.front(0) == 5 and rig.app.board.rev == 1
    assert on_flash(files) == before
    assert rig.ask("peg p=0 n=7 id=2").args["p0"] == (5, 12)  # the retry is applied once
    assert rig_on(files).app.board.front(0) == 12


def test_a_save_refused_by_the_codec_is_taken_back_too(monkeypatch):
    files = Files()
    rig = rig_on(files)
    rig.send("peg p=0 n=5 id=1")
    before = on_flash(files)

    def refuse(lines):
        raise ValueError("refused while saving")

    monkeypatch.setattr(rig.store, "save", refuse)
    m = rig.ask("peg p=1 n=3 id=2")
    monkeypatch.undo()
    assert m.kind == "err"
    assert rig.app.board.front(1) == 0 and on_flash(files) == before
    assert rig.ask("peg p=1 n=3 id=2").kind == "ok"


def test_an_idle_board_makes_its_slot_directories_ahead_of_their_first_saves():
    rig = Rig()  # boots on blank flash; the rig steps until the idle work is done
    assert rig.files.dirs == set("state.%d" % i for i in range(9)) and not rig.files.files
    rig.ask("peg p=0 n=3 id=a")
    assert Rig(files=rig.files).ask("state").args["p0"] == (0, 3)
