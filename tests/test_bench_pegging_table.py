"""bench/pegging_table.py's keep counts (issue 38): --sample-keeps counts the ranks the pro
level keeps per seat and fold, and --keeps weighs the play-outs by them as
crib.analysis.pegging.hand_totals does."""

import importlib.util
import random
from pathlib import Path

from crib.analysis.advise import best_discard
from crib.analysis.pegging import (
    TABLE_POLICY,
    hand_totals,
    keep_weights,
    multisets4,
    play_out,
    read_keeps,
    ways,
)

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_pegging_table",
                                               ROOT / "bench" / "pegging_table.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def test_sample_keeps_counts_the_pro_levels_keeps_by_seat_and_fold(tmp_path, monkeypatch):
    out = tmp_path / "keeps.txt"
    monkeypatch.setattr("sys.argv", ["pegging_table.py", "--sample-keeps", "23", "--seed", "5",
                                     "--out", str(out)])
    bench.main()
    folds = bench.read_keep_folds(out)
    assert set(folds) == set(multisets4())
    rng = random.Random(5)
    deck = list(range(52))
    want = [{}, {}]
    for i in range(23):
        rng.shuffle(deck)
        for seat in (0, 1):
            keep = best_discard(deck[6 * seat:6 * seat + 6], seat == 1, pegging=True).keep
            key = (tuple(sorted(c >> 2 for c in keep)), i % bench.FOLDS)
            want[seat][key] = want[seat].get(key, 0) + 1
    for seat in (0, 1):
        got = {(k, f): c[seat][f] for k, c in folds.items() for f in range(bench.FOLDS)
               if c[seat][f]}
        assert got == want[seat]
    summed = read_keeps(out)  # the package reads the folds summed
    assert sum(c[0] for c in summed.values()) == sum(c[1] for c in summed.values()) == 23


def test_weighted_rows_are_hand_totals_with_the_keep_weights():
    # one kept pattern's play-outs against every opponent pattern, laid out as --plays keeps
    # them, weighted by made-up counts in two folds: each fold is hand_totals' weighted row
    hands = multisets4()
    n = len(hands)
    mine = hands.index((0, 4, 4, 9))
    data = bytearray(n * n * 4)
    taken = [0] * 13
    for r in hands[mine]:
        taken[r] += 1
    for j, opp in enumerate(hands):
        if ways(opp, taken):
            a, b = play_out((hands[mine], opp), 0, policy=TABLE_POLICY)
            c, d = play_out((opp, hands[mine]), 0, policy=TABLE_POLICY)
            data[(mine * n + j) * 4:(mine * n + j) * 4 + 4] = bytes((a, b, d, c))
    rng = random.Random(3)
    counts = [{k: [rng.randrange(4), rng.randrange(4)] for k in hands} for _ in (0, 1)]
    rows = bench.weighted_rows(data, lambda seat: counts[seat])
    for f in (0, 1):
        weights = tuple(keep_weights({k: v[f] for k, v in counts[s].items()}) for s in (0, 1))
        want = hand_totals(hands[mine], weights=weights)
        pone, dealer = rows[hands[mine]]
        assert pone[f] + dealer[f] == want
