"""cribcore.table.room: the table as every screen sees it, one call per request (plain
asserts: these run on CPython and under MicroPython with a capped heap,
tests/test_micropython.py)."""

import gc
import json

from tablegame import NAMES, Lcg, choose, engine_for

from cribcore.table.patch import patched
from cribcore.table.room import LOG_KEEP, Room
from cribcore.table.seats import TABLE, Refused


def _room(players=2, mode="cards", options=None, since=True):
    room = Room(engine_for(players, mode, options=options), "r1", {"board_rev": None},
                since=since)
    room.start()
    return room


def _refused(fn, status):
    try:
        fn()
    except Refused as e:
        assert e.status == status, (e.status, e.message)
        assert e.message
        return e
    raise AssertionError("not refused")


def _answer(room, rng, seat=TABLE):
    q = room.question
    return room.act("answer", {"question": q["id"], "answer": choose(q, rng, "cards")}, seat)


def test_the_state_is_built_once_with_the_question_without_known():
    room = _room()
    s = room.state
    assert s["version"] == 1 and room.version == 1 and s["run"] == "r1"
    assert s["question"]["id"] == room.question["id"] and "known" not in s["question"]
    assert s["view"]["names"] == list(NAMES[:2]) == room.names()
    assert s["board_rev"] is None and s["over"] is False
    assert json.loads(room.text()) == s


def test_a_whole_game_of_answers_numbers_every_event_once():
    room = _room()
    rng = Lcg(3)
    first = room.seq  # what the start said
    seqs = []
    while room.question is not None and room.question["kind"] != "another" \
            and len(seqs) < 2000:
        version = room.version
        out = _answer(room, rng)
        assert out.changed and out.version == version + 1 == room.state["version"]
        assert out.question == room.question and out.view == room.view
        assert len(out.raw) == len(out.events)
        seqs += [ev["seq"] for ev in out.events]
        assert len(room.state["log"]) <= LOG_KEEP
    assert room.question["kind"] == "another", "the game did not end"
    assert seqs == list(range(first + 1, first + len(seqs) + 1)) and room.seq == seqs[-1]
    assert room.state["log"] == room.log() and room.log()[-1]["seq"] == room.seq
    assert len(room.since(room.seq - 3)) == 3
    assert room.view["over"] and max(room.view["scores"]) == 61


def test_a_room_keeps_the_engines_events_only_when_asked():
    # the board's room (since=False) keeps no second copy of its log: since() says so
    room = _room(since=False)
    rng = Lcg(3)
    for _ in range(30):
        out = _answer(room, rng)
        assert len(out.raw) == len(out.events)
    assert room.log() and room.log()[-1]["seq"] == room.seq
    try:
        room.since(0)
    except ValueError:
        pass
    else:
        raise AssertionError("since() answered without the events kept")


def test_the_state_before_leaves_once_its_patch_is_made():
    room = _room()
    rng = Lcg(5)
    for _ in range(12):
        old = json.loads(room.text())
        _answer(room, rng)
        assert room._before is not None  # kept for the patch, until it is made
        text = room.patch_text()
        assert room._before is None and room.patch_text() is text  # made once
        assert patched(old, json.loads(text)) == room.state



def test_a_show_says_whose_it_was():
    room = _room()
    rng = Lcg(8)
    shows = []
    while room.question is not None and not shows and room.seq < 5000:
        asks = room.question["asks"]
        out = _answer(room, rng)
        shows = [ev for ev in out.events if ev["kind"] == "show"]
    assert shows, "no show"
    assert shows[0]["who"] == NAMES[asks], (shows[0], asks)
    assert isinstance(shows[0]["data"]["cards"][0], str)  # by name, plain data


def test_a_stale_or_bad_request_is_refused_and_changes_nothing():
    room = _room()
    before, version = room.text(), room.version
    q = room.question
    _refused(lambda: room.act("answer", {"question": "old", "answer": ""}, TABLE), 409)
    _refused(lambda: room.act("undo", {"question": "old"}, TABLE), 409)
    _refused(lambda: room.act("answer", {"question": q["id"], "answer": "zz zz"}, TABLE),
             422)
    _refused(lambda: room.act("shuffle", {"question": q["id"]}, TABLE), 400)
    assert room.text() == before and room.version == version


def test_only_the_seat_asked_answers_unless_it_says_for():
    room = _room()
    rng = Lcg(5)
    while room.question["asks"] is None:
        _answer(room, rng)
    q = room.question
    other = 1 - q["asks"]
    version = room.version
    e = _refused(lambda: room.act("answer", {"question": q["id"], "answer": "x"}, other), 409)
    assert NAMES[q["asks"]] in e.message and room.version == version
    text = choose(q, rng, "cards")
    out = room.act("answer", {"question": q["id"], "answer": text, "for": True}, other)
    assert out.events[0]["kind"] == "note" and out.events[0]["who"] == NAMES[other]
    assert room.state["answered"]["by"] == NAMES[other]


def test_undo_and_redo_are_one_call_each():
    room = _room()
    rng = Lcg(9)
    while not room.question["undo"]:
        _answer(room, rng)
    _answer(room, rng)
    asked = room.question["prompt"]
    undone = room.act("undo", {"question": room.question["id"]}, 0)
    assert undone.changed and room.state["undone"]["redo"] is True
    redone = room.act("redo", {"question": room.question["id"]}, TABLE)
    assert room.question["prompt"] == asked and room.state["undone"] is None
    assert redone.version == undone.version + 1


def test_the_end_of_the_session_refuses_answers():
    room = _room()
    rng = Lcg(4)
    while room.question is not None and room.seq < 5000:
        q = room.question
        text = "n" if q["kind"] == "another" else choose(q, rng, "cards")
        room.act("answer", {"question": q["id"], "answer": text}, None)
    assert room.state["over"] is True and room.state["question"] is None
    _refused(lambda: room.act("answer", {"question": "x", "answer": "y"}, TABLE), 409)


def test_poll_problem_and_show():
    room = _room()
    version = room.version
    assert room.poll() is None and room.version == version  # no board: no news
    room.problem("board: gone")
    room.show({"board_rev": 2, "lanes": ["red"]})
    assert room.version == version + 1
    assert room.state["board_rev"] == 2 and room.state["log"][-1]["text"] == "board: gone"
    assert room.state["log"][-1]["seq"] == room.seq


def test_the_engine_names_whose_show_it_was():
    engine = engine_for(2, "cards")
    engine.start()
    rng = Lcg(8)
    shows = []
    while not shows:
        q = engine.question().to_dict()
        shows = [ev for ev in engine.answer(q["id"], choose(q, rng, "cards"))
                 if ev.kind == "show"]
    assert shows[0].who == NAMES[q["asks"]], (shows[0], q["asks"])


def _replayed(room, before):
    """The state a screen that had `before` makes of the room's patch: the same JSON."""
    text = room.patch_text()
    assert text is not None, "no patch from version %d" % before["version"]
    p = json.loads(text)
    assert p["base"] == before["version"] and p["version"] == room.version
    return patched(before, p), len(text)


def test_each_version_patched_onto_the_one_before_is_the_state():
    """A screen that has a version and applies the next one's patch has the next state,
    through a whole game (the log full, then trimmed); the patch is a fraction of it."""
    room = _room()
    rng = Lcg(5)
    assert room.patch_text() is None  # the first version: only the whole state
    have = json.loads(room.text())
    sizes = []
    while room.question is not None and room.question["kind"] != "another" \
            and len(sizes) < 2000:
        _answer(room, rng)
        have, size = _replayed(room, have)
        gc.collect()  # (under MicroPython: two whole states at once, in the test's heap)
        assert have == json.loads(room.text())
        sizes.append((size, len(room.text())))
    assert len(room.state["log"]) == LOG_KEEP  # it was trimmed on the way
    late = sizes[len(sizes) // 2:]
    assert sum(p for p, _ in late) * 4 < sum(t for _, t in late), late[:5]
    room.problem("board: gone")  # a log appended outside a request, then a show
    room.show({"board_rev": 2})
    have, _ = _replayed(room, have)
    assert have == json.loads(room.text()) and have["log"][-1]["text"] == "board: gone"
    assert patched(have, {"run": "other", "version": 99, "base": have["version"],
                          "set": {}, "drop": 0, "log": []}) is None



class _LogFails:
    """A session's keeping of the log that runs out of memory (a fragmented heap)."""

    def __init__(self, session):
        self.session = session

    def __getattr__(self, name):
        return getattr(self.session, name)

    def keep_log(self, added, log):
        raise MemoryError("memory allocation failed, allocating 7418 bytes")

    def kept_log(self):
        return None


def test_an_answer_taken_is_not_refused_when_its_log_cannot_be_kept():
    """bench/chip.py's second game on the emulated Pico: the log kept for a restart could
    not be made (MemoryError), and the answer the engine had taken was refused (500)."""
    room = _room()
    rng = Lcg(6)
    engine = room.engine
    engine.session = _LogFails(engine.session)
    seq, version = room.seq, room.version
    out = _answer(room, rng)
    assert out.changed and room.version == version + 1 and room.seq > seq


def test_a_question_as_data_is_every_field_of_it():
    from cribcore.table.questions import QUESTION_FIELDS

    engine = engine_for(2, "cards")
    engine.start()
    q = engine.question()
    d = q.to_dict()
    assert sorted(d) == sorted(QUESTION_FIELDS)
    for k in QUESTION_FIELDS:
        assert d[k] == getattr(q, k), k
    assert d["id"] == engine.question_id() and d["known"] == engine.view()


def test_the_question_asked_is_the_questions_data_without_known():
    """TableEngine.asked(): question(False).to_dict() without `known`, at every question
    of a game (the room's question), and None once the session is over."""
    engine = engine_for(2, "cards")
    engine.start()
    rng = Lcg(5)
    asked = 0
    while asked < 400 and engine.question_id() is not None:
        d = engine.question(False).to_dict()
        del d["known"]
        assert engine.asked() == d
        engine.answer(d["id"], choose(d, rng, "cards"))
        asked += 1
    assert asked > 20
    if engine.question_id() is None:
        assert engine.asked() is None


def test_a_patch_sent_to_every_screen_leaves_the_heap_and_the_next_is_made_as_before():
    """room.sent() (a board's streams all have the version): the patch's text is let go,
    a screen that wants it after gets the whole state (patch_text() None), and the next
    version's patch is made from this state as before."""
    room = _room()
    rng = Lcg(3)
    _answer(room, rng)
    assert room.patch_text() is not None
    room.sent()
    assert room._patch is None and room.patch_text() is None
    have = json.loads(room.text())
    _answer(room, rng)
    text = room.patch_text()
    assert text is not None and patched(have, json.loads(text)) == room.state
    room.sent()
    room.sent()  # again: nothing more to let go
    assert room.patch_text() is None
