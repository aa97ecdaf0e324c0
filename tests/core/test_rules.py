"""cribcore.rules: skunk lines and game points (plain asserts, CPython and MicroPython)."""

from cribcore.rules import check_target, game_points, skunk_level, skunk_lines


def test_skunk_lines_121_and_61():
    assert skunk_lines(121) == (91, 61)
    assert skunk_lines(61) == (31, 0)


def test_skunk_levels_121():
    rows = [(120, 0), (91, 0), (90, 1), (61, 1), (60, 2), (0, 2)]
    for loser, level in rows:
        assert skunk_level(121, loser) == level, (loser, level)


def test_skunk_levels_61_has_no_double():
    rows = [(60, 0), (31, 0), (30, 1), (0, 1)]
    for loser, level in rows:
        assert skunk_level(61, loser) == level, (loser, level)


def test_game_points_default_and_custom():
    assert [game_points(i) for i in range(3)] == [1, 2, 4]
    assert game_points(1, (1, 3, 5)) == 3


def test_check_target():
    assert check_target(61) == 61
    for bad in [0, 1001, "121", True, 12.0]:
        try:
            check_target(bad)
        except ValueError:
            continue
        assert False, bad
