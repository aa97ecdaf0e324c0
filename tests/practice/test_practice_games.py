"""Whole games between two computer players at each level through the practice engine (the
table engine with the practice turns, the flow `crib practice` drives), every entry of the
record checked by an independent referee; the computer shown only its own cards; the same
seed dealing the same game; a seat's wrong answer refused as a player's would be."""

import random

import pytest
from practicekit import Blindfold, Referee, card_value

from crib.practice.computer import Computer, PracticeError, memory_engine, play_game
from crib.practice.game import Dealing, Seen
from crib.practice.levels import LEVELS, make
from cribcore.table.answers import AnswerError

PAIRINGS = [(a, b) for a in LEVELS for b in LEVELS]


def engine_for(seed, target, level="pro"):
    """A practice game's engine kept in memory, both seats the computer's."""
    return memory_engine(["A", "B"], level, target, seed)


def play(levels, seed, target=121):
    """A game between two blindfolded levels on seed; returns (game, seats, referee)."""
    seats = [Blindfold(make(lv, random.Random(f"{seed}/{i}"))) for i, lv in enumerate(levels)]
    engine = engine_for(seed, target)
    for s in seats:
        s.engine = engine
    game = play_game(engine, seats)
    return game, seats, Referee(target).check(engine.session.table.entries, game)


@pytest.mark.parametrize("levels", PAIRINGS)
@pytest.mark.parametrize("target", [61, 121])
def test_whole_games_keep_the_rules(levels, target):
    for seed in range(6):
        game, seats, ref = play(levels, seed, target)
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
        game, _, ref = play(("standard", "pro"), seed, 61)
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
        game, _, ref = play(("easy", "standard"), seed, 61)
        last = ref.events[-2]
        if last[0] in ("lay", "go"):
            assert game.shown == [] and game.play is not None
            endings.add("play")
        elif last[0] == "show" and last[1] != "crib" and last[1] != ref.dealer:
            assert [e[0] for e in game.shown] == [last[1]]
            endings.add("pone's hand")
    assert endings == {"play", "pone's hand"}


def test_same_seed_same_game_and_other_seeds_differ():
    a, _, _ = play(("pro", "easy"), 11)
    b, _, _ = play(("pro", "easy"), 11)
    c, _, _ = play(("pro", "easy"), 12)
    assert a.state() == b.state()
    assert a.state() != c.state()


def test_deals_do_not_depend_on_the_players_choices():
    """The cards dealt on a seed are the same whoever plays them (reproducible practice)."""
    deals = []
    for levels in (("easy", "easy"), ("pro", "standard")):
        game, _, ref = play(levels, 5)
        deals.append(ref.all_dealt)
    n = min(len(deals[0]), len(deals[1]))
    assert n > 3 and deals[0][:n] == deals[1][:n]


@pytest.mark.parametrize("seed", range(200))
def test_the_cut_for_deal_cuts_again_on_a_tie_and_the_lower_card_deals(seed):
    cuts = Dealing(seed).cuts()
    for cards, dealer in cuts[:-1]:
        assert dealer < 0 and cards[0] >> 2 == cards[1] >> 2
    cards, dealer = cuts[-1]
    assert cards[dealer] >> 2 < cards[1 - dealer] >> 2


def test_some_seed_ties_the_cut():
    assert any(len(Dealing(seed).cuts()) > 1 for seed in range(200))


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
def test_a_wrong_answer_from_a_seat_is_refused_and_changes_nothing(how):
    engine = engine_for(1, 121)
    with pytest.raises(AnswerError):
        play_game(engine, [_Bad(how), _Bad(how)])
    table = engine.session.table
    entries = [(e.kind, e.player, list(e.args)) for e in table.entries]
    q = engine.question()
    assert q.kind == ("play" if how == "play" else "discard") and not table.game.over
    good = _Bad(None)
    play_game(engine, [good, good])  # the same question is still open: the game goes on
    assert table.game.over
    assert [(e.kind, e.player, list(e.args)) for e in table.entries][:len(entries)] == entries


def test_two_seats_exactly():
    with pytest.raises(PracticeError):
        play_game(engine_for(1, 121), [make("easy")])


def test_a_question_no_seat_answers_is_an_error():
    """The computer answers only its own seats' questions (`crib practice`: the player's
    are typed): played alone, it stops at the first question of another seat."""
    engine = engine_for(1, 121)
    with pytest.raises(PracticeError, match="no seat answers 'discard' for player 0"):
        Computer(engine, {1: make("easy")}).play()
    assert Computer(engine, {1: make("easy")}).answer(engine.question()) is None


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
    play_game(engine_for(3, 61), [Peek(make("standard")), Peek(make("standard"))])
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
