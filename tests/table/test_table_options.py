"""Options of `crib play`: muggins, manual counting, the discard review, confirmations."""

import json
import sqlite3

from cribcore.cards import parse_card, parse_cards
from cribcore.show import score_show

STARTER = "5H"
BOB = "4c 4d 6s 6h"      # with the 5H starter: 24
ALICE = "2c 3d 9s kc"
CRIB = "ac 7d 8c qd"


def pts(cards, crib=False):
    return score_show(parse_cards(cards), parse_card(STARTER), crib)


def one_hand(*shows, typed=("0", "0"), names="Alice,Bob"):
    """Answers of a hand with typed play points, then the show answers given."""
    return "\n".join([STARTER, "points", *typed, *shows]) + "\n"


def entries(db, kind=None):
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    sql = "SELECT * FROM entries WHERE undone IS NULL"
    rows = [dict(r) for r in con.execute(sql + (" AND kind = ?" if kind else ""),
                                         (kind,) if kind else ())]
    con.close()
    for r in rows:
        r["info"] = json.loads(r["info"])
    return rows


ARGS = ("--names", "Alice,Bob", "--target", "121", "--dealer", "Alice")


def test_muggins_claim_pegs_the_missed_points_to_the_opponent(crib):
    bob, alice, crib_pts = pts(BOB), pts(ALICE), pts(CRIB, True)
    assert bob == 24
    text = one_hand(BOB, "20", "y", ALICE, str(alice), CRIB, str(crib_pts))
    rc, out, err = crib.play(text, *ARGS, "--muggins")
    assert rc == 1 and "input ended" in err  # the script stops at hand 2
    assert "Muggins: Bob missed 4. Alice claims them (y/N): y" in out
    assert crib.board.state().fronts == (alice + crib_pts + 4, 20)
    claim = entries(crib.db, "muggins")
    assert [(c["side"], c["points"], c["reason"]) for c in claim] == [(0, 4, "muggins")]
    show = [e for e in entries(crib.db, "show") if e["player"] == 1][0]
    assert show["points"] == 20 and show["info"]["actual"] == 24 and show["info"]["missed"] == 4


def test_muggins_passed_pegs_only_the_stated_count(crib):
    alice, crib_pts = pts(ALICE), pts(CRIB, True)
    text = one_hand(BOB, "20", "", ALICE, str(alice), CRIB, str(crib_pts))
    rc, out, _ = crib.play(text, *ARGS, "--muggins")
    assert crib.board.state().fronts == (alice + crib_pts, 20)
    assert not entries(crib.db, "muggins")
    assert "Alice: " + str(alice) + ": right" in out


def test_muggins_with_three_players_asks_who_claims(crib):
    bob = pts(BOB)
    text = "\n".join([STARTER, "points", "0", "0", "0", BOB, str(bob - 2), "cat"]) + "\n"
    rc, out, _ = crib.play(text, "--names", "Alice,Bob,Cat", "--target", "121",
                           "--dealer", "Alice", "--muggins")
    assert "Who claims them (Enter: nobody)" in out
    assert crib.board.state().fronts == (0, bob - 2, 2)


def test_an_over_count_pegs_the_right_count(crib):
    bob = pts(BOB)
    text = one_hand(BOB, str(bob + 4))
    rc, out, _ = crib.play(text, *ARGS, "--muggins")
    assert crib.board.state().fronts == (0, bob)
    assert f"Bob: counted {bob + 4}, the count is {bob}" in out
    assert "Muggins" not in out


def test_manual_counting_checks_the_count_and_pegs_the_right_one(crib):
    bob = pts(BOB)
    text = one_hand(BOB, str(bob - 4))
    rc, out, _ = crib.play(text, *ARGS, "--manual")
    assert f"Bob: counted {bob - 4}, the count is {bob}" in out
    assert "Muggins" not in out
    assert crib.board.state().fronts == (0, bob)
    assert "fifteen " in out  # the itemised count after a wrong one


def test_manual_counting_a_right_count_is_not_itemised(crib):
    bob = pts(BOB)
    rc, out, _ = crib.play(one_hand(BOB, str(bob)), *ARGS, "--manual")
    assert f"Bob: {bob}: right" in out and "fifteen " not in out


def test_without_options_the_show_is_announced_and_confirmed(crib):
    bob = pts(BOB)
    rc, out, _ = crib.play(one_hand(BOB, "n", BOB, "y"), *ARGS)
    assert out.count(f"Peg {bob} (Y/n)") == 2  # n: the cards are asked again
    assert out.count("Bob's hand (cards or total)") == 2
    assert crib.board.state().fronts == (0, bob)


def test_no_confirm_pegs_at_once(crib):
    bob = pts(BOB)
    rc, out, _ = crib.play(one_hand(BOB), *ARGS, "--no-confirm")
    assert "Peg " not in out and crib.board.state().fronts == (0, bob)


def test_review_after_the_show_when_the_deal_was_given(crib):
    dealt_bob = BOB + " kd qs"
    dealt_alice = ALICE + " " + "ac 7d"
    text = "\n".join([dealt_bob, "kd qs", dealt_alice, "ac 7d", STARTER, "points", "0", "0",
                      "", "", "", ""]) + "\n"
    rc, out, _ = crib.play(text, *ARGS, "--review")
    # The kept cards are the show's defaults: Enter takes them.
    assert "Bob's hand (cards or total) [4♣ 4♦ 6♠ 6♥]" in out
    assert "Bob: optimal discard" in out or "Bob: not the optimal discard" in out
    assert "Alice: optimal discard" in out or "Alice: not the optimal discard" in out
    assert crib.board.state().fronts == (pts(ALICE), pts(BOB))
    dealt = entries(crib.db, "dealt")
    assert [d["info"]["discard"] for d in dealt] == [["KD", "QS"], ["AC", "7D"]]


def test_review_skipped_with_enter(crib):
    text = "\n".join(["", "", STARTER, "points", "0", "0", BOB, ""]) + "\n"
    rc, out, _ = crib.play(text, *ARGS, "--review")
    assert "optimal discard" not in out
    assert crib.board.state().fronts == (0, pts(BOB))


def test_known_hands_say_go_and_offer_the_last_card(crib):
    text = "\n".join(["5h 6h 7c 8d jc qs", "jc qs", "2c 3s 4d kh kd 9h", "9h kd", "5c",
                      "7", "3", "6", "4", "8", "2", "kh", "", ""]) + "\n"
    rc, out, _ = crib.play(text, *ARGS, "--review")
    assert "Bob: go (no card fits)" in out and "Alice: go (no card fits)" in out
    assert "! Bob holds 5♥" in out  # kh is not Bob's
    assert "Bob plays (count 0) [5♥]:" in out
    assert "Alice: fifteen for 2, go for 3  +3" in out
    # 2c... last card 1, then K 15 + last card: Alice 4; Bob nothing in the play.
    assert crib.board.state().fronts == (4, 0)
    gos = entries(crib.db, "go")
    assert [g["info"].get("auto") for g in gos] == [True, True]


def test_play_prompt_refusals(crib):
    text = "\n".join(["5h", "go", "10", "10", "10", "5", "go", "k", "a", "5", "5", "5", "5",
                      "5c"]) + "\n"
    rc, out, _ = crib.play(text, *ARGS)
    assert "! Bob can still play: a card fits at count 0" in out
    assert "! 5 would pass 31 (count 30)" in out
    assert "! K would pass 31 (count 30)" in out
    assert "! all four 5s are already accounted for" in out  # the 5H starter and three 5s
    assert "! 5♣ is already accounted for this hand" in out
