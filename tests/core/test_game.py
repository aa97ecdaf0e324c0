"""cribcore.game, .deal, .match: the flow of a game (plain asserts, CPython and MicroPython)."""

from checks import expecting

from cribcore.cards import parse_card, parse_cards
from cribcore.counting import check_show_cards, check_total
from cribcore.deal import deal_cards, first_dealer, shuffle, sides_for
from cribcore.game import (
    CRIB,
    CUT,
    DEAL,
    DISCARD,
    OVER,
    PLAY,
    SHOW,
    STARTER,
    Game,
    GameError,
)
from cribcore.match import Match, skunk, win_level, win_points
from cribcore.play import IllegalPlayError
from cribcore.show import score_show

C = parse_card


_raises = expecting(GameError)


class _Bits:
    """A deterministic generator with only getrandbits (same under both interpreters)."""

    def __init__(self, seed):
        self.x = seed

    def getrandbits(self, k):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x >> (31 - k)


class _Range(_Bits):
    def randrange(self, n):
        return self.getrandbits(16) % n


def _drive(g, rng):
    """Play known hands to the end of the game: first cards away, first playable card.

    Returns the sum of the points of every step."""
    total = 0
    for _ in range(5000):                     # far more steps than any game takes
        if g.over:
            return total
        if g.phase == DEAL:
            g.deal(rng)
        elif g.phase == DISCARD:
            for p in range(g.players):
                total += g.discard(p, g.hands[p][:len(g.hands[p]) - 4]).points
        elif g.phase == STARTER:
            total += g.turn_starter().points
        elif g.phase == PLAY:
            cards = g.play.playable()
            total += (g.lay(cards[0]) if cards else g.go()).points
        else:
            total += g.show().points
    assert False, "the game did not end"


def test_sides_and_side_of():
    g = Game(4)
    assert g.sides == ((0, 2), (1, 3)) and g.partnerships
    assert [g.side_of(p) for p in range(4)] == [0, 1, 0, 1] and g.scores == [0, 0]
    g = Game(4, partnerships=False)
    assert [g.side_of(p) for p in range(4)] == [0, 1, 2, 3] and len(g.scores) == 4
    assert sides_for(3) == ((0,), (1,), (2,)) and Game(2).sides == ((0,), (1,))
    assert _raises(g.side_of, 4) and _raises(Game, 5) and _raises(Game, 2, 0)
    assert _raises(Game, 2, 121, True, 2)


def test_cut_for_deal_lowest_deals_and_ties_recut():
    g = Game(2)
    assert g.phase == CUT and g.dealer == -1
    assert g.cut_for_deal(parse_cards("KH 5S")) == 1 and g.phase == DEAL and g.dealer == 1
    g = Game(3)
    assert g.cut_for_deal(parse_cards("5H 5S KD")) == -1 and g.phase == CUT
    assert g.cut_for_deal(parse_cards("AH 5S 5D")) == 0 and g.dealer == 0
    assert first_dealer(parse_cards("9H 9S 2D 2C")) == -1
    assert first_dealer(parse_cards("9H 9S 3D 2C")) == 3
    assert _raises(Game(2).cut_for_deal, parse_cards("5H"))
    assert _raises(first_dealer, [C("5H"), C("5H")])


def test_shuffle_and_deal_are_deterministic():
    for rng_class in (_Bits, _Range):
        a = shuffle(list(range(52)), rng_class(3))
        assert sorted(a) == list(range(52)) and a != list(range(52))
        assert shuffle(list(range(52)), rng_class(3)) == a
        assert shuffle(list(range(52)), rng_class(4)) != a
    hands, crib, stock = deal_cards(list(range(52)), 2, 0)
    assert hands == [[1, 3, 5, 7, 9, 11], [0, 2, 4, 6, 8, 10]]   # left of dealer first
    assert crib == [] and stock == list(range(12, 52))
    g1, g2 = Game(2, dealer=0), Game(2, dealer=0)
    assert g1.deal(_Bits(9)) == g2.deal(_Bits(9))


def test_deal_sizes_and_three_player_crib_gets_four():
    for players, size, away in ((2, 6, 2), (3, 5, 1), (4, 5, 1)):
        g = Game(players, dealer=0)
        hands = g.deal(_Range(players))
        assert [len(h) for h in hands] == [size] * players and g.phase == DISCARD
        assert len(g.crib) == (1 if players == 3 else 0)
        assert len(g.stock) == 52 - size * players - len(g.crib)
        for p in range(players):
            assert g.phase == DISCARD
            g.discard(p, hands[p][:away])
        assert len(g.crib) == 4 and [len(h) for h in g.hands] == [4] * players
        assert g.phase == STARTER
        assert _raises(g.turn_starter, g.hands[0][0]) and _raises(g.turn_starter, g.crib[0])
        assert g.turn_starter(g.stock[5]).over is False and len(g.stock) == 52 - 4 * players - 5


def test_discard_refusals():
    g = Game(2, dealer=0)
    hands = g.deal(_Bits(1))
    assert _raises(g.discard, 0, hands[0][:1])           # 2 cards with 2 players
    assert _raises(g.discard, 0, hands[1][:2])           # not theirs
    assert _raises(g.discard, 0, [hands[0][0], hands[0][0]])
    g.discard(0, hands[0][:2])
    assert _raises(g.discard, 0, hands[0][2:4])          # already discarded
    assert _raises(g.turn_starter) and g.phase == DISCARD


def test_heels_pegs_two_to_the_dealer():
    g = Game(4, dealer=3)
    step = g.turn_starter(C("JD"))
    assert step.points == 2 and not step.over and g.scores == [0, 2]
    assert step.pegs[0].reason == "his heels" and step.pegs[0].player == 3
    assert g.phase == PLAY and g.starter == C("JD")
    g = Game(2, dealer=0)
    assert g.turn_starter(C("QD")).points == 0 and g.scores == [0, 0]


def test_heels_can_end_the_game():
    g = Game(2, target=61, dealer=0)
    g.peg(0, 59)
    step = g.turn_starter(C("JC"))
    assert step.over and g.over and g.winner == 0 and g.phase == OVER
    assert g.scores == [61, 0]
    assert _raises(g.lay, C("5H")) and _raises(g.peg, 1, 2) and _raises(g.show)


def test_peg_stops_at_the_target():
    g = Game(2, target=61, dealer=0)
    assert g.peg(1, 50).points == 50
    step = g.peg(1, 20, "typo fix")
    assert step.points == 11 and step.over and g.scores == [0, 61] and g.winner == 1
    assert _raises(Game(2, dealer=0).peg, 2, 1) and _raises(Game(2, dealer=0).peg, 0, -1)
    assert _raises(Game(2).peg, 0, 1)                    # nobody has dealt yet


def test_play_points_go_to_sides_in_partnerships():
    g = Game(4, dealer=3)
    g.turn_starter(C("2C"))
    steps = [g.lay(c) for c in parse_cards("4H 4S 4D 4C")]
    assert [s.points for s in steps] == [0, 2, 6, 12] and g.scores == [6, 14]
    assert steps[-1].pegs == [(1, 3, 12, "double pair royal for 12")]
    g = Game(4, partnerships=False, dealer=3)
    g.turn_starter(C("2C"))
    for c in parse_cards("4H 4S 4D 4C"):
        g.lay(c)
    assert g.scores == [0, 2, 6, 12]


def test_unknown_hands_play_then_show_in_order():
    g = Game(2, dealer=0)
    g.turn_starter(C("5H"))
    for c in parse_cards("TH 5S JD 5C"):                 # 1, 0, 1, 0
        g.lay(c)
    assert g.go().points == 0
    step = g.go()
    assert step.points == 1 and step.pegs[0].reason == "go for 1"
    for c in parse_cards("4H 6D 2C"):
        g.lay(c)
    assert g.phase == PLAY and g.play.turn == 0 and g.play.count == 12
    assert g.lay(C("KS")).points == 1                    # the final card of the play
    assert g.scores == [4, 0]
    assert g.phase == SHOW and g.show_order() == [1, 0, CRIB] and g.show_next() == 1
    assert g.known_cards(1) == parse_cards("TH JD 4H 2C") and g.known_cards(CRIB) is None
    step = g.show()                                      # cards revealed by the play
    assert step.points == 4 and g.scores == [4, 4] and step.pegs[0].reason == "hand"
    assert _raises(g.show, parse_cards("5S 5C 6D QS"))  # not the cards 0 laid
    assert g.show(parse_cards("KS 5C 6D 5S")).points == 14 and g.show_next() == CRIB
    assert _raises(g.show)                               # the crib is unknown
    assert _raises(g.show, parse_cards("AH 2H 3H 5H"))   # the starter
    assert _raises(g.show, parse_cards("AH 2H 3H KS"))   # laid by player 0
    assert _raises(g.show, None, 19) and _raises(g.show, None, 30)
    assert _raises(g.show, parse_cards("AH 2H 3H 4H"), 5)
    step = g.show(None, 4)
    assert step.pegs[0].reason == "crib" and step.pegs[0].player == 0
    assert g.phase == DEAL and g.dealer == 1 and g.hand_no == 1 and g.starter is None


def test_counting_out_mid_show_stops_the_show():
    g = Game(2, dealer=0)
    g.turn_starter(C("5H"))
    g.peg(1, 118)
    g.end_play()
    assert g.phase == SHOW and g.show_next() == 1
    step = g.show(parse_cards("5C 5D 5S JH"))           # 29, but 3 reach the game hole
    assert step.points == 3 and step.over and g.winner == 1 and g.scores == [0, 121]
    assert g.show_next() is None and _raises(g.show, None, 0)
    assert g.scores[0] == 0                              # the dealer's hand is not counted


def test_a_hand_entered_after_a_partial_play_holds_its_laid_cards():
    g = Game(2, dealer=0)
    g.turn_starter(C("5H"))
    g.lay(C("9C"))                                       # player 1
    g.lay(C("2D"))                                       # player 0
    g.end_play()
    assert g.known_cards(1) is None
    assert _raises(g.show, parse_cards("AH 2H 3H 4H"))   # 9C is missing
    assert _raises(g.show, parse_cards("2D 2H 3H 9C"))   # 2D was laid by player 0
    assert g.show(parse_cards("9C 6C 7H 8S")).points == score_show(
        parse_cards("9C 6C 7H 8S"), C("5H"))


def test_dealer_rotates_left_each_hand():
    g = Game(3, dealer=2)
    seen = []
    for _ in range(4):
        seen.append(g.dealer)
        assert g.show_order() == [(g.dealer + 1) % 3, (g.dealer + 2) % 3, g.dealer, CRIB]
        g.turn_starter(C("AC"))
        g.end_play()
        for _ in range(4):
            g.show(None, 0)
    assert seen == [2, 0, 1, 2] and g.hand_no == 4 and g.phase == DEAL


def _finished(loser_score, target=121, players=2):
    g = Game(players, target, dealer=0)
    for side in range(1, players):
        g.peg(side, loser_score + side - 1)
    g.peg(0, target)
    return g


def test_skunk_game_points_in_a_match():
    m = Match(2)
    rows = [(91, 0, 1), (90, 1, 2), (61, 1, 2), (60, 2, 4), (0, 2, 4)]
    for loser, level, points in rows:
        g = _finished(loser)
        assert skunk(g, 1) == level and skunk(g, 0) == 0 and win_points(g) == points
        res = m.record(g)
        assert res.winner == 0 and res.level == level and res.points == points
    assert m.tally == [13, 0] and m.wins == [5, 0] and len(m.results) == 5
    assert _raises(m.record, g)                          # recorded already
    assert _raises(m.record, Game(2, dealer=0))          # not over
    assert _raises(m.record, _finished(10, 61))          # another target
    m61 = Match(2, 61, points=(1, 3, 5))
    assert m61.record(_finished(30, 61)).points == 3
    assert m61.record(_finished(0, 61)).points == 3      # no double skunk at 61
    assert m61.record(_finished(31, 61)).points == 1
    assert _raises(Match, 2, 121, True, (1, 2)) and _raises(Match, 2, 0)


def test_three_sides_skunk_counts_only_if_every_loser_is_under():
    g = _finished(50, players=3)          # losers at 50 and 51
    assert win_level(g) == 2
    g = Game(3, dealer=0)
    g.peg(1, 95)
    g.peg(2, 10)
    g.peg(0, 121)
    assert skunk(g, 2) == 2 and skunk(g, 1) == 0 and win_level(g) == 0
    assert win_level(Game(3, dealer=0)) == 0


def test_known_hand_games_to_the_end():
    for players in (2, 3, 4):
        m = Match(players)
        g = m.new_game()
        assert g.phase == CUT
        rng = _Range(players)
        while g.cut_for_deal(shuffle(list(range(52)), rng)[:players]) < 0:
            pass
        assert _drive(g, rng) == sum(g.scores)
        assert g.scores[g.winner] == 121 and max(g.scores) == 121
        assert sorted(g.scores)[-2] < 121 and g.hand_no > 0
        assert m.record(g).winner == g.winner


def test_undo_restores_every_step():
    g = Game(2, dealer=1)
    states = [g.state()]
    g.deal(_Bits(5))
    states.append(g.state())
    g.undo()
    states.pop()
    assert g.state() == states[-1]
    g.deal(_Bits(5))
    states.append(g.state())
    for p in (0, 1):
        g.discard(p, g.hands[p][:2])
        states.append(g.state())
    g.turn_starter()
    states.append(g.state())
    while g.phase == PLAY and len(states) < 40:
        cards = g.play.playable()
        g.lay(cards[0]) if cards else g.go()
        states.append(g.state())
    assert g.phase == SHOW
    g.show()
    states.append(g.state())
    g.peg(0, 200)                                        # wins
    assert g.over
    while states:
        g.undo()
        assert g.state() == states.pop()
    assert not g.over and g.phase == DEAL and _raises(g.undo)


def test_play_errors_change_nothing_in_the_game():
    g = Game(2, dealer=0)
    g.turn_starter(C("5H"))
    g.lay(C("KH"))
    before = g.state()
    assert _raises(g.lay, C("KH"), err=IllegalPlayError)
    assert _raises(g.go, err=IllegalPlayError)
    assert _raises(g.lay, C("5H"), err=IllegalPlayError)  # the starter
    assert g.state() == before
    assert _raises(g.deal, _Bits(1)) and _raises(g.discard, 0, [C("AH")])
    assert g.state() == before


def test_check_helpers():
    assert check_total(29) == 29 and check_total(0) == 0
    for bad in (19, 25, 26, 27, 30, -1, True, "5"):
        assert _raises(check_total, bad)
    assert check_show_cards(parse_cards("AH 2H 3H 4H"), None, []) == parse_cards("AH 2H 3H 4H")
    assert _raises(check_show_cards, parse_cards("AH 2H 3H"), None, [])
    assert _raises(check_show_cards, [C("AH"), C("2H"), C("3H"), C("3H")], None, [])
    assert _raises(check_show_cards, parse_cards("AH 2H 3H 4H"), None, [C("4H")])
    assert _raises(Game(2, dealer=0).deal)
    assert _raises(Game(2, dealer=0).deal, _Bits(1), list(range(52)))
    assert _raises(Game(2, dealer=0).deal, None, list(range(51)) + [0])


def test_a_card_that_pegs_nothing_shares_the_empty_pegs():
    # s8-core: no list made for the pegs of a card that scores nothing (most cards laid)
    g = Game(2, dealer=0)
    g.turn_starter(C("5H"))
    quiet = g.lay(C("TH"))
    again = g.lay(C("3S"))
    assert quiet.points == 0 and quiet.pegs == () and again.pegs is quiet.pegs
    assert g.lay(C("2D")).pegs == [(1, 1, 2, "fifteen for 2")]  # a peg: its own list
    assert g.lay(C("9C")).pegs == ()  # count 24
    assert g.go().pegs == ()  # a go that pegs nothing (the other can still lay): the same
