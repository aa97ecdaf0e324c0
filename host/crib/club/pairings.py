"""Who plays whom at which table, round by round: the circle method (a round robin), so
nobody meets anyone twice however many rounds are played, up to one less than the players
(an even count) or as many as the players (an odd count).

The bye (the club's rule, our default): with an odd number of players one sits out each
round; the round robin gives each player at most one bye. A bye counts as a game won: 2
game points, no spread (nobody is behind for sitting out, and nobody gains a margin from
it). docs/club.md says so.
"""

from collections.abc import Sequence

from crib.errors import CribError


class PairingError(CribError):
    """A night that cannot be paired (too few players, too many rounds)."""


def max_rounds(players: int) -> int:
    """The most rounds in which nobody meets anyone twice."""
    return players - 1 if players % 2 == 0 else players


def check(players: int, rounds: int) -> None:
    """PairingError with a sentence if players cannot play rounds without a repeat."""
    if players < 2:
        raise PairingError("a club night needs at least 2 players, not %d" % players)
    if rounds < 1:
        raise PairingError("a club night has at least 1 game, not %d" % rounds)
    if rounds > max_rounds(players):
        raise PairingError("%d players can play at most %d games without anyone meeting"
                           " twice, not %d" % (players, max_rounds(players), rounds))


def pair_round(seating: Sequence[str], number: int) -> tuple[list[tuple[str, str]], str | None]:
    """Round number's tables (pairs, table 1 first) and its bye (None with an even count):
    seating is the night's order (drawn once, when the night starts)."""
    check(len(seating), number)
    ring: list[str | None] = list(seating)
    if len(ring) % 2:
        ring.append(None)  # the seat of the bye
    first, rest = ring[0], ring[1:]
    shift = (number - 1) % len(rest)
    rest = rest[len(rest) - shift:] + rest[:len(rest) - shift]
    circle = [first] + rest
    tables: list[tuple[str, str]] = []
    bye = None
    for i in range(len(circle) // 2):
        a, b = circle[i], circle[len(circle) - 1 - i]
        if a is None or b is None:
            bye = b if a is None else a
        else:
            tables.append((a, b))
    return tables, bye
