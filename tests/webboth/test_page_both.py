"""What the page is given by both servers alike: the show by ranks (a hand laid in the play
goes straight to its confirmation, which asks its flush and nobs once; the crib by ranks,
a rank a tap), as `crib serve` plays it by default."""

import pytest
from both import Table, client


@pytest.fixture(scope="module")
def table(server):
    with client(server) as c:
        yield Table(c)


def test_a_hand_laid_in_the_play_goes_straight_to_its_confirmation(table):
    s = table.until(lambda q: q is not None and q["kind"] in ("show", "crib", "confirm"))
    q = s["question"]
    assert q["kind"] == "confirm", q  # no hand asked card by card
    show = [e for e in s["log"] if e["kind"] == "show"][-1]
    assert show["data"]["cards"] == [c.upper() for c in show["data"]["cards"]], show
    assert all(len(c) == 1 for c in show["data"]["cards"]), show  # ranks: no suits asked
    choices = q["legal"]["choices"]  # its flush and nobs: one of these buttons
    assert choices[0] == "y" and choices[-1] == "n" and len(choices) > 2, q
    s = table.until(lambda q: q is not None and q["kind"] in ("show", "crib"))
    q = s["question"]
    assert q["kind"] == "crib" and q["legal"]["prefer"] == "ranks", q
