"""Whole games between two computer players at each level through the practice engine (the
flow `crib practice` drives), every hand checked by an independent referee; the computer
shown only its own cards; the same seed dealing the same game."""

import random

import pytest
from practicekit import Blindfold, Referee, card_value

from crib.practice.game import GameRecord, Listener, Practice, PracticeError, Seen, rngs
from crib.practice.levels import LEVELS, make
from cribcore.game import Game

PAIRINGS = [(a, b) for a in LEVELS for b in LEVELS]


def play(levels, seed, target=121, listener=None):
    """A game between two blindfolded levels on seed; returns (game, seats)."""
    deal_rng, rng = rngs(seed)
    seats = [Blindfold(make(lv, random.Random(f"{seed}/{i}"))) for i, lv in enumerate(levels)]
    p = Practice(seats, target, deal_rng, listener=listener)
    for s in seats:
        s.engine = p
    return p.run(), seats


@pytest.mark.parametrize("levels", PAIRINGS)
@pytest.mark.parametrize("target", [61, 121])
def test_whole_games_keep_the_rules(levels, target):
    for seed in range(6):
        ref = Referee()
        game, seats = play(levels, seed, target, ref)
        assert ref.events[-1] == ("over", game.winner)
        assert game.scores[game.winner] == target  # counted out exactly at the target
        assert ref.hands == game.hand_no + 1
        assert ref.max_count <= 31
        assert all(s.asked > 0 for s in seats)


def test_games_cover_go_last_card_thirty_one_and_counting_out_everywhere():
    """Across many games the referee sees goes, last cards, 31s and every way to end."""
    ends = set()
    goes = last_cards = thirty_ones = 0
    for seed in range(40):
        ref = Referee()
        game, _ = play(("standard", "pro"), seed, 61, ref)
        goes += ref.goes
        last_cards += ref.last_cards
        thirty_ones += ref.max_count == 31
        ends.add(ref.events[-2][0])  # the event that counted out: starter, lay, go, show
    assert goes and last_cards and thirty_ones
    assert {"lay", "show"} <= ends


def test_counting_out_stops_the_game_mid_hand():
    """A game that ends in the play counts no hand; one that ends at the pone's hand counts
    neither the dealer's hand nor the crib, although they were known."""
    endings = set()
    for seed in range(60):
        ref = Referee()
        game, _ = play(("easy", "standard"), seed, 61, ref)
        last = ref.events[-2]
        if last[0] in ("lay", "go"):
            assert game.shown == [] and game.play is not None
            endings.add("play")
        elif last[0] == "show" and last[1] != "crib" and last[1] != ref.dealer:
            assert [e[0] for e in game.shown] == [last[1]]
            endings.add("pone's hand")
    assert endings == {"play", "pone's hand"}


def test_same_seed_same_game_and_other_seeds_differ():
    a, _ = play(("pro", "easy"), 11)
    b, _ = play(("pro", "easy"), 11)
    c, _ = play(("pro", "easy"), 12)
    assert a.state() == b.state()
    assert a.state() != c.state()


def test_deals_do_not_depend_on_the_players_choices():
    """The cards dealt on a seed are the same whoever plays them (reproducible practice)."""
    class Deals(Listener):
        def __init__(self):
            self.seen = []

        def hand(self, game):
            self.seen.append(tuple(tuple(h) for h in game.hands))
    deals = []
    for levels in (("easy", "easy"), ("pro", "standard")):
        d = Deals()
        play(levels, 5, listener=d)
        deals.append(d.seen)
    n = min(len(deals[0]), len(deals[1]))
    assert n > 3 and deals[0][:n] == deals[1][:n]


class _Bad:
    """A seat that answers wrongly in one way."""

    def __init__(self, how):
        self.how = how

    def discard(self, seen):
        if self.how == "discard":
            return (seen.hand[0], seen.hand[0])
        if self.how == "foreign":
            return tuple(c for c in range(52) if c not in seen.hand)[:2]
        return seen.hand[:2]

    def play(self, seen):
        if self.how == "play":
            return next(c for c in range(52) if c not in seen.playable)
        return seen.playable[0]


@pytest.mark.parametrize("how", ["discard", "foreign", "play"])
def test_a_wrong_answer_from_a_seat_is_refused(how):
    p = Practice([_Bad(how), _Bad(how)], 121, random.Random(1))
    with pytest.raises(PracticeError):
        p.run()
    assert not p.game.over


def test_two_seats_exactly():
    with pytest.raises(PracticeError):
        Practice([make("easy")], 121)


def test_seen_is_what_the_seat_sees():
    """While discarding: the 6 dealt; in the play: what is left, the pile and the count."""
    seen_log = []

    class Peek:
        def __init__(self, inner):
            self.inner = inner

        def discard(self, seen):
            seen_log.append(seen)
            return self.inner.discard(seen)

        def play(self, seen):
            seen_log.append(seen)
            return self.inner.play(seen)
    p = Practice([Peek(make("standard")), Peek(make("standard"))], 61, random.Random(3))
    p.run()
    first = seen_log[0]
    assert isinstance(first, Seen) and len(first.hand) == 6 and first.starter is None
    assert first.kept == () and first.discard == () and first.playable == ()
    plays = [s for s in seen_log if s.playable]
    assert plays
    for s in plays:
        assert len(s.kept) == 4 and len(s.discard) == 2 and s.starter is not None
        assert set(s.hand) <= set(s.kept) and set(s.playable) <= set(s.hand)
        assert s.count == sum(card_value(c) for c in s.pile)
        assert all(s.count + card_value(c) <= 31 for c in s.playable)
        assert 0 <= s.opp_left <= 4 and s.target == 61


def test_game_record_drives_the_core_game_it_is_given():
    g = Game(2, 61)
    seats = [make("easy", random.Random(1)), make("easy", random.Random(2))]
    p = Practice(seats, 61, random.Random(9), GameRecord(g))
    assert p.game is g
    assert p.run() is g and g.over and g.scores[g.winner] == 61


def test_a_hand_starts_only_when_a_deal_is_due():
    p = Practice([make("easy"), make("easy")], 61, random.Random(2))
    p.step()  # the cut for deal
    p.deal()
    with pytest.raises(PracticeError):
        p.step()
