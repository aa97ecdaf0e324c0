"""Helpers for the practice tests: a referee that checks every entry of a game against its
own model of the rules, a blindfold that checks what a seat is shown, and a scribe that
writes down a seat's choices as the answers a player would type."""

from cribcore.cards import card_name, parse_card
from cribcore.game import CRIB
from cribcore.show import score_show


def card_value(c):
    """Counting value, written out here rather than taken from the core."""
    return min((c >> 2) + 1, 10)


def pile_points(pile):
    """Points for the last card of pile (cards since the count was 0), from the rules text:
    15 and 31 for 2, the equal ranks at the end (2, 6, 12), the longest run suffix."""
    count = sum(card_value(c) for c in pile)
    pts = 2 if count in (15, 31) else 0
    ranks = [c >> 2 for c in pile]
    same = 1
    while same < len(ranks) and ranks[-1 - same] == ranks[-1]:
        same += 1
    pts += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    run = 0
    for n in range(3, len(ranks) + 1):
        tail = ranks[-n:]
        if len(set(tail)) == n and max(tail) - min(tail) == n - 1:
            run = n
    return pts + run


class Referee:
    """Checks the entries of a practice game (its record, as the table engine wrote it)
    against an independent model of the rules: the cut, the deal alternating, the discards,
    whose turn, counts never past 31, go only when nothing fits, the points of each card,
    of a go and of the last card, the show in order, and nothing after the game is over."""

    def __init__(self, target):
        self.target = target
        self.events = []
        self.ended = False
        self.hands = 0
        self.dealer = None
        self.pegged = [0, 0]  # every point the entries pegged, per player
        self.play_points = [0, 0]
        self.max_count = 0
        self.goes = 0
        self.last_cards = 0
        self.all_dealt = []  # the 6 cards dealt to each player, hand by hand

    def check(self, entries, game):
        """Every entry in order, then the end of the game."""
        for e in entries:
            getattr(self, "_" + e.kind)(e)
        self._over(game)
        return self

    def _event(self, kind, *args):
        assert not self.ended, f"{kind} after the game was over"
        self.events.append((kind,) + args)

    def _points(self, e, player, want):
        """The entry pegs want for player, or what reaches the target exactly (counting out)."""
        room = self.target - self.pegged[player]
        assert e.points == min(want, room), (e, want, room)
        if e.points:
            assert e.info["scorer"] == player
        self.pegged[player] += e.points
        self.ended = self.pegged[player] == self.target
        return e.points

    def _cut(self, e):
        cuts = e.args[0]
        self._event("cut", tuple(cuts))
        assert len(cuts) == 2 and cuts[0] >> 2 != cuts[1] >> 2  # a tie cuts again
        self.first_dealer = min((0, 1), key=lambda p: cuts[p] >> 2)

    def _deal(self, e):
        self._event("hand", self.hands)
        want = self.first_dealer if self.dealer is None else 1 - self.dealer
        assert e.player == want  # the lower cut deals first, then the deal alternates
        self.dealer = e.player
        self.hands += 1
        self.dealt = {}
        self.discards = {}
        self.shows = []

    def _discard(self, e):
        p, discard = e.args
        dealt = tuple(sorted(parse_card(c) for c in e.info["cards"]))
        self._event("discard", p, tuple(discard))
        assert p == e.player and len(dealt) == 6
        assert p == (1 - self.dealer if not self.discards else self.dealer)  # the pone first
        assert p not in self.discards and len(discard) == 2 == len(set(discard))
        assert set(discard) <= set(dealt)
        self.dealt[p] = dealt
        self.discards[p] = tuple(discard)
        if len(self.dealt) == 2:
            assert not set(self.dealt[0]) & set(self.dealt[1])
            self.all_dealt.append((self.dealt[0], self.dealt[1]))

    def _starter(self, e):
        card = e.args[0]
        self._event("starter", card)
        assert set(self.discards) == {0, 1}
        assert card not in self.dealt[0] + self.dealt[1]
        self.start = card
        self._points(e, self.dealer, 2 if card >> 2 == 10 else 0)  # his heels
        self.kept = [tuple(c for c in self.dealt[p] if c not in self.discards[p])
                     for p in (0, 1)]
        self.left = [list(k) for k in self.kept]
        self.pile = []
        self.gone = [False, False]
        self.last = -1
        self.turn = 1 - self.dealer  # the pone leads

    def _out(self, p):
        return self.gone[p] or not self.left[p]

    def _reset(self, last):
        self.pile = []
        self.gone = [False, False]
        self.last = -1
        other = 1 - last
        self.turn = other if self.left[other] else last

    def _lay(self, e):
        player, card = e.player, e.args[0]
        self._event("lay", player, card)
        assert player == self.turn and card in self.left[player]
        assert not self.gone[player]
        self.left[player].remove(card)
        self.pile.append(card)
        count = sum(card_value(c) for c in self.pile)
        assert count <= 31
        self.max_count = max(self.max_count, count)
        want = pile_points(self.pile)
        last_card = count < 31 and (
            not (self.left[0] or self.left[1])
            or (self._out(1 - player) and not self.left[player]))
        want += 1 if last_card else 0
        self.last_cards += last_card
        self.play_points[player] += self._points(e, player, want)
        self.last = player
        if count == 31 or last_card:
            self._reset(player)
        else:
            self.turn = player if self._out(1 - player) else 1 - player

    def _go(self, e):
        player = e.player
        self._event("go", player)
        self.goes += 1
        assert player == self.turn and self.left[player]
        room = 31 - sum(card_value(c) for c in self.pile)
        assert all(card_value(c) > room for c in self.left[player]), "go with a card that fits"
        self.gone[player] = True
        if self._out(1 - player):  # nobody can play: the last to lay takes the point
            assert self.last >= 0
            self.last_cards += 1
            self.play_points[self.last] += self._points(e, self.last, 1)
            self._reset(self.last)
        else:
            assert e.points == 0
            self.turn = 1 - player

    def _show(self, e):
        entry, player = e.info["entry"], e.player
        self._event("show", entry, player)
        order = [1 - self.dealer, self.dealer, CRIB]
        assert entry == order[len(self.shows)], "shown out of counting order"
        assert not (self.left[0] or self.left[1])
        crib = entry == CRIB
        cards = [parse_card(c) for c in e.info["cards"]]
        want_cards = self.discards[0] + self.discards[1] if crib else self.kept[entry]
        assert sorted(cards) == sorted(want_cards)
        assert player == (self.dealer if crib else entry)
        want = score_show(cards, self.start, crib)
        assert e.info["actual"] == want
        self._points(e, player, want)
        self.shows.append(entry)

    def _over(self, game):
        assert self.ended and game.over
        assert game.scores[game.winner] == game.target == self.target
        assert game.scores[1 - game.winner] < game.target
        assert tuple(self.pegged) == tuple(game.scores)  # players are sides with two
        self.events.append(("over", game.winner))


def visible_cards(seen):
    """Every card a Seen shows."""
    out = set(seen.hand) | set(seen.kept) | set(seen.discard) | set(seen.pile)
    out |= set(seen.playable) | {c for _, c in seen.played}
    if seen.starter is not None:
        out.add(seen.starter)
    return out


def _plain(x):
    """Whether x is plain data (ints, bools, None, nested tuples of them)."""
    if x is None or type(x) in (int, bool):
        return True
    return type(x) is tuple and all(_plain(y) for y in x)


class Blindfold:
    """A seat wrapper that checks each Seen holds plain data and none of the opponent's
    unplayed cards (nor its discards), then asks the wrapped seat."""

    def __init__(self, inner):
        self.inner = inner
        self.engine = None  # set once the engine exists
        self.asked = 0

    def _check(self, seen):
        assert all(_plain(x) for x in seen), seen
        opp = 1 - seen.me
        laid = {c for q, c in seen.played if q == opp}
        hidden = set(self.engine.session.turns.hand_cards(opp)[0]) - laid
        assert hidden and not visible_cards(seen) & hidden
        self.asked += 1

    def discard(self, seen):
        self._check(seen)
        return self.inner.discard(seen)

    def play(self, seen):
        self._check(seen)
        return self.inner.play(seen)


class Scribe:
    """A seat that plays like inner and writes each choice as a typed answer."""

    def __init__(self, inner):
        self.inner = inner
        self.answers = []  # (kind, text)

    def discard(self, seen):
        dis = self.inner.discard(seen)
        self.answers.append(("discard", " ".join(card_name(c) for c in dis)))
        return dis

    def play(self, seen):
        c = self.inner.play(seen)
        self.answers.append(("play", card_name(c)))
        return c
