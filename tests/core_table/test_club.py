"""cribcore.table.club: the club night's address and the report of a game, built once for
`crib serve --club` and a board with Wi-Fi (plain asserts: these run on CPython and under
MicroPython with a capped heap, tests/test_micropython.py)."""

from cribcore.table.club import ClubAddressError, club_address, report_body, reported


class _Obj:
    def __init__(self, **kw):
        for k in kw:  # (MicroPython's instance __dict__ cannot be updated)
            setattr(self, k, kw[k])


def _table(names=("Ann", "Ben"), target=121, winner=1, scores=(88, 121), entries=()):
    return _Obj(side_names=list(names), target=target, entries=list(entries),
                game=_Obj(over=True, winner=winner, scores=list(scores)))


def test_the_tables_address_gives_host_port_and_key():
    assert club_address("http://192.168.1.20:8141/api/report?k=KEY") == \
        ("192.168.1.20", 8141, "KEY")
    assert club_address("http://club.local/api/report?x=1&k=a-b_c") == ("club.local", 80, "a-b_c")
    assert club_address("http://10.0.0.2:9?k=z") == ("10.0.0.2", 9, "z")


def test_anything_else_is_refused_with_a_sentence():
    for bad in ("", "club", "https://h/api/report?k=1", "ftp://h/?k=1", "http://h/api/report",
                "http://h/?k=", "http://:80/?k=1", "http://h:x/?k=1", "http://h:0/?k=1",
                "http://h:65536/?k=1", "http://u@h/?k=1", "http://[::1]:80/?k=1",
                "http://h /?k=1", None, 7):
        try:
            club_address(bad)
        except ClubAddressError as e:
            assert "crib club serve" in str(e), e
            continue
        raise AssertionError("taken: %r" % (bad,))


def test_the_report_names_winner_loser_score_and_the_special_hands_shown():
    shows = [_Obj(kind="show", player=1, points=24), _Obj(kind="show", player=0, points=12),
             _Obj(kind="lay", player=0, points=29), _Obj(kind="show", player=0, points=29),
             _Obj(kind="show", player=1, points=28)]
    body = report_body(_table(entries=shows))
    assert body == {"winner": "Ben", "loser": "Ann", "loser_score": 88,
                    "hands": [["Ben", 24], ["Ann", 29], ["Ben", 28]]}
    assert reported(body) == "Ben beat Ann 121-88"
    body = report_body(_table(winner=0, scores=(121, 120)))
    assert body == {"winner": "Ann", "loser": "Ben", "loser_score": 120, "hands": []}


def test_only_a_game_of_two_to_121_is_reported():
    assert report_body(_table(target=61, scores=(40, 61))) is None
    assert report_body(_table(names=("Ann", "Ben", "Cy"), scores=(88, 121, 70))) is None
