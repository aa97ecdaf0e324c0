"""Properties of cribcore.play: random legal known-hand plays and scoring by brute force."""

from hypothesis import given, settings
from hypothesis import strategies as st

from cribcore.play import Play, play_breakdown, score_play


def _value(c):
    return min(c // 4 + 1, 10)


def brute_score(pile):
    """The pegging rules of RULES.md, written plainly from the definitions."""
    if not pile:
        return 0
    ranks = [c // 4 for c in pile]
    total = sum(_value(c) for c in pile)
    points = 2 if total in (15, 31) else 0
    pairs = 0
    for k in range(2, len(pile) + 1):
        if len(set(ranks[-k:])) == 1:
            pairs = k * (k - 1)  # C(k, 2) pairs of 2 points each
    run = 0
    for k in range(3, len(pile) + 1):
        tail = sorted(ranks[-k:])
        if tail == list(range(tail[0], tail[0] + k)):
            run = k
    return points + pairs + run


def _pile(cards):
    """Longest prefix of distinct cards whose count stays at 31 or less."""
    out = []
    for c in cards:
        if sum(_value(x) for x in out) + _value(c) > 31:
            break
        out.append(c)
    return out


# Low ranks, and a narrow band of ranks, make pairs, runs, 15 and 31 common.
_card = st.one_of(
    st.integers(0, 51),
    st.builds(lambda r, s: r * 4 + s, st.integers(0, 5), st.integers(0, 3)),
    st.builds(lambda r, s: r * 4 + s, st.integers(3, 9), st.integers(0, 3)),
)
piles = st.lists(_card, unique=True, max_size=14).map(_pile)


@settings(max_examples=600, deadline=None)
@given(piles)
def test_score_play_matches_brute_force(pile):
    points = score_play(pile)
    assert points >= 0
    assert points == brute_score(pile)
    assert sum(item.points for item in play_breakdown(pile)) == points


def _recompute(actions, players):
    """Points per player from the lays alone: in a known-hand play a series ends exactly when
    the count hit 31 or the next card would pass 31 (nobody could play), and at the end."""
    points = [0] * players
    pile = []
    count = 0
    last = -1
    for kind, p, card in actions:
        if kind != "lay":
            continue
        if count == 31 or count + _value(card) > 31:
            if count < 31:
                points[last] += 1
            pile, count = [], 0
        pile.append(card)
        count += _value(card)
        points[p] += brute_score(pile)
        last = p
    if count < 31:
        points[last] += 1
    return points


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 4), st.integers(0, 3), st.permutations(range(52)), st.data())
def test_random_known_hand_plays(players, dealer, deck, data):
    dealer %= players
    hands = [sorted(deck[4 * i:4 * i + 4]) for i in range(players)]
    p = Play(players, dealer, hands, deck[51])
    last_events = []
    while not p.over and len(p.actions) < 64:
        before = p.state()
        cards = p.playable()
        if cards:
            action = ("lay", data.draw(st.sampled_from(cards)))
            events = p.lay(action[1])
        else:
            action = ("go",)
            events = p.go()
        assert 0 <= p.count <= 31
        assert all(e.points > 0 for e in events)
        if events:
            last_events = events
        # undo restores the exact state, then the action is redone
        after = p.state()
        p.undo()
        assert p.state() == before
        p.lay(action[1]) if action[0] == "lay" else p.go()
        assert p.state() == after
    assert p.over
    laid = sorted(c for cards in p.laid for c in cards)
    assert laid == sorted(c for h in hands for c in h)                # each card exactly once
    assert p.actions[-1][0] == "lay" and last_events[-1].player == p.actions[-1][1]
    assert last_events[-1].points >= 1                                  # the final card scores
    assert p.points == _recompute(p.actions, players)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 4), st.permutations(range(52)), st.data())
def test_undo_any_depth_restores_the_state(players, deck, data):
    hands = [deck[4 * i:4 * i + 4] for i in range(players)]
    p = Play(players, 0, hands)
    states = [p.state()]
    while not p.over and len(states) < 64:
        cards = p.playable()
        p.lay(data.draw(st.sampled_from(cards))) if cards else p.go()
        states.append(p.state())
    depth = data.draw(st.integers(1, len(p.actions)))
    for _ in range(depth):
        p.undo()
    assert p.state() == states[-1 - depth]
