"""The night's money: prizes one in four from the entry fees, the skunk pot, the special
hands' pool; every cent paid out, ties sharing."""

from hypothesis import given
from hypothesis import strategies as st

from crib.club.money import hands_pool, parse_money, payouts, prizes, skunk_pot


def rows(points):
    """Ranked standings rows from points (highest first), tied ranks shared."""
    out = []
    for i, p in enumerate(sorted(points, reverse=True)):
        rank = out[-1]["rank"] if out and out[-1]["points"] == p else i + 1
        out.append({"rank": rank, "player": "P%d" % i, "points": p, "skunks": p % 3})
    return out


def test_one_prize_in_four_at_least_one():
    assert [prizes(n) for n in (2, 3, 4, 7, 8, 12, 13)] == [1, 1, 1, 1, 2, 3, 3]


@given(st.lists(st.integers(0, 27), min_size=2, max_size=30), st.integers(0, 2000))
def test_the_prize_fund_is_paid_out_whole(points, entry):
    ranked = rows(points)
    paid = payouts(ranked, entry)
    assert sum(p["cents"] for p in paid) == entry * len(ranked)
    assert len(paid) >= prizes(len(ranked))
    amounts = [p["cents"] for p in paid]
    assert amounts == sorted(amounts, reverse=True) or len({p["place"] for p in paid}) == 1


def test_twelve_players_pay_three_places_three_two_one():
    paid = payouts(rows(list(range(12))), 500)
    assert [(p["place"], p["cents"]) for p in paid] == [(1, 3000), (2, 2000), (3, 1000)]


def test_the_skunk_pot_goes_to_the_most_skunks_and_the_pool_to_each_hand():
    ranked = [{"player": "A", "skunks": 2}, {"player": "B", "skunks": 2},
              {"player": "C", "skunks": 0}]
    assert skunk_pot(ranked, 100) == [{"player": "A", "skunks": 2, "cents": 150},
                                      {"player": "B", "skunks": 2, "cents": 150}]
    assert skunk_pot([dict(r, skunks=0) for r in ranked], 100) == []
    hands = [{"player": "A", "points": 24, "round": 1}, {"player": "C", "points": 29,
                                                         "round": 2}]
    assert [h["cents"] for h in hands_pool(hands, 3, 100)] == [150, 150]
    assert hands_pool([], 3, 100) == []


def test_amounts_are_read_as_people_type_them():
    import pytest

    assert [parse_money(t) for t in ("5", "2.50", "0.5", "10.05")] == [500, 250, 50, 1005]
    for bad in ("", "-1", "two", "1.234", "1.2.3"):
        with pytest.raises(ValueError, match="not an amount"):
            parse_money(bad)
