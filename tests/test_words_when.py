"""A time stamp of the history in plain words, in local time: today, yesterday, a date."""

import re
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crib.words import when

ZONE = timezone(timedelta(hours=-5))  # the player's zone: the stamps are written in UTC
NOW = datetime(2026, 11, 5, 9, 30, tzinfo=ZONE)


@pytest.mark.parametrize("stamp, said", [
    ("2026-11-05T09:37:00+00:00", "today 04:37"),
    ("2026-11-05T02:10:00+00:00", "yesterday 21:10"),  # 21:10 on the 4th, here
    ("2026-11-03T23:02:00+00:00", "Tue 3 Nov 18:02"),
    ("2025-11-03T23:02:00+00:00", "Mon 3 Nov 2025 18:02"),
])
def test_a_stamp_in_plain_words(stamp, said):
    assert when(stamp, NOW) == said


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1)))
def test_never_an_iso_stamp_and_always_the_local_clock(t):
    stamp = t.replace(tzinfo=timezone.utc).isoformat(timespec="seconds")
    said = when(stamp, NOW)
    local = t.replace(tzinfo=timezone.utc).astimezone(ZONE)
    assert re.search(r"\dT\d", said) is None and said.endswith(f"{local:%H:%M}")
    assert said.startswith(("today", "yesterday")) == (NOW.date() - local.date()
                                                       in (timedelta(0), timedelta(1)))
