"""cribcore.table.record's Entry and MemoryRecord (plain asserts: these run on CPython and
under MicroPython, tests/test_micropython.py)."""

import gc

from cribcore.table.gamelines import entry_data, entry_of
from cribcore.table.record import Entry, MemoryRecord


def test_an_entry_reads_its_defaults_and_its_id_is_its_seq():
    e = Entry(2, "go")
    assert (e.hand, e.kind, e.player, e.side, e.points, e.reason, e.source, e.args,
            e.info, e.answered_by, e.id, e.seq) == (2, "go", None, None, 0, None, "table",
                                                    (), {}, None, None, None)
    full = Entry(3, "lay", 1, 0, 2, "fifteen", "board", [17], {"card": "5H"}, 0)
    assert (full.player, full.side, full.points, full.reason, full.source, full.args,
            full.info, full.answered_by) == (1, 0, 2, "fifteen", "board", (17,),
                                             {"card": "5H"}, 0)
    rec = MemoryRecord()
    rec.append(e)
    rec.append(full)
    assert (e.id, e.seq, full.id, full.seq) == (1, 1, 2, 2)
    full.id = 7
    assert full.seq == 7


def test_an_entry_takes_the_info_made_for_it_and_owns_its_args():
    # the info dict given is the entry's own from then on (s9: no copy an answer; every
    # caller makes one for it), its args a tuple of their own (a tuple given is kept)
    info, args = {"card": "5H"}, [17]
    e = Entry(1, "lay", 0, args=args, info=info)
    assert e.info is info  # fails before: a copy made an entry
    args.append(3)
    assert e.args == (17,)
    held = (17, 3)
    assert Entry(1, "lay", 0, args=held).args is held
    assert Entry(1, "go").info is not Entry(1, "go").info  # each its own, even empty
    assert Entry(1, "go", info={}).info == {}


def test_an_entry_round_trips_through_its_line():
    for e in (Entry(2, "go"), Entry(3, "lay", 1, 0, 2, "fifteen", "board", [17],
                                     {"card": "5H", "lent": False}, 0)):
        back = entry_of(entry_data(e), 9)
        assert entry_data(back) == entry_data(e) and back.id == back.seq == 9


def test_an_entry_at_its_defaults_is_small():
    # the defaults stay on the class: an entry that sets few fields takes less heap
    # (MicroPython: no __slots__, each attribute set grows the instance's own table)
    assert sorted(Entry(1, "go", 0).__dict__) == ["hand", "info", "kind", "player"]
    if not hasattr(gc, "mem_alloc"):
        return  # CPython: no heap to measure; MicroPython's below
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        few = [Entry(1, "go", 0) for _ in range(20)]
        b = gc.mem_alloc()
        many = [Entry(1, "peg", 0, 1, 2, "go", "board", [1], {"x": 1}, 1) for _ in range(20)]
        c = gc.mem_alloc()
    finally:
        gc.enable()
    assert len(few) == len(many) == 20
    assert (b - a) * 3 < (c - b) * 2, (b - a, c - b)
