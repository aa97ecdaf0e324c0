"""A match: a series of games and the tally of game points (win, skunk, double skunk).

    m = Match(players=2, target=121, partnerships=True, points=(1, 2, 4))
    g = m.new_game(dealer=None)   # a Game with the match's settings
    ... drive g until g.over ...
    m.record(g) -> Result(winner, level, points)      m.tally, m.wins, m.results

In a game of 3 sides the win counts as a skunk only if every loser is under the line.
"""

from collections import namedtuple

from cribcore.deal import GameError, sides_for
from cribcore.game import Game
from cribcore.rules import GAME_POINTS, check_target, skunk_level

Result = namedtuple("Result", ("winner", "level", "points"))


def skunk(game, side):
    """0, 1 (skunk) or 2 (double skunk) for a losing side of a finished game, else 0."""
    if game.winner < 0 or side == game.winner:
        return 0
    return skunk_level(game.target, game.scores[side])


def win_level(game):
    """The skunk level the win counts as: the least among the losers (0 if not over)."""
    if game.winner < 0:
        return 0
    return min([skunk(game, s) for s in range(len(game.sides)) if s != game.winner])


def win_points(game, points=GAME_POINTS):
    """Game points a finished game is worth to its winner (0 if not over)."""
    return points[win_level(game)] if game.winner >= 0 else 0


def _check_points(points):
    if len(points) != 3:
        raise GameError("game points are (win, skunk, double skunk), got %r" % (points,))
    for p in points:
        if type(p) is not int or p < 0:
            raise GameError("game points must be whole numbers >= 0, got %r" % (points,))
    return tuple(points)


class Match:
    """A series of games with the same settings and a tally of game points per side."""

    def __init__(self, players=2, target=121, partnerships=True, points=GAME_POINTS):
        self.sides = sides_for(players, partnerships)
        try:
            check_target(target)
        except ValueError:
            raise GameError("target must be 1..1000, got %r" % (target,)) from None
        self.players = players
        self.target = target
        self.partnerships = partnerships
        self.points = _check_points(points)
        self.tally = [0] * len(self.sides)  # game points per side
        self.wins = [0] * len(self.sides)  # games won per side
        self.results = []  # a Result per recorded game
        self._games = []

    def new_game(self, dealer=None):
        """A new Game with the match's settings (dealer None: cut for the first deal)."""
        return Game(self.players, self.target, self.partnerships, dealer)

    def record(self, game):
        """Add a finished game to the tally; returns its Result."""
        if game.winner < 0:
            raise GameError("the game is not over: %r" % (game,))
        if game.players != self.players or game.target != self.target or (
                game.sides != self.sides):
            raise GameError("the game does not belong to this match: %r" % (game,))
        for g in self._games:
            if g is game:
                raise GameError("game already recorded: %r" % (game,))
        level = win_level(game)
        res = Result(game.winner, level, self.points[level])
        self._games.append(game)
        self.results.append(res)
        self.wins[res.winner] += 1
        self.tally[res.winner] += res.points
        return res
