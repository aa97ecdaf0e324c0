"""A whole 2-player game over HTTP against both servers: every answer posted by the seat
asked (the confirmations, which ask no one, by the shared screen), the scores those of the
reference game; on the board's own server, the firmware's pegs (the LEDs it lights) follow
the game after every peg, and the lane asked to play pulses."""

import time

from both import Q, Table, client, state

TARGET = 61  # a whole game, in half the answers of 121


def test_a_whole_game_by_http(server):
    with client(server) as c:
        table = Table(c, TARGET)
        posted = pegged = 0
        before = None
        while True:
            s = state(c)
            q = s["question"]
            if server.kind == "board":  # the board as the last answer left it
                pegs = s["view"]["pegs"]
                lit = c.get("/test/board").json()
                assert lit["pegs"] == pegs, (q, lit, s["view"])
                pegged += before is not None and pegs != before
                if q and q["kind"] == "play" and not s["view"]["over"]:
                    assert lit["turn"] == q["asks"], (q, lit)
                before = pegs
            if q is None or q["kind"] == "another":
                break
            r = c.post("/api/answer", json={"question": q["id"], **table.who(q),
                                            "answer": table.players.answer(Q(q))})
            assert r.status_code == 200, r.text
            posted += 1
        g = table.players.g
        assert g.over and s["view"]["over"] and s["view"]["scores"] == list(g.scores)
        assert max(g.scores) >= TARGET and posted > 25
        assert any(e["kind"] == "over" for e in s["log"])
        shows = [e for e in s["log"] if e["kind"] == "show"]
        assert shows and all(sum(i["points"] for i in e["data"]["items"]) ==
                             e["data"]["total"] for e in shows)
        if server.kind == "board":
            assert pegged > 10
            lit = settled(c)
            assert lit["pegs"] == s["view"]["pegs"]
            lanes = [(255, 24, 0), (0, 60, 255)]  # config.json's Red and Blue
            for lane, rgb in enumerate(lit["fronts"]):  # each front peg lit in its colour
                assert max(rgb) > 0 and rgb.index(max(rgb)) == lanes[lane].index(255), lit


def settled(c, seconds=120):
    """The board once its pegs have jumped to their holes and the win's chase (3 s, its
    trail crosses every lane) has run, in the winner's blink's lit phase. Waited for as
    long as a loaded machine needs (the chase runs on the board's clock while the test
    polls over HTTP); `seconds` only bounds a board that never settles."""
    end = time.monotonic() + seconds
    while True:
        lit = c.get("/test/board", params={"lit": 1}).json()
        if not lit["animating"] and all(max(rgb) > 0 for rgb in lit["fronts"]):
            return lit
        assert time.monotonic() < end, f"the board never settled in {seconds} s: {lit}"
        time.sleep(0.2)
