"""What the tests of both servers share: an HTTP client with the key, the state, seats,
and the people at the table answering (tests/web/webtools.Players) from the state's
question."""

import json
import time

import httpx2 as httpx
from webtools import KEY, NAMES, Players  # noqa: F401  (NAMES: the players of both)

HEADERS = {"X-Crib-Key": KEY}


def client(server, key=True):
    """An HTTP client of the server (the key as a header unless key is False)."""
    return httpx.Client(base_url=server.url, headers=HEADERS if key else {}, timeout=20)


def state(c):
    """The state a screen gets now (GET /state)."""
    r = c.get("/state")
    assert r.status_code == 200, r.text
    return r.json()


def polled(get, test, what, tries=600):
    """get() polled until test(state) holds (a change the server has taken but not yet
    published, a description read after the first frame); AssertionError after tries."""
    for _ in range(tries):
        s = get()
        if test(s):
            return s
        time.sleep(0.05)
    raise AssertionError("%s never came: %r" % (what, s))


def seat(c, n):
    """Join as seat n: the fields a request then carries."""
    r = c.post("/api/join", json={"seat": n})
    assert r.status_code == 200 and r.json()["ok"], r.text
    return {"seat": n, "token": r.json()["token"]}


def refused(r, status, words=""):
    """r is a refusal with this status, saying words."""
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert body["ok"] is False and words in body["error"], body


class Q:
    """A question from the state as the reference players read it."""

    def __init__(self, d):
        self.__dict__.update(d)


class Table:
    """The people at the table, answering the server's questions from a reference game
    (one per server and module: every answer of the module goes through it)."""

    def __init__(self, c, target=121, seed=11):
        self.c = c
        self.players = Players(2, target, False, seed=seed)
        self.seats = [seat(c, 0), seat(c, 1)]
        self.table = seat(c, "table")

    def who(self, q):
        """The seat that answers q: the one asked, or the shared screen."""
        return self.table if q["asks"] is None else self.seats[q["asks"]]

    def answer(self):
        """Answer the open question as the players would; the response."""
        q = state(self.c)["question"]
        text = self.players.answer(Q(q))
        body = {"question": q["id"], "answer": text, **self.who(q)}
        return self.c.post("/api/answer", json=body)

    def until(self, test, limit=400):
        """Answer until test(question) holds; that state."""
        for _ in range(limit):
            s = state(self.c)
            if test(s["question"]):
                return s
            r = self.answer()
            assert r.status_code == 200, r.text
        raise AssertionError("never reached")


def next_state(lines):
    """The next state on an event stream (heartbeat comments skipped)."""
    for line in lines:
        if line.startswith("data: "):
            return json.loads(line[6:])
    raise AssertionError("the event stream ended")
