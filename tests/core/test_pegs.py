"""cribcore.pegs: the board model (plain asserts, CPython and MicroPython)."""

from cribcore.pegs import MAX_LANES, Board, PegError, checksum, crc


def refused(fn, code):
    """True when fn() raises PegError with this code."""
    try:
        fn()
    except PegError as e:
        return e.code == code
    return False


def pegs(b):
    return [(b.back(i), b.front(i)) for i in range(b.players)]


def test_fresh_board():
    b = Board()
    assert (b.players, b.target, b.undo_depth) == (2, 121, 64)
    assert pegs(b) == [(0, 0), (0, 0)]
    assert (b.dealer, b.winner, b.rev, b.undo_count) == (-1, -1, 0, 0)
    assert b.wins == [0] * MAX_LANES


def test_leapfrog_back_peg_jumps_past_front():
    b = Board(players=3)
    assert b.peg(1, 8) is False
    assert pegs(b)[1] == (0, 8)
    b.peg(1, 6)
    assert pegs(b)[1] == (8, 14)
    b.peg(1, 1)
    assert pegs(b) == [(0, 0), (14, 15), (0, 0)]
    assert b.score(1) == 15 and b.rev == 3 and b.undo_count == 3


def test_jump_stops_at_target_and_wins():
    b = Board(target=61)
    b.peg(0, 29)
    b.peg(0, 29)
    b.peg(1, 10)
    assert b.peg(0, 24) is True
    assert pegs(b)[0] == (58, 61)
    assert b.winner == 0 and b.wins == [1, 0, 0, 0]
    assert refused(lambda: b.peg(1, 2), "game_over")
    assert pegs(b)[1] == (0, 10) and b.rev == 4


def test_exact_target_wins():
    b = Board(target=5)
    assert b.peg(1, 5) is True and b.winner == 1 and b.front(1) == 5


def test_skunk_levels_after_a_win():
    rows = [(121, 91, 0), (121, 90, 1), (121, 61, 1), (121, 60, 2), (61, 31, 0), (61, 30, 1),
            (61, 0, 1)]
    for target, loser, level in rows:
        b = Board(target=target)
        if loser:
            b.peg(1, loser)
        assert b.skunk(1) == 0  # nobody has won yet
        b.peg(0, target)
        assert b.skunk(1) == level, (target, loser)
        assert b.skunk(0) == 0


def test_undo_restores_each_jump_in_turn():
    b = Board(players=4)
    moves = [(0, 5), (1, 7), (0, 3), (3, 12), (2, 1), (0, 9)]
    seen = []
    for lane, n in moves:
        seen.append(pegs(b))
        b.peg(lane, n)
    for lane, _ in reversed(moves):
        assert b.undo() == lane
        assert pegs(b) == seen.pop()
    assert refused(b.undo, "no_undo")
    assert b.rev == 2 * len(moves)


def test_undo_a_win_takes_back_the_tally():
    b = Board(target=10)
    b.peg(1, 4)
    b.peg(1, 20)
    assert b.winner == 1 and b.wins[1] == 1 and pegs(b)[1] == (4, 10)
    assert b.undo() == 1
    assert b.winner == -1 and b.wins[1] == 0 and pegs(b)[1] == (0, 4)
    b.peg(0, 10)
    assert b.winner == 0 and b.wins == [1, 0, 0, 0]


def test_undo_depth_bounds_history():
    b = Board(undo_depth=3)
    for n in range(1, 6):
        b.peg(0, n)
    assert b.undo_count == 3
    for _ in range(3):
        b.undo()
    assert pegs(b)[0] == (1, 3)
    assert refused(b.undo, "no_undo")
    b0 = Board(undo_depth=0)
    b0.peg(0, 3)
    assert refused(b0.undo, "no_undo") and b0.front(0) == 3


def test_tally_kept_across_games_and_cleared_for_a_new_match():
    b = Board(players=3, target=5)
    b.peg(2, 5)
    b.new_game()
    assert pegs(b) == [(0, 0)] * 3 and b.winner == -1 and b.undo_count == 0
    b.peg(2, 9)
    b.new_game(target=61)
    assert b.wins == [0, 0, 2, 0] and b.target == 61
    b.new_game(match=True)
    assert b.wins == [0] * 4
    b.peg(0, 61)
    b.new_game(players=2)
    assert b.wins == [0] * 4 and b.players == 2


def test_new_game_resets_dealer_and_bumps_rev():
    b = Board()
    b.set_dealer(1)
    rev = b.rev
    b.new_game(players=4, target=121)
    assert b.dealer == -1 and b.rev == rev + 1 and b.players == 4


def test_dealer():
    b = Board(players=3)
    assert b.set_dealer(2) is True and b.dealer == 2 and b.rev == 1
    assert b.set_dealer(2) is False and b.rev == 1
    assert b.set_dealer(-1) is True and b.dealer == -1
    for bad in (3, -2, "1", True):
        assert refused(lambda bad=bad: b.set_dealer(bad), "bad_lane"), bad
    assert b.dealer == -1 and b.rev == 2


def test_bad_arguments_change_nothing():
    b = Board(players=3)
    b.peg(0, 4)
    before = b.dumps()
    for lane, n, code in [(3, 1, "bad_lane"), (-1, 1, "bad_lane"), ("0", 1, "bad_lane"),
                          (True, 1, "bad_lane"), (0, 0, "bad_value"), (0, -3, "bad_value"),
                          (0, 1001, "bad_value"), (0, 2.0, "bad_value"), (0, None, "bad_value")]:
        assert refused(lambda lane=lane, n=n: b.peg(lane, n), code), (lane, n)
    for lane in (3, 4, -1):
        assert refused(lambda lane=lane: b.front(lane), "bad_lane")
        assert refused(lambda lane=lane: b.skunk(lane), "bad_lane")
    for kw in ({"target": 0}, {"target": 1001}, {"players": 1}, {"players": 5},
               {"target": "61"}):
        assert refused(lambda kw=kw: b.new_game(**kw), "bad_value"), kw
    assert b.dumps() == before
    for args in [(1,), (5,), (2, 0), (2, 121, -1), (2, 121, 1001)]:
        assert refused(lambda args=args: Board(*args), "bad_value"), args


def played():
    b = Board(players=3, target=61, undo_depth=5)
    b.set_dealer(1)
    for lane, n in [(0, 5), (1, 12), (2, 3), (0, 29), (1, 2), (2, 8), (0, 40)]:
        b.peg(lane, n)
    return b


def test_dumps_round_trip():
    for b in (Board(), Board(players=4, target=1000, undo_depth=0), played()):
        text = b.dumps()
        c = Board.loads(text)
        assert c.dumps() == text and pegs(c) == pegs(b)
        assert (c.winner, c.wins, c.rev, c.dealer) == (b.winner, b.wins, b.rev, b.dealer)
        assert " " not in text and "\n" not in text
    c = Board.loads(played().dumps())
    assert c.winner == 0 and c.undo() == 0 and c.wins[0] == 0
    assert eval(repr(c), {"Board": Board}).dumps() == c.dumps()


def test_a_framed_text_may_leave_out_its_checksum_and_only_a_framed_one():
    """dumps(check=False) is for a file that checks its own bytes (the store's slots):
    loads(framed=True) takes it, and still checks a checksum that is there; unframed, a
    text without one is refused as before."""
    for b in (Board(), played()):
        body = b.dumps(check=False)
        assert "*" not in body and b.dumps() == body + "*" + crc(body)
        assert Board.loads(body, framed=True).dumps() == b.dumps()
        assert Board.loads(b.dumps(), framed=True).dumps() == b.dumps()
        assert refused(lambda body=body: Board.loads(body), "bad_board")
        assert refused(lambda body=body: Board.loads(body + "*00000000", framed=True),
                       "bad_board")


def test_loads_rejects_every_truncation():
    text = played().dumps()
    for i in range(len(text)):
        assert refused(lambda i=i: Board.loads(text[:i]), "bad_board"), i


def test_loads_rejects_every_one_character_change():
    text = played().dumps()
    for i in range(len(text)):
        for ch in "0 9-,/*x":
            if ch != text[i]:
                bad = text[:i] + ch + text[i + 1:]
                assert refused(lambda bad=bad: Board.loads(bad), "bad_board"), bad


def resigned(body):
    """A board text with a valid checksum around any body: tests the consistency checks."""
    return body + "*" + crc(body)


def test_loads_rejects_inconsistent_texts_with_a_valid_checksum():
    good = "v2/t61/n2/d-1/r3/w0,0,0,0/f5,7/b0,4/u64/h01h"
    assert Board.loads(resigned(good)).front(1) == 7
    bad = [
        "v3/t61/n2/d-1/r3/w0,0,0,0/f5,7/b0,4/u64/h01h",   # format
        "v2/t61/n5/d-1/r3/w0,0,0,0/f5,7/b0,4/u64/h01h",   # players
        "v2/t61/n2/d2/r3/w0,0,0,0/f5,7/b0,4/u64/h01h",    # dealer
        "v2/t61/n2/d-1/r-3/w0,0,0,0/f5,7/b0,4/u64/h01h",  # rev
        "v2/t61/n2/d-1/r3/w0,0,0/f5,7/b0,4/u64/h01h",     # tally length
        "v2/t61/n2/d-1/r3/w0,0,-1,0/f5,7/b0,4/u64/h01h",  # tally sign
        "v2/t61/n2/d-1/r3/w0,0,0,0/f5,7,0/b0,4/u64/h01h",  # lanes
        "v2/t61/n2/d-1/r3/w0,0,0,0/f5,7/b5,4/u64/h01h",   # back == front
        "v2/t61/n2/d-1/r3/w0,0,0,0/f5,62/b0,4/u64/h01h",  # past target
        "v2/t61/n2/d-1/r3/w0,0,0,0/f61,61/b1,4/u64/h",     # two winners
        "v2/t61/n2/d-1/r3/w0,0,0,0/f61,7/b1,4/u64/h",      # winner without tally
        "v2/t61/n2/d-1/r3/w1,0,0,0/f61,7/b1,4/u64/h4h",    # jump after the win
        "v2/t61/n2/d-1/r3/w0,0,0,0/f5,7/b0,4/u2/h01h",    # history over depth
        "v2/t61/n2/d-1/r3/w0,0,0,0/f5,7/b0,4/u64/h03h",   # history lane
        "v2/t61/n2/d-1/r3/w0,0,0,0/f5,7/b0,4/u64/h01h0",  # undo into a bad place
        "v2/t61/n2/d-1/r03/w0,0,0,0/f5,7/b0,4/u64/h01h",  # not canonical
        "v2/t61/n2/d-1/r+3/w0,0,0,0/f5,7/b0,4/u64/h01h",
        "v2/t61/n2/d-1/x3/w0,0,0,0/f5,7/b0,4/u64/h01h",   # field letter
        "v2/t61/n2/d-1/r3/w0,0,0,0/f5,7/b0,4/u64",         # field missing
        "v2/t61/n2/d-1/r3/w0,0,0,0/f5,7/b0,4/u64/h01h/z",
    ]
    for body in bad:
        assert refused(lambda body=body: Board.loads(resigned(body)), "bad_board"), body
        assert refused(lambda body=body: Board.loads(body, framed=True), "bad_board"), body
    for junk in (None, 5, b"v2", "", "*", "v2*1"):
        assert refused(lambda junk=junk: Board.loads(junk), "bad_board"), junk


def test_the_earlier_firmwares_v1_text_is_not_read():
    """v1 (Adler-32, the history as numbers): `crib deploy` converts it on the host
    (crib.deploy.migrate); the firmware reads today's format only."""
    v1 = "v1/t61/n2/d-1/r3/w0,0,0,0/f5,7/b0,4/u64/h0,1,1"
    assert refused(lambda: Board.loads(v1 + "*" + checksum(v1)), "bad_board")
    assert refused(lambda: Board.loads(v1 + "*" + crc(v1)), "bad_board")


def test_v2_is_checked_with_crc32_and_keeps_a_small_jump_to_one_character():
    assert crc("123456789") == "cbf43926"  # the CRC-32 check value
    b = Board(players=3, target=121, undo_depth=64)
    for i in range(80):
        b.peg(i % 3, 1 + i % 7)
    body, _, check = b.dumps().partition("*")
    assert check == crc(body)
    assert len(body.split("/h")[1]) == 64  # 64 jumps of 1..7 points: a character each
    b.peg(0, 1000)
    assert Board.loads(b.dumps()).dumps() == b.dumps()


def test_loads_rejects_bad_v2_histories_with_a_valid_checksum():
    good = "v2/t61/n2/d-1/r3/w0,0,0,0/f5,7/b0,4/u64/h01h"  # v1's h0,1,1
    b = Board.loads(good + "*" + crc(good))
    assert b.undo_count == 3 and pegs(b) == [(0, 5), (4, 7)]
    assert [b.undo() for _ in range(3)] == [1, 1, 0] and pegs(b) == [(0, 0), (0, 0)]
    for h in ("01i",  # lane 2 of 2
              "01l",  # undoing past the start hole
              "01A",  # ends inside an entry
              "01Ah",  # a leading zero digit: not canonical
              "01,h", "01 h", "01w"):  # not v2 digits
        body = good[:-3] + h
        assert refused(lambda body=body: Board.loads(body + "*" + crc(body)), "bad_board"), h
    v1 = good.replace("v2/", "v1/")
    assert refused(lambda: Board.loads(v1 + "*" + checksum(v1)), "bad_board")  # v2 digits
    assert refused(lambda: Board.loads(good + "*" + checksum(good)), "bad_board")  # Adler


def test_checksum_is_adler32():
    assert checksum("") == "00000001"
    assert checksum("Wikipedia") == "11e60398"  # the worked example of Adler-32


def test_checksum_of_lines_is_the_checksum_of_their_text():
    lines = ["board x", "", "set a=1"]
    assert checksum(lines) == checksum("board x\n\nset a=1")
    assert checksum([]) == checksum("") and checksum(["a"]) == checksum("a")
