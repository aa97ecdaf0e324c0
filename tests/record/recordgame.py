"""Whole games on the board's game record (pegboard.gamelog over tests/record/memfiles),
scripted with the core table tests' answers (tests/core_table/tablegame.py): plain Python
for CPython and MicroPython.

    ref = reference(players=2, target=61, seed=3)  # the answers and what each left
    engine = boot(files)                          # the board after a (re)start: resumes
"""

import gc
import sys

if hasattr(gc, "threshold"):
    gc.threshold(4096)  # MicroPython: collect often, as the firmware does (desk.py)
_here = __file__.rpartition("/")[0] or "."
sys.path.append(_here + "/../core_table")

from memfiles import MemFiles  # noqa: E402
from tablegame import NAMES, Lcg, choose  # noqa: E402

from cribcore.boardtext import crc  # noqa: E402
from cribcore.table.engine import TableEngine  # noqa: E402
from cribcore.table.questions import Events  # noqa: E402
from cribcore.table.record import NoBoard  # noqa: E402
from cribcore.table.session import Setup  # noqa: E402
from pegboard.gamelog import GameLog  # noqa: E402
from pegboard.recordsession import RecordSession  # noqa: E402

PATH = "rec"


def boot(files, players=2, target=61, budget=None, mode="cards", kept=False):
    """The engine a board starts after a power-up: the game in play resumed, else a new
    match set up from the script's setup. kept: the board server's session
    (boardweb.resume.KeptSession: the answers that wrote no line kept on flash too, and
    given again after a restart)."""
    log = GameLog(PATH, files, token="0badf00d") if budget is None else \
        GameLog(PATH, files, budget, token="0badf00d")
    log.open()
    kind = RecordSession
    if kept:
        if _here + "/../../firmware" not in sys.path:
            sys.path.append(_here + "/../../firmware")  # boardweb: no installed package
        from boardweb.resume import KeptSession as kind
    session = kind(log, NoBoard(), Events(), {"ranks": False, "totals": mode == "totals"})
    engine = TableEngine(session, Setup(list(NAMES[:players]), players == 4, target, "cut"))
    engine.start()
    return engine


def state(engine):
    """What a question and the table show (its id left out: it changes with a restart), as
    (its kind, the game's number, a CRC of the rest): a small heap keeps one a question."""
    q = engine.question()
    if q is None:
        return None
    d = q.to_dict()
    view = engine.view()
    return (d["kind"], view["game"],
            crc(repr((d["prompt"], d.get("asks"), sorted_repr(d.get("legal")),
                      sorted_repr(view)))))


def sorted_repr(data):
    """repr with dict keys sorted, all the way down (MicroPython's dicts keep no order)."""
    if type(data) is dict:
        return "{" + ", ".join([repr(k) + ": " + sorted_repr(data[k]) for k in sorted(data)]) + "}"
    if type(data) in (list, tuple):
        return "[" + ", ".join([sorted_repr(v) for v in data]) + "]"
    return repr(data)


def answer_for(engine, rng, games_left):
    q = engine.question()
    d = q.to_dict()
    if d["kind"] == "another":
        return "y" if games_left > 1 else "n"
    return choose(d, rng, "cards")


def reference(players=2, target=61, seed=3, games=1, files=None, budget=None, settled=False,
              kept=False, stop=None, replied=None):
    """Play the scripted games: (answers, states before each answer and after the last,
    the files (their `history`: every flash operation), the operation count after the
    boot and after each answer). settled: the record's settle() after each answer, as
    the board's server calls it after each reply (its operations are the answer's);
    kept: boot()'s; stop: the answers played at most; replied: a list given the
    operation count at each answer's reply (before its settle())."""
    files = files or MemFiles()
    files.history = []
    engine = boot(files, players, target, budget, kept=kept)
    rng = Lcg(seed)
    answers, states, ops = [], [state(engine)], [files.ops]
    left = games
    while engine.question() is not None and len(answers) != stop:
        text = answer_for(engine, rng, left)
        if engine.question().kind == "another":
            left -= 1
        engine.answer(engine.question().id, text)
        if replied is not None:
            replied.append(files.ops)
        if settled:
            engine.session.log.settle()
        answers.append(text)
        states.append(state(engine))
        ops.append(files.ops)
    return answers, states, files, ops
