"""Undo and redo spam on the board's own server (issue 35.6), under MicroPython's unix
port with its record in a store folder: a phone takes back many answers (across a
hand's end), answers again (a new branch: redo then has nothing to put back, said), puts
back what one undo took; round after round the live heap and the state a screen is sent
stay where they were (the log is kept to its last events, the undo trail bounded)."""

import copy
import json

import httpx2 as httpx
from both import HEADERS, KEY, NAMES, Table, refused, state

from crib.web.unixboard import UnixBoard

DEEP = 12  # undos in a row: more than a hand's play
SLACK = 24 * 1024  # bytes the live heap may move by (the heap is not compacted)


def where(s):
    """A question as undo leaves it: taken back, it reads the same (its id is new)."""
    q, v = s["question"], s["view"]
    return json.dumps([q["kind"], q["prompt"], q["asks"], v["hand"], v["scores"]],
                      sort_keys=True)


def test_undo_and_redo_spam_grows_neither_the_heap_nor_the_state(tmp_path):
    with UnixBoard(KEY, names=NAMES, dealer=0, store=str(tmp_path)) as url, \
            httpx.Client(base_url=url, headers=HEADERS, timeout=60) as c:
        table = Table(c)
        players = {}  # where -> the reference players before its answer

        def answer():
            s = state(c)
            players.setdefault(where(s), copy.deepcopy(table.players))
            assert table.answer().status_code == 200

        def back(n):
            for _ in range(n):
                q = state(c)["question"]
                assert c.post("/api/undo", json={"question": q["id"], **table.table}) \
                    .status_code == 200
            table.players = copy.deepcopy(players[where(state(c))])

        def measure():
            return c.get("/test/heap").json()["live"], len(c.get("/state").content)

        for _ in range(2 * DEEP):
            answer()
        figures = []
        for _ in range(6):
            back(DEEP)
            for _ in range(DEEP):
                answer()  # answered again: a new branch
            q = state(c)["question"]
            refused(c.post("/api/redo", json={"question": q["id"], **table.table}), 422,
                    "nothing to put back")
            ahead = copy.deepcopy(table.players)
            back(1)
            s = state(c)
            assert s["undone"]["redo"]
            assert c.post("/api/redo", json={"question": s["question"]["id"],
                                             **table.table}).status_code == 200
            table.players = ahead  # put back as it was
            answer()  # the game goes on a little each round
            figures.append(measure())
        live, size = zip(*figures)
        assert max(live[1:]) - live[1] < SLACK, figures
        assert max(size) < 12 * 1024, figures
