"""The club's pairings and standings, as properties: nobody meets anyone twice, everyone
is seated (or sits out) once a round, byes at most once each; the standings agree with a
tally kept independently, game by game, and are ranked by points, wins, spread."""

from hypothesis import given
from hypothesis import strategies as st

from crib.club.pairings import max_rounds, pair_round
from crib.club.standings import Result, standings

NAMES = ["P%d" % i for i in range(24)]


@st.composite
def nights(draw):
    """(seating, games): 2..24 players, 1..the most rounds without a repeat."""
    n = draw(st.integers(2, 24))
    players = draw(st.permutations(NAMES))[:n]
    return players, draw(st.integers(1, max_rounds(n)))


@given(nights())
def test_nobody_meets_twice_and_everyone_is_seated_each_round(night):
    players, games = night
    met = set()
    byes = []
    for r in range(1, games + 1):
        tables, bye = pair_round(players, r)
        seated = [p for t in tables for p in t] + ([bye] if bye else [])
        assert sorted(seated) == sorted(players)  # everyone, once
        assert (bye is None) == (len(players) % 2 == 0)
        byes += [bye] if bye else []
        for a, b in tables:
            assert a != b and frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
    assert len(byes) == len(set(byes))  # nobody sits out twice


def test_a_round_past_the_last_possible_is_refused():
    import pytest

    from crib.club.pairings import PairingError

    with pytest.raises(PairingError, match="at most 5 games"):
        pair_round(NAMES[:6], 6)
    assert len(pair_round(NAMES[:5], 5)[0]) == 2  # an odd count: a round each, a bye each


def tally(players, results, byes):
    """The standings worked out another way: per player, a scan of every game."""
    out = {}
    for p in players:
        won = [r for r in results if r.winner == p]
        lost = [r for r in results if r.loser == p]
        points = sum(3 if r.loser_score <= 90 else 2 for r in won) + 2 * byes.count(p)
        spread = sum(121 - r.loser_score for r in won) - sum(121 - r.loser_score for r in lost)
        out[p] = (points, len(won) + byes.count(p), spread,
                  sum(1 for r in won if r.loser_score <= 90))
    return out


@st.composite
def played(draw):
    """A night's pairings, each table won by either player with a loser's score 0..120."""
    players, games = draw(nights())
    results, byes = [], []
    for r in range(1, games + 1):
        tables, bye = pair_round(players, r)
        byes += [bye] if bye else []
        for a, b in tables:
            w, lo = (a, b) if draw(st.booleans()) else (b, a)
            results.append(Result(w, lo, draw(st.integers(0, 120))))
    return players, results, byes


@given(played())
def test_the_standings_agree_with_an_independent_tally(night):
    players, results, byes = night
    rows = standings(players, results, byes)
    expected = tally(players, results, byes)
    assert sorted(r["player"] for r in rows) == sorted(players)
    for r in rows:
        assert (r["points"], r["wins"], r["spread"], r["skunks"]) == expected[r["player"]]
    keys = [(r["points"], r["wins"], r["spread"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    for before, after in zip(rows, rows[1:]):  # tied rows share a rank, others go down
        same = (before["points"], before["wins"], before["spread"]) == \
            (after["points"], after["wins"], after["spread"])
        assert after["rank"] == before["rank"] if same else after["rank"] == rows.index(after) + 1
    assert sum(r["spread"] for r in rows) == 0


def test_a_skunk_is_a_loser_under_91():
    rows = {r["player"]: r for r in standings(["A", "B", "C", "D"],
                                              [Result("A", "B", 90), Result("C", "D", 91)])}
    assert (rows["A"]["points"], rows["A"]["skunks"], rows["B"]["skunked"]) == (3, 1, 1)
    assert (rows["C"]["points"], rows["C"]["skunks"], rows["C"]["spread"]) == (2, 0, 30)
    assert [r["player"] for r in standings(["A", "B", "C", "D"],
                                           [Result("A", "B", 90), Result("C", "D", 91)])] \
        == ["A", "C", "D", "B"]
