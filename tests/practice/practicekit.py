"""Helpers for the practice tests: a referee that checks every hand against its own model of
the rules, a blindfold that checks what a seat is shown, and a scribe that writes down a
seat's choices as the answers a player would type."""

from cribcore.cards import card_name
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
    """A practice Listener that checks each event against an independent model of the hand:
    whose turn, counts never past 31, go only when nothing fits, the points of each card,
    of a go and of the last card, the show in order, and nothing after the game is over."""

    def __init__(self):
        self.events = []
        self.ended = False
        self.hands = 0
        self.pegged = [0, 0]  # every point the events pegged, per player
        self.play_points = [0, 0]
        self.max_count = 0
        self.goes = 0
        self.last_cards = 0

    def _pegs(self, step):
        for peg in step.pegs:
            self.pegged[peg.player] += peg.points

    def _event(self, kind, *args):
        assert not self.ended, f"{kind} after the game was over"
        self.events.append((kind,) + args)

    def cut(self, cuts, dealer):
        self._event("cut", tuple(cuts), dealer)
        assert len(cuts) == 2 and cuts[0] != cuts[1]
        low = sorted(c >> 2 for c in cuts)
        assert (dealer < 0) == (low[0] == low[1])
        if dealer >= 0:
            assert cuts[dealer] >> 2 == low[0]
            self.dealer = dealer

    def hand(self, game):
        self._event("hand", game.hand_no)
        if self.hands:
            assert game.dealer == 1 - self.dealer  # the deal alternates
        self.dealer = game.dealer
        self.hands += 1
        self.dealt = [tuple(sorted(h)) for h in game.hands]
        assert all(len(h) == 6 for h in self.dealt)
        assert not set(self.dealt[0]) & set(self.dealt[1])
        self.discards = {}
        self.shows = []

    def discarded(self, player, dealt, discard, dealer):
        self._event("discard", player, tuple(discard))
        assert tuple(dealt) == self.dealt[player] and dealer == (player == self.dealer)
        assert player not in self.discards and len(discard) == 2
        assert set(discard) <= set(dealt)
        self.discards[player] = tuple(discard)

    def starter(self, card, step):
        self._event("starter", card)
        assert set(self.discards) == {0, 1}
        assert card not in self.dealt[0] + self.dealt[1]
        self.start = card
        heels = 2 if card >> 2 == 10 else 0
        assert step.points == heels or (step.over and step.points < heels)
        assert all(p.player == self.dealer for p in step.pegs)
        self._pegs(step)
        self.ended = step.over
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

    def laid(self, player, card, count, step):
        self._event("lay", player, card)
        assert player == self.turn and card in self.left[player]
        assert not self.gone[player]
        self.left[player].remove(card)
        self.pile.append(card)
        total = sum(card_value(c) for c in self.pile)
        assert total == count and count <= 31
        self.max_count = max(self.max_count, count)
        want = pile_points(self.pile)
        last_card = count < 31 and (
            not (self.left[0] or self.left[1])
            or (self._out(1 - player) and not self.left[player]))
        want += 1 if last_card else 0
        self.last_cards += last_card
        self._check(player, step, want)
        self.last = player
        if count == 31 or last_card:
            self._reset(player)
        else:
            self.turn = player if self._out(1 - player) else 1 - player

    def said_go(self, player, step):
        self._event("go", player)
        self.goes += 1
        assert player == self.turn and self.left[player]
        room = 31 - sum(card_value(c) for c in self.pile)
        assert all(card_value(c) > room for c in self.left[player]), "go with a card that fits"
        self.gone[player] = True
        if self._out(1 - player):  # nobody can play: the last to lay takes the point
            assert self.last >= 0
            self.last_cards += 1
            self._check(self.last, step, 1)
            self._reset(self.last)
        else:
            assert step.points == 0 and not step.pegs
            self.turn = 1 - player

    def _check(self, player, step, want):
        if step.over:
            assert step.points <= want
        else:
            assert step.points == want, (self.pile, step, want)
        assert all(p.player == player for p in step.pegs)
        self.play_points[player] += step.points
        self._pegs(step)
        self.ended = step.over

    def shown(self, entry, player, cards, starter, items, step):
        self._event("show", entry, player)
        order = [1 - self.dealer, self.dealer, CRIB]
        assert entry == order[len(self.shows)], "shown out of counting order"
        assert not (self.left[0] or self.left[1]) or self.ended
        assert starter == self.start
        crib = entry == CRIB
        want_cards = self.discards[0] + self.discards[1] if crib else self.kept[entry]
        assert sorted(cards) == sorted(want_cards)
        assert player == (self.dealer if crib else entry)
        want = score_show(list(cards), starter, crib)
        assert sum(it.points for it in items) == want
        if step.over:
            assert step.points <= want
        else:
            assert step.points == want
        self.shows.append(entry)
        self._pegs(step)
        self.ended = step.over

    def over(self, game):
        assert self.ended and game.over
        assert game.scores[game.winner] == game.target
        assert game.scores[1 - game.winner] < game.target
        assert tuple(self.pegged) == tuple(game.scores)  # players are sides with two
        self.ended = True
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
        self.engine = None  # set once the Practice exists
        self.asked = 0

    def _check(self, seen):
        assert all(_plain(x) for x in seen), seen
        opp = 1 - seen.me
        laid = {c for q, c in seen.played if q == opp}
        hidden = set(self.engine.dealt[opp]) - laid
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
