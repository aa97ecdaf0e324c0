"""cribcore.play: pegging scores and the play tracker (plain asserts, CPython and MicroPython)."""

from checks import expecting

from cribcore import CoreError
from cribcore.cards import InvalidCardError, parse_card, parse_cards
from cribcore.play import (
    GO,
    LAST_CARD,
    LAY,
    IllegalPlayError,
    Play,
    PlayItem,
    announce,
    play_breakdown,
    score_play,
)

C = parse_card


_raises = expecting(IllegalPlayError)


def _lay(p, text):
    """Lay each card of text in turn; return the points of each lay."""
    out = []
    for c in parse_cards(text):
        out.append(sum([e.points for e in p.lay(c)]))
    return out


# (pile, points for its last card)
SCORE_ROWS = [
    ("", 0),
    ("7H 8S", 2),                  # fifteen
    ("KH 5S", 2),                  # face card fifteen
    ("KH QS 5C 6D", 2),            # thirty-one
    ("7H 7S", 2),                  # pair
    ("3H 3S 3D", 6),               # pair royal
    ("AH AS AD AC", 12),           # double pair royal
    ("2H 2S 2D 2C", 12),
    ("5H 5S 5D", 8),               # fifteen and a pair royal
    ("TH 5S 5D 5C", 6),            # pair royal at 25
    ("5H 6S 5D", 0),               # equal ranks apart are no pair
    ("3H 5S 4D", 3),               # run out of order
    ("4H 6S 5D", 5),               # fifteen and a run of 3
    ("3H 5S 4D 6C", 4),            # run of 4
    ("3H 5S 4D 6C 2H", 5),         # run of 5
    ("AH 3H 2S", 3),               # ace is low
    ("QH KS AD", 0),               # no wrap-around
    ("AH 2S 3D 4C", 4),            # only the longest run counts
    ("3H 4S 9D 5C", 0),            # run broken by a foreign card
    ("3H 4S 4D 5C", 0),            # a repeated rank breaks the run
    ("3H 4S 5D 3C", 5),            # 4-5-3 is a run, and fifteen
    ("6H 4S 5D 3C 2H", 5),
    ("JH QS 5D 3C 3S", 4),         # thirty-one and a pair
    ("TH 9S 4D 3C 5H", 5),         # thirty-one and a run of 3
    ("2C 3C 4C 2D", 3),            # run 3-4-2 after the first 2
]


def test_score_play_rows():
    for text, points in SCORE_ROWS:
        pile = parse_cards(text)
        assert score_play(pile) == points, (text, score_play(pile), points)
        assert sum([item.points for item in play_breakdown(pile)]) == points, text


def test_breakdown_kinds_and_announcement():
    assert play_breakdown(parse_cards("5H 5S 5D")) == [("fifteen", 2), ("pair royal", 6)]
    assert play_breakdown(parse_cards("AH AS AD AC")) == [("double pair royal", 12)]
    assert play_breakdown(parse_cards("9H 9S")) == [("pair", 2)]
    assert play_breakdown(parse_cards("KH QS 5C 6D")) == [("thirty-one", 2)]
    items = play_breakdown(parse_cards("4H 6S 5D"))
    assert items == [PlayItem("fifteen", 2), PlayItem("run", 3)]
    assert announce(items) == "fifteen for 2, run of 3 for 5"
    assert announce([]) == ""
    assert play_breakdown(parse_cards("8H 2S")) == []


def test_score_play_refuses_bad_piles():
    assert _raises(score_play, parse_cards("KH QS JD 2C"))      # 32
    assert _raises(score_play, [C("5H"), C("5H")])              # the same card twice
    assert _raises(score_play, [C("5H"), 52], err=InvalidCardError)
    assert _raises(score_play, ["5H"], err=CoreError)


def test_two_player_known_hands_to_the_end():
    p = Play(2, 1, [parse_cards("4H 5C 9D KS"), parse_cards("6S 5D JH QC")])
    assert p.turn == 0 and p.leader == 0 and p.known
    assert _lay(p, "4H 6S 5C 5D 9D") == [0, 0, 5, 2, 0]   # run 4-6-5 and fifteen; pair
    assert p.count == 29 and p.turn == 1 and p.playable() == []
    assert p.go() == []
    assert p.turn == 0 and p.gone == [False, True] and p.can_go()
    ev = p.go()
    assert [(e.player, e.points) for e in ev] == [(0, 1)]
    assert ev[0].reasons == (PlayItem(LAST_CARD, 1),)
    assert p.count == 0 and p.pile == [] and p.turn == 1 and p.leader == 1 and p.resets == 1
    assert p.gone == [False, False] and p.last == -1
    assert _lay(p, "JH KS") == [0, 0]
    ev = p.lay(C("QC"))       # J-K-Q run, and the last card of the play
    assert ev[0].reasons == (PlayItem("run", 3), PlayItem(LAST_CARD, 1))
    assert p.over and p.turn == -1 and p.points == [6, 6]
    assert _raises(p.lay, C("AH")) and _raises(p.go) and not p.can_go()


def test_thirty_one_is_two_in_all_even_as_final_card():
    p = Play(2, 1, [parse_cards("KH QH JH AH"), parse_cards("KS QS JS AS")])
    assert _lay(p, "KH KS QH") == [0, 2, 0]
    assert p.playable() == [C("AS")] and _raises(p.go)   # the ace fits: no go
    assert _lay(p, "AS") == [2]                           # 31, no last-card point
    assert p.count == 0 and p.turn == 0
    assert _lay(p, "JH QS AH") == [0, 0, 0]
    ev = p.lay(C("JS"))
    assert ev[0].reasons == (PlayItem("thirty-one", 2),) and p.over
    assert p.points == [0, 6]


def test_cards_before_a_reset_never_combine():
    p = Play(2, 1)
    assert _lay(p, "TH JS 5C 6D") == [0, 0, 0, 2]
    assert p.count == 0 and p.turn == 0
    assert _lay(p, "7H") == [0]               # 5-6 | 7: no run across the reset
    assert p.pile == [C("7H")] and p.count == 7
    assert _lay(p, "7S") == [2]
    p2 = Play(2, 0)
    _lay(p2, "KH KS 6H 5D")                   # 31 with the 5
    assert p2.turn == 1 and _lay(p2, "5H") == [0]   # no pair with the 5 before the reset


def test_three_player_go_sequences():
    p = Play(3, 2)
    assert _lay(p, "TH TS 9C") == [0, 2, 0]
    assert p.go() == []                       # player 0, count 29
    assert p.turn == 1 and _lay(p, "AS") == [0]
    assert p.turn == 2 and p.go() == []
    assert p.turn == 1                        # 0 said go: skipped
    ev = p.lay(C("AH"))                       # 31 and a pair
    assert ev[0].player == 1 and ev[0].points == 4
    assert p.count == 0 and p.leader == 2 and p.turn == 2
    assert _lay(p, "KC QD 8H") == [0, 0, 0]   # player 1 has now laid all 4
    assert p.cards_left(1) == 0 and p.turn == 2
    assert p.go() == [] and p.turn == 0
    ev = p.go()                               # 1 holds nothing, 2 said go: nobody can play
    assert [(e.player, e.points) for e in ev] == [(1, 1)]  # last card to the last to lay
    assert p.turn == 2
    assert _lay(p, "2H 3H") == [0, 0]
    assert p.turn == 2                        # 1 holds nothing: skipped
    assert _lay(p, "4H") == [3]
    ev = p.lay(C("5S"))
    assert ev[0].reasons == (PlayItem("run", 4), PlayItem(LAST_CARD, 1)) and p.over
    assert p.points == [5, 7, 3]
    assert [a[0] for a in p.actions].count(GO) == 4
    assert p.actions[0] == (LAY, 0, C("TH"))


def test_four_player_sequences():
    p = Play(4, 3)
    assert _lay(p, "7H 7S 7D 7C") == [0, 2, 6, 12]
    assert p.turn == 0 and p.go() == []
    assert _lay(p, "3H") == [2]               # player 1 makes 31
    assert p.turn == 2 and p.leader == 2
    assert _lay(p, "KH KD 9S") == [0, 2, 0]
    assert p.turn == 1 and p.go() == [] and p.go() == []     # players 1 and 2
    assert p.turn == 3 and _lay(p, "AS") == [0]
    assert p.turn == 0 and p.gone == [False, True, True, False]
    assert _lay(p, "AD") == [4]               # 31 and a pair, by player 0
    assert p.points == [4, 4, 6, 14] and p.turn == 1


def test_count_over_31_refused_and_nothing_changes():
    p = Play(2, 0)
    _lay(p, "KH QS 9D")
    before = p.state()
    assert _raises(p.lay, C("3C"))
    assert p.state() == before
    assert _raises(p.lay, C("9D"))            # already laid
    assert _raises(p.lay, 60, err=InvalidCardError)
    assert p.state() == before


def test_go_refused_while_a_card_fits():
    p = Play(2, 0)
    _lay(p, "KH 6S 5D")                       # 21: any card fits
    assert not p.can_go() and _raises(p.go)
    assert _lay(p, "AC") == [0] and p.can_go()   # 22: a go is believed
    k = Play(2, 1, [parse_cards("KH QH 2D 3D"), parse_cards("KS QS AS 4C")])
    _lay(k, "KH KS")
    assert k.playable() == [C("QH"), C("2D"), C("3D")]
    _lay(k, "2D")                             # 22, but the ace of spades fits
    assert not k.can_go() and _raises(k.go)
    assert k.playable() == [C("AS"), C("4C")]


def test_unknown_hands_refusals():
    p = Play(3, 0, starter=C("5H"))
    assert p.playable() is None
    assert _raises(p.lay, C("5H"))            # the starter
    _lay(p, "2C")
    assert _raises(p.lay, C("2C"))
    assert _raises(p.lay, C("3C"), player=1) and p.turn == 2   # not player 1's turn
    assert _lay(p, "3C") == [0] and _raises(p.go, player=2)


def test_constructor_refusals():
    assert _raises(Play, 5, 0) and _raises(Play, 2, 2) and _raises(Play, 2, -1)
    assert _raises(Play, True, 0)
    assert _raises(Play, 2, 0, [parse_cards("AH 2H 3H 4H")])
    assert _raises(Play, 2, 0, [parse_cards("AH 2H 3H"), parse_cards("AS 2S 3S 4S")])
    assert _raises(Play, 2, 0, [parse_cards("AH 2H 3H 4H"), parse_cards("AH 2S 3S 4S")])
    assert _raises(Play, 2, 0, [parse_cards("AH 2H 3H 4H"), parse_cards("AS 2S 3S 4S")],
                   C("4S"))
    assert _raises(Play, 2, 0, None, 52, err=InvalidCardError)


def test_undo_restores_each_state():
    p = Play(3, 2)
    states = [p.state()]
    for card in parse_cards("TH TS 9C") + [None, C("AS"), None, C("AH"), C("KC")]:
        p.go() if card is None else p.lay(card)
        states.append(p.state())
    states.pop()
    while states:
        undone = p.undo()
        assert undone[0] in (LAY, GO)
        assert p.state() == states.pop()
    assert _raises(p.undo)


class _Lcg:
    """A tiny deterministic generator (same numbers under CPython and MicroPython)."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def test_known_hand_plays_to_the_end():
    for players in (2, 3, 4):
        for seed in range(12):
            rng = _Lcg(seed)
            deck = list(range(52))
            hands = []
            for _ in range(players):
                hands.append([deck.pop(rng.below(len(deck))) for _ in range(4)])
            p = Play(players, seed % players, hands)
            total = 0
            events = []
            for _ in range(64):                             # a play has at most 32 actions
                if p.over:
                    break
                cards = p.playable()
                events = p.lay(cards[rng.below(len(cards))]) if cards else p.go()
                assert p.count <= 31
                total += sum([e.points for e in events])
            assert p.over and events and events[-1].points >= 1   # the final card scores
            laid = sorted([c for cards in p.laid for c in cards])
            assert laid == sorted([c for h in hands for c in h])
            assert sum(p.points) == total and p.turn == -1
