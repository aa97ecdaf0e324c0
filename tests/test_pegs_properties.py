"""Properties of the board model: undo restores exactly, dumps/loads round-trips."""

from hypothesis import given
from hypothesis import strategies as st

from crib.deploy.migrate import encode_hist
from cribcore.boardread import _decode_hist
from cribcore.pegs import Board, PegError

jumps = st.lists(st.tuples(st.integers(0, 3), st.integers(1, 40)), max_size=40)
ops = st.lists(st.one_of(
    st.tuples(st.just("peg"), st.integers(0, 3), st.integers(1, 40)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("dealer"), st.integers(-1, 3)),
    st.tuples(st.just("new"), st.sampled_from([None, 5, 61, 121]),
              st.sampled_from([None, 2, 3, 4]), st.booleans()),
), max_size=60)
boards = st.tuples(st.integers(2, 4), st.sampled_from([5, 31, 61, 121, 1000]),
                   st.integers(0, 70))


def position(b):
    """Everything a board holds except its revision counter."""
    body = b.dumps().split("*")[0].split("/")
    return [f for f in body if not f.startswith("r")]


def pegs(b):
    """Peg places, winner and tally (what a bounded history cannot bring back is the rest)."""
    return [(b.back(i), b.front(i)) for i in range(b.players)], b.winner, list(b.wins)


def apply(b, op):
    """Apply one op; refused ones (game over, bad lane, nothing to undo) change nothing."""
    before = b.dumps()
    try:
        if op[0] == "peg":
            b.peg(op[1], op[2])
        elif op[0] == "undo":
            b.undo()
        elif op[0] == "dealer":
            b.set_dealer(op[1])
        else:
            b.new_game(op[1], op[2], op[3])
    except PegError:
        assert b.dumps() == before
        return False
    return True


@given(boards, jumps, jumps)
def test_undo_after_any_pegs_restores_the_state_exactly(shape, prefix, more):
    players, target, _ = shape
    b = Board(players, target, undo_depth=200)
    for lane, n in prefix:
        apply(b, ("peg", lane, n))
    saved = position(b)
    done = [apply(b, ("peg", lane, n)) for lane, n in more].count(True)
    rev = b.rev
    for _ in range(done):
        b.undo()
    assert position(b) == saved
    assert b.rev == rev + done


@given(boards, ops)
def test_invariants_and_round_trip_after_any_ops(shape, seq):
    b = Board(*shape)
    changes = 0
    for op in seq:
        changed_dealer = op[0] == "dealer" and op[1] != b.dealer
        ok = apply(b, op)
        changes += ok and (op[0] != "dealer" or changed_dealer)
        winners = [i for i in range(b.players) if b.front(i) == b.target]
        assert winners == ([b.winner] if b.winner >= 0 else [])
        for i in range(b.players):
            assert 0 <= b.back(i) < b.front(i) <= b.target or b.front(i) == b.back(i) == 0
        assert b.undo_count <= b.undo_depth
        text = b.dumps()
        assert Board.loads(text).dumps() == text
        again = Board.loads(text)  # the history text kept as it goes is the canonical one
        assert again._htext == b._htext and again.undo_count == b.undo_count
        assert encode_hist(b._back, _decode_hist(b, b._htext.encode())) == b._htext
    assert b.rev == changes


@given(boards, jumps)
def test_undo_reaches_back_exactly_undo_depth_jumps(shape, seq):
    players, target, depth = shape
    b = Board(players, target, depth)
    states = [pegs(b)]
    for lane, n in seq:
        if apply(b, ("peg", lane, n)):
            states.append(pegs(b))
    undone = 0
    while b.undo_count:
        b.undo()
        undone += 1
        assert pegs(b) == states[-1 - undone]
    assert undone == min(depth, len(states) - 1)


@given(boards, ops, ops)
def test_a_copy_is_equal_and_independent(shape, seq, more):
    b = Board(*shape)
    for op in seq:
        apply(b, op)
    c = b.copy()
    assert vars(c) == vars(b)  # every attribute: one added to Board must be copied too
    before = b.dumps()
    for op in more:
        apply(c, op)
    assert b.dumps() == before  # changing the copy leaves the original alone
    assert c.dumps() == Board.loads(c.dumps()).dumps()
