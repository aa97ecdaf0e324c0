"""crib.analysis.pegging: the rank simulator against cribcore.play.Play, the greedy policy,
and the shipped pegging table recomputed exactly for a sample of hands."""

import itertools
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from crib.analysis import pegging, pegging_multi
from crib.analysis.pegging import (
    KEEP_SCALE,
    REPLY_CARDS,
    TABLE_HANDS,
    TABLE_POLICY,
    dealt_ways,
    defensive,
    expected_pegging,
    greedy,
    hand_totals,
    keep_weights,
    lay_rank,
    lookahead,
    multisets4,
    pile_points,
    play_out,
    read_keeps,
    reply_risk,
    row_net,
    row_values,
)
from cribcore.play import Play, score_play


def core_play(hands, choose, sees=False):
    """Points of each player when all lay choose(fits ranks, pile ranks, count) through
    cribcore.play.Play (the reference): the last player deals, player 0 leads. sees (two
    players): choose also gets the player's ranks, the other's cards left and its go."""
    p = Play(len(hands), dealer=len(hands) - 1, hands=[list(h) for h in hands])
    while not p.over:
        fits = p.playable()
        if not fits:
            p.go()
            continue
        args = [sorted({c >> 2 for c in fits}), tuple(c >> 2 for c in p.pile), p.count]
        if sees:
            me = p.turn
            args += [tuple(sorted(c >> 2 for c in p.hands[me])), p.cards_left(1 - me),
                     p.gone[1 - me]]
        r = choose(*args)
        p.lay(max(c for c in fits if c >> 2 == r))
    return list(p.points)


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)), st.integers(0, 2 ** 32), st.integers(2, 4))
def test_play_out_scores_like_the_core(deck, seed, players):
    hands = [sorted(deck[4 * k:4 * k + 4]) for k in range(players)]
    rng = random.Random(seed)
    picks = {}

    def choose(fits, pile, count):  # random, but the same in both runs for the same state
        return picks.setdefault((tuple(fits), pile, count), rng.choice(fits))
    want = core_play(hands, choose)
    ranks = [[c >> 2 for c in h] for h in hands]
    assert play_out(ranks, 0, policy=lambda f, p, c: choose(sorted(set(f)), p, c)) == want


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(52)), st.integers(2, 4))
def test_play_out_with_greedy_matches_the_core(deck, players):
    hands = [sorted(deck[4 * k:4 * k + 4]) for k in range(players)]
    ranks = [[c >> 2 for c in h] for h in hands]
    assert play_out(ranks, 0) == core_play(hands, greedy)


def test_three_and_four_players_by_hand():
    # Four of a kind each, all ten-cards: each series is three cards to 30, then every
    # player says go and the last to lay takes the point (cribcore.play.Play's order).
    # 3 players (K, Q, J): K Q J is a run of 3 for the third seat, then its go point,
    # four times over.
    assert play_out([(12,) * 4, (11,) * 4, (10,) * 4], 0) == [0, 0, 16]
    # 4 players (K, Q, J, 10), each series led by the player after the last to lay:
    # K Q J (run 3 + go: seat 2), 10 K Q (go: seat 1), J 10 K (go: seat 0),
    # Q J 10 (run 3 + go: seat 3), K Q J (run 3 + go: seat 2), 10 (last card: seat 3).
    assert play_out([(12,) * 4, (11,) * 4, (10,) * 4, (9,) * 4], 0) == [1, 1, 8, 5]


def test_pile_points_are_the_cores():
    assert pile_points((4, 4)) == 2  # a pair of 6s... ranks 4 are 5s: pair 2
    assert pile_points((6, 7)) == 2  # 7 + 8 = 15
    assert pile_points((2, 3, 4)) == score_play([2 << 2, 3 << 2, 4 << 2]) == 3


def test_greedy_takes_points_and_avoids_5_and_21():
    assert greedy([4, 8], (9,), 10) == 4  # the 5 makes 15, the 9 nothing
    assert greedy([4, 9], (9,), 10) == 9  # 15 or a pair, 2 each: the higher value
    assert greedy([1, 8], (), 0) == 8  # nothing either way: the higher value
    assert greedy([2, 4], (), 0) == 2  # a 5 would leave a count of 5
    assert greedy([4, 3], (9, 3), 14) == 3  # a 4 pairs for 2, a 5 makes 19: the pair


def test_defensive_leads_low_and_gives_nothing_cheap():
    assert defensive([1, 4, 9], (), 0) == 1  # lead the 2: under a 5 nothing makes 15
    assert greedy([1, 4, 9], (), 0) == 9  # (greedy leads the ten)
    assert defensive([0, 9], (), 0) == 0  # an ace, not a ten a 5 makes 15 of
    assert defensive([4, 8], (9,), 10) == 4  # the 15 it makes is worth its risk
    assert defensive([6, 12], (5,), 6) == 12  # a 7 on a 6 invites a run: the king
    assert defensive([4, 9], (9,), 10) == 4  # pairing the ten invites a pair royal


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=0, max_size=3))
def test_reply_risk_is_the_best_of_three_cards_of_a_deck(pile):
    pile = tuple(pile)
    if sum(pegging.VALUE[r] for r in pile) > 31 or any(pile.count(r) > 4 for r in pile):
        return
    # every REPLY_CARDS-card hand of the deck less the pile, by brute force
    deck = [r for r in range(13) for _ in range(4 - pile.count(r))]
    count = sum(pegging.VALUE[r] for r in pile)
    best = {r: pile_points(pile + (r,)) if count + pegging.VALUE[r] <= 31 else 0
            for r in range(13)}
    total = n = 0
    for hand in itertools.combinations(range(len(deck)), REPLY_CARDS):
        total += max(best[deck[i]] for i in hand) if count < 31 else 0
        n += 1
    assert reply_risk(pile) == Fraction(total, n)


@settings(max_examples=100, deadline=None)
@given(st.permutations(range(52)))
def test_play_out_with_defensive_matches_the_core(deck):
    hands = [sorted(deck[:4]), sorted(deck[4:8])]
    ranks = [[c >> 2 for c in h] for h in hands]
    assert play_out(ranks, 0, policy=defensive) == core_play(hands, defensive)


def test_lookahead_leads_from_a_pair_and_keeps_the_answer():
    hand = (3, 8, 8, 12)  # 4 9 9 K
    assert lookahead(list(hand), (), 0, hand) == 8  # a 9 from the pair: paired, a pair royal
    assert TABLE_POLICY is lookahead  # the shipped table's policy
    assert defensive([3, 8, 12], (), 0) == 3  # (defensive leads the 4: it sees no pair)
    hand = (4, 9, 10, 11)  # 5 10 J Q: a ten-card led, the 5 kept to make 15 of the answer
    assert lookahead(list(hand), (), 0, hand) in (9, 10, 11)
    hand = (0, 4, 4, 9)  # A 5 5 10: never the 5 (a ten makes 15), the ace under a 5
    assert lookahead(list(hand), (), 0, hand) == 0
    # after the opponent's go: the rest laid alone, the 31 for 2, else the last card's point
    assert pegging._run_alone([0, 5], (9, 9, 4)) == 2
    assert pegging._run_alone([0], (9, 9, 4)) == 1
    # with fewer than LOOK_CARDS cards and a pile it lays as the defensive policy does
    assert lookahead([0, 4], (3,), 4, (0, 4), 1) == defensive([0, 4], (3,), 4)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=1, max_size=3),
       st.lists(st.integers(0, 12), min_size=0, max_size=3), st.integers(1, 4))
def test_the_opponents_answers_are_its_best_card_of_every_hand(pile, shown, k):
    pile, shown = tuple(pile), tuple(shown)
    if sum(pegging.VALUE[r] for r in pile) > 31 or any(
            (pile + shown).count(r) > 4 for r in pile + shown):
        return
    # every k-card hand of the deck less pile and shown, by brute force: its first card in
    # the defensive order that fits, or a go
    deck = [r for r in range(13) for _ in range(4 - (pile + shown).count(r))]
    order = pegging._prefer(pile)
    want: dict = {}
    hands = list(itertools.combinations(range(len(deck)), k))
    for hand in hands:
        held = {deck[i] for i in hand}
        pick = next((q for q in order if q in held), -1)
        want[pick] = want.get(pick, 0) + 1
    got = pegging._opp_choices(pile, shown, k)
    assert abs(sum(p for p, _ in got) - 1) < 1e-9
    assert {q: round(p * len(hands)) for p, q in got if p} == want
    count = sum(pegging.VALUE[r] for r in pile)
    assert all(count + pegging.VALUE[q] <= 31 for q in order)


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(52)))
def test_play_out_with_lookahead_matches_the_core(deck):
    hands = [sorted(deck[:4]), sorted(deck[4:8])]
    ranks = [[c >> 2 for c in h] for h in hands]
    assert play_out(ranks, 0, policy=lookahead) == core_play(hands, lookahead, sees=True)


def test_the_first_card_is_forced():
    # pone holds 5 5 5 5 (ranks 4), dealer K K K K: pone must lead a 5, the dealer a ten-card.
    a, b = play_out(((4, 4, 4, 4), (12, 12, 12, 12)), 0, first=4)
    assert a + b > 0


def test_the_table_has_every_hand_and_sane_values():
    rows = pegging.table()
    assert set(rows) == set(multisets4()) and len(rows) == 1820
    for row in rows.values():
        assert len(row) == 6 and row[2] > 0 and row[5] > 0  # weighted: each seat's weight
        for mine, theirs, weight in (row[:3], row[3:]):
            assert 0 <= mine <= 31 * weight and 0 <= theirs <= 31 * weight
    # the dealer pegs more than the pone on average over all hands
    pone = sum(row_values(r, False)[0] for r in rows.values())
    dealer = sum(row_values(r, True)[0] for r in rows.values())
    assert dealer > pone


def test_the_table_recomputes_exactly_for_a_sample():
    counts = read_keeps()
    weights = (keep_weights({k: c[1] for k, c in counts.items()}),  # the pone's opponent
               keep_weights({k: c[0] for k, c in counts.items()}))  # deals, the dealer's not
    assert weights == pegging.table_weights()
    rng = random.Random(29)
    for ranks in rng.sample(multisets4(), 2) + [(4, 4, 4, 4)]:
        assert hand_totals(ranks, weights=weights) == pegging.table()[ranks]


def test_the_keeps_are_the_pro_levels_over_many_deals():
    counts = read_keeps()
    assert set(counts) == set(multisets4())
    pone = sum(c[0] for c in counts.values())
    assert pone == sum(c[1] for c in counts.values()) >= 100_000
    # a pro keeps 5s and pairs: 5-5-10-10 far more often than 2-3-8-king as either seat
    assert all(counts[(4, 4, 9, 9)][s] > 10 * counts[(1, 2, 7, 12)][s] for s in (0, 1))


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(multisets4()), st.integers(1, 5))
def test_counts_in_proportion_to_the_dealt_ways_give_the_uniform_table(ranks, k):
    # every specific hand kept alike: each pattern kept k x its suit-ways times -> the
    # weights are all equal and the weighted row is the uniform row scaled
    opp = random.Random(sum(ranks)).sample(multisets4(), 12)
    uniform = keep_weights({o: k * dealt_ways(o) for o in opp})
    assert set(uniform.values()) == {k * KEEP_SCALE}
    got = hand_totals(ranks, opp, weights=(uniform, uniform))
    plain = hand_totals(ranks, opp)
    n = sum(pegging.ways(o, pegging._counts(ranks)) for o in opp)
    assert got == (plain[0] * k * KEEP_SCALE, plain[1] * k * KEEP_SCALE, n * k * KEEP_SCALE,
                   plain[2] * k * KEEP_SCALE, plain[3] * k * KEEP_SCALE, n * k * KEEP_SCALE)


def test_keep_weights_share_a_count_among_the_full_decks_suit_ways():
    # 5-5-5-5 has 1 hand, 5-5-10-10 has 36, A-2-3-4 has 256: a count of 2304 each
    w = keep_weights({(4, 4, 4, 4): 2304, (4, 4, 9, 9): 2304, (0, 1, 2, 3): 2304})
    assert KEEP_SCALE == 2304
    assert w == {(4, 4, 4, 4): 2304 * 2304, (4, 4, 9, 9): 64 * 2304, (0, 1, 2, 3): 9 * 2304}
    # holding a 5 leaves 5-5-5-5 no way, and 5-5-10-10 half its ways (3 of 6 pairs of 5s)
    out = hand_totals((4, 0, 1, 2), [(4, 4, 4, 4), (4, 4, 9, 9)],
                      weights=({(4, 4, 4, 4): 1, (4, 4, 9, 9): 1},) * 2)
    assert out[2] == out[5] == 3 * 6  # ways left of 5-5-10-10: C(3, 2) x C(4, 2)


def test_expected_pegging_reads_the_row():
    mine, theirs = expected_pegging([4, 4, 4, 4], dealer=False)
    row = pegging.table()[(4, 4, 4, 4)]
    assert (mine, theirs) == (Fraction(row[0], row[2]), Fraction(row[1], row[2]))
    assert expected_pegging((4, 4, 4, 4), True) == (Fraction(row[3], row[5]),
                                                    Fraction(row[4], row[5]))
    # a table of before (4 totals over every hand alike) reads as it did
    old = (3 * TABLE_HANDS, TABLE_HANDS, 5 * TABLE_HANDS, 2 * TABLE_HANDS)
    assert row_values(old, False) == (3, 1) and row_values(old, True) == (5, 2)
    assert row_net(old, True) == 3 and row_net(row, False) == mine - theirs


# The 3- and 4-player table (crib.analysis.pegging_multi).

def reference_row(ranks, samples):
    """pegging_multi.row_totals's totals by cribcore.play.Play on real cards: the player's
    seat alternates over the draws (3 players: pone seats 0 and 1, dealer seat 2; 4 players:
    pone side 0 and 2, dealer side 1 and 3), the others' hands are the first cards of each
    drawn deck that the player does not hold; mine is the player's (or side's) points."""
    kept = pegging_multi.kept_cards(sorted(ranks))
    seats = {(3, False): (0, 1), (3, True): (2,), (4, False): (0, 2), (4, True): (1, 3)}
    out = []
    for players, dealer in pegging_multi.CONFIGS:
        mine = theirs = 0
        for i, deck in enumerate(pegging_multi.decks(samples)):
            options = seats[players, dealer]
            seat = options[i % len(options)]
            others = [c for c in deck if c not in kept][:4 * (players - 1)]
            hands = [others[4 * k:4 * k + 4] for k in range(players - 1)]
            hands.insert(seat, kept)
            pts = core_play(hands, greedy)
            side = pts[seat] + (pts[(seat + 2) % 4] if players == 4 else 0)
            mine += side
            theirs += sum(pts) - side
        out += [mine, theirs]
    return tuple(out)


def test_multi_rows_follow_the_core_play():
    for ranks in [(4, 4, 4, 4), (0, 3, 8, 12), (9, 10, 11, 12)]:
        assert pegging_multi.row_totals(ranks, samples=6)[0] == reference_row(ranks, 6)


def test_multi_table_has_every_hand_and_sane_values():
    rows = pegging_multi.table()
    assert set(rows) == set(multisets4())
    n = pegging_multi.SAMPLES
    text = pegging_multi.TABLE_FILE.read_text()
    assert f"over {n} drawn deals" in " ".join(text.split())  # the header says what it holds
    for row in rows.values():
        assert len(row) == 8 and all(0 <= v <= 31 * n for v in row)
    # more players peg more in all, and the dealer's side pegs more than the pone's
    three = sum(r[0] + r[1] for r in rows.values())
    four = sum(r[4] + r[5] for r in rows.values())
    assert four > three
    assert sum(r[2] for r in rows.values()) > sum(r[0] for r in rows.values())
    assert sum(r[6] for r in rows.values()) > sum(r[4] for r in rows.values())


def test_multi_table_recomputes_exactly_for_a_sample():
    rng = random.Random(29)
    for ranks in rng.sample(multisets4(), 2):
        assert pegging_multi.row_totals(ranks)[0] == pegging_multi.table()[ranks]


def test_expected_pegging_multi_reads_the_row():
    row = pegging_multi.table()[(4, 4, 4, 4)]
    n = pegging_multi.SAMPLES
    for i, (players, dealer) in enumerate(pegging_multi.CONFIGS):
        got = pegging_multi.expected_pegging_multi([4, 4, 4, 4], players, dealer)
        assert got == (Fraction(row[2 * i], n), Fraction(row[2 * i + 1], n))


def test_lay_rank_gives_a_policy_that_sees_its_hand_the_hand_and_the_others_the_pile():
    """5 5 6 K: lookahead is asked with the hand (sorted), the opponent's cards left and its
    go; greedy and defensive with the pile alone."""
    hand, fits = [12, 4, 5, 4], [4, 5, 12]
    assert lay_rank(lookahead, fits, (), 0, hand, 4, False) == lookahead(
        fits, (), 0, (4, 4, 5, 12), 4, False)
    for policy in (greedy, defensive):
        assert lay_rank(policy, fits, (9,), 10, hand, 4, False) == policy(fits, (9,), 10)
    seen = []

    def sees(*args):
        seen.append(args)
        return args[0][0]
    sees.sees_hand = True
    lay_rank(sees, fits, (), 0, hand, 2, True)
    assert seen == [(fits, (), 0, (4, 4, 5, 12), 2, True)]  # its hand, sorted
