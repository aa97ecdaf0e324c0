"""One best discard everywhere (issue 38): `crib discard`, the reviews, the pro level and the
practice prompt's `hint` all rank by crib.analysis.advise.rank_discards with the play
counted; `--no-pegging` keeps the hand-and-crib ranking."""

import io
import json
import random
import sys
import tempfile

from crib.analysis.advise import best_discard, hint_line, rank_discards, review
from crib.analysis.pegging import read_keeps, row_values, table
from crib.cli import main
from crib.practice.game import Seen
from crib.practice.levels import PEGGING_WEIGHT, Pro
from cribcore.cards import card_name, parse_cards


def seen(hand, dealer):
    """What the pro level sees at the discard."""
    return Seen(me=0, dealer=dealer, hand=tuple(hand), kept=(), discard=(), starter=None,
                count=0, pile=(), played=(), playable=(), opp_left=6, opp_gone=False,
                scores=(0, 0), target=121)


def starred(capsys, cards, side, *more):
    """The discard `crib discard --json` marks best (the first of the best)."""
    assert main(["discard", *map(card_name, cards), side, "--json", *more]) == 0
    doc = json.loads(capsys.readouterr().out)
    return tuple(parse_cards(" ".join(next(r for r in doc["discards"] if r["best"])["discard"])))


def test_the_pro_level_the_review_the_hint_and_crib_discard_agree(capsys):
    assert PEGGING_WEIGHT == 1  # the pro level counts the whole table, as the others do
    rng = random.Random(38)
    for _ in range(12):
        deal = sorted(rng.sample(range(52), 6))
        dealer = rng.random() < 0.5
        best = best_discard(deal, dealer, pegging=True)
        assert best == rank_discards(deal, dealer, pegging=True)[0]
        assert tuple(Pro().discard(seen(deal, dealer))) == best.discard
        assert starred(capsys, deal, "--dealer" if dealer else "--pone") == best.discard
        assert review(deal, best.discard, dealer) == (best, best)
        line = hint_line(deal, dealer, symbols=False)
        assert line.startswith("hint: lay away " + " ".join(map(card_name, best.discard)))
        assert f"averaging {float(best.net):.2f}" in line


def test_no_pegging_keeps_the_hand_and_crib_ranking(capsys):
    rng = random.Random(7)
    for _ in range(6):
        deal = sorted(rng.sample(range(52), 6))
        want = best_discard(deal, False, pegging=False)
        assert want.peg is None
        assert starred(capsys, deal, "--pone", "--no-pegging") == want.discard


class Lines(io.StringIO):
    """Answers for the prompts (not a terminal)."""

    def isatty(self):
        return False


def test_hint_at_the_practice_discard_prompt(monkeypatch, capsys):
    """`hint` at the discard prompt names the best discard (it was refused as not 2 cards)
    and changes nothing: the prompt asks again."""
    from crib.board.memory import MemoryBoard

    board = MemoryBoard(4)
    monkeypatch.setattr("crib.commands.practice.open_table_board", lambda *a, **k: board)
    monkeypatch.setattr(sys, "stdin", Lines("hint\nquit\n"))
    with tempfile.TemporaryDirectory() as d:
        rc = main(["practice", "--db", f"{d}/h.sqlite3", "--no-colour", "--seed", "3",
                   "--level", "pro"])
    out = capsys.readouterr().out
    assert rc == 0, out  # quit: the game is left, the exit clean
    mine = out.split("your cards: ", 1)[1].splitlines()[0]
    hand = parse_cards(mine)
    dealer = "(your crib)" in out.split("your cards: ", 1)[0]
    assert hint_line(hand, dealer) in out
    assert out.count("Lay away 2 for") == 2  # asked again after the hint
    assert board.state().fronts == (0, 0)  # nothing pegged


def test_the_issues_hand_throws_the_dealer_no_six_seven(capsys):
    """5H 5C 6D 7S JD KC as pone: with the lookahead table J K go to the dealer's crib (the
    greedy table starred 6D 7S, net 6.43 against 5.96); as dealer 6 7 go to your own. The
    dealer keeping 5 5 6 7 pegs under 2 points over the table's dealer average over the
    hands a pro dealer keeps (5.00 against 3.31, the pone's hands weighted as a pro pone
    keeps them), not the greedy table's 2.9 points over its own (6.64 against 3.76)."""
    deal = parse_cards("5H 5C 6D 7S JD KC")
    assert starred(capsys, deal, "--pone") == tuple(parse_cards("JD KC"))
    assert starred(capsys, deal, "--dealer") == tuple(parse_cards("6D 7S"))
    keep = rank_discards(deal, True, pegging=True)[1]  # the dealer keeping 5 5 6 7
    kept = read_keeps()
    dealer = sum(kept[k][1] * row_values(row, True)[0] for k, row in table().items()) \
        / sum(c[1] for c in kept.values())
    assert 3.2 < dealer < 3.5
    assert keep.discard == tuple(parse_cards("JD KC")) and keep.peg - dealer < 2  # was 2.9
