"""A club night over the history (crib.history.club): start it, publish each round's
pairings, take the results (a phone's awaits its opponent's confirmation; a table's, the
command line's and the director's stand at once), corrections that keep what they replace,
special hands, the standings, the money, the CSV, a season over nights.

Every refusal is a ClubError whose sentence says what is wrong; nothing is written then.
"""

import csv
import io
import os
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from crib.club import money
from crib.club.pairings import PairingError, check, pair_round
from crib.club.standings import Result, standings
from crib.errors import CribError
from crib.history.club import ClubStore

MAX_SCORE = 120  # a loser's score: 0..120 (121 would have won)
SOURCES = ("phone", "table", "cli", "director")


class ClubError(CribError):
    """A club request refused: the sentence says why; nothing was changed."""


def players_list(text: str) -> list[str]:
    """--players A,B,C: the names, trimmed; ClubError for an empty or repeated name."""
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise ClubError("a player's name is empty in %r (names are separated by commas)"
                        % text)
    seen = {n.casefold() for n in names}
    if len(seen) != len(names):
        raise ClubError("a player is named twice in %r" % text)
    return names


def seating(players: Sequence[str], seed: int) -> list[str]:
    """The night's seating (the order the pairings turn): the players drawn by seed."""
    import random

    order = list(players)
    random.Random(seed).shuffle(order)
    return order


class Night:
    """One night of a club (Club.night(name) gives it)."""

    def __init__(self, store: ClubStore, row: dict[str, Any]) -> None:
        self.store = store
        self.id: int = row["id"]
        self.name: str = row["name"]
        self.season: str = row["season"]
        self.players: list[str] = row["players"]
        self.games: int = row["games"]
        self.fees: dict[str, int] = row["fees"]
        self.started: str = row["started"]

    # -- pairings -----------------------------------------------------------------------------

    def paired(self) -> int:
        """The last round whose pairings are out."""
        return self.store.paired(self.id)

    def pairings(self, number: int) -> dict[str, Any]:
        """{"round", "tables": [[a, b], ...], "bye"} of a round already paired."""
        self._round(number)
        tables, bye = pair_round(self.players, number)
        return {"round": number, "tables": [list(t) for t in tables], "bye": bye}

    def next_round(self) -> dict[str, Any]:
        """Publish the next round's pairings once every table of this one has a result."""
        done = self.paired()
        if done >= self.games:
            raise ClubError("the night has %d rounds and all are paired" % self.games)
        waiting = self.waiting(done)
        if waiting:
            raise ClubError("round %d still waits for the result of table %s"
                            % (done, ", ".join(str(t) for t in waiting)))
        self.store.pair(self.id, done + 1)
        return self.pairings(done + 1)

    def open_or_pair(self, number: int) -> dict[str, Any]:
        """A round's pairings: published now if it is the next and the last is complete."""
        if number == self.paired() + 1 and 1 <= number <= self.games:
            return self.next_round()
        return self.pairings(number)

    def _round(self, number: int) -> None:
        if not 1 <= number <= self.games:
            raise ClubError("no round %d: the night %r has rounds 1 to %d"
                            % (number, self.name, self.games))
        if number > self.paired():
            raise ClubError("round %d has no pairings yet (round %d is being played)"
                            % (number, self.paired()))

    def table(self, number: int, table: int) -> tuple[str, str]:
        """The two players at a table of a paired round."""
        self._round(number)
        tables = pair_round(self.players, number)[0]
        if not 1 <= table <= len(tables):
            raise ClubError("no table %d in round %d: its tables are 1 to %d"
                            % (table, number, len(tables)))
        return tables[table - 1]

    def waiting(self, number: int) -> list[int]:
        """The tables of a round without a final result."""
        final = {r["table_no"] for r in self.store.results(self.id)
                 if r["round"] == number and r["status"] == "final"}
        count = len(pair_round(self.players, number)[0])
        return [t for t in range(1, count + 1) if t not in final]

    def seat_of(self, player: str, number: int) -> tuple[int, str] | None:
        """(table, opponent) of a player in a round, None on a bye."""
        for i, (a, b) in enumerate(pair_round(self.players, number)[0]):
            if player in (a, b):
                return i + 1, b if player == a else a
        return None

    # -- results ------------------------------------------------------------------------------

    def player(self, name: str) -> str:
        """The player of that name (case aside); ClubError if none plays tonight."""
        for p in self.players:
            if p.casefold() == str(name).strip().casefold():
                return p
        raise ClubError("no player %r tonight: the players are %s"
                        % (name, ", ".join(sorted(self.players))))

    def _check_result(self, number: int, table: int, winner: str,
                      loser_score: Any) -> tuple[str, str, int]:
        a, b = self.table(number, table)
        w = self.player(winner)
        if w not in (a, b):
            raise ClubError("%s does not play at table %d in round %d (%s v %s)"
                            % (w, table, number, a, b))
        if isinstance(loser_score, bool) or not isinstance(loser_score, int) \
                or not 0 <= loser_score <= MAX_SCORE:
            raise ClubError("a loser's score is 0 to %d, not %r" % (MAX_SCORE, loser_score))
        return w, b if w == a else a, loser_score

    def live(self, number: int, table: int) -> dict[str, Any] | None:
        """The live result of a table (proposed, final or disputed), or None."""
        for r in self.store.results(self.id):
            if r["round"] == number and r["table_no"] == table:
                return r
        return None

    def result(self, number: int, table: int, winner: str, loser_score: Any,
               source: str = "cli", entered_by: str | None = None) -> dict[str, Any]:
        """Enter a table's result: a phone's is proposed (its opponent confirms), any
        other source's is final. A second result for a table is refused."""
        w, lo, score = self._check_result(number, table, winner, loser_score)
        if entered_by is not None and self.player(entered_by) not in (w, lo):
            raise ClubError("%s does not play at table %d in round %d"
                            % (entered_by, table, number))
        old = self.live(number, table)
        if old is not None:
            raise ClubError("table %d of round %d already has a result (%s): the director"
                            " corrects it" % (table, number, describe(old)))
        status = "proposed" if source == "phone" else "final"
        rid = self.store.add_result(self.id, number, table, w, lo, score, status, source,
                                    entered_by)
        return self._row(rid)

    def confirm(self, number: int, table: int, player: str, agree: bool = True) -> dict:
        """The opponent of whoever entered a proposed result confirms it (final) or
        disputes it (the director decides)."""
        p = self.player(player)
        old = self.live(number, table)
        if old is None or old["status"] != "proposed":
            raise ClubError("table %d of round %d has no result waiting to be confirmed"
                            % (table, number))
        if p not in (old["winner"], old["loser"]):
            raise ClubError("%s does not play at table %d in round %d" % (p, table, number))
        if p == old["entered_by"]:
            raise ClubError("%s entered this result: %s confirms it"
                            % (p, old["loser"] if p == old["winner"] else old["winner"]))
        self.store.settle(old["id"], "final" if agree else "disputed",
                          None if agree else "disputed by %s" % p)
        return self._row(old["id"])

    def correct(self, number: int, table: int, winner: str, loser_score: Any,
                note: str | None = None) -> dict[str, Any]:
        """The director's result for a table: it stands, and the one it replaces is kept."""
        w, lo, score = self._check_result(number, table, winner, loser_score)
        old = self.live(number, table)
        rid = self.store.add_result(self.id, number, table, w, lo, score, "final",
                                    "director", replaces=old["id"] if old else None,
                                    note=note)
        return self._row(rid)

    def report(self, winner: str, loser: str, loser_score: Any,
               hands: Sequence[Any] = ()) -> dict[str, Any]:
        """A table's own report of its game (crib serve, a board): its round and table are
        where those two players meet in a paired round without a result yet; hands: the
        special hands it scored, [player, points] each, kept with it (all or nothing)."""
        w, lo = self.player(winner), self.player(loser)
        held = []
        for hand in hands:
            if not (isinstance(hand, list) and len(hand) == 2):
                raise ClubError("a hand is [player, points], not %r" % (hand,))
            p = self.player(hand[0])
            if p not in (w, lo):
                raise ClubError("%s did not play in this game" % p)
            if hand[1] not in money.SPECIAL or isinstance(hand[1], bool):
                raise ClubError("a special hand is %s points, not %r"
                                % (", ".join(str(s) for s in money.SPECIAL), hand[1]))
            held.append((p, hand[1]))
        for number in range(self.paired(), 0, -1):
            seat = self.seat_of(w, number)
            if seat and seat[1] == lo:
                with self.store.history.batch():
                    out = self.result(number, seat[0], w, loser_score, source="table")
                    for p, points in held:
                        self.store.add_hand(self.id, number, p, points, "table")
                return out
        raise ClubError("%s and %s do not meet in any round paired tonight" % (w, lo))

    def _row(self, rid: int) -> dict[str, Any]:
        return next(r for r in self.store.results(self.id, every=True) if r["id"] == rid)

    def results(self, every: bool = False) -> list[dict[str, Any]]:
        return self.store.results(self.id, every)

    # -- special hands ------------------------------------------------------------------------

    def hand(self, number: int, player: str, points: Any, source: str = "cli") -> dict:
        """A special hand (24, 28 or 29) a player held in a paired round."""
        self._round(number)
        p = self.player(player)
        if points not in money.SPECIAL or isinstance(points, bool):
            raise ClubError("a special hand is %s points, not %r"
                            % (", ".join(str(s) for s in money.SPECIAL), points))
        self.store.add_hand(self.id, number, p, points, source)
        return {"round": number, "player": p, "points": points}

    # -- standings and money ------------------------------------------------------------------

    def tally(self) -> tuple[list[Result], list[str]]:
        """The final results and the byes of the rounds paired so far."""
        results = [Result(r["winner"], r["loser"], r["loser_score"])
                   for r in self.store.results(self.id) if r["status"] == "final"]
        byes = [b for n in range(1, self.paired() + 1)
                for b in [pair_round(self.players, n)[1]] if b is not None]
        return results, byes

    def standings(self) -> list[dict[str, Any]]:
        results, byes = self.tally()
        return standings(self.players, results, byes)

    def money(self) -> dict[str, Any]:
        """Prizes, skunk pot and special hands, in cents."""
        ranked = self.standings()
        return {"prizes": money.payouts(ranked, self.fees["entry"]),
                "skunk_pot": money.skunk_pot(ranked, self.fees["skunk"]),
                "hands": money.hands_pool(self.store.hands(self.id), len(self.players),
                                          self.fees["hands"]),
                "fund": {k: v * len(self.players) for k, v in self.fees.items()}}

    def csv(self) -> str:
        """The night as CSV: a row a result (corrections and what they replaced too)."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["night", "round", "table", "winner", "loser", "loser_score",
                    "game_points", "spread", "status", "source", "note"])
        for r in self.results(every=True):
            margin = 121 - r["loser_score"]
            w.writerow([self.name, r["round"], r["table_no"], r["winner"], r["loser"],
                        r["loser_score"], 3 if r["loser_score"] < 91 else 2, margin,
                        r["status"], r["source"], r["note"] or ""])
        return out.getvalue()

    def card(self, player: str) -> list[dict[str, Any]]:
        """A player's scorecard: a row a round paired (opponent, table, the result)."""
        p = self.player(player)
        live = {(r["round"], r["table_no"]): r for r in self.results()}
        rows = []
        for n in range(1, self.games + 1):
            seat = self.seat_of(p, n)
            row: dict[str, Any] = {"round": n, "table": None, "opponent": None,
                                   "result": "", "for": None, "against": None, "points": 0,
                                   "spread": 0}
            if seat is None:
                if n <= self.paired():
                    row.update(result="bye", points=2)
            else:
                row.update(table=seat[0], opponent=seat[1])
                r = live.get((n, seat[0]))
                if r is not None and r["status"] == "final":
                    won = r["winner"] == p
                    margin = 121 - r["loser_score"]
                    row.update(result="won" if won else "lost",
                               points=(3 if r["loser_score"] < 91 else 2) if won else 0,
                               spread=margin if won else -margin,
                               **{"for": 121 if won else r["loser_score"],
                                  "against": r["loser_score"] if won else 121})
            rows.append(row)
        return rows


def describe(r: dict[str, Any]) -> str:
    """A result in words: "Alice beat Bob 121-87 (proposed)"."""
    return "%s beat %s 121-%d%s" % (r["winner"], r["loser"], r["loser_score"],
                                    "" if r["status"] == "final" else " (%s)" % r["status"])


class Club:
    """The club's nights in a history (crib.history.db.History)."""

    def __init__(self, history: Any) -> None:
        self.store = ClubStore(history)

    def new(self, name: str, players: Sequence[str], games: int, season: str | None = None,
            fees: dict[str, int] | None = None, seed: int | None = None) -> Night:
        """Start a night; round 1 is paired at once."""
        name = name.strip()
        if not name:
            raise ClubError("a night needs a name")
        if self.store.night(name) is not None:
            raise ClubError("there is already a night named %r" % name)
        try:
            check(len(players), games)
        except PairingError as e:
            raise ClubError(str(e)) from None
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big")
        season = season or datetime.now(timezone.utc).strftime("%Y")
        fees = dict({"entry": 0, "skunk": 0, "hands": 0}, **(fees or {}))
        self.store.new_night(name, season, seating(players, seed), games, fees)
        return self.night(name)

    def night(self, name: str | None = None) -> Night:
        """The night of that name, or the latest; ClubError if there is none."""
        row = self.store.night(name)
        if row is None:
            raise ClubError("no club night yet: start one with crib club new NAME --players"
                            " A,B,... --games N" if name is None else
                            "no club night named %r" % name)
        return Night(self.store, row)

    def season(self, season: str | None = None) -> dict[str, Any]:
        """A season's standings over its nights (the latest night's season by default)."""
        if season is None:
            season = self.night().season
        nights = [Night(self.store, r) for r in self.store.nights(season)]
        if not nights:
            raise ClubError("no club night in season %r" % season)
        players: list[str] = []
        results: list[Result] = []
        byes: list[str] = []
        for n in nights:
            players += [p for p in n.players if p not in players]
            r, b = n.tally()
            results += r
            byes += b
        return {"season": season, "nights": [n.name for n in nights],
                "standings": standings(sorted(players), results, byes)}
