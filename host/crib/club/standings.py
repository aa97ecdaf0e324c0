"""The standings of a night (or a season): 2 game points a win, 3 a skunk win (the loser
under 91), 0 a loss; a bye counts as a win (crib.club.pairings); ranked by game points,
then games won, then spread (the points won by, less the points lost by), tied players
sharing a rank."""

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

GAME = 121  # a club game is played to 121
SKUNK = 91  # a loser under this is skunked
WIN, SKUNK_WIN, BYE = 2, 3, 2  # game points


class Result(NamedTuple):
    """One game's result: the winner, the loser and the loser's score."""

    winner: str
    loser: str
    loser_score: int


def game_points(loser_score: int) -> int:
    """The winner's game points for a loser's score."""
    return SKUNK_WIN if loser_score < SKUNK else WIN


def standings(players: Sequence[str], results: Iterable[Result],
              byes: Iterable[str] = ()) -> list[dict[str, Any]]:
    """Every player's row, ranked: rank, player, points, wins, losses, skunks (skunk wins),
    skunked (games lost under 91), spread, games (played), byes."""
    zero = {"points": 0, "wins": 0, "losses": 0, "skunks": 0, "skunked": 0, "spread": 0,
            "games": 0, "byes": 0}
    rows: dict[str, dict[str, Any]] = {p: {"player": p, **zero} for p in players}
    for r in results:
        margin = GAME - r.loser_score
        w, lo = rows[r.winner], rows[r.loser]
        w["points"] += game_points(r.loser_score)
        w["wins"] += 1
        w["spread"] += margin
        lo["losses"] += 1
        lo["spread"] -= margin
        w["games"] += 1
        lo["games"] += 1
        if r.loser_score < SKUNK:
            w["skunks"] += 1
            lo["skunked"] += 1
    for p in byes:
        rows[p]["points"] += BYE
        rows[p]["wins"] += 1
        rows[p]["byes"] += 1
    ranked = sorted(rows.values(), key=lambda r: (-r["points"], -r["wins"], -r["spread"],
                                                  r["player"]))
    out: list[dict[str, Any]] = []
    for i, row in enumerate(ranked):
        tied = out and _key(out[-1]) == _key(row)
        out.append({"rank": out[-1]["rank"] if tied else i + 1, **row})
    return out


def _key(row: dict[str, Any]) -> tuple[int, int, int]:
    return row["points"], row["wins"], row["spread"]
