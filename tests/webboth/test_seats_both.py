"""A seat is held by one phone, on both servers: a held seat is offered as taken (in
/join.json), joining it needs `take: true` (409 without), the earlier phone's token then
stops working ("your seat moved to another phone") and the new one works; the phone that
holds a seat joins it again with its token; the shared screen is never held."""

from both import client, seat

from cribcore.table.seats import MOVED


def undo(c, fields):
    """An undo of a question that is not open, from a seat: 409 once the seat is checked
    (nothing changes either way), 403 when the seat is refused."""
    return c.post("/api/undo", json={"question": "not-open", **fields})


def test_a_held_seat_is_taken_only_on_purpose_and_the_earlier_phone_is_told(server):
    with client(server) as alice, client(server) as third:
        mine = seat(alice, 0)
        assert alice.get("/join.json").json()["taken"] == [0]
        r = third.post("/api/join", json={"seat": 0})
        assert r.status_code == 409 and "Alice's seat is held by another phone" in \
            r.json()["error"], r.text
        assert undo(alice, mine).status_code == 409  # still Alice's phone's seat
        r = third.post("/api/join", json={"seat": 0, "take": True})
        assert r.status_code == 200, r.text
        theirs = {"seat": 0, "token": r.json()["token"]}
        assert theirs["token"] != mine["token"]
        r = undo(alice, mine)
        assert r.status_code == 403 and r.json()["error"] == MOVED, r.text
        assert undo(third, theirs).status_code == 409  # the new phone's token works
        # The earlier phone with its old token cannot simply join again: it must take it.
        r = alice.post("/api/join", json={"seat": 0, "token": mine["token"]})
        assert r.status_code == 409, r.text
        r = third.post("/api/join", json={"seat": 0, "token": theirs["token"]})
        assert r.status_code == 200 and r.json()["token"] == theirs["token"]


def test_the_shared_screen_is_never_held(server):
    with client(server) as a, client(server) as b:
        assert seat(a, "table") == seat(b, "table")
        assert "table" not in a.get("/join.json").json()["taken"]
