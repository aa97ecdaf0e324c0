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


# A slot file up to this many bytes is one page program, one 256-byte commit of its
# folder's LittleFS log: on the emulated Pico (tests/pico, every flash command of
# bench/pico.py's burst logged) each slot file of up to 224 bytes took one page and each
# of 225 or more two (a commit adds 32 bytes: the file's tag, MicroPython's mtime
# attribute, the CRCs). Two pages a save also fill the log twice as fast: an erase every
# 7 saves of a slot, not every 15 (docs/firmware.md, "The state on flash").
ONE_PAGE = 224


def test_a_companions_game_saves_a_slot_file_that_fits_one_flash_page():
    """bench/pico.py's burst (3 players, ids shaped like the companion's) past a full undo
    history and to three-digit scores: every save but the ones that carry the settings
    line again (one in four, slots.TWICE) fits one page, with room to spare."""
    rig = Rig()
    rig.ask("new players=3 target=121")
    biggest = 0
    for i in range(300):
        rig.send("peg p=%d n=1 id=5e3a1c-%d" % (i % 3, i))
        data = rig.files.files["state.%d/h" % (rig.store.seq % 9)]
        if b"\nset " not in data:
            biggest = max(biggest, len(data))
    assert rig.app.board.undo_count == 64 and rig.app.board.front(2) == 100
    assert biggest <= ONE_PAGE - 12, biggest


def test_a_remembered_reply_is_kept_without_its_id_and_answered_whole():
    rig = Rig()
    first = rig.send("peg p=0 n=5 id=5e3a1c-7")[-1]
    assert first.endswith(" id=5e3a1c-7")
    kept = [ln for ln in on_flash(rig.files).split("\n") if ln.startswith("id ")]
    assert kept == ["id 5e3a1c-7 %s %s" % (kept[0].split(" ")[2], first[:first.rindex(" ")])]
    again = Rig(files=rig.files)  # a restart: the retry is answered from the flash
    assert again.send("peg p=0 n=5 id=5e3a1c-7")[-1] == first
    assert again.ask("state").args["p0"] == (0, 5)


def test_a_reply_remembered_whole_by_the_firmware_before_is_answered_as_it_was():
    """A state saved by the firmware before (its id lines end in ` id=IDENT`): a retry
    gets that line once, not with the id twice."""
    board = Board(3, 121, 64)
    board.peg(0, 5)
    line = "ok rev=1 p0=0,5 winner=-1 id=a1"
    rig = Rig()
    rig.send("peg p=1 n=1 id=probe")  # the key the board gives this command line
    key = [ln for ln in on_flash(rig.files).split("\n") if ln.startswith("id ")][0].split(" ")[2]
    files = Files()
    Store("state", files).save(["board " + board.dumps(), "set brightness=40 budget_ma=450 "
                                "pause_ms=1500 idle_ms=600000", "id a1 %s %s" % (key, line)])
    again = Rig(files=files)
    assert again.ask("state").args["p0"] == (0, 5)
    assert again.send("peg p=1 n=1 id=a1")[-1] == line
