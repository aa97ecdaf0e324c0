"""What every screen is told besides the question: who answered for whom, the result of a
game that ended (before "Another game?"), a board that stopped answering, and the one
question of an unfinished game met by `crib serve` with other names."""

import re

from starlette.testclient import TestClient
from tablescript import rows
from webtools import KEY, Unplugged, make_hub, seat, state

from crib.web.app import create_app


def answer(client, text, who, **extra):
    q = state(client)["question"]
    return client.post("/api/answer", json={"question": q["id"], "answer": text, **who,
                                            **extra})


def test_every_screen_says_who_answered_for_whom(client):
    alice = seat(client, 0)
    answer(client, "5h", alice)
    assert answer(client, "7", alice, **{"for": True}).status_code == 200
    s = state(client)
    assert s["answered"] == {"by": "Alice", "for": "Bob", "text": "Alice answered for Bob: 7"}
    assert [e["text"] for e in s["log"] if e["kind"] == "note"][-1] == s["answered"]["text"]
    got = rows(client.db, "SELECT player, answered_by FROM entries WHERE kind = 'lay'")
    assert got == [{"player": 1, "answered_by": 0}]
    assert answer(client, "8", alice).status_code == 200  # her own turn, her own card
    assert state(client)["answered"] is None


def test_the_shared_screen_answers_as_the_table_not_for_a_player(client):
    table = seat(client, "table")
    answer(client, "5h", table)
    assert answer(client, "7", table).status_code == 200
    assert state(client)["answered"] is None
    got = rows(client.db, "SELECT answered_by FROM entries WHERE kind = 'lay'")
    assert got == [{"answered_by": None}]


def test_game_over_leads_with_the_result_before_another_game(db):
    app = create_app(make_hub(db, target=5), KEY, "http://x/?k=" + KEY, poll=False)
    with TestClient(app, headers={"X-Crib-Key": KEY}) as c:
        table = seat(c, "table")
        for card in ("5h", "5", "5", "5"):  # Bob 5, Alice a pair (2), Bob a pair royal: out at 5
            assert answer(c, card, table).status_code == 200
        s = state(c)
        assert s["question"]["kind"] == "another"
        assert s["view"]["result"] == {"winner": "Bob", "scores": [["Bob", 5], ["Alice", 2]],
                                       "skunk": "", "text": "Bob wins, 5 to Alice 2"}


def test_the_state_says_the_board_is_offline_while_it_is(db):
    board = Unplugged(4)
    app = create_app(make_hub(db, board=board), KEY, "http://x/?k=" + KEY, poll=False)
    with TestClient(app, headers={"X-Crib-Key": KEY}) as c:
        table = seat(c, "table")
        answer(c, "5h", table)
        assert state(c)["view"]["offline"] is False
        board.down = True
        answer(c, "7", table)
        assert answer(c, "8", table).status_code == 200  # fifteen: the peg waits
        s = state(c)
        assert s["view"]["offline"] is True and s["view"]["scores"] == [2, 0]
        assert any("board offline" in e["text"] for e in s["log"])


def test_serve_with_other_names_asks_one_question_in_plain_words(db):
    first = make_hub(db)
    app = create_app(first, KEY, "http://x/?k=" + KEY, poll=False)
    with TestClient(app, headers={"X-Crib-Key": KEY}) as c:
        answer(c, "5h", seat(c, "table"))  # Alice v Bob left unfinished
    first.stop()
    app = create_app(make_hub(db, names=["Carol", "Dan"]), KEY, "http://x/?k=" + KEY,
                     poll=False)
    with TestClient(app, headers={"X-Crib-Key": KEY}) as c:
        q = state(c)["question"]
        assert q["kind"] == "resume" and q["legal"]["choices"] == ["y", "n", "later"]
        assert q["legal"]["labels"]["n"] == "New game: Carol v Dan"
        assert re.search(r"started (today|yesterday) \d\d:\d\d\. Go on with it", q["prompt"])
        assert re.search(r"\d\d\d\d-\d\d-\d\dT", q["prompt"]) is None
        table = seat(c, "table")
        assert answer(c, "n", table).status_code == 200
        s = state(c)
        assert s["view"]["names"] == ["Carol", "Dan"] and s["question"]["kind"] == "starter"
    games = rows(db, "SELECT abandoned FROM games ORDER BY id")
    assert games == [{"abandoned": 1}, {"abandoned": 0}]
