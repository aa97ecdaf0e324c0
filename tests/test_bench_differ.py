"""bench/differ.py (issue 38): where full and half weight discard differently, full less half
by source; the table's net play with the seat's own 6 cards out of the opponent's reach."""

import importlib.util
import random
import sys
from fractions import Fraction
from pathlib import Path

from crib.analysis.advise import rank_discards
from crib.practice.levels import table_discard
from cribcore.cards import parse_cards

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))  # differ imports bench/policy.py
_spec = importlib.util.spec_from_file_location("bench_differ", ROOT / "bench" / "differ.py")
differ = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(differ)


def test_own_out_is_the_table_when_only_the_four_are_out_and_differs_with_six():
    keep = parse_cards("5C 5H 6D 7S")
    assert differ.own_out_net(keep, keep, False) == differ.table_net(keep, False)
    six = keep + parse_cards("5D 5S")  # the other two 5s laid away: no 5 for the opponent
    assert differ.own_out_net(keep, six, False) != differ.table_net(keep, False)


def test_compare_splits_full_less_half_by_source():
    rng = random.Random(38)
    found = 0
    while found < 2:
        deck = rng.sample(range(52), 13)
        cards = (sorted(deck[:6]), sorted(deck[6:12]))
        p = rng.randrange(2)
        full = table_discard(cards[p], p == 1, differ.table(), Fraction(1))
        half = table_discard(cards[p], p == 1, differ.table(), Fraction(1, 2))
        d = differ.compare(cards, deck[12], p)
        if full == half:
            assert d is None
            continue
        found += 1
        ranked = {e.discard: e for e in rank_discards(cards[p], p == 1, pegging=True)}
        ef, eh = ranked[full], ranked[half]
        assert abs(d["expected"] - float(ef.net - eh.net)) < 1e-9  # the advisor's own nets
        assert abs(d["expected"] - d["hand"] - d["crib"] - d["play (table)"]) < 1e-9
        assert d["real"] == d["hand (real)"] + d["crib (real)"] + d["play (real)"]
        assert d["expected"] >= 0  # full weight's choice gains by its own measure
        # the play split by who lays by the table's policy: each the seat's net, full less half
        opp = table_discard(cards[1 - p], p == 0, differ.table(), Fraction(1))
        lay, search = differ.LAY, differ.search
        for key, mine, theirs in (("play (real)", search, search), ("play (policy)", lay, lay),
                                  ("play (seat by policy)", lay, search),
                                  ("play (other by policy)", search, lay)):
            nets = []
            for dis in (full, half):
                discards = [opp, opp]
                discards[p] = dis
                kept = [[c for c in cards[q] if c not in discards[q]] for q in (0, 1)]
                by = [theirs, theirs]
                by[p] = mine
                pts = differ.play_points(kept, deck[12], by, known=cards)
                nets.append(pts[p] - pts[1 - p])
            assert d[key] == nets[0] - nets[1]
