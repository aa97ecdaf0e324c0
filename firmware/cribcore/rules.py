"""Game-level rules shared by the board and the companion: targets, skunks, game points."""

TARGETS = (61, 121)
MIN_TARGET = 1
MAX_TARGET = 1000
# Game points for a win, a skunk and a double skunk (RULES.md; configurable in a match).
GAME_POINTS = (1, 2, 4)
SKUNKS = ("", "skunk", "double skunk")  # a win's name by skunk level (skunk_level)


def check_target(target):
    """Return target if it is a whole number 1..1000, else raise ValueError."""
    if type(target) is not int or not MIN_TARGET <= target <= MAX_TARGET:
        raise ValueError("target must be 1..1000, got %r" % (target,))
    return target


def skunk_lines(target):
    """(skunk line, double skunk line) as the lowest winning-safe scores; 0 where none.

    121: a loser below 91 is skunked, below 61 double skunked. 61: below 31, no double.
    A custom target keeps the 30-hole spacing; a double skunk needs a 121-or-longer game.
    """
    skunk = target - 30 if target > 30 else 0
    double = target - 60 if target >= 121 else 0
    return skunk, double


def skunk_level(target, loser_score):
    """0 for no skunk, 1 for a skunk, 2 for a double skunk."""
    skunk, double = skunk_lines(target)
    if loser_score < double:
        return 2
    if loser_score < skunk:
        return 1
    return 0


def game_points(level, points=GAME_POINTS):
    """Game points a win is worth in a match, by the loser's skunk level."""
    return points[level]
