"""boardweb.resume.KeptSession's log every screen shows after a restart (`l`, and `m` before
it): appended an answer at a time, never rewritten whole (late in a game that was one 7.4 KB
block, which the emulated Pico W's fragmented heap could not give: MemoryError in
keep_log, issue 39); the last LOG_KEEP events read back after a restart, and after a power
cut at any flash operation, those before the cut (the answer in flight's events, or not)."""

import json
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from support import FIRMWARE

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "record"))
if str(FIRMWARE) not in sys.path:  # boardweb is the board's, not an installed package
    sys.path.append(str(FIRMWARE))

from boardweb.resume import KeptSession  # noqa: E402
from memfiles import MemFiles, cut_flashes  # noqa: E402

from cribcore.table.room import LOG_KEEP  # noqa: E402


class Log:
    """The game record's folder as KeptSession uses it: its path and its files."""

    def __init__(self, files):
        self.path = "rec"
        self.files = files


def session(files):
    s = KeptSession.__new__(KeptSession)  # its record's games are not what is tried here
    s.log = Log(files)
    return s


def event(seq):
    return {"seq": seq, "kind": "peg", "who": seq % 2, "text": "Ann pegs %d" % seq,
            "points": 2, "data": None}


def keep(s, batches, start=0):
    """The answers' events kept as the room keeps them (its last LOG_KEEP passed along);
    all the events."""
    seq, events = start, []
    for n in batches:
        added = [event(seq + i + 1) for i in range(n)]
        seq += n
        events += added
        s.keep_log(added, events[-LOG_KEEP:])
    return events


batches = st.lists(st.integers(1, 4), min_size=130, max_size=200)  # past 2 x LOG_KEEP


@settings(max_examples=40, deadline=None)
@given(batches)
def test_the_log_is_appended_an_answer_at_a_time_never_written_whole(sizes):
    files = MemFiles()
    files.history = []
    events = keep(session(files), sizes)
    for kind, name, data in files.history:
        assert kind in ("append", "rename"), (kind, name)
        assert kind != "append" or len(data) <= 4 * len(json.dumps(event(len(events))) + "\n")
    assert session(files).kept_log() == events[-LOG_KEEP:]
    # and on flash, at most about twice what a screen is shown
    assert sum(files.size(n) for n in ("rec/l", "rec/m")) <= 2 * (LOG_KEEP + 4) * len(
        json.dumps(event(len(events))) + "\n")


def test_a_restart_goes_on_keeping_where_the_log_was():
    files = MemFiles()
    events = keep(session(files), [2] * 50)
    s = session(files)
    assert s.kept_log() == events[-LOG_KEEP:]
    events += keep(s, [3] * 30, start=len(events))
    assert session(files).kept_log() == events[-LOG_KEEP:]


def test_a_power_cut_at_any_flash_operation_keeps_the_log_before_it():
    files = MemFiles()
    files.history = []
    sizes = [1, 3, 2, 4] * 40
    events = keep(session(files), sizes)
    ends = [0]  # the events kept after each answer
    for n in sizes:
        ends.append(ends[-1] + n)
    ops = [k for k, (kind, _, _) in enumerate(files.history, 1) if kind == "append"]
    assert len(ops) == len(sizes)
    for k, cut, flash in cut_flashes(files.history, keeps=(0, 5, -1)):
        answer = sum(1 for o in ops if o < k)  # answers whose append came before the cut
        got = session(flash).kept_log()
        # all that was kept before the cut, and of the answer in flight none, some lines
        # (an append torn: LittleFS commits it whole, memfiles is stricter) or all
        allowed = [events[:x][-LOG_KEEP:] for x in range(ends[answer], ends[
            min(answer + 1, len(sizes))] + 1)]
        assert got in allowed, (k, cut, files.history[k - 1][:2])


def test_the_real_files_log_reads_back_and_a_failed_item_leaves_the_next_lines_whole(tmp_path):
    """pegboard.logfiles' Files.dump (json.dump into the file): the events read back; an
    item that fails to write ends its line all the same, so only it is lost."""
    from pegboard.logfiles import Files

    s = session(Files())
    s.log.path = str(tmp_path)
    events = keep(s, [2, 3, 1])
    try:
        s._append([event(7), {"seq": 8, "data": object()}])
    except TypeError:
        pass
    events.append(event(7))
    events += keep(s, [2], start=8)
    assert session_at(tmp_path).kept_log() == events


def session_at(folder):
    from pegboard.logfiles import Files

    s = session(Files())
    s.log.path = str(folder)
    return s


APPEND = """
import gc
import json
from boardweb.resume import KeptSession
from pegboard.logfiles import Files

class Log:
    path = %r
    files = Files()

class Kept(KeptSession):
    def __init__(self):  # its record's games are not what is tried here
        self.log = Log()

s = Kept()
added = [{"seq": i, "kind": "peg", "who": "Ann", "text": "Ann pegs 2 for fifteen two",
          "points": 2, "data": {"cards": ["5h", "Td"], "total": 15}} for i in range(3)]
s._append(added)
gc.collect()
gc.disable()
a = gc.mem_alloc()
s._append(added)
print("ALLOC", gc.mem_alloc() - a, sum([len(json.dumps(e)) for e in added]))
"""


def test_an_answers_events_go_to_the_log_with_no_text_made_under_micropython(tmp_path):
    """Under the unix MicroPython, appending an answer's three events allocates less than
    half their JSON's length: each is written into the file as json makes it (it was each
    event's str, their join and its bytes: more than twice their length)."""
    from support import run_micropython

    script = tmp_path / "append.py"
    script.write_text(APPEND % str(tmp_path))
    proc = run_micropython([script], heap="256K", env={"MICROPYPATH": ":".join(
        [".frozen", str(FIRMWARE)])})
    assert proc.returncode == 0, proc.stderr + proc.stdout
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("ALLOC ")][0]
    alloc, text = [int(x) for x in line.split()[1:]]
    assert alloc < text // 2, line
    assert len((tmp_path / "l").read_bytes().splitlines()) == 6


def test_the_log_stays_open_between_answers_and_each_answers_lines_are_in_it_at_once(
        tmp_path, append_opens):
    """Files.dump keeps the log's file open from one answer to the next (on the Pico a
    LittleFS open makes its file object and a 1 KB cache: once, not once an answer) and
    flushes it after each: what an answer kept is in the file when dump returns (read by
    another reader, as a restart would); a rename (LOG_KEEP events) closes it first."""
    opened = append_opens
    s = session_at(tmp_path)
    events = []
    for _ in range(3 * LOG_KEEP // 2):  # past two renames of l to m
        events += keep(s, [2], start=len(events))
        assert session_at(tmp_path).kept_log() == events[-LOG_KEEP:]
    renames = len(events) // LOG_KEEP - (len(events) % LOG_KEEP == 0)
    assert len(opened) == 1 + renames, (len(opened), renames)
