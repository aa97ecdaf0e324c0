"""crib.analysis.advise and `crib discard`: exact against brute force, properties, the CLI."""

import json
import sys
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crib.analysis.advise import AdviceError, best_discard, rank_discards, review, review_line
from crib.cli import main
from cribcore.cards import InvalidCardError, card_name, card_symbol, parse_cards
from cribcore.show import score_show


def brute_force(deal, discard):
    """(hand EV, crib EV, hand min, hand max) by scoring every outcome with score_show."""
    unseen = [c for c in range(52) if c not in deal]
    keep = [c for c in deal if c not in discard]
    hands = [score_show(keep, s) for s in unseen]
    total = n = 0
    for others in combinations(unseen, 4 - len(discard)):
        crib = list(discard) + list(others)
        for s in unseen:
            if s not in others:
                total += score_show(crib, s, crib=True)
                n += 1
    return Fraction(sum(hands), len(hands)), Fraction(total, n), min(hands), max(hands)


def brute_force_hand(deal, discard):
    """(hand EV, min, max) over every unseen starter with score_show."""
    unseen = [c for c in range(52) if c not in deal]
    keep = [c for c in deal if c not in discard]
    hands = [score_show(keep, s) for s in unseen]
    return Fraction(sum(hands), len(hands)), min(hands), max(hands)


def entry_for(ranked, discard):
    want = tuple(sorted(discard))
    return next(e for e in ranked if e.discard == want)


def check_against_brute_force(deal, discards, dealer):
    ranked = rank_discards(deal, dealer)
    for dis in discards:
        e = entry_for(ranked, dis)
        assert (e.hand, e.crib, e.hand_min, e.hand_max) == brute_force(deal, dis), dis


@pytest.mark.slow
def test_six_cards_every_discard_exact():
    # Jacks (nobs in hand and crib), a suited discard (crib flush), a run, a 4-flush kept.
    deal = parse_cards("5H JH 6H 7S JD KH")
    check_against_brute_force(deal, list(combinations(deal, 2)), True)


@pytest.mark.slow
def test_six_cards_pairs_and_flushes_exact():
    deal = parse_cards("2C 3C 4C 9C 9D 9S")
    picks = [("9D", "9S"), ("2C", "3C"), ("4C", "9C"), ("2C", "9D")]
    check_against_brute_force(deal, [parse_cards(p) for p in picks], False)


@pytest.mark.slow
def test_five_cards_exact():
    # A discarded jack: crib nobs from the discard and a possible 5-card crib flush.
    deal = parse_cards("JC 4C 5D 6H QC")
    check_against_brute_force(deal, [parse_cards("JC")], True)


def test_five_cards_hands_exact():
    deal = parse_cards("JC 4C 5C 6C QC")
    ranked = rank_discards(deal, False)
    for e in ranked:
        assert (e.hand, e.hand_min, e.hand_max) == brute_force_hand(deal, e.discard)


deals = st.integers(5, 6).flatmap(
    lambda n: st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True))


@settings(deadline=None, max_examples=60)
@given(deals, st.booleans())
def test_entries_cover_every_discard(deal, dealer):
    ranked = rank_discards(deal, dealer)
    n = len(deal) - 4
    assert len(ranked) == (15 if n == 2 else 5)
    assert len({e.discard for e in ranked}) == len(ranked)
    for e in ranked:
        assert len(e.discard) == n and len(e.keep) == 4
        assert sorted(e.keep + e.discard) == sorted(deal)
        assert list(e.keep) == sorted(e.keep) and list(e.discard) == sorted(e.discard)


@settings(deadline=None, max_examples=60)
@given(deals, st.booleans())
def test_values_consistent(deal, dealer):
    for e in rank_discards(deal, dealer):
        assert e.hand_min <= e.hand <= e.hand_max
        assert 0 <= e.crib <= 29
        assert e.net == (e.hand + e.crib if dealer else e.hand - e.crib)
        assert isinstance(e.hand, Fraction) and isinstance(e.crib, Fraction)


@settings(deadline=None, max_examples=60)
@given(deals, st.booleans())
def test_best_first_with_deterministic_ties(deal, dealer):
    ranked = rank_discards(deal, dealer)
    keys = [(-e.net, -e.hand, e.discard) for e in ranked]
    assert keys == sorted(keys)
    assert best_discard(deal, dealer) == ranked[0]
    assert rank_discards(list(reversed(deal)), dealer) == ranked


@settings(deadline=None, max_examples=40)
@given(deals, st.permutations(range(4)))
def test_suit_relabelling_changes_nothing(deal, perm):
    def relabel(c):
        return (c & ~3) | perm[c & 3]

    before = {tuple(sorted(relabel(c) for c in e.discard)): e for e in rank_discards(deal, True)}
    after = rank_discards([relabel(c) for c in deal], True)
    for e in after:
        b = before[e.discard]
        assert (e.hand, e.crib, e.net, e.hand_min, e.hand_max) == (
            b.hand, b.crib, b.net, b.hand_min, b.hand_max)


@settings(deadline=None, max_examples=40)
@given(deals)
def test_dealer_and_pone_share_hand_and_crib(deal):
    pone = {e.discard: e for e in rank_discards(deal, False)}
    for e in rank_discards(deal, True):
        assert (e.hand, e.crib) == (pone[e.discard].hand, pone[e.discard].crib)


@settings(deadline=None, max_examples=25)
@given(deals)
def test_hand_values_match_score_show(deal):
    for e in rank_discards(deal, True):
        assert (e.hand, e.hand_min, e.hand_max) == brute_force_hand(deal, e.discard)


def test_equal_entries_ordered_by_card():
    # Swapping hearts and clubs maps this deal onto itself: 5C+x and 5H+x tie exactly.
    deal = parse_cards("5H 5C 6D 7S JD KS")
    ranked = rank_discards(deal, True)
    pos = {e.discard: i for i, e in enumerate(ranked)}
    for x in parse_cards("6D 7S JD KS"):
        a = entry_for(ranked, (parse_cards("5C")[0], x))
        b = entry_for(ranked, (parse_cards("5H")[0], x))
        assert (a.net, a.hand) == (b.net, b.hand)
        assert pos[a.discard] < pos[b.discard]


def test_known_hand_keeps_the_pair_and_fives():
    # 5 5 6 7 J K as dealer: keeping 5 5 J K and laying away 6 7 is the classic answer.
    best = best_discard(parse_cards("5H 5C 6D 7S JD KC"), True)
    assert best.discard == tuple(sorted(parse_cards("6D 7S")))


def test_bad_deals_raise_and_change_nothing():
    for bad in (parse_cards("5H 5C 6D 7S"), parse_cards("5H 5C 6D 7S JD KC QH")):
        with pytest.raises(AdviceError):
            rank_discards(bad, True)
    for bad in ([5, 5, 6, 7, 8, 9], [0, 1, 2, 3, 4, 52], [0, 1, 2, 3, "4"]):
        with pytest.raises(InvalidCardError):
            rank_discards(bad, True)
    deal = [51, 3, 17, 9, 30]
    rank_discards(deal, False)
    assert deal == [51, 3, 17, 9, 30]
    with pytest.raises(AdviceError):
        rank_discards(deal, "yes")


def test_review_optimal_and_not():
    deal = parse_cards("5H 5C 6D 7S JD KC")
    ranked = rank_discards(deal, True, pegging=True)  # ranked as `crib discard` ranks
    made, best = review(deal, ranked[0].discard, True)
    assert made == best == ranked[0]
    assert review_line(made, best).startswith("optimal discard:")
    worst = ranked[-1]
    made, best = review(deal, reversed(worst.discard), True)
    assert made == worst and best == ranked[0]
    line = review_line(made, best)
    assert line.startswith("not the optimal discard:")
    for value in (worst.net, best.net, worst.hand, worst.crib, best.hand, best.crib):
        assert f"{float(value):.2f}" in line
    for e in (worst, best):  # the play's part of the net, with its sign
        play = e.peg - e.peg_opp
        assert f"{'-' if play < 0 else '+'} play {abs(float(play)):.2f}" in line
    for c in worst.discard + best.discard:
        assert card_symbol(c) in line
        assert card_name(c) in review_line(made, best, symbols=False)


def test_review_of_a_tie_is_optimal():
    # Symmetric in hearts and clubs, and the best discard (7C TD) has a twin (7H TD).
    deal = parse_cards("7C 7H 2D TD 9S 4S")
    made, best = review(deal, parse_cards("7H TD"), False)
    assert made != best and made.net == best.net
    assert review_line(made, best).startswith("optimal discard:")


def test_review_without_the_play_keeps_the_hand_and_crib_ranking():
    deal = parse_cards("5H 5C 6D 7S JD KC")
    made, best = review(deal, parse_cards("JD KC"), False, pegging=False)
    assert best == rank_discards(deal, False)[0] and best.peg is None
    assert "play" not in review_line(made, best)


def test_review_rejects_a_discard_not_in_the_deal():
    deal = parse_cards("5H 5C 6D 7S JD KC")
    for bad in (parse_cards("5H 2C"), parse_cards("5H"), parse_cards("5H 5C 6D")):
        with pytest.raises(AdviceError):
            review(deal, bad, True)


def test_as_dict_has_floats_and_exact_values():
    e = rank_discards(parse_cards("5H 5C 6D 7S JD"), False)[0]
    d = e.as_dict()
    assert Fraction(d["exact"]["net"]) == e.net and d["net"] == float(e.net)
    assert parse_cards(d["keep"]) == list(e.keep) and parse_cards(d["discard"]) == list(e.discard)
    assert (d["hand_min"], d["hand_max"]) == (e.hand_min, e.hand_max)


CARDS = ["5H", "5C", "6D", "7S", "JD", "KC"]


def test_cli_plain_table_without_pegging(capsys):
    assert main(["discard", *CARDS, "--pone", "--no-pegging"]) == 0
    lines = capsys.readouterr().out.splitlines()
    ranked = rank_discards(parse_cards(CARDS), False)
    assert "peg" not in lines[0] + lines[1]
    rows = lines[2:2 + len(ranked)]
    assert len(rows) == 15
    for line, e in zip(rows, ranked):
        fields = line[1:].split()
        assert fields[:2] == [card_name(c) for c in e.discard]
        assert fields[6:] == [f"{float(e.hand):.2f}", f"{float(e.crib):.2f}",
                              f"{float(e.net):.2f}", f"{e.hand_min}-{e.hand_max}"]
        assert line.startswith("*") == (e.net == ranked[0].net)


@pytest.mark.parametrize("side, dealer", [("--pone", False), ("--dealer", True)])
def test_cli_plain_table_with_pegging(capsys, side, dealer):
    assert main(["discard", *CARDS, side]) == 0
    lines = capsys.readouterr().out.splitlines()
    ranked = rank_discards(parse_cards(CARDS), dealer, pegging=True)
    assert lines[0].endswith("+ peg - opp)")
    assert lines[1].split() == ["discard", "keep", "hand", "crib", "peg", "opp", "net",
                                "hand", "range"]
    rows = lines[2:2 + len(ranked)]
    for line, e in zip(rows, ranked):
        fields = line[1:].split()
        assert fields[:2] == [card_name(c) for c in e.discard]
        assert fields[6:] == [f"{float(v):.2f}" for v in (e.hand, e.crib, e.peg, e.peg_opp,
                                                           e.net)] + [
            f"{e.hand_min}-{e.hand_max}"]
        assert line.startswith("*") == (e.net == ranked[0].net)
    assert lines[-1].startswith("peg: ")


def test_cli_labels_the_kept_hands_range(capsys):
    """The last column is the kept hand's range, named so (it was a bare "min max")."""
    assert main(["discard", *CARDS, "--pone"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].rstrip().endswith("net  hand range")
    assert "hand range: the fewest and the most points the four kept score" in lines[-2]
    e = rank_discards(parse_cards(CARDS), False, pegging=True)[0]
    assert lines[2].split()[-1] == f"{e.hand_min}-{e.hand_max}"


def test_cli_five_cards_dealer(capsys):
    assert main(["discard", "5h,5c,6d", "7s", "10d", "--dealer", "--no-pegging"]) == 0
    out = capsys.readouterr().out
    ranked = rank_discards(parse_cards("5H 5C 6D 7S TD"), True)
    assert out.count("\n") == len(ranked) + 4  # title, header, rows, the best and the range notes
    assert f"{float(ranked[0].net):.2f}" in out.splitlines()[2]


@pytest.mark.parametrize("players, side, dealer", [
    (None, "--pone", False), (3, "--dealer", True), (4, "--pone", False), (4, "--dealer", True)])
def test_cli_five_cards_with_the_play(capsys, players, side, dealer):
    argv = ["discard", "5h", "5c", "6d", "7s", "10d", side]
    assert main(argv + ([] if players is None else ["--players", str(players)])) == 0
    lines = capsys.readouterr().out.splitlines()
    ranked = rank_discards(parse_cards("5H 5C 6D 7S TD"), dealer, pegging=True,
                           players=players)
    assert lines[0].endswith(f"({players or 3} players, {side[2:]}: net = hand "
                             f"{'+' if dealer else '-'} crib + peg - opp)")
    rows = lines[2:2 + len(ranked)]
    assert len(rows) == 5
    for line, e in zip(rows, ranked):
        fields = line[1:].split()
        assert fields[1:] == [card_name(c) for c in e.keep] + [
            f"{float(v):.2f}" for v in (e.hand, e.crib, e.peg, e.peg_opp, e.net)] + [
            f"{e.hand_min}-{e.hand_max}"]
    assert ("your side" in lines[-1]) == (players == 4) and "drawn deals" in lines[-1]


def test_cli_five_cards_json_names_the_players(capsys):
    assert main(["discard", "5h", "5c", "6d", "7s", "10d", "--pone", "--players", "4",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    ranked = rank_discards(parse_cards("5H 5C 6D 7S TD"), False, pegging=True, players=4)
    assert doc["players"] == 4 and doc["pegging"] is True
    assert [Fraction(r["exact"]["net"]) for r in doc["discards"]] == [e.net for e in ranked]
    assert all(r["players"] == 4 for r in doc["discards"])


def test_cli_json(capsys):
    assert main(["discard", *CARDS, "--dealer", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    ranked = rank_discards(parse_cards(CARDS), True, pegging=True)
    assert doc["dealer"] is True and doc["cards"] == CARDS and doc["pegging"] is True
    assert [Fraction(row["exact"]["peg"]) for row in doc["discards"]] == [
        e.peg for e in ranked]
    assert [Fraction(row["exact"]["peg_opp"]) for row in doc["discards"]] == [
        e.peg_opp for e in ranked]
    assert [row["discard"] for row in doc["discards"]] == [
        [card_name(c) for c in e.discard] for e in ranked]
    assert [Fraction(row["exact"]["net"]) for row in doc["discards"]] == [e.net for e in ranked]
    assert [row["best"] for row in doc["discards"]] == [e.net == ranked[0].net for e in ranked]


def test_cli_rich_table_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["discard", *CARDS, "--dealer"]) == 0
    out = capsys.readouterr().out
    best = rank_discards(parse_cards(CARDS), True, pegging=True)[0]
    assert "best" in out and card_symbol(best.discard[0]) in out
    assert f"{float(best.net):.2f}" in out and f"{float(best.peg_opp):.2f}" in out
    assert "opp" in out


@pytest.mark.parametrize("argv", [
    ["5H", "5C", "6D", "7S", "--dealer"],
    ["5H", "5C", "6D", "7S", "JD", "KC", "QC", "--dealer"],
    ["5H", "5C", "6D", "7S", "JD", "5H", "--pone"],
    ["5H", "5C", "6D", "7S", "JD", "ZZ", "--pone"],
    ["5H", "5C", "6D", "7S", "JD", "--pone", "--players", "2"],
    ["5H", "5C", "6D", "7S", "JD", "KC", "--pone", "--players", "3"],
])
def test_cli_errors(argv, capsys):
    assert main(["discard", *argv]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("crib: error: ") and captured.out == ""


def test_cli_needs_dealer_or_pone(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["discard", *CARDS])
    assert exc.value.code == 2
    assert capsys.readouterr().err


@pytest.mark.parametrize("dealer", [True, False])
def test_pegging_adds_the_tables_play_to_the_net(dealer):
    from crib.analysis.pegging import expected_pegging

    deal = parse_cards("5H 5C 6D 7S JD KC")
    plain = {e.discard: e for e in rank_discards(deal, dealer)}
    pegged = rank_discards(deal, dealer, pegging=True)
    assert [e.net for e in pegged] == sorted((e.net for e in pegged), reverse=True)
    for e in pegged:
        base = plain[e.discard]
        assert (e.hand, e.crib) == (base.hand, base.crib) and base.peg is None
        assert (e.peg, e.peg_opp) == expected_pegging([c >> 2 for c in e.keep], dealer)
        assert e.net == base.net + e.peg - e.peg_opp


def test_four_fives_kept_as_pone_give_the_dealer_the_play():
    e = next(e for e in rank_discards(parse_cards("5H 5C 5D 5S KC QD"), False, pegging=True)
             if e.discard == tuple(parse_cards("QD KC")))
    assert e.peg_opp > e.peg + 2


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("dealer", [True, False])
def test_five_cards_add_the_multi_player_play(players, dealer):
    from crib.analysis.pegging_multi import expected_pegging_multi

    deal = parse_cards("5H 5C 6D 7S JD")
    plain = {e.discard: e for e in rank_discards(deal, dealer)}
    assert all(e.peg is None and "peg" not in e.as_dict() for e in plain.values())
    pegged = rank_discards(deal, dealer, pegging=True, players=players)
    assert [e.net for e in pegged] == sorted((e.net for e in pegged), reverse=True)
    for e in pegged:
        base = plain[e.discard]
        assert (e.hand, e.crib, e.players) == (base.hand, base.crib, players)
        assert (e.peg, e.peg_opp) == expected_pegging_multi([c >> 2 for c in e.keep],
                                                            players, dealer)
        assert e.net == base.net + e.peg - e.peg_opp


def test_five_cards_default_to_three_players():
    deal = parse_cards("5H 5C 6D 7S JD")
    assert rank_discards(deal, False, pegging=True) == rank_discards(deal, False, True, 3)
    assert rank_discards(deal, False, pegging=True) != rank_discards(deal, False, True, 4)


@pytest.mark.parametrize("cards, players", [
    ("5H 5C 6D 7S JD", 2), ("5H 5C 6D 7S JD", 5), ("5H 5C 6D 7S JD", True),
    ("5H 5C 6D 7S JD", "3"), ("5H 5C 6D 7S JD KC", 3), ("5H 5C 6D 7S JD KC", 4)])
def test_players_must_fit_the_deal(cards, players):
    with pytest.raises(AdviceError, match="players"):
        rank_discards(parse_cards(cards), True, pegging=True, players=players)


def test_pegging_must_be_a_bool():
    with pytest.raises(AdviceError):
        rank_discards(parse_cards("5H 5C 6D 7S JD KC"), True, pegging="yes")
