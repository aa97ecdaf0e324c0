"""The night's money, in cents: the prizes from the entry fees paid one in four (a prize
for every four players, at least one), the skunk pot and the special-hands pool.

- Prizes: the fund is every entry fee; with k prizes, place i (1..k) is paid k + 1 - i
  shares of k + (k - 1) + ... + 1, in whole cents, the cents left over to first place.
  Players tied on the standings share the prizes of the places they hold, equally.
- Skunk pot: to the player with the most skunk wins (shared by a tie); none: it carries
  over to the next night.
- Special hands (24, 28 or 29 points in one hand): the pool is shared equally by the hands
  reported; none: it carries over.
"""

from collections.abc import Sequence
from typing import Any

from cribcore.table.club import SPECIAL  # noqa: F401 - the hands the pool pays (the core's)


def prizes(players: int) -> int:
    """How many prizes: one in four players, at least one."""
    return max(1, players // 4)


def split(total: int, shares: Sequence[int]) -> list[int]:
    """total cents in proportion to shares, whole cents, what is left over to the first."""
    weight = sum(shares)
    out = [total * s // weight for s in shares]
    out[0] += total - sum(out)
    return out


def payouts(ranked: Sequence[dict[str, Any]], entry: int) -> list[dict[str, Any]]:
    """The prize winners of ranked standings (crib.club.standings): place, player, cents."""
    k = min(prizes(len(ranked)), len(ranked))
    places = split(entry * len(ranked), list(range(k, 0, -1))) if k else []
    out: list[dict[str, Any]] = []
    i = 0
    while i < k:
        group = [r for r in ranked if r["rank"] == ranked[i]["rank"]]
        held = places[i:i + len(group)]  # the prize places the tied group holds
        for r, cents in zip(group, split(sum(held), [1] * len(group))):
            out.append({"place": r["rank"], "player": r["player"], "cents": cents})
        i += len(group)
    return out


def skunk_pot(ranked: Sequence[dict[str, Any]], fee: int) -> list[dict[str, Any]]:
    """Who takes the skunk pot (most skunk wins, shared), [] when nobody skunked."""
    most = max((r["skunks"] for r in ranked), default=0)
    if not most or not fee:
        return []
    best = sorted(r["player"] for r in ranked if r["skunks"] == most)
    cents = split(fee * len(ranked), [1] * len(best))
    return [{"player": p, "skunks": most, "cents": c} for p, c in zip(best, cents)]


def hands_pool(hands: Sequence[dict[str, Any]], players: int, fee: int) -> list[dict[str, Any]]:
    """The special hands reported (dicts with player, points, round), each with its share
    of the pool (0 with no pool); [] when none was."""
    if not hands:
        return []
    cents = split(fee * players, [1] * len(hands))
    return [dict(h, cents=c) for h, c in zip(hands, cents)]


def money(cents: int) -> str:
    """Cents as the amount people say: 12.50."""
    return "%d.%02d" % divmod(cents, 100)


def parse_money(text: str) -> int:
    """An amount typed (5, 2.50) as cents; ValueError with a sentence if it is none."""
    whole, _, frac = text.strip().partition(".")
    if not whole.isdigit() or not (frac == "" or frac.isdigit() and len(frac) <= 2):
        raise ValueError("not an amount of money: %r (say 5 or 2.50)" % text)
    return int(whole) * 100 + int((frac + "00")[:2])
