"""bench/policy.py (issue 38): a --policies name is a play policy or NAME-search, the search
with its play-outs laid by that policy; the search both seats lay by is the pro level's."""

import importlib.util
import random
import sys
from pathlib import Path

from crib.analysis import pegging
from crib.analysis.playsearch import best_card, card_values
from cribcore.play import Play

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
_spec = importlib.util.spec_from_file_location("bench_policy", ROOT / "bench" / "policy.py")
policy = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(policy)


def _searched(play, p, dealt, starter, laid_by):
    unseen = [c >> 2 for c in range(52) if c not in dealt[p] and c != starter
              and not any(c in h for h in play.laid)]
    return best_card(card_values([c >> 2 for c in play.hands[p]], [c >> 2 for c in play.pile],
                                 play.count, unseen, play.cards_left(1 - p),
                                 play.gone[1 - p], policy=laid_by))


def test_a_name_search_lays_as_the_search_with_its_play_outs_laid_by_that_policy():
    rng = random.Random(38)
    differ = 0
    for _ in range(60):
        deck = rng.sample(range(52), 9)
        dealt = (sorted(deck[:4]), sorted(deck[4:8]))
        play = Play(2, dealer=1, hands=[list(h) for h in dealt], starter=deck[8])
        play.lay(play.playable()[0])  # the pone leads: the dealer answers
        look = policy.chooser("lookahead-search")(play, 1, dealt, deck[8])
        plain = policy.search(play, 1, dealt, deck[8])
        assert look == _searched(play, 1, dealt, deck[8], pegging.lookahead)
        assert plain == _searched(play, 1, dealt, deck[8], pegging.greedy)
        assert policy.chooser("greedy-search")(play, 1, dealt, deck[8]) == plain
        differ += look != plain
    assert differ  # the play-outs' policy changes some answers


def test_a_plain_name_is_the_policy_of_crib_analysis_pegging():
    play = Play(2, dealer=1, hands=[[20, 36, 44, 48], [0, 8, 16, 24]], starter=51)
    fits = sorted({c >> 2 for c in play.playable()})
    assert policy.chooser("greedy")(play, 0, None, 51) == pegging.greedy(fits, (), 0)
