"""What the history tells: the games (with scores and winners), one game's entries, and the
figures of `crib stats`. The SQL over the history's tables lives here; the commands format.

RANDOM_HAND, RANDOM_CRIB and PLAYED are the usual averages (`crib stats --help` says where
they come from).
"""

import json
from fractions import Fraction
from typing import Sequence

from crib.errors import CribError
from crib.history.db import History, Row
from cribcore.rules import SKUNKS

RANDOM_HAND = Fraction(60759, 12740)
RANDOM_CRIB = Fraction(1025467, 216580)
PLAYED = {"hand": 8.0, "crib": 4.7, "pegging_dealer": 3.5, "pegging_pone": 2.0}
BEST = 5  # best hands listed


class NoSuchGameError(CribError):
    """A game id that is not in the history."""


def side_names(names: Sequence[str], partnerships: bool | int) -> list[str]:
    """The name of each side (lane): a player, or 'A & C' for a partnership."""
    if partnerships and len(names) == 4:
        return [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    return list(names)


def games(h: History, limit: int) -> list[Row]:
    """The latest games as dicts: id, match, names, sides, target, status, scores, winner."""
    rows = h.query("SELECT g.*, m.names, m.partnerships, m.target FROM games g JOIN matches m"
                   " ON m.id = g.match_id ORDER BY g.id DESC LIMIT ?", (limit,))
    out = []
    for r in rows:
        names = json.loads(r["names"])
        sides = side_names(names, r["partnerships"])
        if r["finished"]:
            status, scores = "finished", json.loads(r["scores"])
        else:
            status = "abandoned" if r["abandoned"] else "in progress"
            scores = _scores(h, r["id"], len(sides))
        out.append({
            "id": r["id"], "match": r["match_id"], "number": r["number"],
            "started": r["started"], "finished": r["finished"], "names": names,
            "sides": sides, "target": r["target"], "status": status, "scores": scores,
            "winner": None if r["winner"] is None else sides[r["winner"]],
            "skunk": SKUNKS[r["level"]] if r["level"] else None,
            "game_points": r["game_points"], "board": r["board"]})
    return out


def _scores(h: History, game_id: int, sides: int) -> list[int]:
    scores = [0] * sides
    for r in h.query("SELECT side, SUM(points) AS n FROM entries WHERE game_id = ? AND"
                     " undone IS NULL AND side IS NOT NULL GROUP BY side", (game_id,)):
        scores[r["side"]] = r["n"]
    return scores


def game_entries(h: History, game_id: int, undone: bool = False) -> list[Row]:
    """One game's entries as dicts, in order."""
    if not h.query("SELECT id FROM games WHERE id = ?", (game_id,)):
        raise NoSuchGameError(f"no game {game_id!r} in {str(h.path)!r}")
    where = "" if undone else " AND undone IS NULL"
    rows = h.query("SELECT * FROM entries WHERE game_id = ?" + where + " ORDER BY seq",
                   (game_id,))
    out = []
    for r in rows:
        r["args"] = json.loads(r["args"])
        r["info"] = json.loads(r["info"])
        out.append(r)
    return out


def _avg(values: Sequence[int]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


class _Player:
    def __init__(self, name: str) -> None:
        self.name = name
        self.games = self.wins = self.skunks_won = self.skunked = 0
        self.hands: list[int] = []  # points of each hand shown, each crib, each hand's pegging
        self.cribs: list[int] = []
        self.peg_dealer: list[int] = []
        self.peg_pone: list[int] = []

    def as_dict(self) -> Row:
        return {"name": self.name, "games": self.games, "wins": self.wins,
                "skunks_won": self.skunks_won, "skunked": self.skunked,
                "hands": len(self.hands), "hand_avg": _avg(self.hands),
                "cribs": len(self.cribs), "crib_avg": _avg(self.cribs),
                "pegging_avg": _avg(self.peg_dealer + self.peg_pone),
                "pegging_dealer_avg": _avg(self.peg_dealer),
                "pegging_pone_avg": _avg(self.peg_pone)}


def stats(h: History) -> Row:
    """Every figure as one dict (what --json prints)."""
    players: dict[str, _Player] = {}

    def player(name: str) -> _Player:
        return players.setdefault(name.lower(), _Player(name))
    rows = h.query("SELECT g.*, m.names, m.partnerships FROM games g JOIN matches m"
                   " ON m.id = g.match_id WHERE g.abandoned = 0")
    names_of = {}
    finished = skunks = 0
    for g in rows:
        names = json.loads(g["names"])
        names_of[g["id"]] = names
        if not g["finished"]:
            continue
        finished += 1
        skunks += 1 if g["level"] else 0
        sides = 2 if g["partnerships"] and len(names) == 4 else len(names)
        for p, name in enumerate(names):
            pl = player(name)
            pl.games += 1
            won = p % sides == g["winner"]
            pl.wins += won
            pl.skunks_won += won and g["level"] > 0
            pl.skunked += (not won) and g["level"] > 0
    for r in h.query("SELECT * FROM hands"):
        names = names_of.get(r["game_id"])
        s = json.loads(r["summary"])
        if names is None or all(v is None for v in s["hand"]):
            continue  # abandoned, or the play not yet over
        for p, name in enumerate(names):
            (player(name).peg_dealer if p == r["dealer"] else
             player(name).peg_pone).append(s["play"][p])
    best = []
    for e in h.query("SELECT e.*, g.id AS gid FROM entries e JOIN games g ON g.id = e.game_id"
                     " WHERE e.kind = 'show' AND e.undone IS NULL AND g.abandoned = 0"):
        names = names_of[e["gid"]]
        info = json.loads(e["info"])
        value = info["actual"] if info.get("actual") is not None else e["points"]
        pl = player(names[e["player"]])
        (pl.cribs if info.get("entry") == "crib" else pl.hands).append(value)
        if info.get("cards"):
            best.append({"name": pl.name, "cards": info["cards"], "points": value,
                         "crib": info.get("entry") == "crib", "game": e["gid"],
                         "starter": _starter(h, e["game_id"], e["hand"])})
    best.sort(key=lambda b: (-b["points"], b["game"]))
    matches = h.query("SELECT COUNT(DISTINCT match_id) AS n FROM games WHERE abandoned = 0")
    return {
        "matches": matches[0]["n"], "games": len(rows), "finished": finished,
        "skunks": skunks,
        "players": [p.as_dict() for p in sorted(players.values(), key=lambda p: p.name)],
        "best": best[:BEST],
        "usual": {"hand_random": round(float(RANDOM_HAND), 4),
                  "crib_random": round(float(RANDOM_CRIB), 4), "played": PLAYED},
    }


def _starter(h: History, game_id: int, hand: int) -> int | None:
    rows = h.query("SELECT starter FROM hands WHERE game_id = ? AND number = ?",
                   (game_id, hand))
    return rows[0]["starter"] if rows else None
