"""The computer's levels: legal answers at every level, the standard level's points-now
heuristic, the pro level's advisor discard (pegging included) and search in the play, and
pro0 (the pro level before the search, kept for the bench)."""

import random
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crib.analysis.advise import best_discard, rank_discards
from crib.analysis.pegging import TABLE_HANDS, table
from crib.analysis.playsearch import best_card
from crib.errors import CribError
from crib.practice.game import Seen
from crib.practice.levels import (
    BENCH_LEVELS,
    LEVELS,
    PEGGING_WEIGHT,
    ClassicPro,
    HalfPro,
    LevelError,
    Pro,
    Standard,
    TablePro,
    expected_best,
    hand_now,
    make,
    play_values,
    pro_net,
    standard_discard_score,
    unseen,
)
from cribcore.cards import card_name, parse_card, parse_cards, value


def seen(hand, pile="", dealer=False, opp_left=4, opp_gone=False, discard="", starter="2S"):
    """A Seen in the play (or, with 6 cards, at the discard), the pile laid by the other."""
    hand = tuple(parse_cards(hand))
    pile = tuple(parse_cards(pile)) if pile else ()
    count = sum(value(c) for c in pile)
    discarding = len(hand) == 6
    return Seen(
        me=0, dealer=dealer, hand=hand, kept=() if discarding else hand,
        discard=tuple(parse_cards(discard)) if discard else (),
        starter=None if discarding else parse_card(starter), count=count, pile=pile,
        played=tuple((1, c) for c in pile),
        playable=() if discarding else tuple(c for c in hand if count + value(c) <= 31),
        opp_left=opp_left, opp_gone=opp_gone, scores=(0, 0), target=121)


def test_make_knows_each_level_and_refuses_others():
    assert [make(lv).level for lv in LEVELS] == list(LEVELS)
    with pytest.raises(LevelError):
        make("grandmaster")
    assert issubclass(LevelError, CribError)


def _text(cards):
    return " ".join(card_name(c) for c in cards)


@pytest.mark.parametrize("level", BENCH_LEVELS)
def test_every_level_answers_legally(level):
    rng = random.Random(4)
    s = make(level, random.Random(1))
    for _ in range(30):
        cards = rng.sample(range(52), 10)
        deal = sorted(cards[:6])
        dis = s.discard(seen(_text(deal), dealer=rng.random() < 0.5))
        assert len(set(dis)) == 2 and set(dis) <= set(deal)
        sn = seen(_text(cards[6:]), _text(deal[:rng.randrange(4)]))
        if sn.playable:
            assert s.play(sn) in sn.playable


def test_easy_is_random_but_seeded():
    hands = ["5H 6C 7D 8S 9H TC"] * 20
    a = [make("easy", random.Random(3)).discard(seen(h)) for h in hands]
    b = [make("easy", random.Random(3)).discard(seen(h)) for h in hands]
    assert a == b
    e = make("easy", random.Random(5))
    assert len({e.discard(seen(h)) for h in hands}) > 3


def test_hand_now_scores_four_cards_without_a_starter():
    assert hand_now(parse_cards("5H 5C JD KS")) == 10  # four fifteens and a pair
    assert hand_now(parse_cards("2H 4H 6H 8H")) == 4  # a flush only
    assert hand_now(parse_cards("AC 3D 9H QS")) == 0


def test_standard_discard_keeps_points_and_counts_its_own_crib():
    s = Standard()
    assert set(s.discard(seen("5H 5C JD KS 2C 9D"))) == set(parse_cards("2C 9D"))
    keep, dis = parse_cards("9C 9D 2H 3S"), parse_cards("5H TC")
    own = standard_discard_score(keep, dis, True)
    theirs = standard_discard_score(keep, dis, False)
    assert own - theirs == 2 * (2 + 1)  # a fifteen and a 5 laid away, for or against


def test_standard_takes_the_points_now():
    s = Standard()
    assert s.play(seen("8C 2D KS", "7H")) == parse_card("8C")  # fifteen
    assert s.play(seen("2D 3C", "KH QS 8S")) == parse_card("3C")  # 31


def test_standard_avoids_leaving_5_or_21():
    s = Standard()
    assert s.play(seen("5H 9C 3D")) == parse_card("9C")  # never lead the 5
    assert s.play(seen("TD 2C", "7H 4S")) == parse_card("2C")  # not 11 -> 21


def test_pro0_discards_as_the_advisor():
    p = ClassicPro()
    rng = random.Random(8)
    for _ in range(10):
        deal = sorted(rng.sample(range(52), 6))
        dealer = rng.random() < 0.5
        assert tuple(p.discard(seen(" ".join(map(card_name, deal)), dealer=dealer))) == \
            best_discard(deal, dealer).discard


def test_pro_discards_with_the_play_at_its_weight():
    p = Pro()
    rng = random.Random(8)
    for _ in range(10):
        deal = sorted(rng.sample(range(52), 6))
        dealer = rng.random() < 0.5
        got = tuple(p.discard(seen(" ".join(map(card_name, deal)), dealer=dealer)))
        ranked = rank_discards(deal, dealer, pegging=True)
        best = max(pro_net(e) for e in ranked)
        entry = next(e for e in ranked if e.discard == got)
        assert pro_net(entry) == best
        assert pro_net(entry) == entry.hand + (entry.crib if dealer else -entry.crib) + \
            PEGGING_WEIGHT * (entry.peg - entry.peg_opp)


def test_a_table_pro_discards_with_its_rows_at_its_weight():
    """The bench's TablePro (bench/practice.py --old: the pro of the issue's day, a table of
    before at half weight): with the shipped table at full weight it discards as pro, at half
    as pro-half (the best pro_net at 1/2), with a table of zeros as the advisor without the
    play (pro0); another table, another discard somewhere."""
    zeros = {k: (0, 0, 0, 0) for k in table()}
    # a table where the pone's net play is all that counts, as some biased table might be:
    # every kept four's row says the pone pegs 20 points per hand per distinct rank
    skewed = {k: (20 * TABLE_HANDS * len(set(k)), 0, 0, 0) for k in table()}
    rng = random.Random(38)
    differ = 0
    for _ in range(16):
        deal = sorted(rng.sample(range(52), 6))
        dealer = rng.random() < 0.5
        s = seen(_text(deal), dealer=dealer)
        assert TablePro(None, table(), Fraction(1)).discard(s) == Pro().discard(s)
        half = TablePro(None, table(), Fraction(1, 2)).discard(s)
        assert half == HalfPro().discard(s) == TablePro().discard(s)
        ranked = rank_discards(deal, dealer, pegging=True)
        assert pro_net(next(e for e in ranked if e.discard == half), Fraction(1, 2)) == \
            max(pro_net(e, Fraction(1, 2)) for e in ranked)
        assert TablePro(None, zeros, Fraction(1, 2)).discard(s) == ClassicPro().discard(s)
        differ += TablePro(None, skewed, Fraction(1)).discard(s) != Pro().discard(s)
    assert differ > 0


def test_pro_net_refuses_a_discard_ranked_without_the_play():
    entry = rank_discards(parse_cards("5h 5d jc qs 2h 9c"), True)[0]
    with pytest.raises(LevelError, match="play counted"):
        pro_net(entry)


def test_pro_discards_differently_once_the_play_counts():
    """Kept as pone, four 5s hand the dealer the play: with pegging counted, pro keeps
    them less often than the advisor without it."""
    rng = random.Random(3)
    differ = 0
    for _ in range(40):
        deal = sorted(rng.sample(range(52), 6))
        text = " ".join(map(card_name, deal))
        differ += Pro().discard(seen(text)) != ClassicPro().discard(seen(text))
    assert differ > 0


def test_pro0_leads_a_4_not_a_5_and_takes_a_fifteen():
    p = ClassicPro()
    assert p.play(seen("5H 4C KD 9S")) == parse_card("4C")
    assert p.play(seen("5C 4D 9H", "KH")) == parse_card("5C")


def test_pro_never_leads_the_5_and_takes_a_fifteen():
    p = Pro()
    assert p.play(seen("5H 4C KD 9S")) != parse_card("5H")
    assert p.play(seen("5C 4D 9H", "KH")) == parse_card("5C")


def test_pro0_counts_its_run_out_when_the_opponent_has_gone():
    """At 25 with A 2 3 and the opponent out, every order ends in a run of 3 and 31: 5."""
    s = seen("3C 2D AS", "KH QD 5C", opp_gone=True)
    hidden = unseen(s)
    assert [ClassicPro().value(s, c, hidden) for c in s.playable] == [5, 5, 5]


def test_pro_play_is_the_best_of_the_search_and_deterministic():
    s = seen("3C 7D 8S QH", "9H")
    values = play_values(s)
    assert set(values) == {c >> 2 for c in s.playable}
    assert Pro().play(s) >> 2 == best_card(values)
    assert play_values(s) == values  # the same position, the same sample


def test_unseen_is_every_card_the_seat_has_not_seen():
    s = seen("3C 2D AS 9H", "KH QD 5C", discard="4H 4S", starter="7D")
    hidden = unseen(s)
    assert len(hidden) == 52 - 4 - 2 - 3 - 1
    assert not set(hidden) & set(parse_cards("3C 2D AS 9H KH QD 5C 4H 4S 7D"))


@given(st.lists(st.integers(-5, 12), max_size=7), st.integers(0, 4), st.integers(1, 4),
       st.integers(-3, 3))
def test_expected_best_is_the_average_over_every_hand(values, unplayable, k, none_value):
    cards = [("v", v) for v in values] + [("x", 0)] * unplayable
    if k > len(cards):
        return
    outcomes = []
    for held in combinations(range(len(cards)), k):
        fits = [cards[i][1] for i in held if cards[i][0] == "v"]
        outcomes.append(max(fits) if fits else none_value)
    want = sum(outcomes) / len(outcomes)
    assert abs(expected_best(values, unplayable, k, none_value) - want) < 1e-9
