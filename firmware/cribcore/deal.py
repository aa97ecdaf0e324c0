"""Dealing and the ground of the game flow: phases, GameError, sides, deal sizes, first
dealer by cut, a Fisher-Yates shuffle.

Randomness comes in as a generator object with `randrange(n)` or `getrandbits(k)`
(CPython's random.Random, MicroPython's random module, or a test's own), never a clock.
"""

from cribcore import CoreError
from cribcore.cards import check_card

# Cards dealt to each player and discarded to the crib, by number of players (RULES.md).
HAND_SIZES = (0, 0, 6, 5, 5)
DISCARDS = (0, 0, 2, 1, 1)

# The phases of a game, in order (OVER once a side reaches the target).
CUT = "cut"
DEAL = "deal"
DISCARD = "discard"
STARTER = "starter"
PLAY = "play"
SHOW = "show"
OVER = "over"


class GameError(CoreError):
    """An action the game flow does not allow now, or a bad argument to it."""


def check_players(players):
    """Return players if it is 2, 3 or 4, else raise GameError."""
    if type(players) is not int or not 2 <= players <= 4:
        raise GameError("players must be 2, 3 or 4, got %r" % (players,))
    return players


def sides_for(players, partnerships=True):
    """The sides as tuples of players: 4 in partnerships are (0, 2) and (1, 3)."""
    check_players(players)
    if players == 4 and partnerships:
        return ((0, 2), (1, 3))
    return tuple([(p,) for p in range(players)])


def below(rng, n):
    """A uniform random int 0..n-1 from rng (randrange, or getrandbits by rejection)."""
    if hasattr(rng, "randrange"):
        return rng.randrange(n)
    k = 1
    while (1 << k) < n:
        k += 1
    while True:
        r = rng.getrandbits(k)
        if r < n:
            return r


def shuffle(items, rng):
    """Shuffle the list items in place (Fisher-Yates) and return it."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def check_deck(deck):
    """Return deck as a list if it holds all 52 cards once each, else raise GameError."""
    deck = [check_card(c) for c in deck]
    if len(deck) != 52 or sorted(deck) != list(range(52)):
        raise GameError("a deck needs all 52 cards once each, got %r" % (deck,))
    return deck


def deal_cards(deck, players, dealer):
    """(hands, crib, stock) dealt from deck one card at a time, left of the dealer first.

    With 3 players one card from the deck goes to the crib, so it ends with 4.
    """
    check_players(players)
    size = HAND_SIZES[players]
    hands = [[] for _ in range(players)]
    i = 0
    for _ in range(size):
        for k in range(1, players + 1):
            hands[(dealer + k) % players].append(deck[i])
            i += 1
    crib = []
    if players == 3:
        crib.append(deck[i])
        i += 1
    return hands, crib, list(deck[i:])


def first_dealer(cuts):
    """The player who cut the lowest rank (cuts: one card per player); -1 means recut.

    Only a tie for the lowest rank forces a recut.
    """
    check_players(len(cuts))
    ranks = [check_card(c) >> 2 for c in cuts]
    for i in range(len(cuts)):
        if cuts[i] in cuts[i + 1:]:
            raise GameError("card cut twice: %r" % (cuts[i],))
    low = min(ranks)
    if ranks.count(low) > 1:
        return -1
    return ranks.index(low)

