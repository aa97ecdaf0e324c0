"""bench/practice.py's --old NAME=PATH[:WEIGHT] (issue 38): a level discarding with a pegging
table of before at a weight (crib.practice.levels.TablePro) plays whole games against the
pro level; a pairing naming a level the bench does not know is refused."""

import argparse
import importlib.util
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from crib.analysis import pegging
from crib.analysis.pegging import TABLE_FILE, read_rows
from crib.practice.game import Seen
from crib.practice.levels import Pro, TablePro
from cribcore.cards import parse_cards, value

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_practice", ROOT / "bench" / "practice.py")
practice = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(practice)


def test_old_reads_the_table_and_the_weight(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("# a table\n" + "".join(
        " ".join(map(str, k + (1, 2, 3, 4))) + "\n" for k in read_rows(TABLE_FILE)))
    name, level = practice.old_level(f"pro-then={path}:1/3")
    got = level(None)
    assert name == "pro-then" and isinstance(got, TablePro)
    assert got.weight == Fraction(1, 3) and got.rows[(0, 1, 2, 3)] == (1, 2, 3, 4)
    assert practice.old_level(f"x={path}")[1](None).weight == Fraction(1, 2)
    for bad in (f"pro={path}", f"a:b={path}", f"={path}"):
        with pytest.raises(argparse.ArgumentTypeError, match="NAME must be new"):
            practice.old_level(bad)


def test_an_old_level_plays_whole_games_on_both_seats():
    extra = dict([practice.old_level(f"pro-then={TABLE_FILE}:1/2")])
    wins, _, tally = practice.duel("pro", "pro-then", 2, 5, 61, extra=extra)
    assert len(tally.scores) == 2 and 0 <= wins <= 2
    assert all(max(s) >= 61 for s in tally.scores)  # each game played to its end
    assert set(tally.sums) == {"pro", "pro-then"}  # both seats scored as their level


def test_a_pairing_with_an_unknown_level_is_refused(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["practice.py", "--games", "2", "--pairings", "pro:nope"])
    with pytest.raises(SystemExit):
        practice.main()
    assert "'nope' is not one of" in capsys.readouterr().err


def test_a_checkpoint_comes_every_pair_of_games_with_the_games_so_far():
    seen = []
    wins, _, tally = practice.duel("easy", "standard", 8, 2, 61, part=(1, 2),
                                   checkpoint=lambda w, s, t: seen.append(
                                       (w, list(t.scores))), every=2)
    assert [len(s) for _, s in seen] == [2, 4]  # seeds 1 and 3 of 0-3: 4 games in all
    assert seen[-1] == (wins, tally.scores) and len(tally.scores) == 4


def test_runs_of_two_seeds_merge_with_both_seeds_and_the_games_asked_of_each(
        tmp_path, monkeypatch, capsys):
    saves = []
    for seed, part in ((3, "0/2"), (3, "1/2"), (4, "0/1")):
        save = tmp_path / f"s{seed}-{part[0]}.json"
        monkeypatch.setattr(sys, "argv", ["practice.py", "--games", "4", "--seed", str(seed),
                                          "--target", "61", "--pairings", "easy:standard",
                                          "--part", part, "--save", str(save)])
        practice.main()
        saves.append(str(save))
    capsys.readouterr()
    monkeypatch.setattr(sys, "argv", ["practice.py", "--merge", *saves])
    practice.main()
    out = capsys.readouterr().out
    assert "merged 3 saved runs, 8 games played of 8 per pairing to 61, seed 3, 4," in out


def _run(seed, games, part, scores, a="pro", b="pro-then"):
    """A saved run as --save writes it (only what --versus reads)."""
    return {"args": {"games": games, "target": 121, "seed": seed, "part": part},
            "results": [{"a": a, "b": b, "scores": scores}]}


def test_versus_compares_two_runs_game_by_game_on_the_seeds_both_played(capsys):
    # the old run split over two shares (seeds 0, 2 and 1, 3), the new one whole, stopped
    # after 3 seeds: the seeds 0-2 are compared; the new run's margin is 4 more in one game
    old = [_run(1, 8, (0, 2), [(121, 100), (100, 121), (121, 90), (90, 121)]),
           _run(1, 8, (1, 2), [(121, 110), (110, 121), (121, 95), (95, 121)])]
    new = [_run(1, 8, (0, 1), [(121, 100), (100, 121), (121, 106), (110, 121),
                               (121, 90), (90, 121)])]
    got = practice.by_game(old)
    assert got[("pro", "pro-then", 1, 3)] == (110, 121) and len(got) == 8
    practice.versus(new, old)
    out = capsys.readouterr().out
    assert "pro v pro-then       6 games: +0.67 (" in out  # 4 points over 6 games
    practice.versus(new, [_run(2, 8, (0, 1), [(121, 100)] * 8)])  # another seed: none shared
    assert capsys.readouterr().out.splitlines()[-1] == "  pro v pro-then: 0 games in common"


class _Own:
    """A level that lays its lowest playable card and says which seat asked."""

    def __init__(self):
        self.asked = []

    def discard(self, seen):
        return seen.hand[:2]

    def play(self, seen):
        self.asked.append(seen.dealer)
        return min(seen.playable)


def _seen(dealer, hand, pile=()):
    count = sum(value(c) for c in pile)
    return Seen(me=0, dealer=dealer, hand=tuple(hand), kept=tuple(hand), discard=(),
                starter=51, count=count, pile=tuple(pile), played=(),
                playable=tuple(c for c in hand if count + value(c) <= 31), opp_left=4,
                opp_gone=False, scores=(0, 0), target=121)


def test_a_policy_play_lays_the_policys_card_in_the_seats_named_and_the_levels_own_elsewhere():
    hand = parse_cards("5C 5H 6D KS")
    own = _Own()
    seat = practice.PolicyPlay(own, pegging.lookahead, ("pone",))
    ranks = sorted({c >> 2 for c in hand})
    r = pegging.lookahead(ranks, (), 0, tuple(sorted(c >> 2 for c in hand)), 4, False)
    assert seat.play(_seen(False, hand)) == max(c for c in hand if c >> 2 == r)
    assert own.asked == []  # as pone the level was not asked
    assert seat.play(_seen(True, hand)) == min(hand) and own.asked == [True]
    assert seat.discard(_seen(False, hand)) == tuple(hand[:2])
    both = practice.PolicyPlay(own, pegging.lookahead)
    assert both.play(_seen(True, hand)) == max(c for c in hand if c >> 2 == r)
    assert own.asked == [True]  # as dealer too: the level was not asked again
    greedy = practice.PolicyPlay(own, pegging.greedy)  # a policy that sees only the pile
    pile = parse_cards("TD")
    assert greedy.play(_seen(False, hand, pile)) >> 2 == pegging.greedy(ranks, (9,), 10)


def test_a_policy_play_plays_whole_games_and_its_runs_merge_only_with_their_own(
        tmp_path, monkeypatch, capsys):
    wins, _, tally = practice.duel("pro", "pro-half", 2, 5, 61, play=pegging.lookahead)
    assert len(tally.scores) == 2 and all(max(s) >= 61 for s in tally.scores)
    saves = []
    for play in (["--play", "lookahead"], ["--play", "lookahead", "--play-as", "pone"], []):
        save = tmp_path / f"{len(saves)}.json"
        monkeypatch.setattr(sys, "argv", ["practice.py", "--games", "2", "--target", "61",
                                          "--pairings", "easy:standard", "--save", str(save)]
                            + play)
        practice.main()
        saves.append(str(save))
    monkeypatch.setattr(sys, "argv", ["practice.py", "--merge", saves[0]])
    practice.main()
    assert "both levels lay by lookahead as pone and as dealer" in capsys.readouterr().out
    for other in saves[1:]:
        monkeypatch.setattr(sys, "argv", ["practice.py", "--merge", saves[0], other])
        with pytest.raises(SystemExit):
            practice.main()
        assert "the runs lay their cards differently" in capsys.readouterr().err


def test_lays_makes_a_level_of_a_levels_discard_and_a_policys_play():
    name, make_seat = practice.lays_level("pro-lp=pro:lookahead:pone")
    seat = make_seat(None)
    assert name == "pro-lp" and isinstance(seat, practice.PolicyPlay)
    assert isinstance(seat.seat, Pro) and seat.policy is pegging.lookahead
    assert seat.as_ == ("pone",)
    assert practice.lays_level("x=standard:greedy")[1](None).as_ == ("pone", "dealer")
    for bad in ("pro=pro:lookahead", "x=nope:lookahead", "x=pro:nope", "x=pro:greedy:crib"):
        with pytest.raises(argparse.ArgumentTypeError):
            practice.lays_level(bad)
    wins, _, tally = practice.duel("pro-lp", "standard", 2, 5, 61,
                                   extra=dict([practice.lays_level("pro-lp=pro:lookahead")]))
    assert len(tally.scores) == 2 and set(tally.sums) == {"pro-lp", "standard"}
